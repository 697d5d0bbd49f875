// Command moments-beam runs the learners of moments on Apache Beam, for
// data sharded over many files:
//
//	moments-beam lda     -in 'GLOB' -format counts|uci|lines|files [-words N | -vocab FILE] -k K -alpha0 A0 [-model FILE]
//	moments-beam dag     -in 'GLOB' -k K [-coef] [-header yes|no|auto] [-comma C]
//	moments-beam treemix -in 'GLOB' -r R [-states D] [-dot FILE]
//
// Every pass over the data is one Beam pipeline (see the package
// github.com/moments-go/moments/beam/dist). The pipelines run on the
// runner named by --runner: prism (the default) runs them in this
// process; flink, spark and dataflow take the flags of the Beam Go SDK
// (--endpoint, --environment_type, --project, --region,
// --staging_location ...), listed in beam/README.md. -temp names a
// directory every worker can read and write (gs:// for Dataflow).
//
// lda writes the model file of "moments lda -model" (topic.Save), so
// "moments lda infer" reads it. dag prints the coefficient matrix A
// (and Lambda) as "moments dag" does. treemix writes the mixture as
// Graphviz DOT with -dot, as "moments treemix -dot" does.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/moments-go/moments/beam/dist"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/mat"
)

// The flags of every command share Beam's flag set (the runner's flags
// are Beam's own), so that a worker started with Beam's flags alone
// parses them too.
var (
	in      = flag.String("in", "", "glob of the shards (required)")
	temp    = flag.String("temp", "", "directory for what the passes hand to the workers and back (default: a local temporary directory; gs://... for Dataflow)")
	k       = flag.Int("k", 0, "lda: topics; dag: hidden variables")
	format  = flag.String("format", "counts", "lda: shard format: counts (a document a line of id:count), uci (UCI docword files), lines (a document a line of text), files (a document a file)")
	words   = flag.Int("words", 0, "lda: vocabulary size of the counts and uci formats (default: the length of -vocab)")
	vocab   = flag.String("vocab", "", "lda: vocabulary file, one word a line (required for lines and files; names the words of the model otherwise)")
	alpha0  = flag.Float64("alpha0", 1, "lda: sum of the Dirichlet parameters")
	seed    = flag.Uint64("seed", 1, "random seed")
	model   = flag.String("model", "", "lda: save the model to this file (moments lda -model format)")
	coef    = flag.Bool("coef", false, "dag: learn the coefficient matrix only (linear.LearnCoefficients)")
	header  = flag.String("header", "auto", "dag, treemix: each shard's first line holds names: yes, no or auto")
	comma   = flag.String("comma", ",", "dag, treemix: field separator")
	r       = flag.Int("r", 0, "treemix: mixture components")
	states  = flag.Int("states", 0, "treemix: states (0: the largest state plus one)")
	dot     = flag.String("dot", "", "treemix: write the mixture as Graphviz DOT to this file")
	verbose = flag.Bool("v", false, "print what every pass cost on stderr")
	exact   = flag.Bool("exact", false, "lda: passes that are the same bits as \"moments lda\" on the concatenated shards (one more pass; the driver merges every chunk, see dist.Options.Exact)")
)

const usage = `usage: moments-beam lda|dag|treemix [flags]

Runs a learner of moments on sharded data with Apache Beam; every pass
over the data is one pipeline, run by --runner (default prism, in this
process). See beam/README.md for the flags of Flink, Spark and Dataflow.
`

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		// A worker started by a runner: Beam's flags only.
		flag.Parse()
		beam.Init()
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	cmd := os.Args[1]
	os.Args = append(os.Args[:1], os.Args[2:]...)
	flag.Usage = func() { fmt.Fprint(os.Stderr, usage); flag.PrintDefaults() }
	flag.Parse()
	beam.Init()
	if err := run(context.Background(), cmd, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "moments-beam:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cmd string, stdout, stderr io.Writer) error {
	if *in == "" {
		return errors.New("missing -in GLOB")
	}
	opts := &dist.Options{Runner: beamx.Run, TempDir: *temp, Exact: *exact}
	if *verbose {
		opts.OnPass = func(s dist.PassStats) {
			fmt.Fprintf(stderr, "pass %-10s %d shards, %d bytes of parts, %d bytes broadcast, %.2f s\n", s.Name, s.Shards, s.PartBytes, s.BroadcastBytes, s.Wall.Seconds())
		}
	}
	switch cmd {
	case "lda":
		return runLDA(ctx, opts, stdout)
	case "dag":
		return runDAG(ctx, opts, stdout)
	case "treemix":
		return runTreemix(ctx, opts, stdout)
	}
	return fmt.Errorf("unknown command %q (want lda, dag or treemix)", cmd)
}

func readVocab(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if w := strings.TrimSpace(l); w != "" {
			out = append(out, w)
		}
	}
	return out, nil
}

func runLDA(ctx context.Context, opts *dist.Options, stdout io.Writer) error {
	if *k < 1 {
		return errors.New("missing -k K, the number of topics")
	}
	docs := dist.Docs{Glob: *in, Format: dist.Format(*format), VocabSize: *words}
	var names []string
	if *vocab != "" {
		var err error
		if names, err = readVocab(*vocab); err != nil {
			return err
		}
		if docs.VocabSize == 0 {
			docs.VocabSize = len(names)
		}
		if docs.Format == dist.TextLines || docs.Format == dist.TextFiles {
			docs.Vocab = names
		} else if len(names) != docs.VocabSize {
			return fmt.Errorf("-vocab has %d words, -words says %d", len(names), docs.VocabSize)
		}
	}
	res, err := dist.LearnLDA(ctx, docs, *k, *alpha0, &topic.Options{Seed: *seed}, opts)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stdout, "warning:", w)
	}
	n, _ := res.Topics.Dims()
	col := make([]float64, n)
	for j := 0; j < *k; j++ {
		res.Topics.Col(col, j)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return col[idx[a]] > col[idx[b]] })
		var top []string
		for _, i := range idx[:min(10, n)] {
			if names != nil {
				top = append(top, names[i])
			} else {
				top = append(top, fmt.Sprint(i))
			}
		}
		fmt.Fprintf(stdout, "topic %d (alpha %.4g): %s\n", j, res.Alpha[j], strings.Join(top, " "))
	}
	if *model == "" {
		return nil
	}
	options := map[string]string{}
	flag.VisitAll(func(f *flag.Flag) {
		switch f.Name {
		case "k", "alpha0", "seed", "format", "words", "in":
			options[f.Name] = f.Value.String()
		}
	})
	m, err := topic.NewModel(res, names, options)
	if err != nil {
		return err
	}
	f, err := os.Create(*model)
	if err != nil {
		return err
	}
	if err := topic.Save(f, m); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func csvOptions() (dist.CSV, error) {
	c := dist.CSV{Glob: *in}
	switch *header {
	case "yes":
		c.Header = 1
	case "no":
		c.Header = -1
	case "auto":
	default:
		return c, fmt.Errorf("-header %q: want yes, no or auto", *header)
	}
	cs := []rune(strings.ReplaceAll(*comma, `\t`, "\t"))
	if len(cs) != 1 {
		return c, fmt.Errorf("-comma %q: want one character", *comma)
	}
	c.Comma = cs[0]
	return c, nil
}

func runDAG(ctx context.Context, opts *dist.Options, stdout io.Writer) error {
	if *k < 1 {
		return errors.New("missing -k K, the number of hidden variables")
	}
	data, err := csvOptions()
	if err != nil {
		return err
	}
	if *coef {
		c, err := dist.LearnCoefficients(ctx, data, *k, &linear.Options{Seed: *seed}, opts)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, "A (coefficients of the hidden variables, canonical scale):")
		printMatrix(stdout, c.A)
		return nil
	}
	d, err := dist.LearnDAG(ctx, data, *k, &linear.DAGOptions{Options: linear.Options{Seed: *seed}}, opts)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "A (coefficients of the hidden variables, canonical scale):")
	printMatrix(stdout, d.A)
	fmt.Fprintln(stdout, "Lambda (hidden DAG, strictly lower triangular):")
	printMatrix(stdout, d.Lambda)
	return nil
}

func printMatrix(w io.Writer, m *mat.Dense) {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			fmt.Fprintf(w, " %9.4f", m.At(i, j))
		}
		fmt.Fprintln(w)
	}
}

func runTreemix(ctx context.Context, opts *dist.Options, stdout io.Writer) error {
	if *r < 1 {
		return errors.New("missing -r R, the number of mixture components")
	}
	data, err := csvOptions()
	if err != nil {
		return err
	}
	m, _, err := dist.LearnTreemix(ctx, data, *states, *r, nil, opts)
	if err != nil {
		return err
	}
	for i, w := range m.Weights {
		fmt.Fprintf(stdout, "component %d: weight %.4f\n", i, w)
	}
	if *dot == "" {
		return nil
	}
	f, err := os.Create(*dot)
	if err != nil {
		return err
	}
	if err := treemix.WriteDOT(f, m, nil); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
