//go:build !purego

package kernels

import "golang.org/x/sys/cpu"

const purego = false

func detectCPU() {
	HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	// The AVX-512 kernels use AVX-512F only, plus AVX2/FMA in their
	// tails; x/sys/cpu reports AVX-512F only when the OS saves the
	// ZMM state.
	HasAVX512 = HasAVX2 && cpu.X86.HasAVX512F
}

var (
	gemmAVX512 = gemmImpl{mr: 8, nr: 24, kernel: gemmKernelAVX512, packCopy: packCopyAVX512, packTrans: packTransAVX512, transRows: 8}
	gemmAVX2   = gemmImpl{mr: 4, nr: 12, kernel: gemmKernelAVX2, packCopy: packCopyAVX2, packTrans: packTransAVX2, transRows: 4}
)

func gemmFor(p Path) *gemmImpl {
	switch p {
	case AVX512:
		return &gemmAVX512
	case AVX2:
		return &gemmAVX2
	}
	return &gemmGeneric
}

func dot(x, y []float64) float64 {
	switch active {
	case AVX512:
		return dotAVX512(x, y)
	case AVX2:
		return dotAVX2(x, y)
	}
	return dotGeneric(x, y)
}

func axpy(alpha float64, x, y []float64) {
	switch active {
	case AVX512:
		axpyAVX512(alpha, x, y)
	case AVX2:
		axpyAVX2(alpha, x, y)
	default:
		axpyGeneric(alpha, x, y)
	}
}

func scal(alpha float64, x []float64) {
	switch active {
	case AVX512:
		scalAVX512(alpha, x)
	case AVX2:
		scalAVX2(alpha, x)
	default:
		scalGeneric(alpha, x)
	}
}

func asum(x []float64) float64 {
	switch active {
	case AVX512:
		return asumAVX512(x)
	case AVX2:
		return asumAVX2(x)
	}
	return asumGeneric(x)
}

func sumSq(x []float64, scale float64) float64 {
	switch active {
	case AVX512:
		return sumSqAVX512(x, scale)
	case AVX2:
		return sumSqAVX2(x, scale)
	}
	return sumSqGeneric(x, scale)
}

func maxAbs(x []float64) float64 {
	switch active {
	case AVX512:
		return maxAbsAVX512(x)
	case AVX2:
		return maxAbsAVX2(x)
	}
	return maxAbsGeneric(x)
}

func indexAbs(x []float64, m float64) int {
	switch active {
	case AVX512:
		return indexAbsAVX512(x, m)
	case AVX2:
		return indexAbsAVX2(x, m)
	}
	return indexAbsGeneric(x, m)
}

func rot(x, y []float64, c, s float64) {
	switch active {
	case AVX512:
		rotAVX512(x, y, c, s)
	case AVX2:
		rotAVX2(x, y, c, s)
	default:
		rotGeneric(x, y, c, s)
	}
}

func gemvN(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch active {
	case AVX512:
		gemvNAVX512(m, n, alpha, a, lda, x, y)
	case AVX2:
		gemvNAVX2(m, n, alpha, a, lda, x, y)
	default:
		gemvNGeneric(m, n, alpha, a, lda, x, y)
	}
}

func gemvT(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	switch active {
	case AVX512:
		gemvTAVX512(m, n, alpha, a, lda, x, y)
	case AVX2:
		gemvTAVX2(m, n, alpha, a, lda, x, y)
	default:
		gemvTGeneric(m, n, alpha, a, lda, x, y)
	}
}
