//go:build !purego

package vec

import "github.com/moments-go/moments/internal/simd"

// DotAt returns sum x[i]*y[i] (len(y) >= len(x)), on level l's routine.
func DotAt(l simd.Level, x, y []float64) float64 {
	switch l {
	case simd.AVX512:
		return dotAVX512(x, y)
	case simd.AVX2:
		return dotAVX2(x, y)
	}
	return dotGeneric(x, y)
}

// AxpyAt computes y[i] += alpha*x[i] for i < len(x), on level l's routine.
func AxpyAt(l simd.Level, alpha float64, x, y []float64) {
	switch l {
	case simd.AVX512:
		axpyAVX512(alpha, x, y)
		return
	case simd.AVX2:
		axpyAVX2(alpha, x, y)
		return
	}
	axpyGeneric(alpha, x, y)
}

// ScalAt computes x[i] *= alpha, on level l's routine.
func ScalAt(l simd.Level, alpha float64, x []float64) {
	switch l {
	case simd.AVX512:
		scalAVX512(alpha, x)
		return
	case simd.AVX2:
		scalAVX2(alpha, x)
		return
	}
	scalGeneric(alpha, x)
}

// AsumAt returns sum |x[i]|, on level l's routine.
func AsumAt(l simd.Level, x []float64) float64 {
	switch l {
	case simd.AVX512:
		return asumAVX512(x)
	case simd.AVX2:
		return asumAVX2(x)
	}
	return asumGeneric(x)
}

// SumSqAt returns sum (scale*x[i])², on level l's routine.
func SumSqAt(l simd.Level, x []float64, scale float64) float64 {
	switch l {
	case simd.AVX512:
		return sumSqAVX512(x, scale)
	case simd.AVX2:
		return sumSqAVX2(x, scale)
	}
	return sumSqGeneric(x, scale)
}

// MaxAbsAt returns max |x[i]|: NaN if any x[i] is NaN, 0 for empty x, on level l's routine.
func MaxAbsAt(l simd.Level, x []float64) float64 {
	switch l {
	case simd.AVX512:
		return maxAbsAVX512(x)
	case simd.AVX2:
		return maxAbsAVX2(x)
	}
	return maxAbsGeneric(x)
}

// IndexAbsAt returns the first i with |x[i]| == m, or -1, on level l's routine.
func IndexAbsAt(l simd.Level, x []float64, m float64) int {
	switch l {
	case simd.AVX512:
		return indexAbsAVX512(x, m)
	case simd.AVX2:
		return indexAbsAVX2(x, m)
	}
	return indexAbsGeneric(x, m)
}

// RotAt computes x[i], y[i] = c*x[i] + s*y[i], c*y[i] - s*x[i], on level l's routine.
func RotAt(l simd.Level, x, y []float64, c, s float64) {
	switch l {
	case simd.AVX512:
		rotAVX512(x, y, c, s)
		return
	case simd.AVX2:
		rotAVX2(x, y, c, s)
		return
	}
	rotGeneric(x, y, c, s)
}

// GemvNAt computes y[i] += alpha * sum_j a[i*lda+j]*x[j], i < m, j < n, on level l's routine.
func GemvNAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch l {
	case simd.AVX512:
		gemvNAVX512(m, n, alpha, a, lda, x, y)
		return
	case simd.AVX2:
		gemvNAVX2(m, n, alpha, a, lda, x, y)
		return
	}
	gemvNGeneric(m, n, alpha, a, lda, x, y)
}

// GemvTAt computes y[j] += sum_i (alpha*x[i]) * a[i*lda+j], i < m, j < n, on level l's routine.
func GemvTAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch l {
	case simd.AVX512:
		gemvTAVX512(m, n, alpha, a, lda, x, y)
		return
	case simd.AVX2:
		gemvTAVX2(m, n, alpha, a, lda, x, y)
		return
	}
	gemvTGeneric(m, n, alpha, a, lda, x, y)
}

// GerAt computes a[i*lda+j] += (alpha*x[i]) * y[j], i < m, j < n, on
// level l's routine: the same bits as AxpyAt(l, alpha*x[i], y[:n],
// a[i*lda:i*lda+n]) for each row, without a call per row.
func GerAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch l {
	case simd.AVX512:
		gerAVX512(m, n, alpha, a, lda, x, y)
		return
	case simd.AVX2:
		gerAVX2(m, n, alpha, a, lda, x, y)
		return
	}
	gerRows(l, m, n, alpha, a, lda, x, y)
}

// GemvNTAt makes two products with each row i < m of the m x n matrix
// a (row stride lda), on level l's routine: with d the dot product of
// row i with x, and (t, c) = (xc[2i], xc[2i+1]), it sets
// xc[2i] = t' = alpha*(d - t), xc[2i+1] = c' = c - t', and adds c' times
// row i to y (n elements). The assembly routines make both products of a
// group of rows while the rows are in cache: one pass over a where a
// matrix-vector product and a transposed one take two.
func GemvNTAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y, xc []float64) {
	switch l {
	case simd.AVX512:
		gemvNTAVX512(m, n, alpha, a, lda, x, y, xc)
		return
	case simd.AVX2:
		gemvNTAVX2(m, n, alpha, a, lda, x, y, xc)
		return
	}
	gemvNTRows(l, m, n, alpha, a, lda, x, y, xc)
}

// SecularAt returns Σ r[i]/x[i] and Σ r[i]/x[i]², x[i] = (g[i] - o) - t
// (len(r) >= len(g)), the sums of a secular equation and of its
// derivative at o + t, on level l's routine. The assembly takes one true division per element; the
// generic loop takes the reciprocals two at a time (secularGeneric).
func SecularAt(l simd.Level, g, r []float64, o, t float64) (s, ds float64) {
	switch l {
	case simd.AVX512, simd.AVX2:
		return secularAVX2(g, r, o, t)
	}
	return secularGeneric(g, r, o, t)
}

// SecularVecAt sets v[i] = z[i] / ((d[i] - o) - t) for i < len(z)
// (len(d), len(v) >= len(z)) and returns Σ v[i]², on level l's routine:
// the components of an eigenvector of a rank-one update, before their
// normalization, with (d[i] - o) - t the negated difference of the root
// o + t and the pole d[i].
func SecularVecAt(l simd.Level, z, d []float64, o, t float64, v []float64) float64 {
	switch l {
	case simd.AVX512, simd.AVX2:
		return secularVecAVX2(z, d, o, t, v)
	}
	return secularVecGeneric(z, d, o, t, v)
}

// SecularVec2At sets v[i] = z[i] / (((d[i] - o) - t) * ((d[i] + o) + t))
// and u[i] = d[i]*v[i] for i < len(z) (the other slices at least as
// long) and returns Σ v[i]² and Σ u[i]², on level l's routine: a pair of
// singular vectors of a bidiagonal merge before their normalization, the
// denominator the negated difference of the squares of the root o + t
// and the pole d[i]. The assembly takes one true division per element;
// the generic loop takes the reciprocals two at a time.
func SecularVec2At(l simd.Level, z, d []float64, o, t float64, v, u []float64) (nv, nu float64) {
	switch l {
	case simd.AVX512, simd.AVX2:
		return secularVec2AVX2(z, d, o, t, v, u)
	}
	return secularVec2Generic(z, d, o, t, v, u)
}

// ZhatAt returns the product over i < len(d) of ((o[i] - p) + t[i]) /
// (d[i] - p) (len(o), len(t) >= len(d)), or with sq of (((o[i] - p) +
// t[i]) * ((o[i] + p) + t[i])) / ((d[i] - p) * (d[i] + p)), on level l's
// routine: the ratios of Gu and Eisenstat's recomputed z, with roots
// o[i] + t[i] and poles d[i] (or their squares). The assembly takes one
// true division per ratio; the generic loop multiplies numerators and
// denominators in runs of eight and divides once per run, and returns 0
// when a run's product nears the underflow threshold (the caller then
// takes the ratios one by one).
func ZhatAt(l simd.Level, sq bool, o, t, d []float64, p float64) float64 {
	switch {
	case (l == simd.AVX512 || l == simd.AVX2) && sq:
		return zhat2AVX2(o, t, d, p)
	case l == simd.AVX512 || l == simd.AVX2:
		return zhatAVX2(o, t, d, p)
	}
	return zhatGeneric(sq, o, t, d, p)
}

// AxpyRowsAt adds to y the rows of the matrix x (row stride ldx) that
// idx lists, each times its coefficient: y[j] += coef[e] *
// x[idx[e]*ldx+j] for each e in order and j < len(y), on level l's
// routine: the same bits as AxpyAt(l, coef[e], row idx[e], y) for each e,
// with y kept in registers while the rows go by. It panics if coef is
// shorter than idx or a row lies outside x.
func AxpyRowsAt(l simd.Level, y, x []float64, ldx int, idx []int32, coef []float64) {
	checkRows("AxpyRowsAt", len(y), len(x), ldx, idx, coef)
	switch l {
	case simd.AVX512:
		axpyRowsAVX512(y, x, ldx, idx, coef[:len(idx)])
		return
	case simd.AVX2:
		axpyRowsAVX2(y, x, ldx, idx, coef[:len(idx)])
		return
	}
	axpyRows(l, y, x, ldx, idx, coef)
}
