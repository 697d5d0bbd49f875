// Command anchors measures the matrix product of moments against OpenBLAS
// (Debian's, through numpy) and gonum in one run and prints the ratios.
//
// The measurements interleave: each round times every contender once per
// size, and the table reports the median over the rounds, so that drift
// in the machine's speed (shared machines are noisy) hits all of them
// alike. OpenBLAS runs in two long-lived Python processes (one with
// OPENBLAS_NUM_THREADS=1, one with all cores) that answer timing
// requests; see ../../py/blas_server.py.
//
// Usage (from the bench directory; anchors.sh does this):
//
//	go run ./cmd/anchors [-sizes 64,256,512,1024] [-rounds 5] [-budget 250ms]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
	gmat "gonum.org/v1/gonum/mat"
)

func main() {
	sizes := flag.String("sizes", "64,256,512,1024", "matrix sizes n (C = A B, all n x n)")
	rounds := flag.Int("rounds", 5, "interleaved rounds; the table shows medians")
	budget := flag.Duration("budget", 250*time.Millisecond, "time spent on one measurement")
	python := flag.String("python", "/usr/bin/python3", "Python with Debian's numpy")
	server := flag.String("server", "py/blas_server.py", "path of the timing server")
	settle := flag.Duration("settle", 300*time.Millisecond, "pause after the multi-threaded OpenBLAS call")
	flag.Parse()
	log.SetFlags(0)

	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			log.Fatalf("anchors: bad size %q", f)
		}
		ns = append(ns, n)
	}
	cores := runtime.NumCPU()
	blas1, err := startServer(*python, *server, 1)
	if err != nil {
		log.Fatal(err)
	}
	blasN, err := startServer(*python, *server, cores)
	if err != nil {
		log.Fatal(err)
	}

	fmt.Printf("machine: %s, %d cores\n", kernels.Info(), cores)
	fmt.Printf("OpenBLAS: %s\n", blas1.ask("info"))
	fmt.Printf("gonum: %s\n", moduleVersion("gonum.org/v1/gonum"))
	fmt.Printf("C = A*B, n x n float64; GFLOP/s, median of %d interleaved rounds of %v each\n\n", *rounds, *budget)

	type result struct{ ours1, oursN, blas1, blasN, gonum1, gonumN []float64 }
	results := make([]result, len(ns))
	for round := 0; round < *rounds; round++ {
		for i, n := range ns {
			r := rand.New(rand.NewPCG(1, uint64(n)))
			a := mat.New(n, n, randVec(r, n*n))
			b := mat.New(n, n, randVec(r, n*n))
			c := mat.Zeros(n, n)
			ga := gmat.NewDense(n, n, randVec(r, n*n))
			gb := gmat.NewDense(n, n, randVec(r, n*n))
			gc := gmat.NewDense(n, n, nil)
			flops := 2 * float64(n) * float64(n) * float64(n)
			gf := func(sec float64) float64 { return flops / sec / 1e9 }
			res := &results[i]

			// OpenBLAS's worker threads keep spinning for a while after
			// a call; the multi-threaded call therefore comes last in the
			// round and is followed by a pause, so that its threads do
			// not take cores from the next measurements.
			prev := runtime.GOMAXPROCS(1)
			res.ours1 = append(res.ours1, gf(timeIt(*budget, func() { c.Mul(a, b) })))
			res.gonum1 = append(res.gonum1, gf(timeIt(*budget, func() { gc.Mul(ga, gb) })))
			runtime.GOMAXPROCS(prev)
			res.oursN = append(res.oursN, gf(timeIt(*budget, func() { c.Mul(a, b) })))
			res.gonumN = append(res.gonumN, gf(timeIt(*budget, func() { gc.Mul(ga, gb) })))
			res.blas1 = append(res.blas1, gf(blas1.gemm(n, *budget)))
			res.blasN = append(res.blasN, gf(blasN.gemm(n, *budget)))
			time.Sleep(*settle)
		}
		fmt.Fprintf(os.Stderr, "round %d/%d done\n", round+1, *rounds)
	}

	fmt.Printf("%6s | %8s %8s %8s | %7s %7s || %8s %8s %8s | %7s %7s | %6s\n",
		"n", "ours 1c", "OpenBLAS", "gonum", "/OpenB", "/gonum",
		fmt.Sprintf("ours %dc", cores), "OpenBLAS", "gonum", "/OpenB", "/gonum", "Nc/1c")
	for i, n := range ns {
		r := results[i]
		o1, b1, g1 := median(r.ours1), median(r.blas1), median(r.gonum1)
		oN, bN, gN := median(r.oursN), median(r.blasN), median(r.gonumN)
		fmt.Printf("%6d | %8.1f %8.1f %8.1f | %6.2fx %6.2fx || %8.1f %8.1f %8.1f | %6.2fx %6.2fx | %5.2fx\n",
			n, o1, b1, g1, o1/b1, o1/g1, oN, bN, gN, oN/bN, oN/gN, oN/o1)
	}
	blas1.close()
	blasN.close()
}

func randVec(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	return x
}

// timeIt returns the seconds per call of f, run repeatedly for about
// budget after one warm-up call.
func timeIt(budget time.Duration, f func()) float64 {
	f()
	reps := 0
	start := time.Now()
	for {
		f()
		reps++
		if el := time.Since(start); el >= budget {
			return el.Seconds() / float64(reps)
		}
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				return path + " " + d.Version
			}
		}
	}
	return path + " (version unknown)"
}

// server is a running blas_server.py.
type server struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startServer(python, script string, threads int) (*server, error) {
	cmd := exec.Command(python, script)
	cmd.Env = append(os.Environ(), fmt.Sprintf("OPENBLAS_NUM_THREADS=%d", threads))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("anchors: starting %s %s: %v (is Debian's python3-numpy installed? anchors.sh installs it)", python, script, err)
	}
	return &server{cmd: cmd, in: in, out: bufio.NewScanner(out)}, nil
}

func (s *server) ask(req string) string {
	if _, err := fmt.Fprintln(s.in, req); err != nil {
		log.Fatalf("anchors: BLAS server: %v", err)
	}
	if !s.out.Scan() {
		log.Fatalf("anchors: BLAS server stopped answering (request %q): %v", req, s.out.Err())
	}
	return s.out.Text()
}

func (s *server) gemm(n int, budget time.Duration) float64 {
	ans := s.ask(fmt.Sprintf("gemm %d %g", n, budget.Seconds()))
	sec, err := strconv.ParseFloat(ans, 64)
	if err != nil || sec <= 0 {
		log.Fatalf("anchors: BLAS server answered %q", ans)
	}
	return sec
}

func (s *server) close() {
	s.in.Close()
	s.cmd.Wait()
}
