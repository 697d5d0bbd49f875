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

// jacobiPlanAVX512 computes, with rotate(i, p, q, g) the body of the
// loop of jacobiStepsGeneric's comment for pair i from the line "a, b :=
// sq[p], sq[q]" on, with the dot product g given,
//
//	i := 0
//	for at := 0; at < len(groups); at += planGroup {
//		r := groups[at : at+planGroup]
//		for l := 0; l < int(r[planCount]); l, i = l+1, i+1 {
//			p, q := int(r[planP+l]), int(r[planQ+l])
//			u, v := x[p*ld:p*ld+n], x[q*ld:q*ld+n]
//			g := cs[2*i+1] // stored there by an earlier pair
//			if r[planOwn]>>l&1 != 0 { g = 0; for k := range u { g += u[k] * v[k] } }
//			rotate(i, p, q, g)
//			if r[planHasP]>>l&1 != 0 {
//				w := x[int(r[planWithP+l])*ld:]
//				var d float64
//				for k := range u { d += u[k] * w[k] }
//				cs[r[planToP+l]] = d
//			}
//			if r[planHasQ]>>l&1 != 0 {
//				w := x[int(r[planWithQ+l])*ld:]
//				var d float64
//				for k := range v { d += v[k] * w[k] }
//				cs[r[planToQ+l]] = d
//			}
//		}
//	}
//
// a group of up to 8 pairs of one step at a time: the group's own dot
// products, its rotations in the lanes of one vector, then its rows,
// forming the stored dot products from the rotated rows while they are
// in registers. It needs n > 0 and a multiple of 8, and 8*ld < 2^31.
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
