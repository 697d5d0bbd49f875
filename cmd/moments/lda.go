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

const ldaUsage = `usage: moments lda -k K [flags] CORPUS
       moments lda infer [flags] MODEL CORPUS

Learns an LDA topic model with K topics by the spectral method (the
whitened third moment, decomposed by the robust tensor power method or
a single random projection), then refines it by -refine passes of
variational EM (progress on stderr, one line a pass), and prints each
topic's alpha and top words. It also prints the quality of the spectral
and of the refined model: the per-word perplexity of the -holdout
fraction of the documents, which both learn without, and the mean NPMI
of each topic's top 10 words on the other documents. Without -alpha0,
alpha0 is chosen from 0.1, 0.3, 1 and 3: the one whose spectral model,
learned from 90% of the documents learned from (at most 20000), gives
the other 10% (at most 2000) the highest likelihood: the likelihood of
half of each document's tokens given the topic proportions inferred
from the other half. -model saves the
model (vocabulary, topics, alpha and these flags) for "moments lda
infer", which writes the topic proportions of a corpus's documents.
CORPUS is a UCI bag-of-words file (docword.X.txt, with vocab.X.txt
beside it) or a directory of text files, one document a file. Any of
these files may be gzip-compressed.

A directory of text is read with rules for real text (moments.RealText),
and what they drop is printed on stderr once the model is learned (or
summed up in the error if it is not): files with a NUL byte (binary)
are skipped; HTML and XML markup is stripped; English stop words and
words of fewer than three letters are dropped; documents with fewer
than -min-doc-words distinct words are dropped, and so are repetitive
documents (fewer distinct words than the square root of their tokens)
and those shorter than a twentieth of the median; words in fewer than
-min-df documents, or (with 20 documents or more) in more than the
fraction -max-df of them, are dropped; and no word may be more than the
share -max-word-share of a document (larger counts are capped).
`

// runLDA learns an LDA model by spectral methods from a corpus: a UCI
// bag-of-words file (docword.*.txt, with vocab.*.txt beside it) or a
// directory of text files.
func runLDA(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "infer" {
		return runLDAInfer(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("lda", ldaUsage)
	k := fs.Int("k", 0, "number of topics (required, at least 1)")
	alpha0 := fs.Float64("alpha0", 1, "sum of the Dirichlet parameters (> 0); when not given, chosen from 0.1, 0.3, 1, 3 by held-out likelihood (spectral fits in one shared basis, see topic.SelectAlpha0)")
	seed := fs.Uint64("seed", 1, "random seed")
	method := fs.String("method", "power", "decomposition: power (robust tensor power method) or svd (single theta)")
	top := fs.Int("top", 10, "top words printed per topic (0: none)")
	jsonOut := fs.String("json", "", "also write alpha and each topic's top words as JSON to this file")
	modelOut := fs.String("model", "", "save the model to this file (for moments lda infer)")
	refine := fs.Int("refine", 10, "passes of variational EM from the spectral estimate (0: none)")
	holdout := fs.Float64("holdout", 0.1, "fraction of the documents held out of learning to measure perplexity (0: none)")
	vocab := fs.String("vocab", "", "UCI vocabulary file (default: vocab.X.txt beside docword.X.txt)")
	tagged := fs.Bool("tagged", false, "text: the files are tagged word/TAG tokens (as the Brown corpus)")
	minDF := fs.Int("min-df", 2, "text: keep words in at least this many documents (at least 1)")
	maxDF := fs.Float64("max-df", 0.5, "text: drop words in more than this fraction of the documents (in (0, 1]; 1: keep all)")
	minDocWords := fs.Int("min-doc-words", 3, "text: drop documents with fewer distinct words (0: keep all)")
	keepDocs := fs.Bool("keep-docs", false, "text: keep repetitive and short documents (see above)")
	maxShare := fs.Float64("max-word-share", 0.2, "text: cap each word's count at this share of its document (in [0, 1); 0: no cap)")
	maxVocab := fs.Int("max-vocab", 0, "text: keep at most this many words (most documents first; 0: all)")
	include := fs.String("include", "", "text: read only the files whose path matches this regular expression")
	workers := fs.Int("workers", 0, "goroutines for the passes over the documents (0: GOMAXPROCS)")
	maxMem := maxMemoryFlag(fs.FlagSet)
	if err := fs.parse(args, stdout, "CORPUS"); err != nil {
		return err
	}
	if !fs.isSet("k") {
		return fs.usagef("missing -k K, the number of topics")
	}
	if err := fs.check(
		atLeast("k", *k, 1),
		floatIn("alpha0", *alpha0, positive),
		atLeast("top", *top, 0),
		atLeast("min-df", *minDF, 1),
		floatIn("max-df", *maxDF, interval{lo: 0, hi: 1, loOpen: true}),
		atLeast("min-doc-words", *minDocWords, 0),
		floatIn("max-word-share", *maxShare, unitHalf),
		atLeast("max-vocab", *maxVocab, 0),
		atLeast("workers", *workers, 0),
		atLeast("refine", *refine, 0),
		floatIn("holdout", *holdout, unitHalf),
	); err != nil {
		return err
	}
	var m topic.Method
	switch *method {
	case "power":
		m = topic.TensorPower
	case "svd":
		m = topic.SingleTheta
	default:
		return fs.usagef("-method %q: want power or svd", *method)
	}
	var keep *regexp.Regexp
	if *include != "" {
		var err error
		if keep, err = regexp.Compile(*include); err != nil {
			return fs.usagef("-include: %v", err)
		}
	}
	path := fs.Arg(0)
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	// The flags of the other kind of corpus would be ignored silently.
	for _, name := range []string{"vocab", "tagged", "min-df", "max-df", "min-doc-words", "keep-docs", "max-word-share", "max-vocab", "include"} {
		if textOnly := name != "vocab"; fs.isSet(name) && textOnly != info.IsDir() {
			kind := "a UCI file"
			if info.IsDir() {
				kind = "a directory of text files"
			}
			return fs.usagef("-%s does not apply to %s (%s)", name, kind, path)
		}
	}
	out, err := createOutput("json", *jsonOut)
	if err != nil {
		return err
	}
	defer out.discard()
	modelFile, err := createOutput("model", *modelOut)
	if err != nil {
		return err
	}
	defer modelFile.discard()

	start := time.Now()
	var corpus *moments.Corpus
	var rep *moments.TextReport
	var textOpts *moments.TextOptions
	if info.IsDir() {
		var tok moments.Tokenizer
		if *tagged {
			tok = moments.Tagged('/')
		}
		opts := moments.RealText(tok)
		opts.MinDocFreq, opts.MaxDocFrac, opts.MaxVocab = *minDF, *maxDF, *maxVocab
		opts.MinDocWords, opts.MaxWordShare, opts.MaxMemory = *minDocWords, *maxShare, *maxMem
		if *keepDocs {
			opts.DropRepetitive, opts.MinLenFrac = false, 0
		}
		if keep != nil {
			opts.Include = keep.MatchString
		}
		corpus, rep, err = moments.ReadTextReport(inputFS{ctx, os.DirFS(path)}, opts)
		textOpts = opts
		err = inFile(path, err)
	} else {
		corpus, err = readUCI(ctx, path, *vocab, *maxMem)
	}
	if err != nil {
		return err
	}
	read := time.Since(start)
	fmt.Fprintf(stdout, "corpus    %d documents, %d words, %d tokens (read in %.3f s)\n", corpus.NumDocs(), corpus.VocabSize(), corpus.Tokens(), read.Seconds())
	corpus = dropUnused(stdout, corpus)
	train, held := splitHoldout(corpus, *holdout, *seed)
	if held != nil {
		fmt.Fprintf(stdout, "held out  %d documents for perplexity, learning from %d\n", held.NumDocs(), train.NumDocs())
	}

	opts := &topic.Options{Method: m, Seed: *seed, Passes: moments.Options{Workers: *workers}, MaxMemory: *maxMem}
	line := &progressLine{w: stderr}
	if corpus.NumDocs() >= 100000 {
		opts.Passes.Progress = passProgress(line, "pass")
	}
	if !fs.isSet("alpha0") {
		if err := chooseAlpha0(ctx, stdout, train, *k, *seed, opts, alpha0); err != nil {
			return err
		}
	}
	start = time.Now()
	res, err := topic.LearnLDA(ctx, train, *k, *alpha0, opts)
	line.end()
	if err != nil {
		if rep != nil {
			if dropped := len(rep.Binary) + len(rep.FewWords) + len(rep.Repetitive) + len(rep.Short); dropped > 0 {
				// One line on error: the drops that may explain it.
				err = fmt.Errorf("%w (the text rules dropped %d of %d files: %d binary, %d with fewer than %d distinct words, %d repetitive, %d short)",
					err, dropped, rep.Files, len(rep.Binary), len(rep.FewWords), textOpts.MinDocWords, len(rep.Repetitive), len(rep.Short))
			}
		}
		return err
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(stderr, "moments: warning: %s\n", warn)
	}
	if rep != nil {
		printTextReport(stderr, rep, *textOpts)
	}
	learn := time.Since(start)
	w := res.Whitening
	fmt.Fprintf(stdout, "learned   k = %d, alpha0 = %g, method %s, in %.3f s\n", *k, *alpha0, *method, learn.Seconds())
	atLeast := ""
	if w.PositiveAtLeast {
		atLeast = "at least "
	}
	conv := ""
	if !w.Converged {
		conv = " (not converged: the eigenpairs are approximate)"
	}
	fmt.Fprintf(stdout, "pairs     top eigenvalues %.3g, condition %.3g, %s%d positive\n", w.Spectrum, w.Cond, atLeast, w.Positive)
	fmt.Fprintf(stdout, "eigen     %d block products, relative residual %.3g%s\n", w.Products, w.Residual, conv)
	fmt.Fprintf(stdout, "tensor    eigenvalues %.3g, relative residual %.3g\n", res.Lambda, res.Residual)
	q, err := measure(ctx, "spectral", res, train, held)
	if err != nil {
		return err
	}
	quals := []quality{q}
	if *refine > 0 {
		start = time.Now()
		ref, rep, err := refineLDA(ctx, train, res, *refine, *workers, stderr)
		if err != nil {
			return err
		}
		state := "stopped at -refine"
		if rep.Converged {
			state = "converged"
		}
		fmt.Fprintf(stdout, "refined   %d passes of variational EM (%s), in %.3f s\n", len(rep.Bounds), state, time.Since(start).Seconds())
		res = ref
		q, err := measure(ctx, "refined", res, train, held)
		if err != nil {
			return err
		}
		quals = append(quals, q)
	}
	printQuality(stdout, held, quals...)
	words := eval.TopWords(res.Topics, *top)
	fmt.Fprintf(stdout, "\n%5s %8s %7s  %s\n", "topic", "alpha", "moved", "top words")
	for j, ws := range words {
		names := make([]string, len(ws))
		for i, id := range ws {
			names[i] = wordName(corpus, id)
		}
		fmt.Fprintf(stdout, "%5d %8.4f %7.3f  %s\n", j+1, res.Alpha[j], res.Moved[j], strings.Join(names, " "))
	}
	if out != nil {
		if err := out.commit(func(w io.Writer) error { return writeModelJSON(w, corpus, res, 50) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nmodel written to %s\n", *jsonOut)
	}
	if modelFile != nil {
		m, err := topic.NewModel(res, corpus.Vocab, flagValues(fs.FlagSet, "json", "model", "workers"))
		if err == nil {
			err = modelFile.commit(func(w io.Writer) error { return topic.Save(w, m) })
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nmodel saved to %s\n", *modelOut)
	}
	return nil
}

// printTextReport says on w what the rules for real text dropped.
func printTextReport(w io.Writer, r *moments.TextReport, o moments.TextOptions) {
	names := func(s []string) string {
		if len(s) > 5 {
			return strings.Join(s[:5], " ") + fmt.Sprintf(" ... (%d more)", len(s)-5)
		}
		return strings.Join(s, " ")
	}
	fmt.Fprintf(w, "read      %d files; %d distinct words after stop words and length\n", r.Files, r.Words)
	if len(r.Binary) > 0 {
		fmt.Fprintf(w, "dropped   %d binary files (a NUL byte): %s\n", len(r.Binary), names(r.Binary))
	}
	if len(r.FewWords) > 0 {
		fmt.Fprintf(w, "dropped   %d documents with fewer than %d distinct words: %s\n", len(r.FewWords), o.MinDocWords, names(r.FewWords))
	}
	fmt.Fprintf(w, "dropped   %d words in fewer than %d documents, %d in more than %g of them, %d over -max-vocab\n", r.Rare, o.MinDocFreq, r.Common, o.MaxDocFrac, r.OverVocab)
	if len(r.Repetitive) > 0 {
		fmt.Fprintf(w, "dropped   %d repetitive documents (fewer distinct words than the square root of their tokens): %s\n", len(r.Repetitive), names(r.Repetitive))
	}
	if len(r.Short) > 0 {
		fmt.Fprintf(w, "dropped   %d documents shorter than %g of the median length: %s\n", len(r.Short), o.MinLenFrac, names(r.Short))
	}
	if r.Capped > 0 {
		fmt.Fprintf(w, "capped    %d tokens in %d documents (a word above %g of its document)\n", r.CappedTokens, r.Capped, o.MaxWordShare)
	}
}

// readUCI reads a UCI docword file and its vocabulary: vocab, or by
// default vocab.X.txt beside docword.X.txt (vocab.X.txt.gz beside
// docword.X.txt.gz) if it exists.
func readUCI(ctx context.Context, path, vocab string, maxMem int64) (*moments.Corpus, error) {
	f, err := openInput(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if vocab == "" {
		// The default vocabulary is used only if it exists: without
		// one, the words are named by their ids.
		base := filepath.Base(path)
		if rest, ok := strings.CutPrefix(base, "docword."); ok {
			def := filepath.Join(filepath.Dir(path), "vocab."+rest)
			if _, err := os.Stat(def); err == nil {
				vocab = def
			}
		}
	}
	var v io.Reader
	if vocab != "" {
		vf, err := openInput(ctx, vocab)
		if err != nil {
			return nil, fmt.Errorf("vocabulary: %w", err)
		}
		defer vf.Close()
		v = vf
	}
	c, err := moments.ReadUCI(f, v, &moments.UCIOptions{MaxMemory: maxMem})
	return c, inFile(path, err)
}

// dropUnused restricts c to the words that occur in some document
// (a UCI header may declare far more words than the documents use): the
// learners, the refinement and the model file then cost nothing for the
// others, and the refinement's prior puts no mass on them. Words without
// names keep their UCI names (w1, w2, ...), which a saved model lists
// and lda infer matches.
func dropUnused(stdout io.Writer, c *moments.Corpus) *moments.Corpus {
	out, old := c.Compact()
	if old == nil {
		return c
	}
	if c.Vocab == nil {
		out.Vocab = make([]string, len(old))
		for j, w := range old {
			out.Vocab[j] = wordName(c, int(w))
		}
	}
	fmt.Fprintf(stdout, "dropped   %d of %d words that occur in no document\n", c.VocabSize()-out.VocabSize(), c.VocabSize())
	return out
}

func wordName(c *moments.Corpus, id int) string {
	if c.Vocab != nil {
		return c.Vocab[id]
	}
	return fmt.Sprintf("w%d", id+1)
}

// passProgress shows the progress of the passes on line, rewriting it,
// numbering the passes in the order they come whatever their stage.
func passProgress(line *progressLine, what string) moments.Progress {
	pass := 1
	return func(_ string, done, total int) {
		line.show(fmt.Sprintf("%s %d: %d/%d documents", what, pass, done, total))
		if done == total {
			pass++
		}
	}
}

// writeModelJSON writes alpha, the diagnostics and each topic's top
// words with their probabilities.
func writeModelJSON(w io.Writer, c *moments.Corpus, res *topic.LDAResult, top int) error {
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
	_, err = w.Write(append(b, '\n'))
	return err
}
