package jacobi

import "github.com/moments-go/moments/internal/simd"

// impl is one implementation of the batched Jacobi kernels. The
// package-level functions run on the selected one (internal/simd); the
// methods of impl of the same names run on im, which is how the tests
// run every implementation.
type impl struct {
	level simd.Level
	// rotPairs computes rotPairsGeneric's loop, for n > 0.
	rotPairs func(x []float64, n int, o []int, cs []float64)
	// steps computes jacobiStepsGeneric's loop.
	steps func(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64) (rotated, left int, maxCos2, maxSin float64)
	// plan, if not nil, runs a Plan's group records (see
	// jacobiPlanAVX512) for n > 0 a multiple of 8 and ld < 2^28;
	// otherwise, and for other shapes, a plan runs on steps.
	plan func(x []float64, n, ld int, groups []int32, sq []float64, tol2 float64, cs []float64) (rotated, left int, maxCos2, maxSin float64)
	// sweepT computes jacobiSweepTGeneric's loop; sweepTFast reports
	// whether it is assembly.
	sweepT     func(t []float64, m, n, ntot int, sq []float64, tol2 float64) (rotated, left int, maxCos2, maxSin float64)
	sweepTFast bool
}

var table simd.Table[impl]

// cur returns the selected implementation.
func cur() *impl { return table.Get() }

// vecSteps returns the steps of level l that run pair by pair on the
// vector kernels (Dot, Rot, SumSq) of that level: the levels without a
// batched step kernel use it.
func vecSteps(l simd.Level) func(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	return func(x []float64, n, ld int, rows, _ []int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
		return jacobiPairs(l, x, n, ld, rows, sq, tol2, cs)
	}
}

func init() {
	table.Register(simd.Generic, &impl{
		level:    simd.Generic,
		rotPairs: rotPairsGeneric,
		steps:    jacobiStepsGeneric,
		sweepT:   jacobiSweepTGeneric,
	})
	registerArch()
}
