//go:build !purego

package sym3

import "github.com/moments-go/moments/internal/simd"

func registerArch() {
	table.Register(simd.AVX2, &sym3Impl{mr: 4, vl: 4, nv: 3, kernel: sym3KernelAVX2})
	table.Register(simd.AVX512, &sym3Impl{mr: 8, vl: 8, nv: 3, kernel: sym3KernelAVX512})
}

// sym3KernelAVX512 (8 rows, up to 3 vectors of 8 columns) and
// sym3KernelAVX2 (4 rows, up to 3 vectors of 4 columns) compute, for
// r < mr and c < nc,
//
//	var t float64
//	for p := 0; p < k; p++ { t += a[p*ld+r] * ((wa[p] * zc[p*ld]) * b[p*ld+c]) }
//	dst[r*ldc+c] += t
//
// with one fused multiply-add per step. They compute all rows of the tile
// and all columns of ceil(nc/vl) vectors, reading a[p*ld+r] for every
// row r of the tile and b[p*ld+c] for every column c of those vectors,
// but store only r < mr and c < nc. The caller checks the lengths.
//
//go:noescape
func sym3KernelAVX512(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int)

//go:noescape
func sym3KernelAVX2(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int)
