package vec

import (
	"fmt"

	"github.com/moments-go/moments/internal/simd"
)

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

// axpyRows is AxpyRowsAt's loop, row by row with AxpyAt (its routine
// where there is no other).
func axpyRows(l simd.Level, y, x []float64, ldx int, idx []int32, coef []float64) {
	n := len(y)
	if n == 0 {
		return
	}
	for e, i := range idx {
		r := int(i) * ldx
		AxpyAt(l, coef[e], x[r:r+n], y)
	}
}

// checkRows panics unless coef has a coefficient for every index and
// every row idx[e] of x (row stride ldx, n elements used) lies inside x
// (rows may overlap: a stride below n is not an error).
func checkRows(name string, n, lenx, ldx int, idx []int32, coef []float64) {
	if len(coef) < len(idx) {
		panic(fmt.Sprintf("vec: %s: %d coefficients for %d rows", name, len(coef), len(idx)))
	}
	if n == 0 || len(idx) == 0 {
		return
	}
	hi := int32(-1)
	for _, i := range idx {
		if i < 0 {
			panic(fmt.Sprintf("vec: %s: row index %d", name, i))
		}
		hi = max(hi, i)
	}
	// Row hi ends at hi*ldx + n <= lenx, tested without overflow.
	if ldx < 0 || n > lenx || (hi > 0 && ldx > (lenx-n)/int(hi)) {
		panic(fmt.Sprintf("vec: %s: row %d of length %d at stride %d lies outside x (%d elements)", name, hi, n, ldx, lenx))
	}
}
