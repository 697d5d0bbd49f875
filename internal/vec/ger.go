package vec

import "github.com/moments-go/moments/internal/simd"

// gerRows computes a[i*lda+j] += (alpha*x[i]) * y[j] for i < m, j < n,
// by AxpyAt on each row (GerAt's routine where there is no other).
func gerRows(l simd.Level, m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		AxpyAt(l, alpha*x[i], y[:n], a[i*lda:i*lda+n])
	}
}
