//go:build !purego

package sym3

import "github.com/moments-go/moments/internal/simd"

func registerArch() {
	table.Register(simd.NEON, &sym3Impl{mr: 4, vl: 2, nv: 4, kernel: sym3KernelNEON})
}

// sym3KernelNEON is the NEON update micro-kernel (4 rows, up to 4
// vectors of 2 columns): sym3TileNEON computes the tile, and the rows
// and columns that belong to the tensor are added to dst here.
func sym3KernelNEON(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int) {
	if k == 0 {
		return
	}
	var tile [4 * 8]float64
	sym3TileNEON(k, a, b, zc, ld, wa, &tile, (nc+1)/2)
	for r := 0; r < mr; r++ {
		d := dst[r*ldc : r*ldc+nc]
		for c, v := range tile[r*8 : r*8+nc] {
			d[c] += v
		}
	}
}

// sym3TileNEON computes, for r < 4 and c < 2*nv (1 <= nv <= 4, k >= 1),
//
//	var t float64
//	for p := 0; p < k; p++ { t += a[p*ld+r] * ((wa[p] * zc[p*ld]) * b[p*ld+c]) }
//	tile[r*8+c] = t
//
// with one fused multiply-add per step. The caller checks the lengths.
//
//go:noescape
func sym3TileNEON(k int, a, b, zc []float64, ld int, wa []float64, tile *[32]float64, nv int)
