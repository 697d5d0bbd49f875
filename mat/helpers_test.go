package mat

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
)

// u is the unit roundoff of float64, 2^-53.
const u = 0x1p-53

// sentinel fills the padding around test views; a method that writes
// outside its view changes it.
const sentinel = -7.25e299

// testMat is a matrix under test: either compact or a view in the middle
// of a larger parent whose other elements hold sentinel.
type testMat struct {
	*Dense
	parent *Dense // nil for a compact matrix
	i0, j0 int
}

// randMat returns an r x c matrix of standard normal values, compact or
// (if view) a view with padding on every side and a stride larger than c.
func randMat(rng *rand.Rand, r, c int, view bool) testMat {
	tm := blankMat(r, c, view)
	fillRand(rng, tm.Dense)
	return tm
}

// blankMat is randMat with zero elements.
func blankMat(r, c int, view bool) testMat {
	if !view {
		return testMat{Dense: New(r, c, nil)}
	}
	p := New(r+3, c+4, nil)
	for i := range p.data {
		p.data[i] = sentinel
	}
	v := p.Slice(1, r+1, 2, c+2)
	v.Zero()
	return testMat{Dense: v, parent: p, i0: 1, j0: 2}
}

func fillRand(rng *rand.Rand, m *Dense) {
	for i := 0; i < m.rows; i++ {
		for j := 0; j < m.cols; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
}

// checkPadding fails the test if an element of the parent outside the
// view no longer holds sentinel.
func (tm testMat) checkPadding(t *testing.T, what string) {
	t.Helper()
	if tm.parent == nil {
		return
	}
	r, c := tm.Dims()
	for i := 0; i < tm.parent.rows; i++ {
		for j := 0; j < tm.parent.cols; j++ {
			inside := i >= tm.i0 && i < tm.i0+r && j >= tm.j0 && j < tm.j0+c
			if !inside && math.Float64bits(tm.parent.At(i, j)) != math.Float64bits(sentinel) {
				t.Fatalf("%s: padding (%d, %d) of the view changed to %v", what, i, j, tm.parent.At(i, j))
			}
		}
	}
}

// mustPanic runs f and fails the test unless it panics with a string
// that starts with "mat: " and contains every one of want.
func mustPanic(t *testing.T, f func(), want ...string) {
	t.Helper()
	testutil.MustPanic(t, f, "mat: ", want...)
}

// dot2 returns sum x[i]*y[i] computed as if in twice the working
// precision and rounded once (Ogita, Rump and Oishi's Dot2, with error-
// free products from FMA): its error is at most u*|result| plus a term of
// order (n*u)^2 * sum |x[i]*y[i]|, negligible next to the bounds used
// here. It is the reference for the products.
func dot2(x, y []float64) float64 {
	var s, c float64
	for i, xi := range x {
		p := xi * y[i]
		pe := math.FMA(xi, y[i], -p)
		t := s + p
		z := t - s
		c += (s - (t - z)) + (p - z) + pe
		s = t
	}
	return s + c
}

// refProduct returns the accurate product op(a)*op(b) and, for each
// element, the classical bound on the error of a computed dot product of
// length k, (k+2)*u*sum_p |op(a)[i,p]|*|op(b)[p,j]| (Higham's gamma_k,
// with 2u to spare for the rounding of the reference itself).
func refProduct(a, b *Dense, transA, transB bool) (ref, bound *Dense) {
	opA, opB := a, b
	if transA {
		opA = a.T()
	}
	if transB {
		opB = b.T()
	}
	m, k := opA.Dims()
	_, n := opB.Dims()
	bt := opB.T() // columns of op(b) as rows
	ref, bound = New(m, n, nil), New(m, n, nil)
	absA, absB := make([]float64, k), make([]float64, k)
	for i := 0; i < m; i++ {
		ai := opA.Row(nil, i)
		for p := range ai {
			absA[p] = math.Abs(ai[p])
		}
		for j := 0; j < n; j++ {
			bj := bt.Row(nil, j)
			for p := range bj {
				absB[p] = math.Abs(bj[p])
			}
			ref.Set(i, j, dot2(ai, bj))
			bound.Set(i, j, float64(k+2)*u*dot2(absA, absB))
		}
	}
	return ref, bound
}

// checkClose fails the test unless |got - ref| <= bound elementwise.
func checkClose(t *testing.T, what string, got, ref, bound *Dense) {
	t.Helper()
	r, c := ref.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: result is %dx%d, want %dx%d", what, gr, gc, r, c)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if d := math.Abs(got.At(i, j) - ref.At(i, j)); !(d <= bound.At(i, j)) {
				t.Fatalf("%s: element (%d, %d) = %v, reference %v, error %g above the bound %g", what, i, j, got.At(i, j), ref.At(i, j), d, bound.At(i, j))
			}
		}
	}
}

// checkBits fails the test unless got and want have the same shape and
// the same bits in every element.
func checkBits(t *testing.T, what string, got, want *Dense) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: result is %dx%d, want %dx%d", what, gr, gc, r, c)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
				t.Fatalf("%s: element (%d, %d) = %v, want %v", what, i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}

// zeroShapes are the shapes without elements that every method must
// accept.
var zeroShapes = [][2]int{{0, 0}, {0, 5}, {5, 0}}
