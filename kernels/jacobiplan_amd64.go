//go:build !purego

package kernels

// jacobiPlanAVX512 computes jacobiStepsGeneric (see its comment for the
// loop) on the schedule rows, steps as jacobiStepsAVX512 does, in groups
// of up to eight pairs of one step, except that the dot product of pair
// i is taken from cs[2*i+1], where the rotation of an earlier pair stored
// it (fuse, see JacobiPlan), and is computed on its own only where
// fuse[5*i+4] != 0. When it rotates (or passes over) pair i, it stores
// the dot products of the rotated rows p and q with the rows fuse[5*i+1]
// and fuse[5*i+3] into cs[fuse[5*i]] and cs[fuse[5*i+2]] (each where that
// index is not negative). It needs n > 0 and n a multiple of 8.
//
//go:noescape
func jacobiPlanAVX512(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64, fuse []int32) (rotated, left int, maxCos2, maxSin float64)

func jacobiPlanRun(p *JacobiPlan, x []float64, n, ld int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	if active == AVX512 && n > 0 && n%8 == 0 {
		return jacobiPlanAVX512(x, n, ld, p.rows, p.steps, sq, tol2, cs, p.fuse)
	}
	return jacobiSteps(x, n, ld, p.rows, p.steps, sq, tol2, cs)
}
