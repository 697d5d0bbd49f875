package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/treemix"
)

const treemixUsage = `usage: moments treemix [flags] DATA.csv

Learns a mixture of R trees from integer CSV data (one sample a line, one
state a field) with the spectral method of Anandkumar, Hsu, Huang and
Kakade (rank test for the union graph, spectral decomposition, Chow-Liu
trees), refines it with EM, and prints the weights, the trees and the
held-out log-likelihood. DATA.csv may be gzip-compressed.
`

// runTreemix is the treemix subcommand.
func runTreemix(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("treemix", treemixUsage)
	r := fs.Int("r", 2, "number of mixture components (at least 1)")
	eta := fs.Int("eta", 0, "separator bound of the rank test, at most the variables less 2 (0: r; -1: no separators)")
	xi := fs.Float64("xi", 0, "fixed singular-value threshold of the rank test, >= 0 (0: scaled to the noise)")
	xiScale := fs.Float64("xi-scale", 0, "scale of the default threshold, >= 0 (0: 0.8)")
	pairs := fs.String("pairs", "edges", "pairs to decompose: edges (of the union graph) or all")
	refs := fs.String("ref", "", "comma-separated candidate reference nodes (default: the isolated nodes)")
	isolate := fs.Bool("isolate", false, "cut the edges of the -ref nodes instead of requiring them isolated")
	holdout := fs.Float64("holdout", 0.2, "fraction of the samples held out for the log-likelihood, in [0, 1)")
	seed := fs.Uint64("seed", 1, "random seed (split, random starts)")
	emIter := fs.Int("em", 100, "EM iterations refining the spectral estimate (0: no refinement)")
	restarts := fs.Int("restarts", 0, "also run EM from this many random starts, for comparison")
	dot := fs.String("dot", "", "write the final trees to this file as Graphviz DOT")
	drop := fs.String("drop", "", "comma-separated columns (0-based) to ignore, such as a label")
	threshold := fs.Int("threshold", -1, "binarise: states above this become 1, the others 0 (-1: off)")
	group := fs.Int("group", 1, "merge runs of this many consecutive variables into one")
	states := fs.Int("states", 0, "number of states (0: the largest state plus one)")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	maxMem := maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout, "DATA.csv"); err != nil {
		return err
	}
	if err := fs.check(
		atLeast("r", *r, 1),
		atLeast("eta", *eta, -1),
		floatIn("xi", *xi, nonNegative),
		floatIn("xi-scale", *xiScale, nonNegative),
		floatIn("holdout", *holdout, unitHalf),
		atLeast("em", *emIter, 0),
		atLeast("restarts", *restarts, 0),
		atLeast("threshold", *threshold, -1),
		atLeast("group", *group, 1),
		atLeast("states", *states, 0),
	); err != nil {
		return err
	}
	if *pairs != "edges" && *pairs != "all" {
		return fs.usagef("-pairs %q: want edges or all", *pairs)
	}
	if *isolate && *refs == "" {
		return fs.usagef("-isolate needs -ref")
	}
	out, err := createOutput("dot", *dot)
	if err != nil {
		return err
	}
	defer out.discard()
	path := fs.Arg(0)
	f, err := openInput(ctx, path)
	if err != nil {
		return err
	}
	x, err := treemix.ReadCSV(f, treemix.CSVOptions{States: *states, MaxMemory: *maxMem})
	f.Close()
	if err != nil {
		return inFile(path, err)
	}
	if x, err = prepare(fs, x, *drop, *threshold, *group); err != nil {
		return err
	}
	if _, p, _ := x.Dims(); *eta > max(p-2, 0) {
		return fs.usagef("-eta %d: more than the %d variables less 2", *eta, p)
	}
	opts := treemix.Options{MaxMemory: *maxMem}
	line := &progressLine{w: stderr}
	defer line.end()
	if !*quiet {
		// one line per stage, rewritten in place as it advances
		opts.Progress = func(stage string, done, total int) {
			line.show(fmt.Sprintf("treemix: %s %d/%d", stage, done, total))
			if done == total {
				line.end()
			}
		}
	}
	rng := rand.New(rand.NewPCG(*seed, 0x7e11))
	train, test := x, (*treemix.Data)(nil)
	if *holdout > 0 {
		train, test = x.Split(rng, 1-*holdout)
	}
	n, p, d := train.Dims()
	fmt.Fprintf(stdout, "data       %d variables, %d states, %d samples for training", p, d, n)
	if test != nil {
		nt, _, _ := test.Dims()
		fmt.Fprintf(stdout, ", %d held out", nt)
	}
	fmt.Fprintln(stdout)

	lo := treemix.LearnOptions{Options: opts}
	lo.Rank.Eta, lo.Rank.Xi, lo.Rank.XiScale = *eta, *xi, *xiScale
	lo.Spectral.EdgesOnly = *pairs == "edges"
	if *refs != "" {
		for _, s := range strings.Split(*refs, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || v < 0 || v >= p {
				return fs.usagef("-ref %q: not a variable (0 to %d)", s, p-1)
			}
			lo.Spectral.Reference = append(lo.Spectral.Reference, v)
		}
		lo.Spectral.Isolate = *isolate
	}
	lo.Spectral.Seed = *seed
	start := time.Now()
	spec, rep, err := treemix.Learn(ctx, treemix.Empirical(train, opts), *r, lo)
	line.end()
	if rep != nil && rep.Rank != nil {
		fmt.Fprintf(stdout, "union      %d edges; rank tests by separator size %v, pairs removed %v; isolated %v\n",
			rep.Rank.Graph.NumEdges(), rep.Rank.Tests, rep.Rank.Removed, rep.Rank.Graph.Isolated())
	}
	if err != nil {
		return err
	}
	c := rep.Components
	fmt.Fprintf(stdout, "spectral   reference node %d, %d pairs estimated (%d through the reference alone, without a witness) (%.2fs)\n",
		c.Reference, len(c.Pairs), len(c.Demixed), time.Since(start).Seconds())
	score := func(m *treemix.Mixture) string {
		if test == nil {
			return "-"
		}
		nt, _, _ := test.Dims()
		ll, err := m.LogLikelihood(ctx, test, treemix.Options{})
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%.4f", ll/float64(nt))
	}
	fmt.Fprintf(stdout, "\nheld-out log-likelihood per sample (nats):\n")
	fmt.Fprintf(stdout, "  %-22s %10s\n", "spectral", score(spec))
	final := spec
	emRun := func(name string, init *treemix.Mixture, maxIter int) (*treemix.Mixture, error) {
		t0 := time.Now()
		m, res, err := treemix.EM(ctx, train, init, treemix.EMOptions{Options: treemix.Options{Workers: opts.Workers, MaxMemory: opts.MaxMemory}, MaxIter: maxIter})
		if err != nil && !errors.Is(err, treemix.ErrNoConvergence) {
			return nil, err
		}
		fmt.Fprintf(stdout, "  %-22s %10s  (%d iterations, %.2fs)\n", name, score(m), res.Iterations, time.Since(t0).Seconds())
		return m, nil
	}
	if *emIter > 0 {
		if final, err = emRun("EM from spectral", spec, *emIter); err != nil {
			return err
		}
	}
	for i := range *restarts {
		if err := ctx.Err(); err != nil {
			return err
		}
		init := treemix.RandomStart(rng, train, *r)
		if _, err := emRun(fmt.Sprintf("EM random start %d", i+1), init, max(*emIter, 100)); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "\nmodel (%s):\n", map[bool]string{true: "spectral refined by EM", false: "spectral"}[*emIter > 0])
	for h, net := range final.Nets {
		var edges []string
		for _, e := range net.TreeEdges() {
			edges = append(edges, fmt.Sprintf("%d-%d", e[0], e[1]))
		}
		fmt.Fprintf(stdout, "  H=%d weight %.4f  tree: %s\n", h, final.Weights[h], strings.Join(edges, " "))
	}
	if out != nil {
		if err := out.commit(func(w io.Writer) error { return treemix.WriteDOT(w, final, x.Names) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "trees written to %s\n", *dot)
	}
	return nil
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
