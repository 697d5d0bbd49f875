package svd

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// BenchmarkFactorize times Factorize (U, S and V) and Values on square
// Gaussian matrices.
func BenchmarkFactorize(b *testing.B) {
	for _, n := range []int{50, 200, 400} {
		r := rand.New(rand.NewPCG(uint64(n), 1))
		a := mat.Zeros(n, n)
		for i := range n {
			for j := range n {
				a.Set(i, j, r.NormFloat64())
			}
		}
		for _, want := range []Want{WantUV, WantNone} {
			b.Run(fmt.Sprintf("n=%d/want=%d", n, want), func(b *testing.B) {
				for b.Loop() {
					if _, err := Factorize(a, &Options{Want: want}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEigSym times EigSym with eigenvectors on random symmetric
// matrices (Gaussian upper triangle) and on Q*diag(±1)*Qᵀ with the signs
// in equal halves, by both methods (the Jacobi method up to n = 1000),
// reporting the process CPU time per call as well.
func BenchmarkEigSym(b *testing.B) {
	for _, n := range []int{64, 128, 200, 500, 1000, 2000} {
		r := rand.New(rand.NewPCG(uint64(n), 2))
		rs := mat.Zeros(n, n)
		for i := range n {
			for j := range n {
				rs.Set(i, j, r.NormFloat64())
			}
		}
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(1 - 2*(i%2))
		}
		pm := fuzz.LatmsSym(r, d)
		for _, kind := range []struct {
			name string
			a    *mat.Dense
		}{{"random", rs}, {"pm1", pm}} {
			for _, m := range []struct {
				name string
				m    EigMethod
			}{{"jacobi", EigJacobi}, {"tridiagonal", EigTridiagonal}} {
				if m.m == EigJacobi && n > 1000 {
					continue // minutes for the ±1 spectrum
				}
				b.Run(fmt.Sprintf("n=%d/%s/%s", n, kind.name, m.name), func(b *testing.B) {
					defer cpuMetric(b)()
					for b.Loop() {
						if _, err := EigSym(kind.a, &EigOptions{Method: m.m}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkTridiagPhases times the phases of EigTridiagonal at n = 1000:
// the reduction, divide and conquer, and the back-transformation.
func BenchmarkTridiagPhases(b *testing.B) {
	const n = 1000
	r := rand.New(rand.NewPCG(n, 3))
	s := mat.Zeros(n, n)
	for i := range n {
		for j := i; j < n; j++ {
			v := r.NormFloat64()
			s.Set(i, j, v)
			s.Set(j, i, v)
		}
	}
	var t *tridiag
	b.Run("reduce", func(b *testing.B) {
		defer cpuMetric(b)()
		for b.Loop() {
			t = reduceTridiag(s.Clone().RawData(), n)
		}
	})
	zt := make([]float64, n*n)
	b.Run("dc", func(b *testing.B) {
		defer cpuMetric(b)()
		for b.Loop() {
			clear(zt)
			tridiagDC(slices.Clone(t.d), slices.Clone(t.e), zt, n)
		}
	})
	c := make([]float64, n*n)
	b.Run("back", func(b *testing.B) {
		defer cpuMetric(b)()
		for b.Loop() {
			copy(c, zt)
			t.applyRight(n, c, n, nil)
		}
	})
}

// cpuMetric reports the process CPU time per operation (the machines the
// benchmarks run on are shared, so wall time is noisy): defer its result.
func cpuMetric(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestBidiagPhaseTimes prints, when SVD_PHASES is set (to a list of
// shapes such as "500,1000,2000x200"), the median process CPU times of
// the bidiagonal path's phases (the reduction, the bidiagonal SVD, the
// back-transformation), of the whole path and of the Jacobi path, on one
// goroutine, over SVD_ROUNDS (default 3) interleaved rounds, on Gaussian
// matrices with U and V wanted:
//
//	SVD_PHASES=25,100,300,500,1000,2000,2000x200,200x2000 go test -run BidiagPhaseTimes -v ./svd
func TestBidiagPhaseTimes(t *testing.T) {
	spec, rounds := phaseSetup(t, "SVD_PHASES", "SVD_ROUNDS", 3, "a list of shapes")
	var shapes [][2]int
	for _, f := range strings.Split(spec, ",") {
		var m, n int
		if _, err := fmt.Sscanf(f, "%dx%d", &m, &n); err != nil {
			if _, err := fmt.Sscanf(f, "%d", &m); err != nil {
				t.Fatalf("bad shape %q", f)
			}
			n = m
		}
		shapes = append(shapes, [2]int{m, n})
	}
	const phases = 5 // reduce, solve, back, bidiagonal total, Jacobi total
	times := make([][phases][]float64, len(shapes))
	cpu := func(f func()) float64 {
		s := cpuTime()
		f()
		return float64(cpuTime()-s) / 1e6
	}
	for round := 0; round < rounds; round++ {
		for si, s := range shapes {
			a := mat.New(s[0], s[1], testutil.Normals(rand.New(rand.NewPCG(uint64(si), 9)), s[0]*s[1]))
			var p *bidiagPath
			ms := [phases]float64{
				cpu(func() { p = newBidiagPath(a, a.NormMax(), true, true); p.reduce(nil) }),
				cpu(func() { p.solve() }),
				cpu(func() { p.back() }),
				cpu(func() { _, _ = Factorize(a, &Options{Method: MethodBidiagonal}) }),
				cpu(func() { _, _ = Factorize(a, &Options{Method: MethodJacobi}) }),
			}
			for k, v := range ms {
				times[si][k] = append(times[si][k], v)
			}
		}
	}
	fmt.Printf("%-10s %10s %10s %10s %10s %10s   (ms CPU, median of %d, one goroutine)\n",
		"shape", "reduce", "solve", "back", "bidiag", "jacobi", rounds)
	for si, s := range shapes {
		fmt.Printf("%-10s", fmt.Sprintf("%dx%d", s[0], s[1]))
		for k := 0; k < phases; k++ {
			slices.Sort(times[si][k])
			fmt.Printf(" %10.2f", times[si][k][len(times[si][k])/2])
		}
		fmt.Println()
	}
}

// BenchmarkFactorizeShapes times Factorize (U, S and V) on one goroutine
// on the Gaussian matrices of issue 17's targets, by MethodAuto and by
// each method forced, reporting the process CPU time per call as well:
//
//	go test -run '^$' -bench FactorizeShapes/1000x50 -cpuprofile cpu.out ./svd
func BenchmarkFactorizeShapes(b *testing.B) {
	prev := kernels.SetMaxWorkers(1)
	defer kernels.SetMaxWorkers(prev)
	for _, s := range [][2]int{{1000, 50}, {100, 100}, {300, 300}, {500, 500}, {1000, 1000}} {
		a := mat.New(s[0], s[1], testutil.Normals(rand.New(rand.NewPCG(uint64(s[0]), uint64(s[1]))), s[0]*s[1]))
		for _, m := range []struct {
			name string
			m    Method
		}{{"auto", MethodAuto}, {"jacobi", MethodJacobi}, {"bidiag", MethodBidiagonal}} {
			b.Run(fmt.Sprintf("%dx%d/%s", s[0], s[1], m.name), func(b *testing.B) {
				defer cpuMetric(b)()
				for b.Loop() {
					if _, err := Factorize(a, &Options{Method: m.m}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// phaseSetup starts a phase timing: it skips the test unless the
// environment variable specVar is set (to what), returns it and the
// rounds from roundsVar (def when unset or not a positive integer), and
// runs the kernels on one goroutine until the test ends.
func phaseSetup(t *testing.T, specVar, roundsVar string, def int, what string) (spec string, rounds int) {
	spec = os.Getenv(specVar)
	if spec == "" {
		t.Skipf("set %s to %s", specVar, what)
	}
	rounds = def
	if v, err := strconv.Atoi(os.Getenv(roundsVar)); err == nil && v > 0 {
		rounds = v
	}
	prev := kernels.SetMaxWorkers(1)
	t.Cleanup(func() { kernels.SetMaxWorkers(prev) })
	return spec, rounds
}
