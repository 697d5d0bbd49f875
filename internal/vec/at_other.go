//go:build purego || !(amd64 || arm64)

package vec

import "github.com/moments-go/moments/internal/simd"

// DotAt returns sum x[i]*y[i] (len(y) >= len(x)), on level l's routine.
func DotAt(l simd.Level, x, y []float64) float64 {
	_ = l
	return dotGeneric(x, y)
}

// AxpyAt computes y[i] += alpha*x[i] for i < len(x), on level l's routine.
func AxpyAt(l simd.Level, alpha float64, x, y []float64) {
	_ = l
	axpyGeneric(alpha, x, y)
}

// ScalAt computes x[i] *= alpha, on level l's routine.
func ScalAt(l simd.Level, alpha float64, x []float64) {
	_ = l
	scalGeneric(alpha, x)
}

// AsumAt returns sum |x[i]|, on level l's routine.
func AsumAt(l simd.Level, x []float64) float64 {
	_ = l
	return asumGeneric(x)
}

// SumSqAt returns sum (scale*x[i])², on level l's routine.
func SumSqAt(l simd.Level, x []float64, scale float64) float64 {
	_ = l
	return sumSqGeneric(x, scale)
}

// MaxAbsAt returns max |x[i]|: NaN if any x[i] is NaN, 0 for empty x, on level l's routine.
func MaxAbsAt(l simd.Level, x []float64) float64 {
	_ = l
	return maxAbsGeneric(x)
}

// IndexAbsAt returns the first i with |x[i]| == m, or -1, on level l's routine.
func IndexAbsAt(l simd.Level, x []float64, m float64) int {
	_ = l
	return indexAbsGeneric(x, m)
}

// RotAt computes x[i], y[i] = c*x[i] + s*y[i], c*y[i] - s*x[i], on level l's routine.
func RotAt(l simd.Level, x, y []float64, c, s float64) {
	_ = l
	rotGeneric(x, y, c, s)
}

// GemvNAt computes y[i] += alpha * sum_j a[i*lda+j]*x[j], i < m, j < n, on level l's routine.
func GemvNAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	_ = l
	gemvNGeneric(m, n, alpha, a, lda, x, y)
}

// GemvTAt computes y[j] += sum_i (alpha*x[i]) * a[i*lda+j], i < m, j < n, on level l's routine.
func GemvTAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	_ = l
	gemvTGeneric(m, n, alpha, a, lda, x, y)
}
