// Command treemix runs the experiments of issue 8 (mixtures of graphical
// models) in one go and prints their tables:
//
//  1. recovery against the number of samples N: union-graph edge
//     precision, recall and F1 of RankTest, edge F1 of the component
//     Chow–Liu trees, and the largest mixing-weight error, for seeded
//     random mixtures of trees (default p = 20, d = 4, r = 2);
//  2. held-out log-likelihood per sample of the spectral estimate, of EM
//     from random starts and of EM from the spectral estimate, with
//     iteration counts and times, on a synthetic mixture and on
//     scikit-learn's handwritten digits (thresholded to {0, 1},
//     horizontally adjacent pixels grouped into 4-state variables);
//  3. the time of RankTest for p = 50, d = 4, eta = 2.
//
// Usage (from the bench directory; treemix.sh does this under the
// machine's benchmark lock):
//
//	go run ./cmd/treemix [-seeds 5] [-ns 1000,3000,10000,30000,100000] [-digits PATH]
package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/moments-go/moments/bench/internal/cputime"
	"io"
	"log"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/mat"
)

var ctx = context.Background()

func main() {
	seeds := flag.Int("seeds", 5, "random mixtures per setting")
	nsFlag := flag.String("ns", "1000,3000,10000,30000,100000", "sample sizes of the recovery table")
	p := flag.Int("p", 20, "variables of the synthetic mixtures")
	d := flag.Int("d", 4, "states of the synthetic mixtures")
	r := flag.Int("r", 2, "components of the synthetic mixtures")
	digits := flag.String("digits", "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz", "scikit-learn's digits.csv.gz (skipped if missing)")
	threshold := flag.Int("threshold", 7, "digit pixels (0..16) above this are 1")
	restarts := flag.Int("restarts", 5, "random starts of EM")
	rankP := flag.Int("rank-p", 50, "variables of the RankTest timing")
	flag.Parse()
	log.SetFlags(0)
	var ns []int
	for _, f := range strings.Split(*nsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			log.Fatalf("bad -ns entry %q", f)
		}
		ns = append(ns, n)
	}
	fmt.Printf("moments treemix experiments (GOMAXPROCS %d, %s/%s)\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	recovery(*p, *d, *r, ns, *seeds)
	heldOutSynthetic(*p, *d, *r, *restarts)
	if err := heldOutDigits(*digits, *threshold, *restarts); err != nil {
		fmt.Printf("\ndigits skipped: %v\n", err)
	}
	rankTiming(*rankP)
}

// match pairs the estimated components with the true ones (Hungarian
// method on the l1 distance of the reference node's tables plus the
// weight difference) and returns est's index for each true component.
func match(truth, est *treemix.Mixture, ref int) []int {
	k := len(truth.Weights)
	cost := mat.Zeros(k, k)
	for h := range k {
		a := truth.ComponentMarginal(h, []int{ref}).P
		for g := range k {
			b := est.ComponentMarginal(g, []int{ref}).P
			var c float64
			for s := range a {
				c += math.Abs(a[s] - b[s])
			}
			cost.Set(h, g, c+math.Abs(truth.Weights[h]-est.Weights[g]))
		}
	}
	perm, _ := eval.Assign(cost)
	return perm
}

func recovery(p, d, r int, ns []int, seeds int) {
	fmt.Printf("\n1. Recovery against N: random mixtures of %d trees, p = %d, d = %d, one isolated reference node;\n", r, p, d)
	fmt.Printf("   RankTest (eta = r, default threshold), FindMixtureComponents on the union-graph edges, Chow-Liu.\n")
	fmt.Printf("   Means over %d seeded mixtures (min in brackets for F1).\n\n", seeds)
	fmt.Printf("%8s | %6s %6s %14s | %14s %9s | %8s %8s\n", "N", "union P", "R", "F1", "tree F1", "max|dw|", "rank s", "spec s")
	for _, n := range ns {
		var up, ur, uf, tf, werr, trank, tspec float64
		minUF, minTF := 1.0, 1.0
		fails := 0
		for s := range seeds {
			m := treemix.RandomTreeMixture(p, d, r, &treemix.GenOptions{Seed: uint64(s + 1)})
			x, _ := m.Sample(n, uint64(s+1))
			src := treemix.Empirical(x, &treemix.Options{})
			t0 := time.Now()
			rt, err := treemix.LearnUnionGraph(ctx, src, r, &treemix.RankOptions{})
			if err != nil {
				log.Fatal(err)
			}
			trank += time.Since(t0).Seconds() / float64(seeds)
			pr, rc, f1 := treemix.EdgeScores(m.UnionGraph(), rt.Graph)
			up += pr / float64(seeds)
			ur += rc / float64(seeds)
			uf += f1 / float64(seeds)
			minUF = math.Min(minUF, f1)
			t0 = time.Now()
			comp, err := treemix.LearnComponents(ctx, src, rt.Graph, r, &treemix.SpectralOptions{EdgesOnly: true})
			tspec += time.Since(t0).Seconds() / float64(seeds)
			if err != nil {
				fails++
				minTF, werr = 0, math.Max(werr, 1)
				continue
			}
			est := comp.Mixture()
			perm := match(m, est, comp.Reference)
			var f, w float64
			for h := range r {
				_, _, fh := treemix.EdgeScores(m.Nets[h].Graph(), est.Nets[perm[h]].Graph())
				f += fh / float64(r)
				minTF = math.Min(minTF, fh)
				w = math.Max(w, math.Abs(m.Weights[h]-est.Weights[perm[h]]))
			}
			tf += f / float64(seeds)
			werr = math.Max(werr, w)
		}
		note := ""
		if fails > 0 {
			note = fmt.Sprintf("  (%d spectral failures)", fails)
		}
		fmt.Printf("%8d | %6.3f %6.3f %6.3f [%.3f] | %6.3f [%.3f] %9.4f | %8.3f %8.3f%s\n",
			n, up, ur, uf, minUF, tf, minTF, werr, trank, tspec, note)
	}
	fmt.Printf("\n   max|dw|: the largest mixing-weight error over components and seeds.\n")
}

// comparison prints the held-out log-likelihood of the spectral
// estimate, of EM from it, and of EM from random starts.
func comparison(train, test *treemix.Data, r int, lo *treemix.LearnOptions, restarts int, seed uint64) {
	nt, _, _ := test.Dims()
	score := func(m *treemix.Mixture) float64 {
		ll, err := m.LogLikelihood(ctx, test, &treemix.Options{})
		if err != nil {
			log.Fatal(err)
		}
		return ll / float64(nt)
	}
	row := func(name string, ll float64, iters int, dt time.Duration) {
		it := "-"
		if iters >= 0 {
			it = strconv.Itoa(iters)
		}
		fmt.Printf("   %-26s %12.4f %8s %9.3f\n", name, ll, it, dt.Seconds())
	}
	fmt.Printf("   %-26s %12s %8s %9s\n", "method", "held-out LL", "EM iter", "time s")
	t0 := time.Now()
	spec, rep, err := treemix.Learn(ctx, treemix.Empirical(train, nil), r, lo)
	dtSpec := time.Since(t0)
	if err != nil {
		fmt.Printf("   spectral failed: %v\n", err)
	} else {
		row("spectral", score(spec), -1, dtSpec)
		t0 = time.Now()
		m, res, err := treemix.LearnEM(ctx, train, spec, &treemix.EMOptions{})
		if err != nil && !errors.Is(err, treemix.ErrNoConvergence) {
			log.Fatal(err)
		}
		row("EM from spectral", score(m), res.Iterations, time.Since(t0)+dtSpec)
		fmt.Printf("   (union graph %d edges, reference node %d, %d pairs decomposed)\n", rep.Rank.Graph.NumEdges(), rep.Components.Reference, len(rep.Components.Pairs))
	}
	best, bestIt := math.Inf(-1), 0
	for i := range restarts {
		t0 = time.Now()
		m, res, err := treemix.LearnEM(ctx, train, treemix.RandomStart(train, r, seed+uint64(i)), &treemix.EMOptions{})
		if err != nil && !errors.Is(err, treemix.ErrNoConvergence) {
			log.Fatal(err)
		}
		ll := score(m)
		row(fmt.Sprintf("EM random start %d", i+1), ll, res.Iterations, time.Since(t0))
		if ll > best {
			best, bestIt = ll, res.Iterations
		}
	}
	if restarts > 0 {
		row(fmt.Sprintf("best of %d random starts", restarts), best, bestIt, 0)
	}
}

func heldOutSynthetic(p, d, r, restarts int) {
	type setting struct{ r, d, n int }
	// the last setting has one component more, and one state more so
	// that the (r+1)-th singular values the rank test needs stay visible
	for _, st := range []setting{{r, d, 10000}, {r, d, 100000}, {r + 1, d + 1, 100000}} {
		r, d, n := st.r, st.d, st.n
		m := treemix.RandomTreeMixture(p, d, r, &treemix.GenOptions{Seed: 1})
		train, _ := m.Sample(n, 2)
		test, _ := m.Sample(20000, 3)
		truth, _ := m.LogLikelihood(ctx, test, &treemix.Options{})
		fmt.Printf("\n2a. Held-out log-likelihood per sample (nats): synthetic mixture of %d trees, p = %d, d = %d,\n", r, p, d)
		fmt.Printf("    N = %d training and 20000 test samples; the true model scores %.4f.\n", n, truth/20000)
		comparison(train, test, r, &treemix.LearnOptions{Spectral: treemix.SpectralOptions{EdgesOnly: true}}, restarts, 1)
	}
}

// readDigits reads scikit-learn's digits.csv.gz: 64 pixel columns (0..16)
// and the label.
func readDigits(path string, threshold int) (*treemix.Data, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	var rows [][]int
	var labels []int
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		fields := strings.Split(strings.TrimSpace(sc.Text()), ",")
		if len(fields) != 65 {
			continue
		}
		row := make([]int, 64)
		for j := range 64 {
			v, err := strconv.ParseFloat(fields[j], 64)
			if err != nil {
				return nil, nil, err
			}
			if int(v) > threshold {
				row[j] = 1
			}
		}
		lab, _ := strconv.Atoi(fields[64])
		rows = append(rows, row)
		labels = append(labels, lab)
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	x, err := treemix.FromRows(2, rows)
	return x, labels, err
}

func heldOutDigits(path string, threshold, restarts int) error {
	x, _, err := readDigits(path, threshold)
	if err != nil {
		return err
	}
	n, p, _ := x.Dims()
	g, err := x.Group(2)
	if err != nil {
		return err
	}
	train, test := g.Split(0.8, 7)
	ntr, q, dq := train.Dims()
	nte, _, _ := test.Dims()
	for _, r := range []int{2, 3} {
		fmt.Printf("\n2b. Held-out log-likelihood per sample (nats): scikit-learn digits, %d images of %d pixels > %d -> 1,\n", n, p, threshold)
		fmt.Printf("    horizontally adjacent pixel pairs grouped into %d variables of %d states (d > r); %d train, %d test; r = %d.\n", q, dq, ntr, nte, r)
		fmt.Printf("    Spectral: rank test with eta = r, all pairs decomposed (no node of the data is isolated: the\n")
		fmt.Printf("    reference is the best-conditioned node the test left isolated).\n")
		comparison(train, test, r, &treemix.LearnOptions{}, restarts, uint64(r))
	}
	return nil
}

func rankTiming(p int) {
	fmt.Printf("\n3. RankTest time: random mixture of 2 trees, p = %d, d = 4, eta = 2 (default candidates and threshold).\n", p)
	fmt.Printf("%8s %10s %10s %8s %22s %18s\n", "N", "wall s", "cpu s", "F1", "tests by |S|", "removed by |S|")
	m := treemix.RandomTreeMixture(p, 4, 2, &treemix.GenOptions{Seed: 1})
	for _, n := range []int{10000, 100000} {
		x, _ := m.Sample(n, 2)
		c0, t0 := cputime.Now(), time.Now()
		rt, err := treemix.LearnUnionGraph(ctx, treemix.Empirical(x, &treemix.Options{}), 2, &treemix.RankOptions{Eta: 2})
		wall, cpu := time.Since(t0), cputime.Now()-c0
		if err != nil {
			log.Fatal(err)
		}
		_, _, f1 := treemix.EdgeScores(m.UnionGraph(), rt.Graph)
		fmt.Printf("%8d %10.3f %10.3f %8.3f %22s %18s\n", n, wall.Seconds(), cpu.Seconds(), f1, fmt.Sprint(rt.Tests), fmt.Sprint(rt.Removed))
	}
}
