package dense

import (
	"fmt"
	"math"
)

// maxAbs returns the largest magnitude in a, NaN if a holds a NaN.
func maxAbs(a []float64) float64 {
	var m float64
	for _, v := range a {
		v = math.Abs(v)
		if v > m || v != v {
			m = v
		}
	}
	return m
}

func checkLen(what string, s []float64, n int) []float64 {
	if len(s) < n {
		panic(fmt.Sprintf("dense: %s: %d elements, want %d", what, len(s), n))
	}
	return s[:n]
}

// LUFactor overwrites the n x n matrix a with its LU factorization with
// partial pivoting, P A = L U: L (unit lower triangular, its unit
// diagonal not stored) below the diagonal, U on and above it. Row i of
// P A is row perm[i] of A (perm must hold n ints). It reports false,
// leaving a partly factored, when a pivot is not above tol times the
// largest magnitude in A (so always for a zero matrix, or one holding a
// NaN).
func LUFactor(a []float64, n int, perm []int, tol float64) bool {
	a = checkLen("LUFactor", a, n*n)
	perm = perm[:n]
	thr := tol * maxAbs(a)
	for i := range perm {
		perm[i] = i
	}
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i*n+k]) > math.Abs(a[p*n+k]) {
				p = i
			}
		}
		if !(math.Abs(a[p*n+k]) > thr) {
			return false
		}
		if p != k {
			rk, rp := a[k*n:k*n+n], a[p*n:p*n+n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
			perm[k], perm[p] = perm[p], perm[k]
		}
		rk := a[k*n : k*n+n]
		for i := k + 1; i < n; i++ {
			ri := a[i*n : i*n+n]
			l := ri[k] / rk[k]
			ri[k] = l
			for j := k + 1; j < n; j++ {
				ri[j] -= l * rk[j]
			}
		}
	}
	return true
}

// LUSolve writes into x the solution of A x = b from LUFactor's output
// (lu, perm) for A; x and b have n elements and must not overlap.
func LUSolve(x, lu []float64, n int, perm []int, b []float64) {
	lu = checkLen("LUSolve", lu, n*n)
	x = checkLen("LUSolve", x, n)
	for i := range n {
		x[i] = b[perm[i]]
	}
	for i := range n {
		for j := range i {
			x[i] -= lu[i*n+j] * x[j]
		}
	}
	for i := n - 1; i >= 0; i-- {
		for j := i + 1; j < n; j++ {
			x[i] -= lu[i*n+j] * x[j]
		}
		x[i] /= lu[i*n+i]
	}
}

// Invert overwrites the n x n matrix a with its inverse (Gauss-Jordan
// elimination with partial pivoting), using piv (n ints) as scratch. It
// reports false, leaving a garbage, when a pivot is not above tol times
// the largest magnitude in a, or a is zero or not finite.
func Invert(a []float64, n int, piv []int, tol float64) bool {
	a = checkLen("Invert", a, n*n)
	amax := maxAbs(a)
	if !(amax > 0) || amax-amax != 0 {
		return false
	}
	thr := tol * amax
	for c := 0; c < n; c++ {
		// Pivot: largest magnitude in column c at or below row c.
		p := c
		pv := math.Abs(a[c*n+c])
		for i := c + 1; i < n; i++ {
			if v := math.Abs(a[i*n+c]); v > pv {
				p, pv = i, v
			}
		}
		if !(pv > thr) {
			return false
		}
		piv[c] = p
		rc := a[c*n : c*n+n]
		if p != c {
			rp := a[p*n : p*n+n]
			for j := range rc {
				rc[j], rp[j] = rp[j], rc[j]
			}
		}
		inv := 1 / rc[c]
		rc[c] = 1
		for j := range rc {
			rc[j] *= inv
		}
		for i := 0; i < n; i++ {
			if i == c {
				continue
			}
			ri := a[i*n : i*n+n]
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
	for c := n - 1; c >= 0; c-- {
		if p := piv[c]; p != c {
			for i := 0; i < n; i++ {
				row := a[i*n : i*n+n]
				row[c], row[p] = row[p], row[c]
			}
		}
	}
	return true
}
