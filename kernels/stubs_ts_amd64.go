//go:build !purego

package kernels

// tsKernelAVX512 is tsKernelGeneric with a 4 x 24 tile (jw <= 24), in
// gemm_ts_avx512_amd64.s.
//
//go:noescape
func tsKernelAVX512(k int, a []float64, sai, sap int, b []float64, ldb int, c []float64, ldc int, alpha float64, add int, jw int)

// tsKernelAVX2 is tsKernelGeneric with a 4 x 12 tile, always whole (jw
// must be 12), in gemm_ts_avx2_amd64.s.
//
//go:noescape
func tsKernelAVX2(k int, a []float64, sai, sap int, b []float64, ldb int, c []float64, ldc int, alpha float64, add int, jw int)
