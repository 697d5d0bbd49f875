package simplex

import (
	"math"
)

// invertDense overwrites the k x k row-major matrix a with its inverse
// (Gauss–Jordan elimination with partial pivoting), using piv (k ints)
// as scratch. It reports false, leaving a garbage, when a pivot is below
// tol times the largest magnitude of a.
func invertDense(a []float64, k int, piv []int, tol float64) bool {
	a = a[:k*k]
	var amax float64
	for _, v := range a {
		if v < 0 {
			v = -v
		}
		if v > amax {
			amax = v
		}
	}
	if !(amax > 0) || amax-amax != 0 {
		return false
	}
	thr := tol * amax
	for c := 0; c < k; c++ {
		// Pivot: largest magnitude in column c at or below row c.
		p := c
		pv := math.Abs(a[c*k+c])
		for i := c + 1; i < k; i++ {
			if v := math.Abs(a[i*k+c]); v > pv {
				p, pv = i, v
			}
		}
		if !(pv > thr) {
			return false
		}
		piv[c] = p
		rc := a[c*k : c*k+k]
		if p != c {
			rp := a[p*k : p*k+k]
			for j := range rc {
				rc[j], rp[j] = rp[j], rc[j]
			}
		}
		inv := 1 / rc[c]
		rc[c] = 1
		for j := range rc {
			rc[j] *= inv
		}
		for i := 0; i < k; i++ {
			if i == c {
				continue
			}
			ri := a[i*k : i*k+k]
			f := ri[c]
			if f == 0 {
				continue
			}
			ri[c] = 0
			ri = ri[:len(rc)]
			for j, v := range rc {
				ri[j] -= f * v
			}
		}
	}
	// Undo the row interchanges on the columns, in reverse.
	for c := k - 1; c >= 0; c-- {
		if p := piv[c]; p != c {
			for i := 0; i < k; i++ {
				row := a[i*k : i*k+k]
				row[c], row[p] = row[p], row[c]
			}
		}
	}
	return true
}

// cholSolve solves G x = b in place (b becomes x) for the symmetric
// positive definite k x k row-major G, which it overwrites with its
// Cholesky factor L (lower triangle). It reports false if G is not
// numerically positive definite.
func cholSolve(g []float64, k int, b []float64) bool {
	g = g[:k*k]
	b = b[:k]
	var dmax float64
	for i := 0; i < k; i++ {
		if v := g[i*k+i]; v > dmax {
			dmax = v
		}
	}
	tol := 1e-14 * dmax
	for j := 0; j < k; j++ {
		rj := g[j*k : j*k+j+1]
		d := rj[j]
		for _, v := range rj[:j] {
			d -= v * v
		}
		if !(d > tol) {
			return false
		}
		d = math.Sqrt(d)
		rj[j] = d
		inv := 1 / d
		for i := j + 1; i < k; i++ {
			ri := g[i*k : i*k+j+1]
			t := ri[j]
			for l, v := range rj[:j] {
				t -= ri[l] * v
			}
			ri[j] = t * inv
		}
	}
	// L y = b, then L^T x = y.
	for i := 0; i < k; i++ {
		ri := g[i*k : i*k+i+1]
		t := b[i]
		for l, v := range ri[:i] {
			t -= v * b[l]
		}
		b[i] = t / ri[i]
	}
	for i := k - 1; i >= 0; i-- {
		t := b[i]
		for j := i + 1; j < k; j++ {
			t -= g[j*k+i] * b[j]
		}
		b[i] = t / g[i*k+i]
	}
	return true
}
