//go:build !purego

package jacobi

import "github.com/moments-go/moments/internal/simd"

// The batched Jacobi kernels of jacobi.go in NEON assembly
// (jacobi_arm64.s). Their comments are the scalar loops they compute;
// the Go versions in jacobi.go are those loops. The callers check the
// offsets: the assembly reads and writes n elements at each.

// rotPairsNEON computes
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
func rotPairsNEON(x []float64, n int, o []int, cs []float64)

func registerArch() {
	table.Register(simd.NEON, &impl{
		level:    simd.NEON,
		rotPairs: rotPairsNEON,
		steps:    vecSteps(simd.NEON),
		sweepT:   jacobiSweepTGeneric,
	})
}
