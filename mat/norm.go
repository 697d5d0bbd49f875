package mat

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/kernels"
)

// NormFrob returns the Frobenius norm of m, sqrt(sum m[i,j]^2), without
// overflow or harmful underflow: it is accurate to a few ulps whenever
// the result is representable (see kernels.Nrm2); +Inf when it is not.
//
// Like the other norms it is 0 for a matrix with no elements, NaN if m
// holds a NaN, and +Inf if m holds an infinity but no NaN.
func (m *Dense) NormFrob() float64 {
	if m.rows == 0 || m.cols == 0 {
		return 0
	}
	if m.contiguous() {
		return kernels.Nrm2(m.data[:m.rows*m.cols])
	}
	// The norm of the vector of row norms: each row norm is overflow-safe
	// and so is their combination.
	norms := make([]float64, m.rows)
	for i := range norms {
		norms[i] = kernels.Nrm2(m.row(i))
	}
	return kernels.Nrm2(norms)
}

// Norm1 returns the 1-norm of m, the largest sum of absolute values of a
// column: max_j sum_i |m[i,j]|.
//
// Like the other norms it is 0 for a matrix with no elements, NaN if m
// holds a NaN, and +Inf if m holds an infinity but no NaN.
func (m *Dense) Norm1() float64 {
	if m.rows == 0 || m.cols == 0 {
		return 0
	}
	sums := make([]float64, m.cols)
	for i := 0; i < m.rows; i++ {
		row := m.row(i)
		for j, v := range row {
			sums[j] += math.Abs(v)
		}
	}
	var n float64
	for _, s := range sums {
		n = nanMax(n, s)
	}
	return n
}

// NormInf returns the infinity-norm of m, the largest sum of absolute
// values of a row: max_i sum_j |m[i,j]|.
//
// Like the other norms it is 0 for a matrix with no elements, NaN if m
// holds a NaN, and +Inf if m holds an infinity but no NaN.
func (m *Dense) NormInf() float64 {
	if m.rows == 0 || m.cols == 0 {
		return 0
	}
	var n float64
	for i := 0; i < m.rows; i++ {
		n = nanMax(n, kernels.Asum(m.row(i)))
	}
	return n
}

// NormMax returns the largest absolute value of an element of m,
// max_ij |m[i,j]|.
//
// Like the other norms it is 0 for a matrix with no elements, NaN if m
// holds a NaN, and +Inf if m holds an infinity but no NaN.
func (m *Dense) NormMax() float64 {
	if m.rows == 0 || m.cols == 0 {
		return 0
	}
	var n float64
	for i := 0; i < m.rows; i++ {
		row := m.row(i)
		n = nanMax(n, math.Abs(row[kernels.Iamax(row)]))
	}
	return n
}

// nanMax returns the larger of a and b, or NaN if either is NaN.
func nanMax(a, b float64) float64 {
	if b > a || b != b {
		return b
	}
	return a
}

// Trace returns the sum of the diagonal elements of the square matrix
// m; 0 for a 0x0 matrix. It panics if m is not square.
func (m *Dense) Trace() float64 {
	if m.rows != m.cols {
		panic(fmt.Sprintf("mat: Trace: matrix is %dx%d, not square", m.rows, m.cols))
	}
	var t float64
	for i := 0; i < m.rows; i++ {
		t += m.data[i*m.stride+i]
	}
	return t
}

// Equal reports whether a and b have the same shape and equal elements
// (compared with ==, so a NaN is never equal and 0 equals -0).
func Equal(a, b *Dense) bool {
	return equalFunc(a, b, func(x, y float64) bool { return x == y })
}

// EqualApprox reports whether a and b have the same shape and, for
// every i and j, a[i,j] == b[i,j] or
//
//	|a[i,j] - b[i,j]| <= tol * max(1, |a[i,j]|, |b[i,j]|),
//
// that is, an absolute tolerance for elements up to 1 in magnitude and a
// relative one above. Infinities of the same sign are equal to each
// other and to nothing else; a NaN is never equal to anything. Different shapes give false, not a panic.
func EqualApprox(a, b *Dense, tol float64) bool {
	return equalFunc(a, b, func(x, y float64) bool {
		if x == y {
			return true
		}
		if math.IsInf(x, 0) || math.IsInf(y, 0) {
			return false
		}
		return math.Abs(x-y) <= tol*max(1, math.Abs(x), math.Abs(y))
	})
}

func equalFunc(a, b *Dense, eq func(x, y float64) bool) bool {
	if a.rows != b.rows || a.cols != b.cols {
		return false
	}
	if a.cols == 0 {
		return true
	}
	for i := 0; i < a.rows; i++ {
		ra, rb := a.row(i), b.row(i)
		for j, x := range ra {
			if !eq(x, rb[j]) {
				return false
			}
		}
	}
	return true
}

// NonFinite returns the position of the first NaN or infinite element of
// m in row-major order, and found = false when every element is finite.
// A row whose sum of magnitudes (kernels.Asum, which propagates NaN and
// Inf) is finite is finite; only a row whose sum is not is searched
// element by element (finite values may add up to +Inf).
func (m *Dense) NonFinite() (i, j int, found bool) {
	if m.cols == 0 {
		return 0, 0, false
	}
	for i = 0; i < m.rows; i++ {
		row := m.data[i*m.stride : i*m.stride+m.cols]
		if s := kernels.Asum(row); s-s == 0 {
			continue
		}
		for j, v := range row {
			if v-v != 0 {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}
