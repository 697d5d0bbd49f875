package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
)

// runLDA learns an LDA model by spectral methods from a corpus: a UCI
// bag-of-words file (docword.*.txt, with vocab.*.txt beside it) or a
// directory of text files.
func runLDA(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lda", "usage: moments lda -k K [flags] CORPUS\n\nCORPUS is a UCI docword file (vocab file beside it) or a directory of text files.\n", stderr)
	k := fs.Int("k", 0, "number of topics (required)")
	alpha0 := fs.Float64("alpha0", 1, "sum of the Dirichlet parameters")
	seed := fs.Uint64("seed", 1, "random seed")
	method := fs.String("method", "power", "decomposition: power (robust tensor power method) or svd (single theta)")
	top := fs.Int("top", 10, "top words printed per topic")
	jsonOut := fs.String("json", "", "also write the model as JSON to this file")
	vocab := fs.String("vocab", "", "UCI vocabulary file (default: vocab.X.txt beside docword.X.txt)")
	tagged := fs.Bool("tagged", false, "text files are tagged word/TAG tokens (as the Brown corpus)")
	minDF := fs.Int("min-df", 1, "text: keep words in at least this many documents")
	maxVocab := fs.Int("max-vocab", 0, "text: keep at most this many words (most documents first; 0: all)")
	include := fs.String("include", "", "text: read only the files whose path matches this regular expression")
	workers := fs.Int("workers", 0, "goroutines for the passes over the documents (0: GOMAXPROCS)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *k < 1 {
		fs.Usage()
		return fmt.Errorf("lda: need -k K >= 1 and one CORPUS")
	}
	var m topic.Method
	switch *method {
	case "power":
		m = topic.TensorPower
	case "svd":
		m = topic.SingleTheta
	default:
		return fmt.Errorf("lda: unknown -method %q (power or svd)", *method)
	}

	start := time.Now()
	var keep *regexp.Regexp
	if *include != "" {
		var err error
		if keep, err = regexp.Compile(*include); err != nil {
			return fmt.Errorf("lda: -include: %w", err)
		}
	}
	corpus, err := readCorpus(fs.Arg(0), *vocab, *tagged, *minDF, *maxVocab, keep)
	if err != nil {
		return err
	}
	read := time.Since(start)
	fmt.Fprintf(stdout, "corpus    %d documents, %d words, %d tokens (read in %.3f s)\n", corpus.NumDocs(), corpus.VocabSize(), corpus.Tokens(), read.Seconds())

	opts := &topic.Options{Method: m, Seed: *seed, Passes: moments.Options{Workers: *workers}}
	if corpus.NumDocs() >= 100000 {
		opts.Passes.Progress = passProgress(stderr, "pass")
	}
	start = time.Now()
	res, err := topic.LDA(context.Background(), corpus, *k, *alpha0, opts)
	if opts.Passes.Progress != nil {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return err
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(stderr, "moments: warning: %s\n", warn)
	}
	learn := time.Since(start)
	w := res.Whitening
	fmt.Fprintf(stdout, "learned   k = %d, alpha0 = %g, method %s, in %.3f s\n", *k, *alpha0, *method, learn.Seconds())
	fmt.Fprintf(stdout, "pairs     top eigenvalues %.3g, condition %.3g\n", w.Spectrum, w.Cond)
	fmt.Fprintf(stdout, "tensor    eigenvalues %.3g, relative residual %.3g\n", res.Lambda, res.Residual)
	words := eval.TopWords(res.Topics, *top)
	fmt.Fprintf(stdout, "\n%5s %8s %7s  %s\n", "topic", "alpha", "moved", "top words")
	for j, ws := range words {
		names := make([]string, len(ws))
		for i, id := range ws {
			names[i] = wordName(corpus, id)
		}
		fmt.Fprintf(stdout, "%5d %8.4f %7.3f  %s\n", j+1, res.Alpha[j], res.Moved[j], strings.Join(names, " "))
	}
	if *jsonOut != "" {
		if err := writeModelJSON(*jsonOut, corpus, res, 50); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nmodel written to %s\n", *jsonOut)
	}
	return nil
}

// readCorpus reads a UCI docword file or a directory of text files.
func readCorpus(path, vocab string, tagged bool, minDF, maxVocab int, include *regexp.Regexp) (*moments.Corpus, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		opts := moments.TextOptions{MinDocFreq: minDF, MaxVocab: maxVocab}
		if tagged {
			opts.Tokenizer = moments.Tagged('/')
		}
		if include != nil {
			opts.Include = include.MatchString
		}
		return moments.ReadText(os.DirFS(path), opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if vocab == "" {
		base := filepath.Base(path)
		if strings.HasPrefix(base, "docword.") {
			vocab = filepath.Join(filepath.Dir(path), "vocab."+strings.TrimPrefix(base, "docword."))
		}
	}
	var v io.Reader
	if vocab != "" {
		vf, err := os.Open(vocab)
		if err != nil {
			return nil, fmt.Errorf("lda: vocabulary: %w", err)
		}
		defer vf.Close()
		v = vf
	}
	c, err := moments.ReadUCI(f, v)
	if err != nil {
		return nil, fmt.Errorf("lda: %s: %w", path, err)
	}
	return c, nil
}

func wordName(c *moments.Corpus, id int) string {
	if c.Vocab != nil {
		return c.Vocab[id]
	}
	return fmt.Sprintf("w%d", id+1)
}

// passProgress prints one progress line per pass on w, rewriting it.
func passProgress(w io.Writer, what string) func(done, total int) {
	pass := 1
	return func(done, total int) {
		fmt.Fprintf(w, "\r%s %d: %d/%d documents", what, pass, done, total)
		if done == total {
			pass++
		}
	}
}

// writeModelJSON writes alpha, the diagnostics and each topic's top
// words with their probabilities.
func writeModelJSON(path string, c *moments.Corpus, res *topic.Result, top int) error {
	type word struct {
		Word string  `json:"word"`
		P    float64 `json:"p"`
	}
	type topicJSON struct {
		Alpha float64 `json:"alpha"`
		Moved float64 `json:"moved"`
		Words []word  `json:"words"`
	}
	out := struct {
		K        int         `json:"k"`
		Alpha0   float64     `json:"alpha0"`
		Spectrum []float64   `json:"pairs_spectrum"`
		Cond     float64     `json:"pairs_condition"`
		Lambda   []float64   `json:"tensor_eigenvalues"`
		Residual float64     `json:"tensor_residual"`
		Topics   []topicJSON `json:"topics"`
	}{K: len(res.Alpha), Alpha0: res.Alpha0, Spectrum: res.Whitening.Spectrum, Cond: res.Whitening.Cond, Lambda: res.Lambda, Residual: res.Residual}
	for j, ws := range eval.TopWords(res.Topics, top) {
		t := topicJSON{Alpha: res.Alpha[j], Moved: res.Moved[j]}
		for _, id := range ws {
			t.Words = append(t.Words, word{wordName(c, id), res.Topics.At(id, j)})
		}
		out.Topics = append(out.Topics, t)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
