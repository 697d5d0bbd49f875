//go:build !purego

package kernels

import "github.com/moments-go/moments/internal/simd"

func registerArch() {
	register(simd.AVX2, gemmImpl{mr: 4, nr: 12, kernel: gemmKernelAVX2, packCopy: packCopyAVX2, packTrans: packTransAVX2, transRows: 4,
		tsKernel: tsKernelAVX2, tsMR: 4, tsNR: 12, tsWhole: true, tsNNMax: 40}, fmaPeakAVX2, 96)
	register(simd.AVX512, gemmImpl{mr: 8, nr: 24, kernel: gemmKernelAVX512, packCopy: packCopyAVX512, packTrans: packTransAVX512, transRows: 8,
		tsKernel: tsKernelAVX512, tsMR: 4, tsNR: 24, tsNNMax: 60, tsKCMul: 4}, fmaPeakAVX512, 384)
}
