package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

const dagUsage = `usage: moments dag -k K [flags] DATA.csv

Learns a linear model with K hidden variables related by a DAG from
single-view numeric samples (one sample a line, one observed variable a
field; blank lines and lines starting with # are skipped): x = A h + eps,
h = Lambda h + eta, with independent skewed noises (ALGORITHM 2 of the
linear-BN paper of Anandkumar, Hsu, Javanmard and Kakade: DLD and
TWMLearn for A, the whitened third moment for the causal order). It
prints A and Lambda in canonical form (unit-variance hidden variables
h1..hK, numbered in the learned causal order) and diagnostics. Needs
3K <= the number of observed variables. DATA.csv may be gzip-compressed.

With -truth FILE it also compares the estimate with the true model, as
the main job does: dist and the relative Frobenius error (rel F) of A
and Lambda after matching the hidden variables, and the precision and
recall of their supports. FILE is JSON with the rows of the true A (n x
k) and Lambda (k x k, strictly lower triangular: hidden variables in a
topological order) and, optionally, the variances of the hidden noises
(1 when absent); any scale, brought to canonical form:
  {"A": [[...], ...], "Lambda": [[...], ...], "EtaVar": [...]}
`

// runDAG is the dag subcommand.
func runDAG(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("dag", dagUsage)
	k := fs.Int("k", 0, "number of hidden variables (required, at least 1)")
	seed := fs.Uint64("seed", 1, "random seed (partitions, directions)")
	header := fs.String("header", "auto", "first line holds the names: yes, no or auto (yes if a field is not a number)")
	comma := fs.String("comma", ",", "field separator (one character, not part of a number; \\t for a tab)")
	prune := fs.Float64("prune", 0, "also set the entries of Lambda with magnitude at most this (>= 0) to zero, after the adaptive lasso with the extended BIC that prunes Lambda by default")
	tau := fs.Float64("tau", 0.1, "support threshold in [0, 1): entries of A above tau times their column's largest, edges with |Lambda| above tau")
	second := fs.Bool("lambda-second", false, "Lambda from the second moments given the order (Remark 4.4) instead of the third")
	split := fs.Bool("split", true, "run the split-sample checks of the verdict (learn A again on each half of the samples; they add about as much CPU time as the coefficient step takes)")
	truth := fs.String("truth", "", "JSON file of the true A and Lambda (see above): print dist and rel F against it")
	workers := fs.Int("workers", 0, "goroutines (0: GOMAXPROCS)")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	maxMem := maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout, "DATA.csv"); err != nil {
		return err
	}
	if !fs.isSet("k") {
		return fs.usagef("missing -k K, the number of hidden variables")
	}
	if err := fs.check(
		atLeast("k", *k, 1),
		floatIn("prune", *prune, nonNegative),
		floatIn("tau", *tau, unitHalf),
		atLeast("workers", *workers, 0),
	); err != nil {
		return err
	}
	opts, err := csvOptions(fs, *header, *comma, *maxMem)
	if err != nil {
		return err
	}
	path := fs.Arg(0)

	start := time.Now()
	f, err := openInput(ctx, path)
	if err != nil {
		return err
	}
	data, err := linear.ReadCSV(f, &opts)
	f.Close()
	if err != nil {
		return inFile(path, err)
	}
	N, n := data.NumSamples(), data.Dim()
	fmt.Fprintf(stdout, "data       %d samples of %d variables (read in %.2fs)\n", N, n, time.Since(start).Seconds())
	if *k > n/3 {
		return fmt.Errorf("-k %d with %d observed variables (at most %d): %w", *k, n, n/3, linear.ErrTooManyFactors)
	}
	if N < 2 {
		return fmt.Errorf("%s: %d sample(s): %w", path, N, linear.ErrBadData)
	}
	var trueA, trueLambda *mat.Dense
	if *truth != "" {
		if trueA, trueLambda, err = readDAGTruth(ctx, *truth, n, *k); err != nil {
			return err
		}
	}

	mo := moments.Options{Workers: *workers, MaxMemory: *maxMem}
	do := &linear.DAGOptions{Prune: *prune, LambdaFromSecond: *second, SkipSplitCheck: !*split}
	do.Seed, do.MaxMemory = *seed, *maxMem
	do.DLD.Workers, do.TWM.Workers = *workers, *workers
	if err := do.CheckMemory(n, *k); err != nil {
		return err
	}
	stages := newStageTimer()
	do.Progress = stages.progress(stderr, *quiet)
	start = time.Now()
	sm, err := moments.NewSampleMoments(ctx, data, stages.pass(do.Progress, "moments", mo))
	if err != nil {
		stages.end(true)
		return err
	}
	d, err := linear.LearnDAG(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: data, Passes: mo}, *k, do)
	stages.end(err != nil)
	if err != nil {
		return err
	}
	printWarnings(stderr, d.Warnings)
	learn := time.Since(start)

	names := data.Names
	if names == nil {
		names = make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("x%d", i+1)
		}
	}
	hidden := make([]string, *k)
	for j := range hidden {
		hidden[j] = fmt.Sprintf("h%d", j+1)
	}
	fmt.Fprintf(stdout, "learned    k = %d in %.2fs\n", *k, learn.Seconds())

	fmt.Fprintf(stdout, "\nA (%d x %d; canonical form: unit-variance hidden variables), with the observed noise variances:\n", n, *k)
	printMatrix(stdout, d.A, names, hidden, "noise var", d.NoiseVar)
	fmt.Fprintf(stdout, "\nLambda (%d x %d, strictly lower triangular: h_i = sum_j Lambda_ij h_j + eta_i), with the hidden noise variances:\n", *k, *k)
	printMatrix(stdout, d.Lambda, hidden, hidden, "eta var", d.EtaVar)

	fmt.Fprintf(stdout, "\ncausal order: %s (parents come first)\n", strings.Join(hidden, " "))
	fmt.Fprintf(stdout, "edges |Lambda_ij| > %g:\n", *tau)
	found := false
	for i := 0; i < *k; i++ {
		var ps []string
		for j := 0; j < i; j++ {
			if v := d.Lambda.At(i, j); math.Abs(v) > *tau {
				ps = append(ps, fmt.Sprintf("%s (%+.3f)", hidden[j], v))
			}
		}
		if len(ps) > 0 {
			found = true
			fmt.Fprintf(stdout, "  %s <- %s\n", hidden[i], strings.Join(ps, ", "))
		}
	}
	if !found {
		fmt.Fprintln(stdout, "  none")
	}
	fmt.Fprintln(stdout)
	printDiagnostics(stdout, d, *tau)
	if trueA != nil {
		fmt.Fprintln(stdout)
		printDAGTruth(stdout, d, trueA, trueLambda, *tau)
	}
	fmt.Fprintln(stdout, "\ntime:")
	stages.print(stdout)
	return nil
}

// printMatrix prints m with row and column labels and one extra column.
func printMatrix(w io.Writer, m *mat.Dense, rows, cols []string, extraName string, extra []float64) {
	r, c := m.Dims()
	width := 4
	for _, s := range rows {
		width = max(width, utf8.RuneCountInString(s))
	}
	fmt.Fprintf(w, "  %-*s", width, "")
	for j := 0; j < c; j++ {
		fmt.Fprintf(w, " %7s", cols[j])
	}
	fmt.Fprintf(w, "  %9s\n", extraName)
	for i := 0; i < r; i++ {
		fmt.Fprintf(w, "  %-*s", width, rows[i])
		for j := 0; j < c; j++ {
			if v := m.At(i, j); v == 0 {
				fmt.Fprintf(w, " %7s", ".")
			} else {
				fmt.Fprintf(w, " %7.3f", v)
			}
		}
		fmt.Fprintf(w, "  %9.4g\n", extra[i])
	}
}

// printDiagnostics prints what tells whether the model's assumptions
// hold: the cumulants that separated the hidden noises, their skewness
// (the third cumulant needs it away from zero) and excess kurtosis
// (when measured),
// the triangularity of the order, the expansion property and incoherence
// of A's thresholded support, and the noise variances.
func printDiagnostics(w io.Writer, d *linear.DAG, tau float64) {
	fmt.Fprintln(w, "diagnostics:")
	sk := make([]string, len(d.Skewness))
	minSkew := math.Inf(1)
	for j, s := range d.Skewness {
		sk[j] = fmt.Sprintf("%.2f", s)
		minSkew = math.Min(minSkew, math.Abs(s))
	}
	fmt.Fprintf(w, "  hidden noises separated by %s\n", cumulantsWords(d.Cumulants))
	fmt.Fprintf(w, "  skewness of the hidden noises (up to sign): %s\n", strings.Join(sk, " "))
	if minSkew < 0.1 && d.Cumulants == linear.CumulantsThird {
		fmt.Fprintf(w, "    warning: a skewness of %.3f; the third cumulant needs skewed hidden noises\n", minSkew)
	}
	if !slices.ContainsFunc(d.Kurtosis, math.IsNaN) && len(d.Kurtosis) > 0 {
		ku := make([]string, len(d.Kurtosis))
		for j, v := range d.Kurtosis {
			ku[j] = fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(w, "  excess kurtosis of the hidden noises: %s\n", strings.Join(ku, " "))
	}
	fmt.Fprintf(w, "  triangularity %.4f (0 for an exact DAG; small when the order is reliable)\n", d.Triangularity)
	a := thresholdColumns(d.A, tau)
	rep, err := linear.CheckExpansion(a, 0)
	how := "exact check"
	if !rep.Exact {
		how = "sufficient check"
	}
	switch {
	case err != nil:
		fmt.Fprintf(w, "  expansion of A's support: not checked: %v\n", err)
	case rep.Holds:
		fmt.Fprintf(w, "  expansion of A's support (entries > %g x column max): holds (%s, largest column degree %d)\n", tau, how, rep.DMax)
	case rep.Exact:
		fmt.Fprintf(w, "  expansion of A's support (entries > %g x column max): FAILS: columns %v reach %d rows, fewer than %d + %d\n",
			tau, plus1(rep.Violator), rep.Neighbours, len(rep.Violator), rep.DMax)
	default:
		fmt.Fprintf(w, "  expansion of A's support (entries > %g x column max): the sufficient check is inconclusive (largest column degree %d)\n", tau, rep.DMax)
	}
	if inc, err := linear.Incoherence(d.A); err != nil {
		fmt.Fprintf(w, "  incoherence: %v\n", err)
	} else {
		n, k := d.A.Dims()
		fmt.Fprintf(w, "  incoherence %.3f (1 to n/k = %.1f; small is good)\n", inc, float64(n)/float64(k))
	}
	fmt.Fprintf(w, "  observed noise variances %s; hidden %s\n", summary(d.NoiseVar), summary(d.EtaVar))
	fmt.Fprintln(w, "  identifiability checks of the learner (failures are also warned on stderr):")
	for _, c := range d.Checks {
		fmt.Fprintf(w, "    %s\n", c)
	}
}

// thresholdColumns returns a with the entries at most tau times their
// column's largest magnitude set to zero.
func thresholdColumns(a *mat.Dense, tau float64) *mat.Dense {
	out := a.Clone()
	r, c := a.Dims()
	for j := 0; j < c; j++ {
		var top float64
		for i := 0; i < r; i++ {
			top = math.Max(top, math.Abs(a.At(i, j)))
		}
		for i := 0; i < r; i++ {
			if math.Abs(a.At(i, j)) <= tau*top {
				out.Set(i, j, 0)
			}
		}
	}
	return out
}

func plus1(s []int) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = v + 1
	}
	return out
}

// summary formats the least, median and largest of v.
func summary(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return fmt.Sprintf("min %.3g, median %.3g, max %.3g", s[0], s[len(s)/2], s[len(s)-1])
}

// stageTimer times the stages a learner reports through its Progress:
// a stage lasts from its first report to the first report of the next
// (or to end).
type stageTimer struct {
	names []string
	times map[string]time.Duration
	cur   string
	since time.Time
	shown time.Time     // when a progress line was last written
	line  *progressLine // nil: quiet
}

func newStageTimer() *stageTimer { return &stageTimer{times: make(map[string]time.Duration)} }

// add records a stage timed outside the learner.
func (s *stageTimer) add(name string, d time.Duration) {
	if _, ok := s.times[name]; !ok {
		s.names = append(s.names, name)
	}
	s.times[name] += d
}

// pass returns opts whose Progress shows the passes over the samples as
// the stage name through p.
func (s *stageTimer) pass(p moments.Progress, name string, opts moments.Options) *moments.Options {
	p(name, 0, 1)
	opts.Progress = func(_ string, done, total int) { p(name, done, total) }
	return &opts
}

// progress returns the moments.Progress that times the stages and, unless
// quiet, shows the current one on w.
func (s *stageTimer) progress(w io.Writer, quiet bool) moments.Progress {
	if !quiet {
		s.line = &progressLine{w: w}
	}
	return func(stage string, done, total int) {
		now := time.Now()
		changed := stage != s.cur
		if changed {
			s.close()
			s.cur, s.since = stage, now
		}
		// at most ten lines a second, so that a log stays short
		if s.line != nil && (changed || done == total || now.Sub(s.shown) >= 100*time.Millisecond) {
			s.shown = now
			s.line.show(fmt.Sprintf("%s %d/%d", stage, done, total))
		}
	}
}

func (s *stageTimer) close() {
	if s.cur != "" {
		s.add(s.cur, time.Since(s.since))
	}
}

// end closes the current stage, which so includes whatever the learner
// did after its last report. It clears the progress line, or, when the
// work failed (or was interrupted), ends it with a newline, so that it
// still shows where the work stopped and the error starts a line.
func (s *stageTimer) end(failed bool) {
	s.close()
	s.cur = ""
	if s.line == nil {
		return
	}
	if failed {
		s.line.end()
	} else {
		s.line.clear()
	}
}

// progressLine is the one line of progress on stderr, rewritten in
// place.
type progressLine struct {
	w    io.Writer
	open bool // a line is shown and not ended
}

// show rewrites the line with s.
func (p *progressLine) show(s string) {
	fmt.Fprintf(p.w, "\r%-60s", s)
	p.open = true
}

// clear blanks the line, leaving the cursor at its start.
func (p *progressLine) clear() {
	if p.open {
		fmt.Fprintf(p.w, "\r%-60s\r", "")
		p.open = false
	}
}

// end ends the line with a newline, keeping what it shows.
func (p *progressLine) end() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// print lists the stages and their times.
func (s *stageTimer) print(w io.Writer) {
	var total time.Duration
	for _, n := range s.names {
		fmt.Fprintf(w, "  %-24s %8.2fs\n", n, s.times[n].Seconds())
		total += s.times[n]
	}
	fmt.Fprintf(w, "  %-24s %8.2fs\n", "total", total.Seconds())
}
