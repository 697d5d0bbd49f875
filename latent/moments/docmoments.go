package moments

import (
	"context"
	"fmt"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/internal/vec"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// Variant selects the moments a learner uses (see the package
// documentation for their formulas).
type Variant uint8

const (
	// Raw moments: E[x1 x2^T] and E[x1 (x) x2 (x) x3].
	Raw Variant = iota
	// Central moments, for independent skewed factors (ECA, Algorithm 1
	// of Anandkumar, Foster, Hsu, Kakade and Liu, "A Spectral Algorithm
	// for Latent Dirichlet Allocation"):
	// Pairs = E[x1 x2^T] - M1 M1^T and the central third moment.
	Central
	// LDA moments for a known alpha0 = sum(alpha) (Algorithm 2 of the
	// same paper):
	// Pairs = E[x1 x2^T] - alpha0/(alpha0+1) M1 M1^T and the corrected
	// third moment.
	LDA
)

// String names the variant.
func (v Variant) String() string {
	switch v {
	case Raw:
		return "raw"
	case Central:
		return "central"
	case LDA:
		return "lda"
	}
	return fmt.Sprintf("Variant(%d)", v)
}

// MeanAccumulator sums the estimate of M1 = E[x1]: c/l for each document
// with l >= 1 tokens.
type MeanAccumulator struct {
	sum  []float64
	docs int
	nnz  int
}

// NewMeanAccumulator returns an empty accumulator over a vocabulary of n
// words.
func NewMeanAccumulator(n int) *MeanAccumulator { return &MeanAccumulator{sum: make([]float64, n)} }

// Add adds a document.
func (a *MeanAccumulator) Add(d Doc) {
	l := d.Len()
	if l < 1 {
		return
	}
	inv := 1 / float64(l)
	for j, w := range d.Words {
		a.sum[w] += float64(d.Counts[j]) * inv
	}
	a.docs++
	a.nnz += len(d.Words)
}

// Merge adds the documents of b.
func (a *MeanAccumulator) Merge(b *MeanAccumulator) {
	kernels.Axpy(1, b.sum, a.sum)
	a.docs += b.docs
	a.nnz += b.nnz
}

// Finalize returns M1 and the number of documents it averages (nil if
// there were none).
func (a *MeanAccumulator) Finalize() (m1 []float64, docs int) {
	if a.docs == 0 {
		return nil, 0
	}
	m1 = append([]float64(nil), a.sum...)
	kernels.Scal(1/float64(a.docs), m1)
	return m1, a.docs
}

func (a *MeanAccumulator) reset() { clear(a.sum); a.docs = 0; a.nnz = 0 }

// PairsAccumulator sums, for a fixed n x k matrix X, the unbiased
// estimate of E[x1 x2^T] X from each document with l >= 2 tokens,
//
//	(c c^T - diag(c)) X / (l (l-1)) = (c (c^T X) - diag(c) X) / (l (l-1)),
//
// in O(nnz k) without forming an n x n matrix. The diag(c) X terms are
// summed as one scalar per word, diag(v) X with v = sum_d c/(l(l-1)), and
// applied once by Finalize.
type PairsAccumulator struct {
	x      *mat.Dense
	sum    *mat.Dense
	v      []float64
	t      []float64
	counts []float64 // a document's counts as floats
	docs   int
}

// NewPairsAccumulator returns an empty accumulator for the product with
// x (n x k, n the vocabulary size).
func NewPairsAccumulator(x *mat.Dense) *PairsAccumulator {
	n, k := x.Dims()
	return &PairsAccumulator{x: x, sum: mat.Zeros(n, k), v: make([]float64, n), t: make([]float64, k)}
}

// addDocRows adds c^T X to t (len(t) = X's columns), c the counts of
// document d: the rows of X of its words times their counts, in order, the
// bits of an Axpy a word, with t held in registers (vec.AxpyRowsAt).
// buf is scratch for the counts as floats; it returns it for reuse.
func addDocRows(t []float64, x *mat.Dense, d Doc, buf []float64) []float64 {
	buf = buf[:0]
	for _, c := range d.Counts {
		buf = append(buf, float64(c))
	}
	vec.AxpyRowsAt(simd.Current(), t, x.RawData(), x.Stride(), d.Words, buf)
	return buf
}

// Add adds a document.
func (a *PairsAccumulator) Add(d Doc) {
	l := d.Len()
	if l < 2 {
		return
	}
	t := a.t
	clear(t)
	a.counts = addDocRows(t, a.x, d, a.counts)
	scale := 1 / (float64(l) * float64(l-1))
	for j, w := range d.Words {
		s := a.counts[j] * scale
		kernels.Axpy(s, t, a.sum.RawRow(int(w)))
		a.v[w] += s
	}
	a.docs++
}

// Merge adds the documents of b (which must be for the same X).
func (a *PairsAccumulator) Merge(b *PairsAccumulator) {
	a.sum.Add(a.sum, b.sum)
	kernels.Axpy(1, b.v, a.v)
	a.docs += b.docs
}

// Finalize returns the estimate of E[x1 x2^T] X and the number of
// documents it averages.
func (a *PairsAccumulator) Finalize() (*mat.Dense, int) {
	out := a.sum.Clone()
	for w, vw := range a.v {
		if vw != 0 {
			kernels.Axpy(-vw, a.x.RawRow(w), out.RawRow(w))
		}
	}
	if a.docs > 0 {
		out.Scale(1/float64(a.docs), out)
	}
	return out, a.docs
}

func (a *PairsAccumulator) reset() { a.sum.Zero(); clear(a.v); a.docs = 0 }

// DocMoments are the moments of a corpus for the spectral learners,
// computed in passes over a Source that never form a vocabulary-sized
// matrix: M1 at construction, and on demand the products of Pairs with
// thin matrices and the whitened third moment.
type DocMoments struct {
	// M1 is the estimate of E[x1]; Docs1 the number of documents (with
	// at least one token) it averages.
	M1    []float64
	Docs1 int
	// NNZ is the number of stored (document, word) counts, which sizes
	// the chunks of the later passes.
	NNZ int
	// Variant and Alpha0 (for LDA) select the Pairs of PairsTimes.
	Variant Variant
	Alpha0  float64

	src   Source
	opts  Options
	words *wordIndexCache // shared by copies; nil: never transpose
}

// NewDocMoments makes the first pass over src (M1). alpha0 is used by
// the LDA variant only and must then be positive. opts nil means the
// defaults; the moments keep a copy of it for their later passes. ctx
// must not be nil; every pass stops with ctx.Err() once ctx is done.
// A bad alpha0 or a negative opts.Workers is an error matching
// ErrBadOption; a source in which no document has a token one matching
// ErrBadData.
func NewDocMoments(ctx context.Context, src Source, variant Variant, alpha0 float64, opts *Options) (*DocMoments, error) {
	o, err := opts.resolve("NewDocMoments")
	if err != nil {
		return nil, err
	}
	if variant == LDA && !(alpha0 > 0) {
		return nil, fmt.Errorf("moments: NewDocMoments: %w: the LDA variant needs alpha0 > 0, got %v", ErrBadOption, alpha0)
	}
	n := src.VocabSize()
	total := src.NumDocs()
	if err := o.check(fmt.Sprintf("the first moment of a vocabulary of %d words", n),
		size.Scale(o.accs(total, chunkSize(total)), size.Float64s(n+1))); err != nil {
		return nil, fmt.Errorf("moments: NewDocMoments: %w", err)
	}
	acc, err := reduce(ctx, "mean", src.NumDocs(), o,
		func() *MeanAccumulator { return NewMeanAccumulator(n) },
		func(a *MeanAccumulator, lo, hi int) { src.Range(lo, hi, func(_ int, d Doc) { a.Add(d) }) },
		(*MeanAccumulator).Merge, (*MeanAccumulator).reset)
	if err != nil {
		return nil, err
	}
	m1, docs := acc.Finalize()
	if docs == 0 {
		return nil, fmt.Errorf("moments: NewDocMoments: %w: no document has a token", ErrBadData)
	}
	return &DocMoments{M1: m1, Docs1: docs, NNZ: acc.nnz, Variant: variant, Alpha0: alpha0, src: src, opts: o, words: &wordIndexCache{}}, nil
}

// M1Coef returns c in Pairs = E[x1 x2^T] - c M1 M1^T: 0 (Raw), 1
// (Central) or alpha0/(alpha0+1) (LDA).
func (m *DocMoments) M1Coef() float64 {
	switch m.Variant {
	case Central:
		return 1
	case LDA:
		return m.Alpha0 / (m.Alpha0 + 1)
	}
	return 0
}

// PairsTimes returns Pairs X for the variant, with one pass over the
// documents: E[x1 x2^T] X from the sparse counts, minus c M1 (M1^T X).
// The pass sums each document's (c c^T - diag(c)) X / (l (l-1)) into
// vocabulary-sized accumulators; on a corpus of no more documents than
// words it instead computes the documents' rows c^T X and then each
// word's row of the result from a transposed copy of the corpus (built on
// the first call and shared by copies of m), which keeps the work in
// cache and gives the same bits. The result is the same bits for any
// number of workers. ctx must not be nil.
func (m *DocMoments) PairsTimes(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	n, k := x.Dims()
	if n != len(m.M1) {
		panic(fmt.Sprintf("moments: PairsTimes: X is %dx%d for a vocabulary of %d words", n, k, len(m.M1)))
	}
	// Each accumulator holds n x k sums and n weights; Finalize copies
	// the sums.
	if err := m.opts.check(fmt.Sprintf("the products with Pairs of a vocabulary of %d words", n),
		m.opts.docPassNeed(m.src, m.NNZ, n, size.Float64s(n, k+1), size.Float64s(n, k))); err != nil {
		return nil, fmt.Errorf("moments: PairsTimes: %w", err)
	}
	chunk := wideChunk(m.src.NumDocs(), m.NNZ, n)
	var out *mat.Dense
	var docs int
	if idx := m.index(); idx != nil {
		var err error
		if out, docs, err = m.pairsWordMajor(ctx, idx, x, chunk); err != nil {
			return nil, err
		}
	} else {
		acc, err := reduceSized(ctx, "pairs", m.src.NumDocs(), chunk, m.opts,
			func() *PairsAccumulator { return NewPairsAccumulator(x) },
			func(a *PairsAccumulator, lo, hi int) { m.src.Range(lo, hi, func(_ int, d Doc) { a.Add(d) }) },
			(*PairsAccumulator).Merge, (*PairsAccumulator).reset)
		if err != nil {
			return nil, err
		}
		out, docs = acc.Finalize()
	}
	if docs == 0 {
		return nil, fmt.Errorf("moments: PairsTimes: %w: no document has two tokens", ErrBadData)
	}
	if c := m.M1Coef(); c != 0 {
		mx := x.MulVecT(nil, m.M1) // M1^T X
		for i, v := range m.M1 {
			if v != 0 {
				kernels.Axpy(-c*v, mx, out.RawRow(i))
			}
		}
	}
	return out, nil
}

// Source returns the documents the moments are computed from.
func (m *DocMoments) Source() Source { return m.src }
