package dense

import (
	"errors"
	"math"
)

// Errors of RealEigenvalues.
var (
	// ErrComplex: the matrix has a pair of complex conjugate
	// eigenvalues (a 2 x 2 diagonal block of the converged Hessenberg
	// form with a negative discriminant).
	ErrComplex = errors.New("dense: complex eigenvalues")
	// ErrNoConvergence: the QR iteration did not deflate an eigenvalue
	// within 500 steps.
	ErrNoConvergence = errors.New("dense: the QR iteration did not converge")
)

// RealEigenvalues returns the eigenvalues of the n x n matrix a, which
// it overwrites, in the order they deflate, when they are all real. It
// reduces a to upper Hessenberg form H = Qᵀ A Q (Hessenberg) and runs
// the shifted QR algorithm on H: Wilkinson shifts (the eigenvalue of the
// trailing 2 x 2 block nearer its last diagonal entry), an exceptional
// shift every 11th step, one Givens-rotation QR step H - mu I = Q R,
// H <- R Q + mu I on the active block, and deflation when a subdiagonal
// entry falls below 1e-15 times its two diagonal neighbours. A trailing
// 2 x 2 block with real eigenvalues is solved directly. Errors:
// ErrComplex, ErrNoConvergence. A zero matrix has n zero eigenvalues.
func RealEigenvalues(a []float64, n int) ([]float64, error) {
	a = checkLen("RealEigenvalues", a, n*n)
	Hessenberg(a, n)
	return hessenbergEigenvalues(a, n)
}

// Hessenberg overwrites the n x n matrix a with an upper Hessenberg
// matrix similar to it, H = Qᵀ A Q with Q the product of n-2 Householder
// reflections (Q itself is not formed). The entries below the first
// subdiagonal are left as rounding leaves them (close to zero, not
// exactly); the QR iteration never reads them.
func Hessenberg(a []float64, n int) {
	h := checkLen("Hessenberg", a, n*n)
	v := make([]float64, n)
	for k := 0; k < n-2; k++ {
		var alpha float64
		for i := k + 1; i < n; i++ {
			alpha += h[i*n+k] * h[i*n+k]
		}
		alpha = math.Sqrt(alpha)
		if alpha == 0 {
			continue
		}
		if h[(k+1)*n+k] > 0 {
			alpha = -alpha
		}
		clear(v)
		for i := k + 1; i < n; i++ {
			v[i] = h[i*n+k]
		}
		v[k+1] -= alpha
		var vv float64
		for i := k + 1; i < n; i++ {
			vv += v[i] * v[i]
		}
		if vv == 0 {
			continue
		}
		// H = (I - 2vvᵀ/vv) H (I - 2vvᵀ/vv)
		for j := range n {
			var s float64
			for i := k + 1; i < n; i++ {
				s += v[i] * h[i*n+j]
			}
			s *= 2 / vv
			for i := k + 1; i < n; i++ {
				h[i*n+j] -= s * v[i]
			}
		}
		for i := range n {
			var s float64
			for j := k + 1; j < n; j++ {
				s += h[i*n+j] * v[j]
			}
			s *= 2 / vv
			for j := k + 1; j < n; j++ {
				h[i*n+j] -= s * v[j]
			}
		}
	}
}

// hessenbergEigenvalues is the shifted QR iteration of RealEigenvalues
// on the upper Hessenberg h.
func hessenbergEigenvalues(h []float64, n int) ([]float64, error) {
	vals := make([]float64, 0, n)
	hi := n - 1
	norm := maxAbs(h)
	if norm == 0 {
		return make([]float64, n), nil
	}
	iter := 0
	cs := make([]float64, n)
	sn := make([]float64, n)
	for hi >= 0 {
		if hi == 0 {
			vals = append(vals, h[0])
			break
		}
		// deflate when the subdiagonal entry is negligible
		if math.Abs(h[hi*n+hi-1]) <= 1e-15*(math.Abs(h[hi*n+hi])+math.Abs(h[(hi-1)*n+hi-1])+1e-300*norm) ||
			math.Abs(h[hi*n+hi-1]) <= 1e-300 {
			vals = append(vals, h[hi*n+hi])
			hi--
			iter = 0
			continue
		}
		// the active block starts after the last negligible subdiagonal
		lo := hi - 1
		for lo > 0 && math.Abs(h[lo*n+lo-1]) > 1e-15*(math.Abs(h[lo*n+lo])+math.Abs(h[(lo-1)*n+lo-1])) {
			lo--
		}
		a, b, c, d := h[(hi-1)*n+hi-1], h[(hi-1)*n+hi], h[hi*n+hi-1], h[hi*n+hi]
		tr, det := a+d, a*d-b*c
		disc := tr*tr/4 - det
		if lo == hi-1 {
			if disc < 0 {
				return nil, ErrComplex
			}
			// a 2x2 block with real eigenvalues: take them directly
			s := math.Sqrt(disc)
			vals = append(vals, tr/2+s, tr/2-s)
			hi -= 2
			iter = 0
			continue
		}
		iter++
		if iter > 500 {
			return nil, ErrNoConvergence
		}
		qrStep(h, n, lo, hi, wilkinsonShift(tr, disc, c, d, iter), cs, sn)
	}
	return vals, nil
}

// wilkinsonShift returns the shift for QR step number iter on a block
// whose trailing 2 x 2 block [a b; c d] has trace tr and discriminant
// disc = tr²/4 - det: the eigenvalue nearer d (tr/2 when they are
// complex), or d + |c| every 11th step (an exceptional shift that breaks
// cycles).
func wilkinsonShift(tr, disc, c, d float64, iter int) float64 {
	if iter%11 == 0 {
		return d + math.Abs(c)
	}
	if disc < 0 {
		return tr / 2
	}
	s := math.Sqrt(disc)
	l1, l2 := tr/2+s, tr/2-s
	if math.Abs(l2-d) < math.Abs(l1-d) {
		return l2
	}
	return l1
}

// qrStep does one shifted QR step on the block lo..hi of the upper
// Hessenberg h: H - mu I = Q R by Givens rotations (cs, sn: n scratch
// each), then H = R Q + mu I.
func qrStep(h []float64, n, lo, hi int, mu float64, cs, sn []float64) {
	for i := lo; i <= hi; i++ {
		h[i*n+i] -= mu
	}
	for k := lo; k < hi; k++ {
		x, y := h[k*n+k], h[(k+1)*n+k]
		rr := math.Hypot(x, y)
		if rr == 0 {
			cs[k], sn[k] = 1, 0
			continue
		}
		cs[k], sn[k] = x/rr, y/rr
		for j := k; j < n; j++ {
			p, q := h[k*n+j], h[(k+1)*n+j]
			h[k*n+j] = cs[k]*p + sn[k]*q
			h[(k+1)*n+j] = -sn[k]*p + cs[k]*q
		}
	}
	for k := lo; k < hi; k++ {
		for i := 0; i <= min(k+2, hi); i++ {
			p, q := h[i*n+k], h[i*n+k+1]
			h[i*n+k] = cs[k]*p + sn[k]*q
			h[i*n+k+1] = -sn[k]*p + cs[k]*q
		}
	}
	for i := lo; i <= hi; i++ {
		h[i*n+i] += mu
	}
}
