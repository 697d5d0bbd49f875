package kernels

import "math"

// This file holds the reference implementations. Every assembly routine
// computes what the loop of the same name here computes (up to the
// rounding that a different order of summation or a fused multiply-add
// brings), and the tests compare every path against these loops.

func dotGeneric(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func axpyGeneric(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

func scalGeneric(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

func asumGeneric(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}

// sumSqGeneric returns sum (scale*x[i])^2.
func sumSqGeneric(x []float64, scale float64) float64 {
	var s float64
	for _, v := range x {
		v *= scale
		s += v * v
	}
	return s
}

// maxAbsGeneric returns max |x[i]|, NaN if any x[i] is NaN, 0 for empty x.
func maxAbsGeneric(x []float64) float64 {
	var m float64
	for _, v := range x {
		a := math.Abs(v)
		if a > m {
			m = a
		} else if a != a {
			return a
		}
	}
	return m
}

// indexAbsGeneric returns the first i with |x[i]| == m, or -1.
func indexAbsGeneric(x []float64, m float64) int {
	for i, v := range x {
		if math.Abs(v) == m {
			return i
		}
	}
	return -1
}

func rotGeneric(x, y []float64, c, s float64) {
	for i, xi := range x {
		yi := y[i]
		x[i] = c*xi + s*yi
		y[i] = c*yi - s*xi
	}
}

// gemvNGeneric computes y[i] += alpha * sum_j a[i*lda+j]*x[j] for i < m, j < n.
func gemvNGeneric(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		y[i] += alpha * dotGeneric(x[:n], a[i*lda:i*lda+n])
	}
}

// gemvTGeneric computes y[j] += sum_i (alpha*x[i]) * a[i*lda+j] for i < m, j < n.
func gemvTGeneric(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		axpyGeneric(alpha*x[i], a[i*lda:i*lda+n], y[:n])
	}
}

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
