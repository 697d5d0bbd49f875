//go:build !purego

package kernels

// jacobiPlanAVX512 computes jacobiStepsGeneric (see its comment for the
// loop) on the schedule of the plan, read from its group records (see
// planGroup), a group of up to 8 pairs at a time: the group's dot
// products, its rotations in the lanes of one vector, then its rows. The dot product
// of pair i is taken from cs[2*i+1], where the rotation of an earlier
// pair stored it, and is computed on its own only for the pairs of the
// planOwn mask. When it rotates (or passes over) a pair of the planHasP
// mask, it stores the dot product of the (rotated) row p with the row
// planWithP into cs[planToP], and the same for q. It needs n > 0 and a
// multiple of 8, and 8*ld < 2^31.
//
//go:noescape
func jacobiPlanAVX512(x []float64, n, ld int, groups []int32, sq []float64, tol2 float64, cs []float64) (rotated, left int, maxCos2, maxSin float64)

func jacobiPlanRun(p *JacobiPlan, x []float64, n, ld int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	if active == AVX512 && n > 0 && n%8 == 0 && ld < 1<<28 {
		return jacobiPlanAVX512(x, n, ld, p.groups, sq, tol2, cs)
	}
	return jacobiSteps(x, n, ld, p.rows, p.steps, sq, tol2, cs)
}
