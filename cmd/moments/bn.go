package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
)

const bnUsage = `usage: moments bn [flags] DATA.csv

Learns a fully observed linear Bayesian network (a linear structural
equation model, the problem of LiNGAM) x = Lambda x + eta from numeric
samples (one sample a line, one variable a field; blank lines and lines
starting with # are skipped), with independent non-Gaussian noises eta:
the causal order from the noise directions that the whitened third or
fourth cumulant (or both) separate, chosen per data set from the
skewness and kurtosis of the noises, then each variable's
parents among its predecessors by an adaptive lasso on the covariance
with the extended Bayesian information criterion (-gamma, -ebic; see
linear.SparseLambda), the coefficients refitted by least squares. It
prints the order, the edges with their weights and confidences (the
z-score |weight| / standard error from the covariance, and with
-bootstrap B the share of B bootstrap resamples that find the edge),
the cumulants chosen, the noise variances, skewnesses and excess
kurtoses, and the identifiability checks.
-json and -dot write the graph. DATA.csv may be gzip-compressed.

Prior knowledge names variables as the header does (x1, x2, ... without
one): -require "a->b,c->d" keeps the edges a -> b and c -> d, -forbid
"a->b" never draws one, -order "a->b" puts a before b in the causal
order (no path from b to a).
`

// bnFlags are the flags of bn.
type bnFlags struct {
	fs                        *cmdFlags
	seed                      *uint64
	header, comma             *string
	boot, workers             *int
	gamma, ebic               *float64
	dense, quiet              *bool
	require, forbid, order    *string
	jsonPath, dotPath         *string
	maxMem                    *int64
	reqPairs, forbPairs, ords [][2]string
}

func parseBNFlags(args []string, stdout io.Writer) (*bnFlags, error) {
	fs := newFlags("bn", bnUsage)
	f := &bnFlags{fs: fs}
	f.seed = fs.Uint64("seed", 1, "random seed (the ECA start and the bootstrap resamples)")
	f.header = fs.String("header", "auto", "first line holds the names: yes, no or auto (yes if a field is not a number)")
	f.comma = fs.String("comma", ",", "field separator (one character, not part of a number; \\t for a tab)")
	f.boot = fs.Int("bootstrap", 0, "bootstrap resamples for the edge probabilities (0: none)")
	f.gamma = fs.Float64("gamma", 1, "exponent of the adaptive lasso's weights 1/|b_OLS|^gamma (> 0)")
	f.ebic = fs.Float64("ebic", 1, "weight of the extended BIC's term 2 gamma' log C(m, |A|) (>= 0; 0: the plain BIC)")
	f.dense = fs.Bool("dense", false, "no pruning: every coefficient of the estimate I - diag(C~) C~^-1 from the noise directions, found by the third or fourth cumulant (for comparison)")
	f.require = fs.String("require", "", "required edges, as \"a->b,c->d\"")
	f.forbid = fs.String("forbid", "", "forbidden edges, as \"a->b,c->d\"")
	f.order = fs.String("order", "", "partial order, as \"a->b,c->d\": a comes before b")
	f.jsonPath = fs.String("json", "", "also write the graph (order, edges with weights and confidences, noises) as JSON to this file")
	f.dotPath = fs.String("dot", "", "also write the graph as Graphviz DOT to this file")
	f.workers = fs.Int("workers", 0, "goroutines (0: GOMAXPROCS)")
	f.quiet = fs.Bool("q", false, "no progress lines on stderr")
	f.maxMem = maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout, "DATA.csv"); err != nil {
		return nil, err
	}
	if err := fs.check(
		atLeast("bootstrap", *f.boot, 0),
		floatIn("gamma", *f.gamma, positive),
		floatIn("ebic", *f.ebic, nonNegative),
		atLeast("workers", *f.workers, 0),
	); err != nil {
		return nil, err
	}
	for _, e := range []struct {
		name string
		s    string
		dst  *[][2]string
	}{{"require", *f.require, &f.reqPairs}, {"forbid", *f.forbid, &f.forbPairs}, {"order", *f.order, &f.ords}} {
		pairs, err := parseArrows(e.s)
		if err != nil {
			return nil, fs.usagef("-%s %q: %v", e.name, e.s, err)
		}
		*e.dst = pairs
	}
	return f, nil
}

// parseArrows reads "a->b,c->d" into name pairs (spaces around names
// are ignored; "" is no pair).
func parseArrows(s string) ([][2]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out [][2]string
	for _, item := range strings.Split(s, ",") {
		from, to, ok := strings.Cut(item, "->")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if !ok || from == "" || to == "" || strings.Contains(to, "->") {
			return nil, fmt.Errorf("%q is not an edge a->b", strings.TrimSpace(item))
		}
		out = append(out, [2]string{from, to})
	}
	return out, nil
}

// edges resolves name pairs to variable indices.
func edges(flagName string, pairs [][2]string, index map[string]int) ([]linear.Edge, error) {
	var out []linear.Edge
	for _, p := range pairs {
		var e [2]int
		for i, name := range p {
			v, ok := index[name]
			if !ok {
				return nil, fmt.Errorf("-%s %s->%s: no variable %q in the data", flagName, p[0], p[1], name)
			}
			e[i] = v
		}
		if e[0] == e[1] {
			return nil, fmt.Errorf("-%s %s->%s: an edge from a variable to itself", flagName, p[0], p[1])
		}
		out = append(out, linear.Edge{From: e[0], To: e[1]})
	}
	return out, nil
}

// csvOptions reads -header and -comma into the CSV reader's options.
func csvOptions(fs *cmdFlags, header, comma string, maxMem int64) (linear.CSVOptions, error) {
	opts := linear.CSVOptions{MaxMemory: maxMem}
	switch strings.ToLower(header) {
	case "auto", "":
	case "yes", "true", "1":
		opts.Header = 1
	case "no", "false", "0":
		opts.Header = -1
	default:
		return opts, fs.usagef("-header %q: want yes, no or auto", header)
	}
	sep := strings.ReplaceAll(comma, `\t`, "\t")
	if utf8.RuneCountInString(sep) != 1 || !utf8.ValidString(sep) || strings.ContainsAny(sep, "0123456789.+-eEiInN#\r\n\"") {
		return opts, fs.usagef("-comma %q: want one character that cannot occur in a number", comma)
	}
	opts.Comma, _ = utf8.DecodeRuneInString(sep)
	return opts, nil
}

// bnEdge is an edge of the learned graph as bn prints and writes it.
// StdErr and Z are nil (omitted from the JSON, "z -" in the text) when
// the standard error is unknown (no sample count, or NaN: too few
// samples for the parents) or zero (an exact fit, whose z is infinite).
type bnEdge struct {
	From   string   `json:"from"`
	To     string   `json:"to"`
	Weight float64  `json:"weight"`
	StdErr *float64 `json:"stderr,omitempty"`
	Z      *float64 `json:"z,omitempty"`
	Prob   *float64 `json:"bootstrap_prob,omitempty"`
}

// bnGraph is the JSON output of bn.
type bnGraph struct {
	Variables []string    `json:"variables"`
	Samples   int         `json:"samples"`
	Order     []string    `json:"order"`
	Edges     []bnEdge    `json:"edges"`
	Lambda    [][]float64 `json:"lambda"`
	NoiseVar  []float64   `json:"noise_var"`
	// Skewness and Kurtosis (excess) of the noises, null where unknown
	// (NaN: the kurtosis when only the third cumulant was used).
	Skewness []*float64 `json:"noise_skewness"`
	Kurtosis []*float64 `json:"noise_kurtosis"`
	// Cumulants are those that separated the noises: third, fourth or
	// both (linear.ObservedBN.Cumulants).
	Cumulants string `json:"cumulants"`
	Bootstrap int    `json:"bootstrap,omitempty"`
	// BootstrapFailed counts the resamples whose fit failed.
	BootstrapFailed int      `json:"bootstrap_failed,omitempty"`
	Pruning         string   `json:"pruning"`
	Warnings        []string `json:"warnings"`
}

// runBN is the bn subcommand.
func runBN(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseBNFlags(args, stdout)
	if err != nil {
		return err
	}
	copts, err := csvOptions(f.fs, *f.header, *f.comma, *f.maxMem)
	if err != nil {
		return err
	}
	jsonOut, err := createOutput("json", *f.jsonPath)
	if err != nil {
		return err
	}
	defer jsonOut.discard()
	dotOut, err := createOutput("dot", *f.dotPath)
	if err != nil {
		return err
	}
	defer dotOut.discard()
	path := f.fs.Arg(0)

	start := time.Now()
	in, err := openInput(ctx, path)
	if err != nil {
		return err
	}
	data, err := linear.ReadCSV(in, &copts)
	in.Close()
	if err != nil {
		return inFile(path, err)
	}
	N, n := data.NumSamples(), data.Dim()
	fmt.Fprintf(stdout, "data       %d samples of %d variables (read in %.2fs)\n", N, n, time.Since(start).Seconds())
	if N < 2 || n < 2 {
		return fmt.Errorf("%s: %d sample(s) of %d variable(s), need at least 2 of 2: %w", path, N, n, linear.ErrBadData)
	}
	names := data.Names
	if names == nil {
		names = make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("x%d", i+1)
		}
	}
	index := make(map[string]int, n)
	for i, s := range names {
		if _, dup := index[s]; !dup {
			index[s] = i
		}
	}

	do := linear.DAGOptions{PruneGamma: *f.gamma, PruneEBIC: *f.ebic, Samples: N}
	if *f.ebic == 0 {
		do.PruneEBIC = -1 // the library's plain BIC
	}
	if *f.dense {
		do.Pruning = linear.PruneNone
	}
	do.Seed, do.MaxMemory = *f.seed, *f.maxMem
	do.DLD.Workers, do.TWM.Workers = *f.workers, *f.workers
	if do.Required, err = edges("require", f.reqPairs, index); err != nil {
		return err
	}
	if do.Forbidden, err = edges("forbid", f.forbPairs, index); err != nil {
		return err
	}
	if do.PartialOrder, err = edges("order", f.ords, index); err != nil {
		return err
	}
	if err := do.CheckObserved(n); err != nil {
		return err
	}
	mo := moments.Options{Workers: *f.workers, MaxMemory: *f.maxMem}
	stages := newStageTimer()
	do.Progress = stages.progress(stderr, *f.quiet)
	start = time.Now()
	var bn *linear.ObservedBN
	var boot *linear.BootstrapBN
	if *f.boot > 0 {
		boot, err = linear.BootstrapObservedBN(ctx, data, &linear.BootstrapOptions{DAG: do, Resamples: *f.boot, Passes: mo})
		if err == nil {
			bn = boot.ObservedBN
		}
	} else {
		var sm *moments.SampleMoments
		sm, err = moments.NewSampleMoments(ctx, data, stages.pass(do.Progress, "moments", mo))
		if err == nil {
			bn, err = linear.LearnObservedBN(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: data, Passes: mo}, &do)
		}
	}
	stages.end(err != nil)
	if err != nil {
		return err
	}
	printWarnings(stderr, bn.Warnings)
	fmt.Fprintf(stdout, "learned    in %.2fs", time.Since(start).Seconds())
	if boot != nil {
		fmt.Fprintf(stdout, " (with %d bootstrap resamples", boot.Resamples)
		if boot.Failed > 0 {
			fmt.Fprintf(stdout, ", %d of which failed", boot.Failed)
		}
		fmt.Fprint(stdout, ")")
	}
	fmt.Fprintln(stdout)

	g := bnResult(bn, boot, names, N, do.Pruning)
	ord := slices.Clone(g.Order)
	fmt.Fprintf(stdout, "\ncausal order: %s (parents come first)\n", strings.Join(ord, " "))
	pruning := "adaptive lasso, extended BIC"
	if *f.dense {
		pruning = "none (-dense)"
	}
	fmt.Fprintf(stdout, "edges (%d; pruning: %s): child <- parent weight [z = |weight|/stderr", len(g.Edges), pruning)
	if boot != nil {
		fmt.Fprint(stdout, ", bootstrap probability")
	}
	fmt.Fprintln(stdout, "]")
	if len(g.Edges) == 0 {
		fmt.Fprintln(stdout, "  none")
	}
	for _, e := range g.Edges {
		fmt.Fprintf(stdout, "  %s <- %s %+.4f [%s", e.To, e.From, e.Weight, fmtZ(e.Z))
		if e.Prob != nil {
			fmt.Fprintf(stdout, ", %.2f", *e.Prob)
		}
		fmt.Fprintln(stdout, "]")
	}
	fmt.Fprintf(stdout, "\nnoises (variance, skewness up to sign, excess kurtosis), separated by %s:\n", cumulantsWords(bn.Cumulants))
	for _, i := range bn.Order {
		fmt.Fprintf(stdout, "  %-12s %9.4g %s %s\n", names[i], bn.EtaVar[i], fmtNoise(bn.Skewness, i), fmtNoise(bn.Kurtosis, i))
	}
	fmt.Fprintln(stdout, "\nidentifiability checks of the learner (failures are also warned on stderr):")
	for _, c := range bn.Checks {
		fmt.Fprintf(stdout, "  %s\n", c)
	}
	if jsonOut != nil {
		if err := jsonOut.commit(func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(g)
		}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\ngraph written to %s\n", *f.jsonPath)
	}
	if dotOut != nil {
		if err := dotOut.commit(func(w io.Writer) error { return writeBNDOT(w, g) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\ngraph written to %s\n", *f.dotPath)
	}
	fmt.Fprintln(stdout, "\ntime:")
	stages.print(stdout)
	return nil
}

// bnResult collects the graph of a learned network: the edges in the
// causal order of their children, parents in order too.
func bnResult(bn *linear.ObservedBN, boot *linear.BootstrapBN, names []string, samples int, pruning linear.PruneMethod) *bnGraph {
	n := len(names)
	g := &bnGraph{Variables: names, Samples: samples, NoiseVar: bn.EtaVar, Skewness: finite(bn.Skewness), Kurtosis: finite(bn.Kurtosis),
		Cumulants: bn.Cumulants.String(), Pruning: pruning.String(), Warnings: bn.Warnings}
	if g.Warnings == nil {
		g.Warnings = []string{}
	}
	g.Edges = []bnEdge{}
	for _, i := range bn.Order {
		g.Order = append(g.Order, names[i])
	}
	g.Lambda = make([][]float64, n)
	for i := range n {
		g.Lambda[i] = slices.Clone(bn.Lambda.RawRow(i))
	}
	if boot != nil {
		g.Bootstrap, g.BootstrapFailed = boot.Resamples, boot.Failed
	}
	for _, i := range bn.Order {
		for _, j := range bn.Order {
			w := bn.Lambda.At(i, j)
			if w == 0 {
				continue
			}
			e := bnEdge{From: names[j], To: names[i], Weight: w}
			if bn.StdErr != nil {
				if se := bn.StdErr.At(i, j); se > 0 {
					z := math.Abs(w) / se
					e.StdErr, e.Z = &se, &z
				}
			}
			if boot != nil {
				p := boot.EdgeProb.At(i, j)
				e.Prob = &p
			}
			g.Edges = append(g.Edges, e)
		}
	}
	return g
}

// finite returns pointers to the values of v, nil for NaN and the
// infinities (null in JSON, which holds no such number).
func finite(v []float64) []*float64 {
	out := make([]*float64, len(v))
	for i := range v {
		if !math.IsNaN(v[i]) && !math.IsInf(v[i], 0) {
			out[i] = &v[i]
		}
	}
	return out
}

// fmtNoise formats v[i], a skewness or kurtosis, for the noise table:
// "-" when unknown (NaN, or no value).
func fmtNoise(v []float64, i int) string {
	if i >= len(v) || math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
		return fmt.Sprintf("%8s", "-")
	}
	return fmt.Sprintf("%8.3f", v[i])
}

// cumulantsWords names the cumulants that separated the noises.
func cumulantsWords(c linear.Cumulants) string {
	switch c {
	case linear.CumulantsThird:
		return "the third cumulant"
	case linear.CumulantsFourth:
		return "the fourth cumulant"
	case linear.CumulantsBoth:
		return "the third and fourth cumulants"
	}
	return c.String()
}

func fmtZ(z *float64) string {
	if z == nil {
		return "z -"
	}
	return "z " + strconv.FormatFloat(*z, 'f', 1, 64)
}

// writeBNDOT writes the graph as Graphviz DOT: one node per variable,
// one edge per non-zero coefficient, labelled with the weight and the
// bootstrap probability (or the z-score without a bootstrap); the pen
// width grows with the confidence.
func writeBNDOT(w io.Writer, g *bnGraph) error {
	var b strings.Builder
	b.WriteString("digraph bn {\n  rankdir=LR;\n")
	for _, v := range g.Order {
		fmt.Fprintf(&b, "  %s;\n", strconv.Quote(v))
	}
	for _, e := range g.Edges {
		label := fmt.Sprintf("%.3g", e.Weight)
		width := 1.0
		switch {
		case e.Prob != nil:
			label += fmt.Sprintf(" (p %.2f)", *e.Prob)
			width = 0.5 + 2.5**e.Prob
		case e.Z != nil:
			label += fmt.Sprintf(" (z %.1f)", *e.Z)
			width = 0.5 + math.Min(*e.Z, 30)/10
		}
		fmt.Fprintf(&b, "  %s -> %s [label=%s, penwidth=%.2f];\n", strconv.Quote(e.From), strconv.Quote(e.To), strconv.Quote(label), width)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
