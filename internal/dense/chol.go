package dense

import "math"

// Cholesky overwrites the lower triangle of the symmetric n x n matrix a
// (only its lower triangle is read) with the Cholesky factor L, A = L Lᵀ;
// the strict upper triangle is left as it was. It reports false when A
// is not numerically positive definite: a pivot (the square of a
// diagonal entry of L) is not above tol times the largest diagonal entry
// of A.
func Cholesky(a []float64, n int, tol float64) bool {
	a = checkLen("Cholesky", a, n*n)
	var dmax float64
	for i := 0; i < n; i++ {
		if v := a[i*n+i]; v > dmax {
			dmax = v
		}
	}
	thr := tol * dmax
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j+1]
		d := rj[j]
		for _, v := range rj[:j] {
			d -= v * v
		}
		if !(d > thr) {
			return false
		}
		d = math.Sqrt(d)
		rj[j] = d
		inv := 1 / d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j+1]
			t := ri[j]
			for l, v := range rj[:j] {
				t -= ri[l] * v
			}
			ri[j] = t * inv
		}
	}
	return true
}

// CholeskySolve overwrites b (n elements) with the solution x of
// L Lᵀ x = b, for the factor L in the lower triangle of l (Cholesky's
// output).
func CholeskySolve(l []float64, n int, b []float64) {
	l = checkLen("CholeskySolve", l, n*n)
	b = checkLen("CholeskySolve", b, n)
	for i := 0; i < n; i++ {
		ri := l[i*n : i*n+i+1]
		t := b[i]
		for j, v := range ri[:i] {
			t -= v * b[j]
		}
		b[i] = t / ri[i]
	}
	for i := n - 1; i >= 0; i-- {
		t := b[i]
		for j := i + 1; j < n; j++ {
			t -= l[j*n+i] * b[j]
		}
		b[i] = t / l[i*n+i]
	}
}

// InvertLower writes into dst the inverse of the lower triangular n x n
// matrix in the lower triangle of l (its strict upper triangle is not
// read), by forward substitution, column by column; the strict upper
// triangle of dst is set to zero. dst and l must not overlap. A zero
// diagonal entry gives infinities.
func InvertLower(dst, l []float64, n int) {
	l = checkLen("InvertLower", l, n*n)
	dst = checkLen("InvertLower", dst, n*n)
	clear(dst)
	for j := 0; j < n; j++ {
		dst[j*n+j] = 1 / l[j*n+j]
		for i := j + 1; i < n; i++ {
			var s float64
			for m := j; m < i; m++ {
				s += l[i*n+m] * dst[m*n+j]
			}
			dst[i*n+j] = -s / l[i*n+i]
		}
	}
}
