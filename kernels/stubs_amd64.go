//go:build !purego

package kernels

// The GEMM routines below are implemented twice in assembly, with 512-bit
// vectors (gemm_avx512_amd64.s) and with 256-bit vectors
// (gemm_avx2_amd64.s); the peak probes are in peak_amd64.s. Each comment
// is the scalar loop the routine computes; the Go versions in generic.go
// are those loops.

// gemmKernelAVX512 (mr, nr = 8, 24) and gemmKernelAVX2 (mr, nr = 4, 12)
// compute the micro-tile
//
//	for i := 0; i < mr; i++ {
//		for j := 0; j < nr; j++ {
//			var t float64
//			for p := 0; p < k; p++ { t += a[p*mr+i] * b[p*nr+j] }
//			if add == 0 { c[i*ldc+j] = t } else { c[i*ldc+j] += t }
//		}
//	}
//
//go:noescape
func gemmKernelAVX512(k int, a, b, c []float64, ldc int, add int)

//go:noescape
func gemmKernelAVX2(k int, a, b, c []float64, ldc int, add int)

// packCopyAVX512 (w a multiple of 8) and packCopyAVX2 (w a multiple of 4)
// compute
//
//	for p := 0; p < kc; p++ { for i := 0; i < w; i++ { dst[p*w+i] = alpha * src[p*ld+i] } }
//
//go:noescape
func packCopyAVX512(kc, w int, alpha float64, src []float64, ld int, dst []float64)

//go:noescape
func packCopyAVX2(kc, w int, alpha float64, src []float64, ld int, dst []float64)

// packTransAVX512 (r = 8, kc a multiple of 8) and packTransAVX2 (r = 4,
// kc a multiple of 4) compute
//
//	for i := 0; i < r; i++ { for p := 0; p < kc; p++ { dst[p*ws+i] = alpha * src[i*ld+p] } }
//
//go:noescape
func packTransAVX512(kc int, alpha float64, src []float64, ld int, dst []float64, ws int)

//go:noescape
func packTransAVX2(kc int, alpha float64, src []float64, ld int, dst []float64, ws int)

// fmaPeakAVX512 runs n iterations of 24 independent 512-bit FMAs (384
// flops) and fmaPeakAVX2 n iterations of 12 independent 256-bit FMAs (96
// flops), touching no memory: the benchmarks use them to measure the peak
// the micro-kernels are compared with.
//
//go:noescape
func fmaPeakAVX512(n int)

//go:noescape
func fmaPeakAVX2(n int)
