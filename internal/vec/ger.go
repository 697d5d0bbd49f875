package vec

import "github.com/moments-go/moments/internal/simd"

// gerRows computes a[i*lda+j] += (alpha*x[i]) * y[j] for i < m, j < n,
// by AxpyAt on each row (GerAt's routine where there is no other).
func gerRows(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		AxpyAt(l, alpha*x[i], y[:n], a[i*lda:i*lda+n])
	}
}

// gemvNTRows is GemvNTAt's loop, row by row with DotAt and AxpyAt (its
// routine where there is no other).
func gemvNTRows(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y, xc []float64) {
	for i := 0; i < m; i++ {
		row := a[i*lda : i*lda+n]
		t := alpha * (DotAt(l, row, x[:n]) - xc[2*i])
		xc[2*i] = t
		xc[2*i+1] -= t
		AxpyAt(l, xc[2*i+1], row, y[:n])
	}
}
