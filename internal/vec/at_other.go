//go:build purego || !(amd64 || arm64)

package vec

import "github.com/moments-go/moments/internal/simd"

// DotAt returns Ops.Dot(x, y) of level l's implementation (For(l)), by a direct call.
func DotAt(l simd.Level, x, y []float64) float64 {
	_ = l
	return dotGeneric(x, y)
}

// AxpyAt computes Ops.Axpy(alpha, x, y) of level l's implementation (For(l)), by a direct call.
func AxpyAt(l simd.Level, alpha float64, x, y []float64) {
	_ = l
	axpyGeneric(alpha, x, y)
}

// ScalAt computes Ops.Scal(alpha, x) of level l's implementation (For(l)), by a direct call.
func ScalAt(l simd.Level, alpha float64, x []float64) {
	_ = l
	scalGeneric(alpha, x)
}

// AsumAt returns Ops.Asum(x) of level l's implementation (For(l)), by a direct call.
func AsumAt(l simd.Level, x []float64) float64 {
	_ = l
	return asumGeneric(x)
}

// SumSqAt returns Ops.SumSq(x, scale) of level l's implementation (For(l)), by a direct call.
func SumSqAt(l simd.Level, x []float64, scale float64) float64 {
	_ = l
	return sumSqGeneric(x, scale)
}

// MaxAbsAt returns Ops.MaxAbs(x) of level l's implementation (For(l)), by a direct call.
func MaxAbsAt(l simd.Level, x []float64) float64 {
	_ = l
	return maxAbsGeneric(x)
}

// IndexAbsAt returns Ops.IndexAbs(x, m) of level l's implementation (For(l)), by a direct call.
func IndexAbsAt(l simd.Level, x []float64, m float64) int {
	_ = l
	return indexAbsGeneric(x, m)
}

// RotAt computes Ops.Rot(x, y, c, s) of level l's implementation (For(l)), by a direct call.
func RotAt(l simd.Level, x, y []float64, c, s float64) {
	_ = l
	rotGeneric(x, y, c, s)
}

// GemvNAt computes Ops.GemvN(m, n, alpha, a, lda, x, y) of level l's implementation (For(l)), by a direct call.
func GemvNAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	_ = l
	gemvNGeneric(m, n, alpha, a, lda, x, y)
}

// GemvTAt computes Ops.GemvT(m, n, alpha, a, lda, x, y) of level l's implementation (For(l)), by a direct call.
func GemvTAt(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	_ = l
	gemvTGeneric(m, n, alpha, a, lda, x, y)
}
