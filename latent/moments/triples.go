package moments

import (
	"context"
	"fmt"
	"github.com/moments-go/moments/internal/size"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// TriplesAccumulator sums, for a fixed whitening W (n x k), the pieces of
// the whitened third moment Triples(W, W, W) (see the package
// documentation) over the
// documents with l >= 3 tokens, with a_d = 1/(l(l-1)(l-2)) and
// y = W^T c:
//
//	sum_d a_d y(x)y(x)y                                (a packed k^3 tensor)
//	u_i = sum_d a_d c_i y      for every word i        (n x k)
//	v_i = sum_d a_d c_i        for every word i        (n)
//
// from which Finalize builds sum_d a_d (y(x)y(x)y - sum_i c_i (w_i(x)w_i(x)y
// + perms) + 2 sum_i c_i w_i(x)w_i(x)w_i) without touching a document
// again: O(nnz k) per document plus k^3/6 per document in blocks. It
// also sums the raw whitened pairs W^T E[x1 x2^T] W over the documents
// with l >= 2, which the central and LDA corrections need and which come
// almost free once y is known.
type TriplesAccumulator struct {
	w      *mat.Dense
	cube   *tensor3.Sym
	u      *mat.Dense // n x k
	v      []float64  // n
	pairs  *PairsAccumulator
	block  *mat.Dense // whitened documents waiting for the cube update
	wts    []float64
	filled int
	docs3  int
}

// tripleBlock is the number of whitened documents gathered before each
// update of the packed tensor (the update is a blocked, level-3-like
// kernel that wants many rows at once).
const tripleBlock = 256

// NewTriplesAccumulator returns an empty accumulator for the whitening w
// (n x k).
func NewTriplesAccumulator(w *mat.Dense) *TriplesAccumulator {
	n, k := w.Dims()
	return &TriplesAccumulator{
		w:     w,
		cube:  tensor3.New(k, nil),
		u:     mat.Zeros(n, k),
		v:     make([]float64, n),
		pairs: NewPairsAccumulator(w),
		block: mat.Zeros(tripleBlock, k),
		wts:   make([]float64, tripleBlock),
	}
}

// Add adds a document.
func (a *TriplesAccumulator) Add(d Doc) {
	// a.pairs.Add computes y = W^T c into a.pairs.t, and the counts as
	// floats into a.pairs.counts, when l >= 2.
	a.pairs.Add(d)
	l := d.Len()
	if l < 3 {
		return
	}
	y := a.pairs.t
	ad := 1 / (float64(l) * float64(l-1) * float64(l-2))
	for j, w := range d.Words {
		s := ad * a.pairs.counts[j]
		kernels.Axpy(s, y, a.u.RawRow(int(w)))
		a.v[w] += s
	}
	copy(a.block.RawRow(a.filled), y)
	a.wts[a.filled] = ad
	a.filled++
	a.docs3++
	if a.filled == tripleBlock {
		a.flush()
	}
}

// flush adds the gathered documents to the packed tensor.
func (a *TriplesAccumulator) flush() {
	if a.filled == 0 {
		return
	}
	_, k := a.w.Dims()
	a.cube.AddOuterRows(1, a.block.Slice(0, a.filled, 0, k), a.wts[:a.filled])
	a.filled = 0
}

// Merge adds the documents of b (which must be for the same W).
func (a *TriplesAccumulator) Merge(b *TriplesAccumulator) {
	a.flush()
	b.flush()
	a.cube.Add(a.cube, b.cube)
	a.u.Add(a.u, b.u)
	kernels.Axpy(1, b.v, a.v)
	a.pairs.Merge(b.pairs)
	a.docs3 += b.docs3
}

func (a *TriplesAccumulator) reset() {
	a.cube.Zero()
	a.u.Zero()
	clear(a.v)
	a.pairs.reset()
	a.filled = 0
	a.docs3 = 0
}

// Finalize returns the whitened raw third moment E[x1(x)x2(x)x3](W, W, W),
// the whitened raw pairs W^T E[x1 x2^T] W, and the numbers of documents
// they average (l >= 3 and l >= 2 tokens).
func (a *TriplesAccumulator) Finalize() (triples *tensor3.Sym, pairs *mat.Dense, docs3, docs2 int) {
	a.flush()
	t := a.cube.Clone()
	t.AddCrossRows(-1, a.w, a.u, nil)
	t.AddOuterRows(2, a.w, a.v)
	if a.docs3 > 0 {
		t.Scale(1/float64(a.docs3), t)
	}
	p, docs2 := a.pairs.Finalize()
	var wp mat.Dense
	wp.MulAT(a.w, p)
	wp.Symmetrize()
	return t, &wp, a.docs3, docs2
}

// WhitenedTriples returns the whitened third moment Triples(W, W, W) of
// the variant (see the package documentation), a k x k x k symmetric tensor, with one pass
// over the documents that never forms anything vocabulary-sized beyond
// n x k: for the raw variant E[x1(x)x2(x)x3](W, W, W); for Central and LDA
// that minus c2 times the three placements of P(x)m plus c3 m(x)m(x)m,
// with m = W^T M1, P = W^T E[x1 x2^T] W, and (c2, c3) = TriplesCoef():
// (1, 2) or (a0/(a0+2), 2 a0^2/((a0+2)(a0+1))). ctx must not be nil.
func (m *DocMoments) WhitenedTriples(ctx context.Context, w *mat.Dense) (*tensor3.Sym, error) {
	t, p, err := m.WhitenedRaw(ctx, w)
	if err != nil {
		return nil, err
	}
	if c2, c3 := m.TriplesCoef(); c2 != 0 {
		mw := w.MulVecT(nil, m.M1) // W^T M1
		t.AddSymMatOuter(-c2, p, mw)
		t.AddOuter(c3, mw)
	}
	return t, nil
}

// TriplesCoef returns (c2, c3) in Triples = E[x1(x)x2(x)x3] - c2 (the
// three placements of E[x1 x2^T](x)M1) + c3 M1(x)M1(x)M1: (0, 0) (Raw),
// (1, 2) (Central) or (a0/(a0+2), 2 a0^2/((a0+2)(a0+1))) (LDA).
func (m *DocMoments) TriplesCoef() (c2, c3 float64) {
	switch m.Variant {
	case Central:
		return 1, 2
	case LDA:
		a0 := m.Alpha0
		return a0 / (a0 + 2), 2 * a0 * a0 / ((a0 + 2) * (a0 + 1))
	}
	return 0, 0
}

// WhitenedRaw returns, from one pass over the documents, the whitened
// raw moments of every variant: E[x1(x)x2(x)x3](W, W, W) (k x k x k) and
// W^T E[x1 x2^T] W (k x k, symmetric). With m = W^T M1 they give the
// whitened third moment of any variant and alpha0 without another pass
// (see WhitenedTriples and TriplesCoef); and for W = Q B, W^T E[x1 x2^T] W
// = B^T (Q^T E[x1 x2^T] Q) B and E[x1(x)x2(x)x3](W, W, W) =
// E[x1(x)x2(x)x3](Q, Q, Q)(B, B, B) (tensor3.Sym.Multilinear), so the
// moments in a basis Q give those of every W in its span. ctx must not
// be nil.
func (m *DocMoments) WhitenedRaw(ctx context.Context, w *mat.Dense) (*tensor3.Sym, *mat.Dense, error) {
	n, k := w.Dims()
	if n != len(m.M1) {
		panic(fmt.Sprintf("moments: WhitenedRaw: W is %dx%d for a vocabulary of %d words", n, k, len(m.M1)))
	}
	// Each accumulator holds the packed k x k x k tensor, two n x k
	// matrices (U and the pairs' sums), two n-vectors and a block of
	// whitened documents.
	perAcc := size.Add(size.Scale(8, size.Packed3(k)), size.Float64s(n, 2*k+2), size.Float64s(tripleBlock+1, k))
	if err := m.opts.check(fmt.Sprintf("the whitened third moment (k = %d) of a vocabulary of %d words", k, n),
		m.opts.docPassNeed(m.src, m.NNZ, n, perAcc, size.Scale(8, size.Packed3(k)))); err != nil {
		return nil, nil, fmt.Errorf("moments: WhitenedRaw: %w", err)
	}
	acc, err := reduceSized(ctx, "triples", m.src.NumDocs(), wideChunk(m.src.NumDocs(), m.NNZ, n), m.opts,
		func() *TriplesAccumulator { return NewTriplesAccumulator(w) },
		func(a *TriplesAccumulator, lo, hi int) {
			m.src.Range(lo, hi, func(_ int, d Doc) { a.Add(d) })
			a.flush()
		},
		(*TriplesAccumulator).Merge, (*TriplesAccumulator).reset)
	if err != nil {
		return nil, nil, err
	}
	t, p, docs3, _ := acc.Finalize()
	if docs3 == 0 {
		return nil, nil, fmt.Errorf("moments: WhitenedRaw: %w: no document has three tokens", ErrBadData)
	}
	return t, p, nil
}
