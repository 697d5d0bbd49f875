//go:build !purego

package jacobi

import "github.com/moments-go/moments/internal/simd"

// The batched Jacobi kernels of jacobi.go in assembly (jacobi_amd64.s),
// with 512-bit and 256-bit vectors. Their comments are the scalar loops
// they compute; the Go versions in jacobi.go are those loops. The
// callers check the offsets: the assembly reads and writes n elements at
// each.

// rotPairsAVX512 and rotPairsAVX2 compute
//
//	for i := 0; i < len(cs)/2; i++ {
//		c, s, u, v := cs[2*i], cs[2*i+1], o[2*i], o[2*i+1]
//		for k := 0; k < n; k++ {
//			xu, xv := x[u+k], x[v+k]
//			x[u+k], x[v+k] = c*xu + s*xv, c*xv - s*xu
//		}
//	}
//
// for n > 0.
//
//go:noescape
func rotPairsAVX512(x []float64, n int, o []int, cs []float64)

//go:noescape
func rotPairsAVX2(x []float64, n int, o []int, cs []float64)

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

func registerArch() {
	table.Register(simd.AVX2, &impl{
		level:    simd.AVX2,
		rotPairs: rotPairsAVX2,
		steps:    vecSteps(simd.AVX2),
		sweepT:   jacobiSweepTGeneric,
	})
	table.Register(simd.AVX512, &impl{
		level:      simd.AVX512,
		rotPairs:   rotPairsAVX512,
		steps:      vecSteps(simd.AVX512),
		plan:       jacobiPlanAVX512,
		sweepT:     sweepTAVX512,
		sweepTFast: true,
	})
}
