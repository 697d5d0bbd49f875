//go:build !purego

package kernels

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

func rotPairs(x []float64, n int, o []int, cs []float64) {
	switch active {
	case NEON:
		rotPairsNEON(x, n, o, cs)
	default:
		rotPairsGeneric(x, n, o, cs)
	}
}

func jacobiSteps(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	if active == NEON {
		return jacobiStepsVec(x, n, ld, rows, sq, tol2, cs)
	}
	return jacobiStepsGeneric(x, n, ld, rows, steps, sq, tol2, cs)
}

func jacobiSweepT(t []float64, m, n, ntot int, sq []float64, tol2 float64) (int, int, float64, float64) {
	return jacobiSweepTGeneric(t, m, n, ntot, sq, tol2)
}

func jacobiSweepTFast() bool { return false }
