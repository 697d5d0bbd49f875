//go:build !purego

package kernels

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

func rotPairs(x []float64, n int, o []int, cs []float64) {
	switch active {
	case AVX512:
		rotPairsAVX512(x, n, o, cs)
	case AVX2:
		rotPairsAVX2(x, n, o, cs)
	default:
		rotPairsGeneric(x, n, o, cs)
	}
}

// jacobiSteps runs the pairs one at a time on the active path's vector
// kernels: the batched AVX-512 kernel is JacobiPlan's, which needs the
// schedule prepared.
func jacobiSteps(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	if active == AVX512 || active == AVX2 {
		return jacobiStepsVec(x, n, ld, rows, sq, tol2, cs)
	}
	return jacobiStepsGeneric(x, n, ld, rows, steps, sq, tol2, cs)
}
