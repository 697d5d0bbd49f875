package svd

import (
	"github.com/moments-go/moments/mat"
)

// STAND-IN, to be replaced at the merge: the lead replaces this file by
// the divide and conquer bidiagonal solver of branch s22-bdc
// (svd/bidiag_dc*.go), which implements the same contract. This version
// is correct but slow: it forms B densely and factors it by the Jacobi
// path of Factorize.

// bidiagSVD computes the SVD of the n x n upper bidiagonal B with
// diagonal d[0:n] and superdiagonal e[0:n-1] (e may be overwritten). On
// return d holds the singular values in decreasing order, nonnegative;
// ut and vt, n*n row-major, hold in row i the i-th left and right
// singular vectors: B = Σ_i d[i]*u_i*v_iᵀ with u_i row i of ut and v_i
// row i of vt. A nil ut or vt means that side is not wanted. It reports
// false if the iteration did not converge.
func bidiagSVD(d, e []float64, ut, vt []float64, n int) bool {
	if n == 0 {
		return true
	}
	b := mat.Zeros(n, n)
	for i := 0; i < n; i++ {
		b.Set(i, i, d[i])
		if i+1 < n {
			b.Set(i, i+1, e[i])
		}
	}
	want := WantNone
	switch {
	case ut != nil && vt != nil:
		want = WantUV
	case ut != nil:
		want = WantU
	case vt != nil:
		want = WantV
	}
	o := Options{Want: want, MaxSweeps: 30}
	s, err := factorizeJacobi(b, &o)
	if err != nil {
		return false
	}
	copy(d, s.S)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if ut != nil {
				ut[j*n+i] = s.U.At(i, j)
			}
			if vt != nil {
				vt[j*n+i] = s.V.At(i, j)
			}
		}
	}
	return true
}
