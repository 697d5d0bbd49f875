package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/treemix"
)

const treemixUsage = `usage: moments treemix [flags] DATA.csv

Learns a mixture of R trees from integer CSV data (one sample a line, one
state a field) with the spectral method of Anandkumar, Hsu, Huang and
Kakade (rank test for the union graph, spectral decomposition, Chow-Liu
trees), refines it with EM, and prints the weights, the trees and the
held-out log-likelihood. DATA.csv may be gzip-compressed.
`

// treemixFlags are the flags of the treemix subcommand.
type treemixFlags struct {
	fs                       *cmdFlags
	r, eta                   *int
	xi, xiScale, holdout     *float64
	pairs, refs, dot, drop   *string
	isolate, quiet           *bool
	seed                     *uint64
	emIter, restarts         *int
	threshold, group, states *int
	maxMem                   *int64
}

// parseTreemixFlags defines, parses and checks the flags of the treemix
// subcommand.
func parseTreemixFlags(args []string, stdout io.Writer) (*treemixFlags, error) {
	fs := newFlags("treemix", treemixUsage)
	f := &treemixFlags{fs: fs,
		r:         fs.Int("r", 2, "number of mixture components (at least 1)"),
		eta:       fs.Int("eta", 0, "separator bound of the rank test, at most the variables less 2 (0: r; -1: no separators)"),
		xi:        fs.Float64("xi", 0, "fixed singular-value threshold of the rank test, >= 0 (0: scaled to the noise)"),
		xiScale:   fs.Float64("xi-scale", 0, "scale of the default threshold, >= 0 (0: 0.8)"),
		pairs:     fs.String("pairs", "edges", "pairs to decompose: edges (of the union graph) or all"),
		refs:      fs.String("ref", "", "comma-separated candidate reference nodes (default: the isolated nodes)"),
		isolate:   fs.Bool("isolate", false, "cut the edges of the -ref nodes instead of requiring them isolated"),
		holdout:   fs.Float64("holdout", 0.2, "fraction of the samples held out for the log-likelihood, in [0, 1)"),
		seed:      fs.Uint64("seed", 1, "random seed (split, random starts)"),
		emIter:    fs.Int("em", 100, "EM iterations refining the spectral estimate (0: no refinement)"),
		restarts:  fs.Int("restarts", 0, "also run EM from this many random starts, for comparison"),
		dot:       fs.String("dot", "", "write the final trees to this file as Graphviz DOT"),
		drop:      fs.String("drop", "", "comma-separated columns (0-based) to ignore, such as a label"),
		threshold: fs.Int("threshold", -1, "binarise: states above this become 1, the others 0 (-1: off)"),
		group:     fs.Int("group", 1, "merge runs of this many consecutive variables into one"),
		states:    fs.Int("states", 0, "number of states (0: the largest state plus one)"),
		quiet:     fs.Bool("q", false, "no progress lines on stderr"),
		maxMem:    maxMemoryFlag(fs.FlagSet),
	}
	if err := fs.parse(args, stdout, "DATA.csv"); err != nil {
		return nil, err
	}
	if err := fs.check(
		atLeast("r", *f.r, 1),
		atLeast("eta", *f.eta, -1),
		floatIn("xi", *f.xi, nonNegative),
		floatIn("xi-scale", *f.xiScale, nonNegative),
		floatIn("holdout", *f.holdout, unitHalf),
		atLeast("em", *f.emIter, 0),
		atLeast("restarts", *f.restarts, 0),
		atLeast("threshold", *f.threshold, -1),
		atLeast("group", *f.group, 1),
		atLeast("states", *f.states, 0),
	); err != nil {
		return nil, err
	}
	if *f.pairs != "edges" && *f.pairs != "all" {
		return nil, fs.usagef("-pairs %q: want edges or all", *f.pairs)
	}
	if *f.isolate && *f.refs == "" {
		return nil, fs.usagef("-isolate needs -ref")
	}
	return f, nil
}

// runTreemix is the treemix subcommand: read and prepare the data, split
// off the held-out part, learn the spectral estimate, refine it (and
// compare random starts) with EM, and print and draw the model.
func runTreemix(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseTreemixFlags(args, stdout)
	if err != nil {
		return err
	}
	out, err := createOutput("dot", *f.dot)
	if err != nil {
		return err
	}
	defer out.discard()
	x, err := f.readData(ctx)
	if err != nil {
		return err
	}
	opts := treemix.Options{MaxMemory: *f.maxMem}
	line := &progressLine{w: stderr}
	defer line.end()
	if !*f.quiet {
		opts.Progress = stageProgress(line)
	}
	train, test := x, (*treemix.Data)(nil)
	if *f.holdout > 0 {
		train, test = x.Split(1-*f.holdout, *f.seed)
	}
	printTreemixData(stdout, train, test)
	_, p, _ := train.Dims()
	lo, err := f.learnOptions(opts, p)
	if err != nil {
		return err
	}
	start := time.Now()
	spec, rep, err := treemix.Learn(ctx, treemix.Empirical(train, &opts), *f.r, lo)
	line.end()
	printSpectralReport(stdout, rep, time.Since(start))
	if err != nil {
		return err
	}
	score := heldOutScore(ctx, test)
	fmt.Fprintf(stdout, "\nheld-out log-likelihood per sample (nats):\n")
	fmt.Fprintf(stdout, "  %-22s %10s\n", "spectral", score(spec))
	final, err := f.runEM(ctx, stdout, train, spec, opts, score)
	if err != nil {
		return err
	}
	printTreemixModel(stdout, final, *f.emIter > 0)
	if out != nil {
		if err := out.commit(func(w io.Writer) error { return treemix.WriteDOT(w, final, x.Names) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "trees written to %s\n", *f.dot)
	}
	return nil
}

// readData reads the CSV file the arguments name and prepares it as the
// flags ask (columns dropped, binarised, grouped).
func (f *treemixFlags) readData(ctx context.Context) (*treemix.Data, error) {
	path := f.fs.Arg(0)
	in, err := openInput(ctx, path)
	if err != nil {
		return nil, err
	}
	x, err := treemix.ReadCSV(in, &treemix.CSVOptions{States: *f.states, MaxMemory: *f.maxMem})
	in.Close()
	if err != nil {
		return nil, inFile(path, err)
	}
	if x, err = prepare(f.fs, x, *f.drop, *f.threshold, *f.group); err != nil {
		return nil, err
	}
	if _, p, _ := x.Dims(); *f.eta > max(p-2, 0) {
		return nil, f.fs.usagef("-eta %d: more than the %d variables less 2", *f.eta, p)
	}
	return x, nil
}

// stageProgress shows the progress of every stage on line, one line per
// stage, rewritten in place as it advances.
func stageProgress(line *progressLine) moments.Progress {
	return func(stage string, done, total int) {
		line.show(fmt.Sprintf("treemix: %s %d/%d", stage, done, total))
		if done == total {
			line.end()
		}
	}
}

// learnOptions returns the options of the spectral method that the
// flags set, for data of p variables.
func (f *treemixFlags) learnOptions(opts treemix.Options, p int) (*treemix.LearnOptions, error) {
	lo := &treemix.LearnOptions{Options: opts}
	lo.Rank.Eta, lo.Rank.Xi, lo.Rank.XiScale = *f.eta, *f.xi, *f.xiScale
	lo.Spectral.EdgesOnly = *f.pairs == "edges"
	if *f.refs != "" {
		for _, s := range strings.Split(*f.refs, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || v < 0 || v >= p {
				return nil, f.fs.usagef("-ref %q: not a variable (0 to %d)", s, p-1)
			}
			lo.Spectral.Reference = append(lo.Spectral.Reference, v)
		}
		lo.Spectral.Isolate = *f.isolate
	}
	lo.Spectral.Seed = *f.seed
	return lo, nil
}

// printTreemixData prints the sizes of the training and held-out data.
func printTreemixData(w io.Writer, train, test *treemix.Data) {
	n, p, d := train.Dims()
	fmt.Fprintf(w, "data       %d variables, %d states, %d samples for training", p, d, n)
	if test != nil {
		nt, _, _ := test.Dims()
		fmt.Fprintf(w, ", %d held out", nt)
	}
	fmt.Fprintln(w)
}

// printSpectralReport prints what the stages of the spectral method
// found: the union graph (also when a later stage failed) and the
// decomposition.
func printSpectralReport(w io.Writer, rep *treemix.Report, took time.Duration) {
	if rep == nil {
		return
	}
	if rep.Rank != nil {
		fmt.Fprintf(w, "union      %d edges; rank tests by separator size %v, pairs removed %v; isolated %v\n",
			rep.Rank.Graph.NumEdges(), rep.Rank.Tests, rep.Rank.Removed, rep.Rank.Graph.Isolated())
	}
	if c := rep.Components; c != nil {
		fmt.Fprintf(w, "spectral   reference node %d, %d pairs estimated (%d through the reference alone, without a witness) (%.2fs)\n",
			c.Reference, len(c.Pairs), len(c.Demixed), took.Seconds())
	}
}

// heldOutScore returns the function that formats the mean held-out
// log-likelihood of a model on test ("-" without held-out data).
func heldOutScore(ctx context.Context, test *treemix.Data) func(*treemix.Mixture) string {
	return func(m *treemix.Mixture) string {
		if test == nil {
			return "-"
		}
		nt, _, _ := test.Dims()
		ll, err := m.LogLikelihood(ctx, test, nil)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%.4f", ll/float64(nt))
	}
}

// runEM refines the spectral estimate spec with EM (unless -em 0) and
// runs EM from the random starts -restarts asks for, printing the
// held-out score of each; it returns the final model: the refined
// estimate, or spec itself.
func (f *treemixFlags) runEM(ctx context.Context, w io.Writer, train *treemix.Data, spec *treemix.Mixture, opts treemix.Options, score func(*treemix.Mixture) string) (*treemix.Mixture, error) {
	emRun := func(name string, init *treemix.Mixture, maxIter int) (*treemix.Mixture, error) {
		t0 := time.Now()
		m, res, err := treemix.LearnEM(ctx, train, init, &treemix.EMOptions{Options: treemix.Options{Workers: opts.Workers, MaxMemory: opts.MaxMemory}, MaxIter: maxIter})
		if err != nil && !errors.Is(err, treemix.ErrNoConvergence) {
			return nil, err
		}
		fmt.Fprintf(w, "  %-22s %10s  (%d iterations, %.2fs)\n", name, score(m), res.Iterations, time.Since(t0).Seconds())
		return m, nil
	}
	final := spec
	if *f.emIter > 0 {
		var err error
		if final, err = emRun("EM from spectral", spec, *f.emIter); err != nil {
			return nil, err
		}
	}
	for i := range *f.restarts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// every start its own seed, derived from -seed
		init := treemix.RandomStart(train, *f.r, *f.seed+uint64(i))
		if _, err := emRun(fmt.Sprintf("EM random start %d", i+1), init, max(*f.emIter, 100)); err != nil {
			return nil, err
		}
	}
	return final, nil
}

// printTreemixModel prints the weights and trees of the final model.
func printTreemixModel(w io.Writer, final *treemix.Mixture, refined bool) {
	fmt.Fprintf(w, "\nmodel (%s):\n", map[bool]string{true: "spectral refined by EM", false: "spectral"}[refined])
	for h, net := range final.Nets {
		var edges []string
		for _, e := range net.TreeEdges() {
			edges = append(edges, fmt.Sprintf("%d-%d", e[0], e[1]))
		}
		fmt.Fprintf(w, "  H=%d weight %.4f  tree: %s\n", h, final.Weights[h], strings.Join(edges, " "))
	}
}

// prepare drops columns, binarises and groups variables as the flags ask.
func prepare(fs *cmdFlags, x *treemix.Data, drop string, threshold, group int) (*treemix.Data, error) {
	_, p, _ := x.Dims()
	if drop != "" {
		skip := make(map[int]bool)
		for _, s := range strings.Split(drop, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || v < 0 || v >= p {
				return nil, fs.usagef("-drop %q: not a column (0 to %d)", s, p-1)
			}
			skip[v] = true
		}
		var keep []int
		for v := range p {
			if !skip[v] {
				keep = append(keep, v)
			}
		}
		x = x.Select(keep)
	}
	if threshold >= 0 {
		x = x.Threshold(threshold)
	}
	if group > 1 {
		return x.Group(group)
	}
	return x, nil
}
