package kernels

import "sync/atomic"

// The no-pack path ("tall-skinny") for two shapes of row-major products
// in which packing costs as much as the multiply-adds, because each
// element is used only a few times:
//
//   - C (m x n) = alpha * Aᵀ B with A k x m and B k x n, m*n small and k
//     long (Gram products): step p reads row p of A and row p of B, both
//     contiguous;
//   - C (m x n) = alpha * A B with A m x k and B k x n, n and k small:
//     B stays in L1 and row i of C is sum_p A[i][p] * B[p][:].
//
// The micro-kernel reads A and B where they lie: A(i, p) at
// a[i*sai+p*sap], B(p, j) at b[p*ldb+j]. Each element of C is the same
// chain of operations whatever the tile it falls in (edge tiles of rows
// overlap the previous ones and go through a scratch tile), so neither
// the edges nor the split between workers change a bit.

// tsKernelGeneric computes the tsMR x tsNR tile (of which the first jw
// columns are written):
//
//	for i := 0; i < mr; i++ {
//		for j := 0; j < jw; j++ {
//			var t float64
//			for p := 0; p < k; p++ { t += a[i*sai+p*sap] * b[p*ldb+j] }
//			if add == 0 { c[i*ldc+j] = alpha * t } else { c[i*ldc+j] += alpha * t }
//		}
//	}
//
// with mr = tsGenericMR.
func tsKernelGeneric(k int, a []float64, sai, sap int, b []float64, ldb int, c []float64, ldc int, alpha float64, add int, jw int) {
	for i := 0; i < tsGenericMR; i++ {
		for j := 0; j < jw; j++ {
			var t float64
			for p := 0; p < k; p++ {
				t += a[i*sai+p*sap] * b[p*ldb+j]
			}
			if add == 0 {
				c[i*ldc+j] = alpha * t
			} else {
				c[i*ldc+j] += alpha * t
			}
		}
	}
}

const (
	tsGenericMR = 4
	tsGenericNR = 8
)

// Dispatch thresholds of the no-pack path, measured with
// BenchmarkGemmTSThresholds on one core (AMD EPYC, 32 KiB L1, AVX-512;
// CPU GFLOP/s, packed against no-pack, medians of 3):
//
//   - Aᵀ B: m and n at most tsTNMaxMN and k at least tsTNMinK. The
//     no-pack path won from k = 8 (l = 20: 11.6 against 15.9; l = 60:
//     23.5 against 28.4) and at l = 96 and 128 with k = 21416 (38.5
//     against 45.4, 36.8 against 39.9); at l = 192 the packed path was
//     ahead (43.4 against 42.9).
//   - A B: n and k at most the kernel's tsNNMax. With AVX-512 it won at
//     n, k <= 64 and for m = 4 (9.3 against 25.4 at n = k = 40), was
//     even or behind from n = 72 (44 against 40 at n = 72, k = 64) and
//     behind at n, k = 96..128 (36 against 28); tsNNMax = 60 keeps to
//     the shapes where it won every time. With AVX2 it won at n, k = 20
//     and 40 but not at 60 (tsNNMax = 40).
//
// Both need m >= the kernel's rows (tsMR).
const (
	tsTNMaxMN = 128
	tsTNMinK  = 8
)

// The Aᵀ B shape with C of at most kSplitMaxMN elements and k of at
// least 2*tsKSplit is cut into chunks of k of about tsKSplit (by
// gemmKSplit, like long products on the packed path), so that workers
// can share it: its rows are too few. The chunks depend on the shape
// alone, which keeps the result independent of the number of workers.
const tsKSplit = 2048

// useTS reports whether gemmRun takes the no-pack path for this shape.
func (g *gemmImpl) useTS(transA, transB bool, m, n, k int) bool {
	if g.tsKernel == nil || transB || m < g.tsMR || k == 0 || (g.tsWhole && n < g.tsNR) {
		return false
	}
	if transA {
		return m <= tsTNMaxMN && n <= tsTNMaxMN && k >= tsTNMinK
	}
	return n <= g.tsNNMax && k <= g.tsNNMax
}

// gemmTS is C = alpha*op(A)*B (+ C if add0 != 0) on the no-pack path,
// with k cut into slices of kc (each slice added to C in order) and the
// rows of C shared by up to workers goroutines. With upper, tiles
// entirely below the diagonal are skipped (Syrk mirrors the upper
// triangle afterwards).
func gemmTS(g *gemmImpl, kc, workers int, upper, transA bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, add0 int, c []float64, ldc int) {
	sai, sap := lda, 1
	if transA {
		sai, sap = 1, lda
	}
	if transA {
		// Longer slices of k than the packed path's, for some kernels:
		// fewer passes of C through the registers (see tsKCMul).
		kc *= max(g.tsKCMul, 1)
	}
	mr := g.tsMR
	tiles := ceilDiv(m, mr)
	// Row blocks of about 64 rows for the workers; the split changes
	// which goroutine computes a tile, never how.
	per := max(ceilDiv(64, mr), 1)
	blocks := ceilDiv(tiles, per)
	if workers <= 1 || blocks <= 1 {
		var tile [tsMaxTile]float64
		gemmTSRows(g, kc, upper, 0, tiles, sai, sap, m, n, k, alpha, a, b, ldb, add0, c, ldc, tile[:])
		return
	}
	var next atomic.Int64
	parallel(min(workers, blocks), func(int) {
		var tile [tsMaxTile]float64
		for {
			q := int(next.Add(1)) - 1
			if q >= blocks {
				return
			}
			gemmTSRows(g, kc, upper, q*per, min((q+1)*per, tiles), sai, sap, m, n, k, alpha, a, b, ldb, add0, c, ldc, tile[:])
		}
	})
}

// tsMaxTile bounds tsMR*tsNR of every implementation.
const tsMaxTile = 8 * 32

// gemmTSRows computes the row tiles t0..t1 (of tsMR rows) of C.
func gemmTSRows(g *gemmImpl, kc int, upper bool, t0, t1, sai, sap, m, n, k int, alpha float64, a, b []float64, ldb int, add0 int, c []float64, ldc int, tile []float64) {
	mr, nr := g.tsMR, g.tsNR
	for pc := 0; pc < k; pc += kc {
		kcur := min(kc, k-pc)
		add := add0
		if pc > 0 {
			add = 1
		}
		ap, bp := a[pc*sap:], b[pc*ldb:]
		for t := t0; t < t1; t++ {
			i := t * mr
			for j := 0; j < n; j += nr {
				jw := min(nr, n-j)
				if upper && i >= j+jw {
					continue // this tile lies below the diagonal
				}
				// A tile past the last row or column is moved back to end
				// there (m >= mr; n >= nr for tsWhole kernels) and goes
				// through the scratch tile, of which rows r0.. and
				// columns c0..w go to C.
				i0, r0 := i, 0
				if i+mr > m {
					i0, r0 = m-mr, i-(m-mr)
				}
				j0, c0, w := j, 0, jw
				if jw < nr && g.tsWhole {
					j0, c0, w = n-nr, j-(n-nr), nr
				}
				if r0 == 0 && c0 == 0 {
					g.tsKernel(kcur, ap[i*sai:], sai, sap, bp[j:], ldb, c[i*ldc+j:], ldc, alpha, add, jw)
					continue
				}
				if add != 0 { // the rest belongs to other tiles (maybe other workers)
					for r := r0; r < mr; r++ {
						copy(tile[r*nr+c0:r*nr+w], c[(i0+r)*ldc+j0+c0:])
					}
				}
				g.tsKernel(kcur, ap[i0*sai:], sai, sap, bp[j0:], ldb, tile, nr, alpha, add, w)
				for r := r0; r < mr; r++ {
					copy(c[(i0+r)*ldc+j0+c0:(i0+r)*ldc+j0+w], tile[r*nr+c0:r*nr+w])
				}
			}
		}
	}
}
