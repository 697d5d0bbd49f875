//go:build !purego

package kernels

import "github.com/moments-go/moments/internal/simd"

// The NEON micro-tile is 6 x 8: 24 accumulators, the 8 values of a row
// of the B panel in 4 registers and the 6 values of A in 3, of the 32
// vector registers (see gemm_neon_arm64.s).
const (
	neonMR = 6
	neonNR = 8
)

func registerArch() {
	register(simd.NEON, gemmImpl{mr: neonMR, nr: neonNR, kernel: gemmKernelNEON, packCopy: packCopyNEON, packTrans: packTransNEON, transRows: 2}, nil, 0)
}
