package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/svd"
)

// splitHoldout puts a fraction frac of the documents of c, drawn with
// seed, aside for held-out perplexity: it returns the others (to learn
// from) and those, each in corpus order. held is nil when frac rounds to
// no document.
func splitHoldout(c *moments.Corpus, frac float64, seed uint64) (train, held *moments.Corpus) {
	docs := c.NumDocs()
	nh := int(frac*float64(docs) + 0.5)
	if nh == 0 || nh >= docs {
		return c, nil
	}
	perm := rand.New(rand.NewPCG(seed, 0x401d)).Perm(docs)
	hold := slices.Clone(perm[:nh])
	keep := slices.Clone(perm[nh:])
	slices.Sort(hold)
	slices.Sort(keep)
	return c.Subset(keep), c.Subset(hold)
}

// refineLDA runs passes of variational EM from the spectral estimate,
// printing a line per pass on stderr.
func refineLDA(ctx context.Context, train *moments.Corpus, raw *topic.LDAResult, passes, workers int, stderr io.Writer) (*topic.LDAResult, *topic.RefineReport, error) {
	start := time.Now()
	opts := &topic.RefineOptions{
		MaxPasses: passes,
		Passes:    moments.Options{Workers: workers},
		OnPass: func(pass int, bound, change float64) {
			fmt.Fprintf(stderr, "refine pass %d/%d: bound %.8g, relative change %.3g (%.2f s)\n", pass, passes, bound, change, time.Since(start).Seconds())
		},
	}
	return topic.Refine(ctx, train, raw, opts)
}

// chooseAlpha0 sets alpha0 to the value of topic.Alpha0Grid whose
// spectral model, learned from 90% of the training documents (at most
// 20000), gives the other 10% (at most 2000) the highest likelihood (the
// split of topic.SplitAlpha0), and prints the scores. With too few documents to split, or
// when no alpha0 learns, it leaves alpha0 as it is. Otherwise it sets
// opts.Eigen.Start to the chosen alpha0's Alpha0Score.Basis (its Ritz
// vectors in the grid's common basis, then the rest of the eigensolver's
// block), which warm-starts the final fit.
func chooseAlpha0(ctx context.Context, stdout io.Writer, train *moments.Corpus, k int, seed uint64, opts *topic.Options, alpha0 *float64) error {
	fit, valid := topic.SplitAlpha0(train, seed)
	if fit == nil {
		return nil
	}
	start := time.Now()
	best, scores, err := topic.SelectAlpha0(ctx, fit, valid, k, nil, opts)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		// No alpha0 learns: the fit with the default says why.
		return nil
	}
	fmt.Fprintf(stdout, "alpha0    %g, chosen by the log-likelihood per token of %d validation documents (%.3f s):", best, valid.NumDocs(), time.Since(start).Seconds())
	for _, s := range scores {
		if s.Err != nil {
			fmt.Fprintf(stdout, " %g: fails;", s.Alpha0)
		} else {
			fmt.Fprintf(stdout, " %g: %.4f;", s.Alpha0, s.LogLik)
		}
	}
	fmt.Fprintln(stdout)
	*alpha0 = best
	// The chosen fit's eigenpairs, of 90% of the same documents, start
	// the final eigensolve.
	for _, s := range scores {
		if s.Alpha0 == best && s.Basis != nil {
			opts.Eigen = &svd.TopEigOptions{Start: s.Basis}
		}
	}
	return nil
}

// quality holds the measures of one model.
type quality struct {
	name       string
	perplexity float64 // NaN without held-out documents
	npmi       float64
}

func measure(ctx context.Context, name string, res *topic.LDAResult, train, held *moments.Corpus) (quality, error) {
	q := quality{name: name, npmi: eval.Mean(eval.NPMI(eval.TopWords(res.Topics, 10), train))}
	q.perplexity = -1
	if held != nil {
		p, err := res.Perplexity(ctx, held, 0)
		if err != nil {
			return q, err
		}
		q.perplexity = p
	}
	return q, nil
}

func printQuality(w io.Writer, held *moments.Corpus, qs ...quality) {
	what := "no held-out documents"
	if held != nil {
		what = fmt.Sprintf("%d held-out documents, %d tokens", held.NumDocs(), held.Tokens())
	}
	fmt.Fprintf(w, "\nquality   per-word perplexity on %s; mean NPMI of the top 10 words on the documents learned from\n", what)
	fmt.Fprintf(w, "%-9s %12s %8s\n", "model", "perplexity", "NPMI")
	for _, q := range qs {
		p := "-"
		if q.perplexity >= 0 {
			p = fmt.Sprintf("%.2f", q.perplexity)
		}
		fmt.Fprintf(w, "%-9s %12s %8.4f\n", q.name, p, q.npmi)
	}
}

// flagValues returns the values of the flags of fs except those named in
// skip, as the options a model was learned with.
func flagValues(fs *flag.FlagSet, skip ...string) map[string]string {
	out := make(map[string]string)
	fs.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(skip, f.Name) {
			out[f.Name] = f.Value.String()
		}
	})
	return out
}

const ldaInferUsage = `usage: moments lda infer [flags] MODEL CORPUS

Writes the topic proportions of every document of CORPUS under the model
in MODEL (a file written by "moments lda -model"): the mean of each
document's variational posterior given the topics and alpha, as
topic.Model.Infer computes it. The output is CSV with a header
doc,topic0,...,topicK-1 (doc is the file's path in a text directory,
the document's number from 1 in a UCI file), or JSON with -json: an
array of {"doc": ..., "topics": [...]}. Numbers are written in the
shortest form that reads back to the same float64.

CORPUS is read as "moments lda" reads it; words are matched to the
model's vocabulary by name (words not in it are ignored), or, for a UCI
file without a vocabulary, by their ids. -tagged and -include default
to the values the model was learned with.
`

// runLDAInfer is "moments lda infer MODEL CORPUS".
func runLDAInfer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lda infer", ldaInferUsage)
	jsonOut := fs.Bool("json", false, "write JSON instead of CSV")
	iters := fs.Int("iters", 0, "fixed-point iterations per document (0: topic.Model.Infer's default, 50)")
	outPath := fs.String("o", "", "write to this file instead of standard output")
	vocab := fs.String("vocab", "", "UCI vocabulary file (default: vocab.X.txt beside docword.X.txt)")
	tagged := fs.Bool("tagged", false, "text: the files are tagged word/TAG tokens (default: as the model was learned)")
	include := fs.String("include", "", "text: read only the files whose path matches this regular expression (default: as the model was learned)")
	maxMem := maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout, "MODEL", "CORPUS"); err != nil {
		return err
	}
	if err := fs.check(atLeast("iters", *iters, 0)); err != nil {
		return err
	}
	mf, err := openInput(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	model, err := topic.Load(mf)
	mf.Close()
	if err != nil {
		return inFile(fs.Arg(0), err)
	}
	if !fs.isSet("tagged") {
		*tagged = model.Options["tagged"] == "true"
	}
	if !fs.isSet("include") {
		*include = model.Options["include"]
	}
	path := fs.Arg(1)
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	out, err := createOutput("o", *outPath)
	if err != nil {
		return err
	}
	defer out.discard()

	var corpus *moments.Corpus
	if info.IsDir() {
		// Every word the tokenizer yields is kept, to be matched by name.
		opts := &moments.TextOptions{MinWordLen: 1, StopWords: []string{}, MaxMemory: *maxMem}
		if *tagged {
			opts.Tokenizer = moments.Tagged('/')
		}
		if *include != "" {
			keep, err := regexp.Compile(*include)
			if err != nil {
				return fs.usagef("-include: %v", err)
			}
			opts.Include = keep.MatchString
		}
		corpus, err = moments.ReadText(inputFS{ctx, os.DirFS(path)}, opts)
		err = inFile(path, err)
	} else {
		corpus, err = readUCI(ctx, path, *vocab, *maxMem)
	}
	if err != nil {
		return err
	}
	docs, kept, err := toModelVocab(corpus, model)
	if err != nil {
		return inFile(path, err)
	}
	fmt.Fprintf(stderr, "infer: %d documents, %d of %d tokens in the model's vocabulary of %d words\n", docs.NumDocs(), kept, corpus.Tokens(), rows(model))

	name := func(i int) string {
		if corpus.Names != nil {
			return corpus.Names[i]
		}
		return strconv.Itoa(i + 1)
	}
	props := make([][]float64, docs.NumDocs())
	for i := range props {
		if err := ctx.Err(); err != nil {
			return err
		}
		props[i] = model.Infer(docs.Doc(i), *iters)
	}
	write := func(w io.Writer) error {
		if *jsonOut {
			type row struct {
				Doc    string    `json:"doc"`
				Topics []float64 `json:"topics"`
			}
			rs := make([]row, len(props))
			for i, p := range props {
				rs[i] = row{name(i), p}
			}
			b, err := json.MarshalIndent(rs, "", "  ")
			if err != nil {
				return err
			}
			_, err = w.Write(append(b, '\n'))
			return err
		}
		cw := csv.NewWriter(w)
		k := len(model.Alpha)
		rec := make([]string, k+1)
		rec[0] = "doc"
		for j := 0; j < k; j++ {
			rec[j+1] = "topic" + strconv.Itoa(j)
		}
		cw.Write(rec)
		for i, p := range props {
			rec[0] = name(i)
			for j, v := range p {
				rec[j+1] = strconv.FormatFloat(v, 'g', -1, 64)
			}
			cw.Write(rec)
		}
		cw.Flush()
		return cw.Error()
	}
	if out != nil {
		return out.commit(write)
	}
	return write(stdout)
}

func rows(m *topic.Model) int { n, _ := m.Topics.Dims(); return n }

// toModelVocab maps the documents of c onto the model's word ids: by name
// when both have a vocabulary, else by id (which must then be in range).
// It returns the mapped documents and the number of tokens kept.
func toModelVocab(c *moments.Corpus, m *topic.Model) (*moments.Corpus, int, error) {
	n := rows(m)
	if m.Vocab != nil && c.Vocab == nil {
		// A model learned on a UCI corpus without a vocabulary names
		// its words w1, w2, ... when it dropped unused ones (see
		// dropUnused); match the corpus's ids by those names.
		named := *c
		named.Vocab = make([]string, c.VocabSize())
		for i := range named.Vocab {
			named.Vocab[i] = wordName(c, i)
		}
		c = &named
	}
	if m.Vocab == nil || c.Vocab == nil {
		if c.VocabSize() > n {
			return nil, 0, fmt.Errorf("word ids up to %d, but the model has %d words (and no vocabulary to match them by name)", c.VocabSize(), n)
		}
		return c, c.Tokens(), nil
	}
	ids := make(map[string]int32, n)
	for i, w := range m.Vocab {
		ids[w] = int32(i)
	}
	to := make([]int32, c.VocabSize())
	for i := range to {
		to[i] = -1
		if i < len(c.Vocab) {
			if id, ok := ids[c.Vocab[i]]; ok {
				to[i] = id
			}
		}
	}
	var b moments.Builder
	b.SetVocabSize(n)
	var ws []int32
	var cs []uint32
	kept := 0
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		ws, cs = ws[:0], cs[:0]
		for t, w := range d.Words {
			if id := to[w]; id >= 0 {
				ws = append(ws, id)
				cs = append(cs, d.Counts[t])
				kept += int(d.Counts[t])
			}
		}
		if err := b.Add(ws, cs); err != nil {
			return nil, 0, err
		}
	}
	out := b.Corpus()
	out.Vocab = m.Vocab
	out.Names = c.Names
	return out, kept, nil
}
