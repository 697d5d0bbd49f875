package mat

import (
	"fmt"

	"github.com/moments-go/moments/kernels"
)

// Mul sets m = a*b. It panics unless a's columns match b's rows. The
// receiver may share memory with a or b (the product is then computed
// into a temporary and copied over). Mul runs kernels.Gemm: blocked,
// parallel, and bit-identical for any number of goroutines.
func (m *Dense) Mul(a, b *Dense) {
	if a.cols != b.rows {
		panic(fmt.Sprintf("mat: Mul: A is %dx%d but B is %dx%d; the columns of A must match the rows of B", a.rows, a.cols, b.rows, b.cols))
	}
	m.product("Mul", false, false, a.rows, b.cols, a.cols, a, b)
}

// MulAT sets m = aᵀ*b without forming the transpose. It panics unless a
// and b have the same number of rows. Aliasing is handled as in Mul.
func (m *Dense) MulAT(a, b *Dense) {
	if a.rows != b.rows {
		panic(fmt.Sprintf("mat: MulAT: A is %dx%d but B is %dx%d; the rows of A must match the rows of B", a.rows, a.cols, b.rows, b.cols))
	}
	m.product("MulAT", true, false, a.cols, b.cols, a.rows, a, b)
}

// MulBT sets m = a*bᵀ without forming the transpose. It panics unless a
// and b have the same number of columns. Aliasing is handled as in Mul.
func (m *Dense) MulBT(a, b *Dense) {
	if a.cols != b.cols {
		panic(fmt.Sprintf("mat: MulBT: A is %dx%d but B is %dx%d; the columns of A must match the columns of B", a.rows, a.cols, b.rows, b.cols))
	}
	m.product("MulBT", false, true, a.rows, b.rows, a.cols, a, b)
}

// GramCols sets m = aᵀ*a, the c x c matrix of inner products of the
// columns of the r x c matrix a. It runs kernels.Syrk, which does about
// half the work of Mul; the result is exactly symmetric. Aliasing is
// handled as in Mul.
func (m *Dense) GramCols(a *Dense) {
	m.product("GramCols", true, false, a.cols, a.cols, a.rows, a, nil)
}

// GramRows sets m = a*aᵀ, the r x r matrix of inner products of the rows
// of the r x c matrix a. Like GramCols it is exactly symmetric and costs
// about half a product.
func (m *Dense) GramRows(a *Dense) {
	m.product("GramRows", false, true, a.rows, a.rows, a.cols, a, nil)
}

// product sets m = op(a)*op(b), an r x c result with inner dimension k,
// or the Gram matrix op(a)*op(a)ᵀ when b is nil.
func (m *Dense) product(method string, transA, transB bool, r, c, k int, a, b *Dense) {
	m.reuseAs(method, r, c)
	if overlaps(m, a) || (b != nil && overlaps(m, b)) {
		tmp := New(r, c, nil)
		tmp.product(method, transA, transB, r, c, k, a, b)
		m.copyFrom(tmp)
		return
	}
	switch {
	case r == 0 || c == 0:
	case k == 0:
		m.Zero()
	case b == nil:
		kernels.Syrk(transA, r, k, 1, a.data, a.stride, 0, m.data, m.stride)
	default:
		kernels.Gemm(transA, transB, r, c, k, 1, a.data, a.stride, b.data, b.stride, 0, m.data, m.stride)
	}
}

// MulVec computes the matrix-vector product m*x into dst and returns
// it; here the receiver is the matrix, not the destination. If dst is
// nil MulVec allocates it; otherwise len(dst) must be the number of rows
// of m. len(x) must be the number of columns. dst may share memory with
// x or m. MulVec runs kernels.Gemv.
func (m *Dense) MulVec(dst, x []float64) []float64 {
	if len(x) != m.cols {
		panic(fmt.Sprintf("mat: MulVec: matrix is %dx%d but x has %d elements", m.rows, m.cols, len(x)))
	}
	dst = vecDst("MulVec", dst, m.rows, "rows")
	m.gemv(false, dst, x)
	return dst
}

// MulVecT computes mᵀ*x into dst and returns it, as MulVec does for m*x:
// len(x) must be the number of rows of m, and dst, if not nil, must have
// one element per column.
func (m *Dense) MulVecT(dst, x []float64) []float64 {
	if len(x) != m.rows {
		panic(fmt.Sprintf("mat: MulVecT: matrix is %dx%d but x has %d elements", m.rows, m.cols, len(x)))
	}
	dst = vecDst("MulVecT", dst, m.cols, "columns")
	m.gemv(true, dst, x)
	return dst
}

func (m *Dense) gemv(trans bool, dst, x []float64) {
	if len(dst) == 0 {
		return
	}
	if slicesOverlap(dst, x) || overlaps(m, &Dense{rows: 1, cols: len(dst), stride: len(dst), data: dst}) {
		tmp := make([]float64, len(dst))
		m.gemv(trans, tmp, x)
		copy(dst, tmp)
		return
	}
	if len(x) == 0 {
		clear(dst)
		return
	}
	kernels.Gemv(trans, m.rows, m.cols, 1, m.data, m.stride, x, 0, dst)
}
