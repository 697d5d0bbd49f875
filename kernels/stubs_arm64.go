//go:build !purego

package kernels

// The GEMM routines below are implemented in assembly with 128-bit NEON
// vectors (gemm_neon_arm64.s). Each comment is the scalar loop the
// routine computes; the Go versions in generic.go are those loops.

// gemmKernelNEON (mr, nr = 6, 8) computes the micro-tile
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
func gemmKernelNEON(k int, a, b, c []float64, ldc int, add int)

// packCopyNEON (w a multiple of 2) computes
//
//	for p := 0; p < kc; p++ { for i := 0; i < w; i++ { dst[p*w+i] = alpha * src[p*ld+i] } }
//
//go:noescape
func packCopyNEON(kc, w int, alpha float64, src []float64, ld int, dst []float64)

// packTransNEON (r = 2, kc a multiple of 2) computes
//
//	for i := 0; i < r; i++ { for p := 0; p < kc; p++ { dst[p*ws+i] = alpha * src[i*ld+p] } }
//
//go:noescape
func packTransNEON(kc int, alpha float64, src []float64, ld int, dst []float64, ws int)
