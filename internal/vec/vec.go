// Package vec holds the vector and matrix-vector kernels of every
// implementation level (internal/simd): the portable Go loops of
// generic.go and their AVX2, AVX-512 and NEON assembly. The public
// kernels package checks the arguments and calls them; internal/jacobi
// builds its per-level kernels from them.
//
// Each field of Ops also exists as a function of the level, DotAt,
// AxpyAt and so on (at_*.go), that switches on the level and calls the
// routine directly. The kernels package calls those on its hot paths: a
// direct call costs less than one through a function value and, unlike
// it, lets the compiler see that the slices do not escape. Both reach the
// same routines (TestAtMatchesTable).
//
// The functions of an Ops assume checked arguments: equal lengths where
// the loop of their comment indexes two slices, and in-range matrices.
package vec

import "github.com/moments-go/moments/internal/simd"

// Ops is one implementation of the vector kernels. Each field computes
// the scalar loop of its generic version (generic.go), up to the order
// of summation and fused multiply-adds.
type Ops struct {
	// Dot returns sum x[i]*y[i] (len(y) >= len(x)).
	Dot func(x, y []float64) float64
	// Axpy computes y[i] += alpha*x[i] for i < len(x).
	Axpy func(alpha float64, x, y []float64)
	// Scal computes x[i] *= alpha.
	Scal func(alpha float64, x []float64)
	// Asum returns sum |x[i]|.
	Asum func(x []float64) float64
	// SumSq returns sum (scale*x[i])².
	SumSq func(x []float64, scale float64) float64
	// MaxAbs returns max |x[i]|: NaN if any x[i] is NaN, 0 for empty x.
	MaxAbs func(x []float64) float64
	// IndexAbs returns the first i with |x[i]| == m, or -1.
	IndexAbs func(x []float64, m float64) int
	// Rot computes x[i], y[i] = c*x[i] + s*y[i], c*y[i] - s*x[i].
	Rot func(x, y []float64, c, s float64)
	// GemvN computes y[i] += alpha * sum_j a[i*lda+j]*x[j], i < m, j < n.
	GemvN func(m, n int, alpha float64, a []float64, lda int, x, y []float64)
	// GemvT computes y[j] += sum_i (alpha*x[i]) * a[i*lda+j], i < m, j < n.
	GemvT func(m, n int, alpha float64, a []float64, lda int, x, y []float64)
}

var table simd.Table[Ops]

// Get returns the selected implementation.
func Get() *Ops { return table.Get() }

// For returns the implementation of level l (the generic one where l has
// none of its own).
func For(l simd.Level) *Ops { return table.For(l) }

func init() {
	table.Register(simd.Generic, &Ops{
		Dot: dotGeneric, Axpy: axpyGeneric, Scal: scalGeneric, Asum: asumGeneric,
		SumSq: sumSqGeneric, MaxAbs: maxAbsGeneric, IndexAbs: indexAbsGeneric,
		Rot: rotGeneric, GemvN: gemvNGeneric, GemvT: gemvTGeneric,
	})
	registerArch()
}
