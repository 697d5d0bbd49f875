package dist

import (
	"context"
	"fmt"
	"strings"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// Docs says where a corpus is and how its shards are written.
type Docs struct {
	// Glob matches the shards (any path Beam's file systems know). They
	// are read in the lexical order of their paths, so the corpus is
	// the same as their concatenation in that order.
	Glob   string
	Format Format
	// VocabSize is the number of words of the UCI and Counts formats.
	VocabSize int
	// Vocab is the vocabulary of the text formats: word i has id i. Its
	// length is the vocabulary size.
	Vocab []string
}

// DocMoments are the moments of a sharded corpus for the spectral
// learners, computed by Beam pipelines: M1 (and the counts of
// documents) at construction, then one pipeline for every product
// Pairs X and one for the whitened third moment. It implements
// topic.Moments, so topic.LearnLDAMoments and topic.LearnECAMoments
// drive it as they drive *moments.DocMoments. Close removes its
// temporary files.
type DocMoments struct {
	// M1 is the estimate of E[x1] over the words the passes use (all of
	// them, or those that occur; see Old); Docs1 the number of
	// documents with a token, NumDocs the number of documents, NNZ the
	// stored (document, word) counts.
	M1      []float64
	Docs1   int
	NumDocs int
	NNZ     int
	// Old is nil when the passes use the whole vocabulary, and
	// otherwise the original id of each word used: as in topic.LearnLDA,
	// a corpus in which at most half of the vocabulary occurs is learned
	// on the words that occur.
	Old []int32
	// VocabSize0 is the size of the whole vocabulary.
	VocabSize0 int
	// Variant and Alpha0 (for LDA) select the moments, as in
	// moments.DocMoments.
	Variant moments.Variant
	Alpha0  float64

	r       *runner
	fn      shardFn
	offsets []int // exact passes: documents before each shard
}

// NewDocMoments runs the first pass (M1) over the shards of docs.
// alpha0 is used by the LDA variant only and must then be positive. ctx
// must not be nil. A malformed shard is an error that names the shard
// and the line (a *moments.DataError where the reader gives one).
func NewDocMoments(ctx context.Context, docs Docs, variant moments.Variant, alpha0 float64, opts *Options) (*DocMoments, error) {
	if variant == moments.LDA && !(alpha0 > 0) {
		return nil, fmt.Errorf("dist: %w: the LDA variant needs alpha0 > 0, got %v", moments.ErrBadOption, alpha0)
	}
	fn := shardFn{Format: docs.Format, VocabSize: docs.VocabSize}
	switch docs.Format {
	case UCI, Counts:
		if docs.VocabSize < 1 {
			return nil, fmt.Errorf("dist: %w: the %s format needs VocabSize >= 1", moments.ErrBadOption, docs.Format)
		}
	case TextLines, TextFiles:
		if len(docs.Vocab) == 0 {
			return nil, fmt.Errorf("dist: %w: the %s format needs a vocabulary", moments.ErrBadOption, docs.Format)
		}
		fn.VocabSize = len(docs.Vocab)
	default:
		return nil, fmt.Errorf("dist: %w: unknown document format %q", moments.ErrBadOption, docs.Format)
	}
	r, err := newRunner(ctx, docs.Glob, opts)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			r.close()
		}
	}()
	if docs.Vocab != nil {
		path := r.tempPath("vocab")
		if err := writeAll(ctx, path, []byte(strings.Join(docs.Vocab, "\n")+"\n")); err != nil {
			return nil, fmt.Errorf("dist: writing the vocabulary: %w", err)
		}
		fn.VocabPath = path
	}
	var m *DocMoments
	if r.opts.Exact {
		if m, err = exactMean(ctx, r, fn); err != nil {
			return nil, err
		}
	} else {
		mfn := fn
		mfn.Kind = "doc-mean"
		part, err := r.run(ctx, "mean", &mfn, 0, fn.VocabSize)
		if err != nil {
			return nil, err
		}
		m1 := part.Data
		if docs1 := int(part.Count[0]); docs1 > 0 {
			kernels.Scal(1/float64(docs1), m1)
		}
		m = &DocMoments{M1: m1, Docs1: int(part.Count[0]), NNZ: int(part.Count[1]), NumDocs: int(part.Count[2]), r: r, fn: fn}
	}
	if m.Docs1 == 0 {
		return nil, fmt.Errorf("dist: %w: no document has a token", moments.ErrBadData)
	}
	m.VocabSize0, m.Variant, m.Alpha0 = fn.VocabSize, variant, alpha0
	m1 := m.M1
	// The rule of topic.LearnLDA: when at most half of the words occur,
	// learn on those. A word occurs iff its M1 entry is positive.
	var old []int32
	for w, v := range m1 {
		if v != 0 {
			old = append(old, int32(w))
		}
	}
	if 2*len(old) <= len(m1) {
		newID := make([]int32, len(m1))
		for i := range newID {
			newID[i] = -1
		}
		for i, w := range old {
			newID[w] = int32(i)
			m.M1[i] = m1[w]
		}
		m.M1 = m.M1[:len(old)]
		m.Old = old
		if m.fn.NewIDPath, err = r.putInts(ctx, "newid", newID); err != nil {
			return nil, err
		}
	}
	ok = true
	return m, nil
}

// Close removes the temporary files of the passes.
func (m *DocMoments) Close() error { return m.r.close() }

// VocabSize returns the number of words the passes use.
func (m *DocMoments) VocabSize() int { return len(m.M1) }

// M1Coef returns c in Pairs = E[x1 x2^T] - c M1 M1^T (see
// moments.DocMoments.M1Coef).
func (m *DocMoments) M1Coef() float64 {
	switch m.Variant {
	case moments.Central:
		return 1
	case moments.LDA:
		return m.Alpha0 / (m.Alpha0 + 1)
	}
	return 0
}

// PairsTimes returns Pairs X, with one pipeline: every shard sums its
// documents with a moments.PairsAccumulator for X, the sums add up in a
// fixed tree, and the driver subtracts c M1 (M1^T X) as
// moments.DocMoments.PairsTimes does.
func (m *DocMoments) PairsTimes(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	n, k := x.Dims()
	if n != len(m.M1) {
		panic(fmt.Sprintf("dist: PairsTimes: X is %dx%d for a vocabulary of %d words", n, k, len(m.M1)))
	}
	path, size, err := m.r.putMatrix(ctx, "x", x)
	if err != nil {
		return nil, err
	}
	defer removeFile(ctx, path)
	fn := m.fn
	fn.Kind, fn.MatPath = "doc-pairs", path
	var out *mat.Dense
	var docs int
	if m.offsets != nil {
		acc := moments.NewPairsAccumulator(x)
		if err := m.r.runExact(ctx, "pairs", fn, m.offsets, moments.WideChunk(m.NumDocs, m.NNZ, n), n, size, x,
			func(a chunkAcc) { acc.Merge(a.(*moments.PairsAccumulator)) }); err != nil {
			return nil, err
		}
		out, docs = acc.Finalize()
	} else {
		part, err := m.r.run(ctx, "pairs", &fn, size, n*k)
		if err != nil {
			return nil, err
		}
		docs = int(part.Count[0])
		out = unflatten(part.Data, n, k)
		if docs > 0 {
			out.Scale(1/float64(docs), out)
		}
	}
	if docs == 0 {
		return nil, fmt.Errorf("dist: PairsTimes: %w: no document has two tokens", moments.ErrBadData)
	}
	if c := m.M1Coef(); c != 0 {
		mx := x.MulVecT(nil, m.M1)
		for i, v := range m.M1 {
			if v != 0 {
				kernels.Axpy(-c*v, mx, out.RawRow(i))
			}
		}
	}
	return out, nil
}

// WhitenedTriples returns the whitened third moment of the variant for
// the whitening w (n x k), with one pipeline: every shard sums its
// documents with a moments.TriplesAccumulator for W, the sums add up in
// a fixed tree, and the driver applies the corrections of
// moments.DocMoments.WhitenedTriples.
func (m *DocMoments) WhitenedTriples(ctx context.Context, w *mat.Dense) (*tensor3.Sym, error) {
	n, k := w.Dims()
	if n != len(m.M1) {
		panic(fmt.Sprintf("dist: WhitenedTriples: W is %dx%d for a vocabulary of %d words", n, k, len(m.M1)))
	}
	path, size, err := m.r.putMatrix(ctx, "w", w)
	if err != nil {
		return nil, err
	}
	defer removeFile(ctx, path)
	fn := m.fn
	fn.Kind, fn.MatPath = "doc-triples", path
	var t *tensor3.Sym
	var p *mat.Dense
	var docs3 int
	if m.offsets != nil {
		acc := moments.NewTriplesAccumulator(w)
		if err := m.r.runExact(ctx, "triples", fn, m.offsets, moments.WideChunk(m.NumDocs, m.NNZ, n), n, size, w,
			func(a chunkAcc) { acc.Merge(a.(*moments.TriplesAccumulator)) }); err != nil {
			return nil, err
		}
		t, p, docs3, _ = acc.Finalize()
	} else {
		part, err := m.r.run(ctx, "triples", &fn, size, tensor3.PackedLen(k)+k*k)
		if err != nil {
			return nil, err
		}
		var docs2 int
		docs3, docs2 = int(part.Count[0]), int(part.Count[1])
		pl := tensor3.PackedLen(k)
		t = tensor3.New(k, part.Data[:pl:pl])
		if docs3 > 0 {
			t.Scale(1/float64(docs3), t)
		}
		p = unflatten(part.Data[pl:], k, k)
		if docs2 > 0 {
			p.Scale(1/float64(docs2), p)
		}
	}
	if docs3 == 0 {
		return nil, fmt.Errorf("dist: WhitenedTriples: %w: no document has three tokens", moments.ErrBadData)
	}
	var c2, c3 float64
	switch m.Variant {
	case moments.Central:
		c2, c3 = 1, 2
	case moments.LDA:
		a0 := m.Alpha0
		c2, c3 = a0/(a0+2), 2*a0*a0/((a0+2)*(a0+1))
	}
	if c2 != 0 {
		mw := w.MulVecT(nil, m.M1)
		t.AddSymMatOuter(-c2, p, mw)
		t.AddOuter(c3, mw)
	}
	return t, nil
}

// LearnLDA learns an LDA model with k topics from a sharded corpus, as
// topic.LearnLDA does from a corpus in memory: one pipeline for M1, one
// for each block product of the eigensolver and one for the whitened
// third moment. opts may be nil. ctx must not be nil.
func LearnLDA(ctx context.Context, docs Docs, k int, alpha0 float64, topts *topic.Options, opts *Options) (*topic.LDAResult, error) {
	m, err := NewDocMoments(ctx, docs, moments.LDA, alpha0, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if k < 1 || k > len(m.M1) {
		return nil, fmt.Errorf("%w: k = %d topics for a vocabulary of %d words", topic.ErrBadOption, k, len(m.M1))
	}
	r, err := topic.LearnLDAMoments(ctx, m, k, alpha0, topic.WithSampleTol(topts, m.NumDocs))
	if err != nil {
		return nil, err
	}
	r.Topics = m.expand(r.Topics)
	r.Warnings = append(m.fewDocuments(k), r.Warnings...)
	return r, nil
}

// LearnECA learns k independent skewed factors from a sharded corpus,
// as topic.LearnECA does from a corpus in memory. ctx must not be nil.
func LearnECA(ctx context.Context, docs Docs, k int, topts *topic.Options, opts *Options) (*topic.ECAResult, error) {
	m, err := NewDocMoments(ctx, docs, moments.Central, 0, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if k < 1 || k > len(m.M1) {
		return nil, fmt.Errorf("%w: k = %d factors for a vocabulary of %d words", topic.ErrBadOption, k, len(m.M1))
	}
	r, err := topic.LearnECAMoments(ctx, m, k, topic.WithSampleTol(topts, m.NumDocs))
	if err != nil {
		return nil, err
	}
	r.Factors = m.expand(r.Factors)
	r.Warnings = append(m.fewDocuments(k), r.Warnings...)
	return r, nil
}

// expand gives the rows of t (one per word used) their original ids,
// with zero rows for the words that never occur.
func (m *DocMoments) expand(t *mat.Dense) *mat.Dense {
	if m.Old == nil {
		return t
	}
	_, k := t.Dims()
	out := mat.Zeros(m.VocabSize0, k)
	for i, w := range m.Old {
		copy(out.RawRow(int(w)), t.RawRow(i))
	}
	return out
}

// fewDocuments is the warning of topic.LearnLDA about a corpus of fewer
// than topic.MinDocsPerTopic documents per topic.
func (m *DocMoments) fewDocuments(k int) []string {
	if m.NumDocs >= topic.MinDocsPerTopic*k {
		return nil
	}
	return []string{fmt.Sprintf("only %d documents for k = %d topics (fewer than %d per topic): the moments describe the documents rather than topics",
		m.NumDocs, k, topic.MinDocsPerTopic)}
}
