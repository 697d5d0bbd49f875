//go:build purego || !amd64

package vec

import "github.com/moments-go/moments/internal/simd"

// The routines below have assembly on amd64 only (at_amd64.go): here,
// on arm64 and with the purego tag, every level runs their Go loops.

// GerAt computes a[i*lda+j] += (alpha*x[i]) * y[j], i < m, j < n, on
// level l's routine: AxpyAt(l, alpha*x[i], y[:n], a[i*lda:i*lda+n]) for
// each row.
func GerAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
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
	gemvNTRows(l, m, n, alpha, a, lda, x, y, xc)
}

// SecularAt returns Σ r[i]/x[i] and Σ r[i]/x[i]², x[i] = (g[i] - o) - t
// (len(r) >= len(g)), the sums of a secular equation and of its
// derivative at o + t, on level l's routine: secularGeneric's loop at every level here.
func SecularAt(l simd.Level, g, r []float64, o, t float64) (s, ds float64) {
	_ = l
	return secularGeneric(g, r, o, t)
}

// SecularVecAt sets v[i] = z[i] / ((d[i] - o) - t) for i < len(z)
// (len(d), len(v) >= len(z)) and returns Σ v[i]², on level l's routine
// (secularVecGeneric's loop at every level here): the components of an
// eigenvector of a rank-one update, before their normalization, with
// (d[i] - o) - t the negated difference of the root o + t and the pole
// d[i].
func SecularVecAt(l simd.Level, z, d []float64, o, t float64, v []float64) float64 {
	_ = l
	return secularVecGeneric(z, d, o, t, v)
}

// SecularVec2At sets v[i] = z[i] / (((d[i] - o) - t) * ((d[i] + o) + t))
// and u[i] = d[i]*v[i] for i < len(z) (the other slices at least as
// long) and returns Σ v[i]² and Σ u[i]², on level l's routine
// (secularVec2Generic's loop at every level here): a pair of singular
// vectors of a bidiagonal merge before their normalization, the
// denominator the negated difference of the squares of the root o + t
// and the pole d[i].
func SecularVec2At(l simd.Level, z, d []float64, o, t float64, v, u []float64) (nv, nu float64) {
	_ = l
	return secularVec2Generic(z, d, o, t, v, u)
}

// ZhatAt returns the product over i < len(d) of ((o[i] - p) + t[i]) /
// (d[i] - p) (len(o), len(t) >= len(d)), or with sq of (((o[i] - p) +
// t[i]) * ((o[i] + p) + t[i])) / ((d[i] - p) * (d[i] + p)), on level l's
// routine (zhatGeneric's loop at every level here): the ratios of Gu and
// Eisenstat's recomputed z, with roots o[i] + t[i] and poles d[i] (or
// their squares). The loop multiplies numerators and denominators in
// runs of eight and divides once per run, and returns 0 when a run's
// product nears the underflow threshold (the caller then takes the
// ratios one by one).
func ZhatAt(l simd.Level, sq bool, o, t, d []float64, p float64) float64 {
	_ = l
	return zhatGeneric(sq, o, t, d, p)
}

// AxpyRowsAt adds to y the rows of the matrix x (row stride ldx) that
// idx lists, each times its coefficient: y[j] += coef[e] *
// x[idx[e]*ldx+j] for each e in order and j < len(y), on level l's
// routine: AxpyAt(l, coef[e], row idx[e], y) for each e. It panics if
// coef is shorter than idx or a row lies outside x.
func AxpyRowsAt(l simd.Level, y, x []float64, ldx int, idx []int32, coef []float64) {
	checkRows("AxpyRowsAt", len(y), len(x), ldx, idx, coef)
	axpyRows(l, y, x, ldx, idx, coef)
}
