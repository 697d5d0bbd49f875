package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/eval/report"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
)

const exampleUsage = `usage: moments [example] [flags]

The main job: Example 2 of "Learning Topic Models and Latent Bayesian
Networks Under Expansion Constraints" (Anandkumar, Hsu, Javanmard,
Kakade). It draws k = 25 hidden variables related by a strictly lower
triangular Bernoulli(0.3)-Gaussian Lambda, n = 150 observed ones
x = A h + eps with A Bernoulli(0.3)-Gaussian of gap gamma, and skewed
noises; streams N samples (never stored) into their moments; learns A,
Lambda and the causal order (package latent/linear, LearnDAG); prints
the measures of the paper's Table 2 and the time of each stage, and
draws the true against the estimated entries as in its Figure 6.
The model for -seed S is the bench's model S (bench/cmd/linear).
`

// paperTable2 is the paper's dist of Lambda and A (Table 2), by gamma
// and N.
var paperTable2 = map[float64]map[int][2]float64{
	0.3: {200000: {0.7933, 0.2818}, 300000: {0.4627, 0.2584}, 400000: {0.3894, 0.1894}, 500000: {0.1778, 0.0809}},
	0.5: {200000: {0.4597, 0.1777}, 300000: {0.1820, 0.0757}, 400000: {0.0832, 0.0478}, 500000: {0.0492, 0.0330}},
}

// runExample is the example subcommand, the default.
func runExample(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("example", exampleUsage)
	N := fs.Int("n", 100000, "number of samples (at least 2)")
	seed := fs.Uint64("seed", 1, "model seed (the samples use 1000+seed, as the bench)")
	gamma := fs.Float64("gamma", 0.5, "gap of A's non-zero entries, in (0, 1)")
	nObs := fs.Int("vars", 150, "observed variables (at least 3k)")
	k := fs.Int("k", 25, "hidden variables (at least 1)")
	tau := fs.Float64("tau", 0.1, "threshold of the thresholded support, in [0, 1) (relative to each column's largest entry)")
	svgPath := fs.String("svg", "example.svg", `write the scatter plot of true against estimated entries here ("": none)`)
	workers := fs.Int("workers", 0, "goroutines (0: GOMAXPROCS)")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	maxMem := maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout); err != nil {
		return err
	}
	if err := fs.check(
		atLeast("n", *N, 2),
		atLeast("k", *k, 1),
		floatIn("gamma", *gamma, unitOpen),
		floatIn("tau", *tau, unitHalf),
		atLeast("workers", *workers, 0),
	); err != nil {
		return err
	}
	if *nObs/3 < *k {
		return fs.usagef("-vars %d: must be at least 3k = 3*%d", *nObs, *k)
	}
	svg, err := createOutput("svg", *svgPath)
	if err != nil {
		return err
	}
	defer svg.discard()

	do := &linear.DAGOptions{}
	do.Seed, do.MaxMemory = *seed, *maxMem
	do.DLD.Workers, do.TWM.Workers = *workers, *workers
	if err := do.CheckMemory(*nObs, *k); err != nil {
		return err
	}
	m := synth.RandomDAG(rand.New(rand.NewPCG(*seed, uint64(*gamma*10))), *nObs, *k, 0.3, *gamma, synth.Skewed)
	fmt.Fprintf(stdout, "Example 2 of the topic-model paper (Anandkumar, Hsu, Javanmard, Kakade):\n")
	fmt.Fprintf(stdout, "  %d hidden variables, Lambda strictly lower triangular Bernoulli(0.3)-Gaussian;\n", *k)
	fmt.Fprintf(stdout, "  %d observed, A Bernoulli(0.3)-Gaussian with gap %g; skewed noises\n", *nObs, *gamma)
	fmt.Fprintf(stdout, "  model seed %d, %d samples streamed, GOMAXPROCS %d\n\n", *seed, *N, runtime.GOMAXPROCS(0))

	mo := moments.Options{Workers: *workers, MaxMemory: *maxMem}
	stages := newStageTimer()
	do.Progress = stages.progress(stderr, *quiet)
	src := m.Samples(*N, 1000+*seed)
	sm, err := moments.NewSampleMoments(ctx, src, stages.pass(do.Progress, "sampling + moments", mo))
	if err != nil {
		stages.end(true)
		return err
	}
	d, err := linear.LearnDAG(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: src, Passes: mo}, *k, do)
	stages.end(err != nil)
	if err != nil {
		return fmt.Errorf("%w (try a larger -n)", err)
	}
	printWarnings(stderr, d.Warnings)

	ta, tl := report.CanonicalDAG(m)
	ea, el := report.AlignDAG(ta, d, d.Lambda)
	ml, ma := report.Compare(tl, el, *tau), report.Compare(ta, ea, *tau)
	// The second supports of bench/cmd/linear: Lambda's entries above
	// 0.015 in canonical units (the best trade-off of the bench's sweep),
	// A's above 0.01 of their column's largest.
	ml2, ma2 := report.Compare(tl, report.Pruned(el, 0.015), 0), report.Compare(ta, ea, 0.01)
	paper := paperTable2[*gamma][*N]
	cite := func(i int) string {
		if paper[i] == 0 || *nObs != 150 || *k != 25 {
			return "-"
		}
		return fmt.Sprintf("%.4f", paper[i])
	}
	fmt.Fprintf(stdout, "%-7s %8s %8s %8s %13s %13s %13s\n", "matrix", "dist", "paper", "rel F", "raw P/R", fmt.Sprintf("P/R tau %g", *tau), "P/R small")
	for i, r := range []struct {
		name  string
		m, m2 report.Metrics
	}{{"Lambda", ml, ml2}, {"A", ma, ma2}} {
		fmt.Fprintf(stdout, "%-7s %8.4f %8s %8.4f %13s %13s %13s\n", r.name, r.m.Dist, cite(i), r.m.RelErr,
			fmt.Sprintf("%.3f/%.3f", r.m.Prec, r.m.Rec), fmt.Sprintf("%.3f/%.3f", r.m.PrecT, r.m.RecT), fmt.Sprintf("%.3f/%.3f", r.m2.Prec, r.m2.Rec))
	}
	fmt.Fprintln(stdout, "dist: eval.Dist, the papers' column distance (0 is exact; it rescales each column); rel F: ||estimate - truth||_F / ||truth||_F in canonical form;")
	fmt.Fprintln(stdout, "raw: the estimate's non-zeros; paper: Table 2 where N matches;")
	fmt.Fprintln(stdout, "tau: entries above tau times their column's largest; small: Lambda's entries above 0.015 (canonical units), A's above 0.01 of their column's largest")

	// The order: a true edge j -> i is reversed when the learned variable
	// matched to j comes after the one matched to i.
	_, perm, _ := eval.AlignColumns(ta, d.A)
	edges, reversed := 0, 0
	for i := 0; i < *k; i++ {
		for j := 0; j < i; j++ {
			if m.Lambda.At(i, j) != 0 {
				edges++
				if perm[j] > perm[i] {
					reversed++
				}
			}
		}
	}
	fmt.Fprintf(stdout, "\ncausal order: %d of %d true edges reversed; triangularity %.4f\n", reversed, edges, d.Triangularity)
	fmt.Fprintln(stdout, "\ntime:")
	stages.print(stdout)

	if svg != nil {
		lx, ly := report.Entries(tl, el)
		ax, ay := report.Entries(ta, ea)
		n := shortN(*N)
		panels := []report.Panel{
			{Title: "Λ, N = " + n, XLabel: "Λij", YLabel: "Λ̂ij", X: lx, Y: ly},
			{Title: "A, N = " + n, XLabel: "Aij", YLabel: "Âij", X: ax, Y: ay},
		}
		title := fmt.Sprintf("Example 2, gamma = %g: true vs estimated entries (canonical form)", *gamma)
		if err := svg.commit(func(w io.Writer) error { return report.ScatterSVG(w, title, 2, panels) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nscatter plot of true vs estimated entries written to %s\n", *svgPath)
	}
	return nil
}

// shortN writes 100000 as 100k.
func shortN(n int) string {
	if n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
