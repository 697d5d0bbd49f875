// Command lingamgrid runs issue 18's grid of fully observed linear
// non-Gaussian models: latent/linear.LearnObservedBN ("ours", default
// options) against DirectLiNGAM and ICA-LiNGAM of cdt15/lingam (run by
// bench/lingam_grid.py on the same CSV files) and against the Go port of
// both in bench/lingam, all scored by the same code.
//
// The grid: random DAGs on p variables with expected degree d (each pair
// joined with probability d/(p-1) in a random causal order), weights
// uniform in +-[0.5, 2], noise standard deviations sqrt(U[0.5, 1]) times
// a standardized exponential or chi-square_1 (skewed) or uniform or
// Laplace (symmetric) draw, N samples, seeds 1..S. The DAG depends on (p,
// d, seed) only, so the noises and sample sizes of a seed share it; the
// samples depend on all five. Everything is seeded: a run writes the same
// files on every machine.
//
// Two stages share a directory (-dir):
//
//	go run ./cmd/lingamgrid -dir D -gen [grid flags]     # writes D/NAME.csv, D/NAME.truth.json, D/manifest.json
//	/usr/bin/python3 lingam_grid.py LINGAM_SRC D          # writes D/NAME.lingam.json (cdt15/lingam)
//	go run ./cmd/lingamgrid -dir D [grid flags]           # runs ours and the Go port, merges, prints
//
// The second Go stage writes any data set that is missing and prints a
// dash for lingam's methods where D holds no result, so it runs without
// Python. bench/lingam_grid.sh runs the three steps, each method on one
// core. The summary's last columns are lingam's mean time over ours.
//
// Scoring, identical for every method: an edge j -> i is an entry
// |B[i][j]| > -tol of the method's adjacency (default 0: every non-zero
// entry, each method's own pruning: lingam's adaptive lasso with BIC; the
// Lambda that LearnObservedBN returns with its default options; the Go
// port does not prune, its least-squares weights are dense). SHD counts
// the pairs {i, j} whose edge is missing, extra or reversed, a reversed
// edge once; precision and recall are over directed edges (precision 1
// for an empty estimate); F1 is computed per data set, and every column
// is a mean over the data sets of a cell. A method that returns an error
// scores as the empty graph and is counted under "failed". Times: ours
// is the sample moments plus LearnObservedBN on the data in memory;
// lingam's is its fit() alone (bench/lingam_grid.py); the Go port's its
// call; all are CPU seconds (user + system) of one process on one core,
// so the load of a shared machine does not enter the comparison. Order accuracy, a diagnostic of the causal order apart from the
// pruning, is the fraction of true edges j -> i with j before i in the
// order the method returns (1 for a graph without edges; failed runs are
// left out of its mean).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/moments-go/moments/bench/internal/cputime"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/moments-go/moments/bench/lingam"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// methods are the columns of the tables.
var methods = []string{"ours", "DirectLiNGAM", "ICA-LiNGAM", "Go DirectLiNGAM", "Go ICA-LiNGAM"}

const (
	mOurs = iota
	mDirect
	mICA
	mGoDirect
	mGoICA
)

// pyNames are the keys of lingam's methods in NAME.lingam.json.
var pyNames = map[int]string{mDirect: "DirectLiNGAM", mICA: "ICALiNGAM"}

// learnOurs is LearnObservedBN with its default options on the samples x
// (N x p), from the sample moments. It is the one place that calls the
// learner, so that a change of its signature is one edit here.
func learnOurs(ctx context.Context, x *mat.Dense) (*mat.Dense, []int, error) {
	src := moments.DenseSamples{X: x}
	sm, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		return nil, nil, err
	}
	bn, err := linear.LearnObservedBN(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, nil)
	if err != nil {
		return nil, nil, err
	}
	return bn.Lambda, bn.Order, nil
}

type acc struct {
	n, failed, nOrd              int
	shd, prec, rec, f1, sec, ord float64
}

// add records one data set; ord < 0: no order.
func (a *acc) add(s score, sec, ord float64, failed bool) {
	a.n++
	if ord >= 0 {
		a.nOrd++
		a.ord += ord
	}
	a.shd += float64(s.SHD)
	a.prec += s.Precision
	a.rec += s.Recall
	a.f1 += s.F1
	a.sec += sec
	if failed {
		a.failed++
	}
}

func (a *acc) mean(v float64) float64 { return v / float64(a.n) }

func (a *acc) orderMean() string {
	if a.nOrd == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", a.ord/float64(a.nOrd))
}

type cellKey struct {
	noise        string
	p, degree, n int
}

type sumKey struct {
	family string
	p, n   int
}

func ints(s, name string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v <= 0 {
			log.Fatalf("-%s: %q is not a positive integer", name, f)
		}
		out = append(out, v)
	}
	return out
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("lingamgrid: ")
	dir := flag.String("dir", "", "directory for the data sets and lingam's results (required)")
	gen := flag.Bool("gen", false, "only write the data sets and manifest.json, then exit")
	pFlag := flag.String("p", "10,20,50", "numbers of variables")
	nFlag := flag.String("n", "1000,5000,20000", "sample sizes")
	degFlag := flag.String("degree", "2,4", "expected degrees (in plus out)")
	noiseFlag := flag.String("noise", strings.Join(noises, ","), "noise families: exp, chi2 (skewed), uniform, laplace (symmetric)")
	seeds := flag.Int("seeds", 5, "data sets per cell (seeds 1..seeds)")
	tol := flag.Float64("tol", 0, "an edge is an adjacency entry with magnitude above tol (0: every non-zero)")
	goPort := flag.Bool("goport", true, "run the Go port in bench/lingam too")
	cells := flag.Bool("cells", true, "print the table of every cell (noise, p, degree, N), not only the summary")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run (go tool pprof) to this file")
	lingamOnly := flag.Bool("lingamonly", false, "score only the data sets that have lingam's results (DIR/NAME.lingam.json), so that every mean and ratio is over the same data sets; the summary counts them")
	flag.Parse()
	if *dir == "" {
		log.Fatal("-dir is required")
	}
	if *seeds <= 0 || *tol < 0 {
		log.Fatal("-seeds must be positive and -tol non-negative")
	}
	ps, ns, degs := ints(*pFlag, "p"), ints(*nFlag, "n"), ints(*degFlag, "degree")
	var noiseList []string
	for _, s := range strings.Split(*noiseFlag, ",") {
		s = strings.TrimSpace(s)
		if !slices.Contains(noises, s) {
			log.Fatalf("-noise: unknown family %q (want %s)", s, strings.Join(noises, ", "))
		}
		noiseList = append(noiseList, s)
	}
	for _, p := range ps {
		if p < 2 {
			log.Fatal("-p: need at least 2 variables")
		}
	}
	var grid []dataset
	for _, noise := range noiseList {
		for _, p := range ps {
			for _, d := range degs {
				for _, n := range ns {
					for s := 1; s <= *seeds; s++ {
						grid = append(grid, newDataset(noise, p, d, n, s))
					}
				}
			}
		}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	if *gen {
		for i, d := range grid {
			if err := write(*dir, d); err != nil {
				log.Fatalf("%s: %v", d.Name, err)
			}
			fmt.Fprintf(os.Stderr, "\rwritten %d/%d", i+1, len(grid))
		}
		fmt.Fprintln(os.Stderr)
		js, err := json.MarshalIndent(grid, "", " ")
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*dir, "manifest.json"), js, 0o644); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *cpuProfile != "" {
		stop, err := cputime.StartProfile(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		defer func() {
			if err := stop(); err != nil {
				log.Fatal(err)
			}
		}()
	}
	if *lingamOnly {
		var kept []dataset
		for _, d := range grid {
			if _, err := os.Stat(filepath.Join(*dir, d.Name+".lingam.json")); err == nil {
				kept = append(kept, d)
			}
		}
		log.Printf("-lingamonly: %d of %d data sets have lingam's results", len(kept), len(grid))
		grid = kept
	}
	run(*dir, grid, *tol, *goPort, *cells)
}

func run(dir string, grid []dataset, tol float64, goPort, printCells bool) {
	ctx := context.Background()
	byCell := map[cellKey]*[5]acc{}
	bySum := map[sumKey]*[5]acc{}
	var cellOrder []cellKey
	var sumOrder []sumKey
	errs := map[string]int{} // "method: error" -> count
	lingamVersion := ""
	var total [5]float64 // seconds over the data sets where ours and both of lingam's ran
	for i, d := range grid {
		fmt.Fprintf(os.Stderr, "\r%d/%d %-40s", i+1, len(grid), d.Name)
		if err := write(dir, d); err != nil {
			log.Fatalf("%s: %v", d.Name, err)
		}
		truth, err := readTruth(dir, d)
		if err != nil {
			log.Fatal(err)
		}
		x, err := readCSV(dir, d)
		if err != nil {
			log.Fatal(err)
		}
		ck := cellKey{d.Noise, d.P, d.Degree, d.N}
		sk := sumKey{family(d.Noise), d.P, d.N}
		if byCell[ck] == nil {
			byCell[ck] = new([5]acc)
			cellOrder = append(cellOrder, ck)
		}
		if bySum[sk] == nil {
			bySum[sk] = new([5]acc)
			sumOrder = append(sumOrder, sk)
		}
		var secs [5]float64
		var ran [5]bool
		record := func(m int, est *mat.Dense, order []int, sec float64, err error) {
			failed := err != nil
			ord := -1.0
			if failed {
				errs[methods[m]+": "+firstLine(err.Error())]++
				est = mat.Zeros(d.P, d.P)
			} else if order != nil {
				if ord = orderAccuracy(truth, order); ord < 0 {
					log.Fatalf("%s: %s returned %v, not an order of %d variables", d.Name, methods[m], order, d.P)
				}
			}
			s := scoreOf(truth, est, tol)
			byCell[ck][m].add(s, sec, ord, failed)
			bySum[sk][m].add(s, sec, ord, failed)
			secs[m], ran[m] = sec, true
		}

		t0 := cputime.Seconds()
		b, order, err := learnOurs(ctx, x)
		record(mOurs, b, order, cputime.Seconds()-t0, err)

		py, ok, err := readPy(dir, d)
		if err != nil {
			log.Fatal(err)
		}
		if ok {
			lingamVersion = py.Lingam
			for m, key := range pyNames {
				r, has := py.Methods[key]
				if !has {
					continue
				}
				var est *mat.Dense
				var rerr error
				if r.Error != "" {
					rerr = fmt.Errorf("%s", r.Error)
				} else if est, rerr = fromRows(r.B, d.P); rerr != nil {
					log.Fatalf("%s.lingam.json: %s: %v", d.Name, key, rerr)
				}
				record(m, est, r.Order, r.Seconds, rerr)
			}
		}

		if goPort {
			t0 = cputime.Seconds()
			dl, err := lingam.DirectLiNGAM(x)
			var est *mat.Dense
			order = nil
			if err == nil {
				est, order = dl.B, dl.Order
			}
			record(mGoDirect, est, order, cputime.Seconds()-t0, err)
			t0 = cputime.Seconds()
			il, err := lingam.ICALiNGAM(x, rand.New(rand.NewPCG(uint64(d.Seed), 3)))
			est, order = nil, nil
			if err == nil {
				est, order = il.B, il.Order
			}
			record(mGoICA, est, order, cputime.Seconds()-t0, err)
		}
		if ran[mOurs] && ran[mDirect] && ran[mICA] {
			for m := range total {
				total[m] += secs[m]
			}
		}
	}
	fmt.Fprintln(os.Stderr)

	fmt.Printf("# issue 18 grid: %d data sets; lingam %s\n", len(grid), orDash(lingamVersion))
	fmt.Printf("edge: |B_ij| > %g of each method's adjacency; SHD = missing + extra + reversed (a reversed edge once); means over the data sets of each row\n", tol)
	if printCells {
		fmt.Println()
		fmt.Println("| noise | p | degree | N | method | SHD | precision | recall | F1 | order acc. | time (s) | failed |")
		fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
		for _, k := range cellOrder {
			for m, a := range byCell[k] {
				if a.n == 0 {
					continue
				}
				fmt.Printf("| %s | %d | %d | %d | %s | %.1f | %.2f | %.2f | %.2f | %s | %.3g | %d/%d |\n",
					k.noise, k.p, k.degree, k.n, methods[m], a.mean(a.shd), a.mean(a.prec), a.mean(a.rec), a.mean(a.f1), a.orderMean(), a.mean(a.sec), a.failed, a.n)
			}
		}
	}

	fmt.Println()
	fmt.Println("Mean over degrees and noises (SHD / F1 / order accuracy; time in seconds per data set):")
	fmt.Println()
	head := "| cell | data sets |"
	sep := "| --- | --- |"
	for _, m := range methods {
		head += " " + m + " |"
		sep += " --- |"
	}
	fmt.Println(head + " time, ours / Direct / ICA | Direct / ours | ICA / ours |")
	fmt.Println(sep + " --- | --- | --- |")
	for _, k := range sumOrder {
		a := bySum[k]
		line := fmt.Sprintf("| %s, p = %d, N = %d | %d |", k.family, k.p, k.n, a[mOurs].n)
		for m := range methods {
			if a[m].n == 0 {
				line += " — |"
				continue
			}
			line += fmt.Sprintf(" %.1f / %.2f / %s |", a[m].mean(a[m].shd), a[m].mean(a[m].f1), a[m].orderMean())
		}
		ts := func(m int) string {
			if a[m].n == 0 {
				return "—"
			}
			return fmt.Sprintf("%.3g", a[m].mean(a[m].sec))
		}
		ratio := func(m int) string {
			if a[m].n == 0 || a[mOurs].sec == 0 {
				return "—"
			}
			return fmt.Sprintf("%.0fx", a[m].mean(a[m].sec)/a[mOurs].mean(a[mOurs].sec))
		}
		line += fmt.Sprintf(" %s / %s / %s s | %s | %s |", ts(mOurs), ts(mDirect), ts(mICA), ratio(mDirect), ratio(mICA))
		fmt.Println(line)
	}
	if total[mOurs] > 0 {
		fmt.Printf("\nTotal time where all three ran: ours %.2f s, DirectLiNGAM %.2f s (%.0fx ours), ICA-LiNGAM %.2f s (%.0fx ours)",
			total[mOurs], total[mDirect], total[mDirect]/total[mOurs], total[mICA], total[mICA]/total[mOurs])
		if goPort {
			fmt.Printf("; Go DirectLiNGAM %.2f s, Go ICA-LiNGAM %.2f s", total[mGoDirect], total[mGoICA])
		}
		fmt.Println()
	}
	if len(errs) > 0 {
		fmt.Println("\nErrors (scored as the empty graph):")
		keys := make([]string, 0, len(errs))
		for k := range errs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Printf("  %4d x %s\n", errs[k], k)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
