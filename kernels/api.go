package kernels

import "github.com/moments-go/moments/internal/simd"

// The package-level kernels run on the selected implementation; the
// methods of impl of the same names (vector.go, gemm.go) do the work on
// one implementation, which is how the tests run every one. The vector
// kernels (vector.go) take the level as an argument and reach the
// assembly by direct calls (vec.DotAt and the like): a call through a
// function value costs 1-2 ns more per call and makes every slice
// argument escape to the heap, which matters to callers that make many
// tiny calls (small SVDs and LQs).

// Dot returns sum x[i]*y[i].
func Dot(x, y []float64) float64 { return dot(simd.Current(), x, y) }

// DotInc returns sum x[i*incX]*y[i*incY] for i < n.
func DotInc(n int, x []float64, incX int, y []float64, incY int) float64 {
	return dotInc(simd.Current(), n, x, incX, y, incY)
}

// Axpy computes y[i] += alpha*x[i].
func Axpy(alpha float64, x, y []float64) { axpy(simd.Current(), alpha, x, y) }

// AxpyInc computes y[i*incY] += alpha*x[i*incX] for i < n.
func AxpyInc(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	axpyInc(simd.Current(), n, alpha, x, incX, y, incY)
}

// Scal computes x[i] *= alpha. It multiplies even when alpha is 0, so NaN
// and Inf in x give NaN.
func Scal(alpha float64, x []float64) { scal(simd.Current(), alpha, x) }

// ScalInc computes x[i*inc] *= alpha for i < n.
func ScalInc(n int, alpha float64, x []float64, inc int) { scalInc(simd.Current(), n, alpha, x, inc) }

// Asum returns sum |x[i]|.
func Asum(x []float64) float64 { return asum(simd.Current(), x) }

// AsumInc returns sum |x[i*inc]| for i < n.
func AsumInc(n int, x []float64, inc int) float64 { return asumInc(simd.Current(), n, x, inc) }

// Nrm2 returns the Euclidean norm sqrt(sum x[i]^2) without overflow or
// harmful underflow: the result is accurate to a few ulps whenever it is
// representable, from vectors of subnormals to vectors near MaxFloat64.
// It returns NaN if any x[i] is NaN, else +Inf if any is infinite.
//
// The fast path sums the squares directly (one pass); only when that sum
// is not finite or falls below 2^-900, where squares may have lost
// precision, does it rescale by a power of two near max |x[i]| (exact)
// and sum again.
func Nrm2(x []float64) float64 { return nrm2(simd.Current(), x) }

// Nrm2Inc is Nrm2 of x[0], x[inc], ..., x[(n-1)*inc].
func Nrm2Inc(n int, x []float64, inc int) float64 { return nrm2Inc(simd.Current(), n, x, inc) }

// Iamax returns the index of the first element of largest absolute
// value, -1 for an empty x. A NaN counts as larger than any number: if x
// holds NaN, Iamax returns the index of the first NaN.
func Iamax(x []float64) int { return iamax(simd.Current(), x) }

// IamaxInc is Iamax of x[0], x[inc], ..., x[(n-1)*inc]; it returns i for
// the element x[i*inc].
func IamaxInc(n int, x []float64, inc int) int { return iamaxInc(simd.Current(), n, x, inc) }

// Rot applies the plane rotation (c, s) to the pairs (x[i], y[i]):
// x[i], y[i] = c*x[i] + s*y[i], c*y[i] - s*x[i].
func Rot(x, y []float64, c, s float64) { rot(simd.Current(), x, y, c, s) }

// RotInc is Rot on x[i*incX], y[i*incY] for i < n.
func RotInc(n int, x []float64, incX int, y []float64, incY int, c, s float64) {
	rotInc(simd.Current(), n, x, incX, y, incY, c, s)
}

// Gemv computes y = alpha*A*x + beta*y for the row-major m x n matrix A
// with row stride lda (x has n elements, y m), or y = alpha*A^T*x +
// beta*y when trans is true (x has m elements, y n). As in BLAS, beta == 0
// writes y without reading it and alpha == 0 does not read A or x.
func Gemv(trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	gemv(simd.Current(), trans, m, n, alpha, a, lda, x, beta, y)
}

// Ger computes the rank-one update A += alpha * x * y^T of the row-major
// m x n matrix A (row stride lda); x has m elements, y n.
func Ger(m, n int, alpha float64, x, y []float64, a []float64, lda int) {
	ger(simd.Current(), m, n, alpha, x, y, a, lda)
}

// Gemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices,
// where op(X) is X, or X^T when transX is true. C is m x n with row
// stride ldc; op(A) is m x k, stored in a with row stride lda (A is k x m
// when transA); op(B) is k x n, stored in b with row stride ldb.
//
// As in BLAS, beta == 0 means C is written without being read (NaN in C
// does not propagate), and alpha == 0 or k == 0 leaves beta*C without
// reading A or B. The result is bit-identical for any number of workers
// (see SetMaxWorkers). Gemm panics if a size is negative, a stride is
// too small, or a slice is too short.
func Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	cur().Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GemmSerial is Gemm on the calling goroutine alone, with the same
// bits: for callers that share out their products among goroutines of
// their own, which Gemm's workers would only compete with.
func GemmSerial(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	cur().GemmSerial(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Syrk computes the symmetric C = alpha*A*A^T + beta*C (n x n, A n x k)
// or, when trans is true, C = alpha*A^T*A + beta*C (A k x n). It does
// about half the work of Gemm: only tiles that touch the upper triangle
// are computed, and the lower triangle is then copied from the upper, so
// C comes out exactly symmetric. With beta != 0 only the upper triangle
// of C is read.
func Syrk(trans bool, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	cur().Syrk(trans, n, k, alpha, a, lda, beta, c, ldc)
}
