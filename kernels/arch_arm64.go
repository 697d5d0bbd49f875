//go:build !purego

package kernels

import "golang.org/x/sys/cpu"

const purego = false

func detectCPU() {
	// Advanced SIMD on ARMv8 always includes double precision.
	HasNEON = cpu.ARM64.HasASIMD
}

// The NEON micro-tile is 6 x 8: 24 accumulators, the 8 values of a row
// of the B panel in 4 registers and the 6 values of A in 3, of the 32
// vector registers (see gemm_neon_arm64.s).
const (
	neonMR = 6
	neonNR = 8
)

var gemmNEON = gemmImpl{mr: neonMR, nr: neonNR, kernel: gemmKernelNEON, packCopy: packCopyNEON, packTrans: packTransNEON, transRows: 2}

func gemmFor(p Path) *gemmImpl {
	switch p {
	case NEON:
		return &gemmNEON
	}
	return &gemmGeneric
}

func dot(x, y []float64) float64 {
	switch active {
	case NEON:
		return dotNEON(x, y)
	}
	return dotGeneric(x, y)
}

func axpy(alpha float64, x, y []float64) {
	switch active {
	case NEON:
		axpyNEON(alpha, x, y)
	default:
		axpyGeneric(alpha, x, y)
	}
}

func scal(alpha float64, x []float64) {
	switch active {
	case NEON:
		scalNEON(alpha, x)
	default:
		scalGeneric(alpha, x)
	}
}

func asum(x []float64) float64 {
	switch active {
	case NEON:
		return asumNEON(x)
	}
	return asumGeneric(x)
}

func sumSq(x []float64, scale float64) float64 {
	switch active {
	case NEON:
		return sumSqNEON(x, scale)
	}
	return sumSqGeneric(x, scale)
}

func maxAbs(x []float64) float64 {
	switch active {
	case NEON:
		return maxAbsNEON(x)
	}
	return maxAbsGeneric(x)
}

func indexAbs(x []float64, m float64) int {
	switch active {
	case NEON:
		return indexAbsNEON(x, m)
	}
	return indexAbsGeneric(x, m)
}

func rot(x, y []float64, c, s float64) {
	switch active {
	case NEON:
		rotNEON(x, y, c, s)
	default:
		rotGeneric(x, y, c, s)
	}
}

func gemvN(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch active {
	case NEON:
		gemvNNEON(m, n, alpha, a, lda, x, y)
	default:
		gemvNGeneric(m, n, alpha, a, lda, x, y)
	}
}

func gemvT(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch active {
	case NEON:
		gemvTNEON(m, n, alpha, a, lda, x, y)
	default:
		gemvTGeneric(m, n, alpha, a, lda, x, y)
	}
}
