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

// Dispatch thresholds of the no-pack path (measured on a Zen 5 core with
// BenchmarkGemmTS; see the commit that set them): the Aᵀ B shape when C
// has at most tsTNMaxMN elements and k is at least tsTNMinK; the A B
// shape when B has at most tsNNMaxN columns and k is at most tsNNMaxK.
// Both need m >= the kernel's rows.
const (
	tsTNMaxMN = 96 * 96
	tsTNMinK  = 64
	tsNNMaxN  = 96
	tsNNMaxK  = 96
)

// useTS reports whether gemmRun takes the no-pack path for this shape.
func (g *gemmImpl) useTS(transA, transB bool, m, n, k int) bool {
	if g.tsKernel == nil || transB || m < g.tsMR || k == 0 {
		return false
	}
	if transA {
		return m*n <= tsTNMaxMN && k >= tsTNMinK
	}
	return n <= tsNNMaxN && k <= tsNNMaxK
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
		for j := 0; j < n; j += nr {
			jw := min(nr, n-j)
			for t := t0; t < t1; t++ {
				i := t * mr
				if upper && i >= j+jw {
					break // this tile and the ones below it
				}
				if i+mr <= m {
					g.tsKernel(kcur, ap[i*sai:], sai, sap, bp[j:], ldb, c[i*ldc+j:], ldc, alpha, add, jw)
					continue
				}
				// The last rows: the tile of rows m-mr..m (m >= mr) through
				// a scratch tile, of which rows i..m go back to C.
				i0 := m - mr
				if add != 0 { // rows above i belong to other tiles (maybe other workers)
					for r := i - i0; r < mr; r++ {
						copy(tile[r*nr:r*nr+jw], c[(i0+r)*ldc+j:])
					}
				}
				g.tsKernel(kcur, ap[i0*sai:], sai, sap, bp[j:], ldb, tile, nr, alpha, add, jw)
				for r := i - i0; r < mr; r++ {
					copy(c[(i0+r)*ldc+j:(i0+r)*ldc+j+jw], tile[r*nr:r*nr+jw])
				}
			}
		}
	}
}
