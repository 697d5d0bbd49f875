package svd

import (
	"math"

	"github.com/moments-go/moments/kernels"
)

// tql computes the eigendecomposition of the symmetric tridiagonal matrix
// with diagonal d and off-diagonal e (e[i] couples d[i] and d[i+1]; e has
// len(d) elements and e[len(d)-1] is ignored) by the implicit QL method
// with Wilkinson shifts (as EISPACK's tql2). On return d holds the
// eigenvalues, unsorted, and e is destroyed. If zt is not nil, it holds
// len(d) rows of length ldz (row stride ldz, the first cols entries used)
// to which the rotations are applied: row i of the result is row i of
// the input rotated, so that zt = I on input gives the eigenvectors as
// rows (row i belongs to d[i]). It returns false if some eigenvalue needs
// more than maxIter iterations.
//
// An off-diagonal element is set to zero when it is below eps times the
// largest |d[i]| + |e[i]| seen so far, a test relative to the norm of the
// matrix, which gives eigenvalues and eigenvectors to within a small
// multiple of eps*||T|| and eigenvectors orthogonal to working precision
// for every spectrum (the transformations are exact rotations).
func tql(d, e []float64, zt []float64, ldz, cols, maxIter int) bool {
	n := len(d)
	if n == 0 {
		return true
	}
	e[n-1] = 0
	var f, tst1 float64
	for l := 0; l < n; l++ {
		tst1 = math.Max(tst1, math.Abs(d[l])+math.Abs(e[l]))
		m := l
		for m < n-1 && math.Abs(e[m]) > eps*tst1 {
			m++
		}
		for iter := 0; m > l; iter++ {
			if iter >= maxIter {
				return false
			}
			// Wilkinson shift from the leading 2x2 block, removed from
			// d[l:] (and accumulated in f).
			g := d[l]
			p := (d[l+1] - g) / (2 * e[l])
			r := math.Hypot(p, 1)
			r = math.Copysign(r, p)
			d[l] = e[l] / (p + r)
			d[l+1] = e[l] * (p + r)
			dl1 := d[l+1]
			h := g - d[l]
			for i := l + 2; i < n; i++ {
				d[i] -= h
			}
			f += h
			// The implicit QL sweep from m up to l.
			p = d[m]
			c, c2, c3 := 1.0, 1.0, 1.0
			el1 := e[l+1]
			var s, s2 float64
			for i := m - 1; i >= l; i-- {
				c3 = c2
				c2 = c
				s2 = s
				g = c * e[i]
				h = c * p
				r = math.Hypot(p, e[i])
				e[i+1] = s * r
				s = e[i] / r
				c = p / r
				p = c*d[i] - s*g
				d[i+1] = h + s*(c*g+s*d[i])
				if zt != nil {
					// Columns i, i+1 of Z, that is rows i, i+1 of Zᵀ:
					// z_i, z_{i+1} = c z_i - s z_{i+1}, s z_i + c z_{i+1}.
					kernels.Rot(zt[i*ldz:i*ldz+cols], zt[(i+1)*ldz:(i+1)*ldz+cols], c, -s)
				}
			}
			p = -s * s2 * c3 * el1 * e[l] / dl1
			e[l] = s * p
			d[l] = c * p
			m = l
			for m < n-1 && math.Abs(e[m]) > eps*tst1 {
				m++
			}
		}
		d[l] += f
		e[l] = 0
	}
	return true
}
