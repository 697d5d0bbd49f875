package kernels

// This file holds the reference GEMM micro-kernel and packing routines:
// every assembly routine computes what the loop of the same name here
// computes, up to the order of summation and fused multiply-adds.

// Generic GEMM micro-tile: 2 x 4 is the largest whose accumulators the
// Go compiler keeps in the 15 amd64 floating-point registers (measured:
// 8.5-8.9 GFLOP/s on one Zen 5 core, against 4.7 for a 4 x 4 tile, which
// spills).
const (
	genericMR = 2
	genericNR = 4
)

// gemmKernelGeneric computes the mr x nr tile
//
//	t[i][j] = sum_{p<k} a[p*mr+i] * b[p*nr+j]
//
// and then c[i*ldc+j] = t[i][j] when add == 0, c[i*ldc+j] += t[i][j]
// otherwise. The sum runs in order of p, one multiply-add at a time.
func gemmKernelGeneric(k int, a, b, c []float64, ldc int, add int) {
	var t00, t01, t02, t03, t10, t11, t12, t13 float64
	a, b = a[:k*genericMR], b[:k*genericNR]
	for len(a) >= genericMR && len(b) >= genericNR {
		a0, a1 := a[0], a[1]
		b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
		t00 += a0 * b0
		t01 += a0 * b1
		t02 += a0 * b2
		t03 += a0 * b3
		t10 += a1 * b0
		t11 += a1 * b1
		t12 += a1 * b2
		t13 += a1 * b3
		a, b = a[genericMR:], b[genericNR:]
	}
	t := [genericMR * genericNR]float64{t00, t01, t02, t03, t10, t11, t12, t13}
	storeTile(genericMR, genericNR, genericNR, t[:], c, ldc, add)
}

// gemmKernelGenericSized is gemmKernelGeneric for any tile shape; the
// tests use it as the reference for the assembly kernels.
func gemmKernelGenericSized(mr, nr, k int, a, b, c []float64, ldc int, add int) {
	t := make([]float64, mr*nr)
	for p := 0; p < k; p++ {
		for i := 0; i < mr; i++ {
			ai := a[p*mr+i]
			for j := 0; j < nr; j++ {
				t[i*nr+j] += ai * b[p*nr+j]
			}
		}
	}
	storeTile(mr, nr, nr, t, c, ldc, add)
}

// storeTile writes the top-left rows x cols corner of the tile t (row
// stride ts) to c (row stride ldc): c = t when add == 0, c += t otherwise.
func storeTile(rows, cols, ts int, t, c []float64, ldc, add int) {
	for i := 0; i < rows; i++ {
		ci := c[i*ldc : i*ldc+cols]
		ti := t[i*ts : i*ts+cols]
		if add == 0 {
			copy(ci, ti)
			continue
		}
		for j, v := range ti {
			ci[j] += v
		}
	}
}

// packCopyGeneric packs kc rows of w contiguous values:
//
//	dst[p*ws+i] = alpha * src[p*ld+i]   for p < kc, i < w
//
// and zeroes dst[p*ws+i] for w <= i < ws.
func packCopyGeneric(kc, w, ws int, alpha float64, src []float64, ld int, dst []float64) {
	for p := 0; p < kc; p++ {
		d := dst[p*ws : p*ws+ws]
		s := src[p*ld : p*ld+w]
		for i, v := range s {
			d[i] = alpha * v
		}
		clear(d[w:])
	}
}

// packTransGeneric packs w rows of kc contiguous values, transposed:
//
//	dst[p*ws+i] = alpha * src[i*ld+p]   for p < kc, i < w
//
// and zeroes dst[p*ws+i] for w <= i < ws.
func packTransGeneric(kc, w, ws int, alpha float64, src []float64, ld int, dst []float64) {
	for i := 0; i < w; i++ {
		s := src[i*ld : i*ld+kc]
		for p, v := range s {
			dst[p*ws+i] = alpha * v
		}
	}
	if w < ws {
		for p := 0; p < kc; p++ {
			clear(dst[p*ws+w : p*ws+ws])
		}
	}
}
