package treemix

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/mat"
)

// Small dense linear algebra for the r x r matrices of the spectral
// decomposition (r is the number of components: a handful): LU with
// partial pivoting, and the eigendecomposition of a non-symmetric matrix
// with real eigenvalues, which package svd (symmetric eigensolver only)
// does not provide. The singular value decompositions come from package
// svd (linalg.go).

// luSolve factors a (n x n, copied) with partial pivoting and returns a
// solver for a x = b, or an error if a pivot is zero relative to the
// largest entry.
func luFactor(a *mat.Dense) (lu []float64, piv []int, err error) {
	n, c := a.Dims()
	if n != c {
		panic(fmt.Sprintf("treemix: luFactor: %dx%d matrix", n, c))
	}
	lu = make([]float64, n*n)
	var scale float64
	for i := range n {
		for j := range n {
			lu[i*n+j] = a.At(i, j)
			scale = math.Max(scale, math.Abs(lu[i*n+j]))
		}
	}
	piv = make([]int, n)
	for i := range piv {
		piv[i] = i
	}
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(lu[i*n+k]) > math.Abs(lu[p*n+k]) {
				p = i
			}
		}
		if !(math.Abs(lu[p*n+k]) > 1e-14*scale) {
			return nil, nil, ErrRankDeficient
		}
		if p != k {
			for j := range n {
				lu[k*n+j], lu[p*n+j] = lu[p*n+j], lu[k*n+j]
			}
			piv[k], piv[p] = piv[p], piv[k]
		}
		for i := k + 1; i < n; i++ {
			l := lu[i*n+k] / lu[k*n+k]
			lu[i*n+k] = l
			for j := k + 1; j < n; j++ {
				lu[i*n+j] -= l * lu[k*n+j]
			}
		}
	}
	return lu, piv, nil
}

// luSolve solves a x = b in place in x (which holds b) from luFactor's
// output.
func luSolve(lu []float64, piv []int, b []float64) []float64 {
	n := len(piv)
	x := make([]float64, n)
	for i := range n {
		x[i] = b[piv[i]]
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
	return x
}

// inverse returns a^{-1}, or ErrRankDeficient.
func inverse(a *mat.Dense) (*mat.Dense, error) {
	n, _ := a.Dims()
	lu, piv, err := luFactor(a)
	if err != nil {
		return nil, err
	}
	inv := mat.Zeros(n, n)
	e := make([]float64, n)
	for j := range n {
		clear(e)
		e[j] = 1
		inv.SetCol(j, luSolve(lu, piv, e))
	}
	return inv, nil
}

// eigReal returns the eigenvalues (in decreasing order) and unit
// eigenvectors (the columns of vecs) of a small square matrix whose
// eigenvalues are real and distinct: the eigenvalues from the shifted QR
// algorithm on the Hessenberg form, each eigenvector by inverse
// iteration. Complex eigenvalues give ErrComplexEigen, repeated ones
// ErrRankDeficient.
func eigReal(a *mat.Dense) ([]float64, *mat.Dense, error) {
	n, c := a.Dims()
	if n != c {
		panic(fmt.Sprintf("treemix: eigReal: %dx%d matrix", n, c))
	}
	h := hessenberg(a)
	vals, err := qrEigenvalues(h, n)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(vals, func(x, y float64) int { return cmp.Compare(y, x) })
	var norm float64
	for i := range n {
		for j := range n {
			norm = math.Max(norm, math.Abs(a.At(i, j)))
		}
	}
	for i := 1; i < n; i++ {
		if vals[i-1]-vals[i] <= 1e-13*math.Max(norm, 1e-300) {
			return nil, nil, fmt.Errorf("%w: repeated eigenvalue %g of the observable operator", ErrRankDeficient, vals[i])
		}
	}
	vecs := mat.Zeros(n, n)
	shifted := mat.Zeros(n, n)
	for k, lam := range vals {
		// perturb the shift slightly so that the system is solvable
		gap := math.Inf(1)
		for j, mu := range vals {
			if j != k {
				gap = math.Min(gap, math.Abs(lam-mu))
			}
		}
		sh := lam + 1e-10*math.Max(norm, 1e-300)
		if n > 1 {
			sh = lam + 1e-6*gap
		}
		for i := range n {
			for j := range n {
				v := a.At(i, j)
				if i == j {
					v -= sh
				}
				shifted.Set(i, j, v)
			}
		}
		lu, piv, err := luFactor(shifted)
		x := make([]float64, n)
		if err != nil {
			// exactly singular: the shift hit the eigenvalue; use the
			// null vector of the factor computed without the pivot
			// check is not available, so nudge further
			sh = lam + 1e-3*gap
			for i := range n {
				shifted.Set(i, i, a.At(i, i)-sh)
			}
			lu, piv, err = luFactor(shifted)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: eigenvector %d", ErrRankDeficient, k)
			}
		}
		for i := range x {
			x[i] = 1 / math.Sqrt(float64(n)) * (1 + 0.1*float64(i))
		}
		for range 3 {
			x = luSolve(lu, piv, x)
			var s float64
			for _, v := range x {
				s += v * v
			}
			s = math.Sqrt(s)
			for i := range x {
				x[i] /= s
			}
		}
		vecs.SetCol(k, x)
	}
	return vals, vecs, nil
}

// hessenberg returns the upper Hessenberg form of a (row-major n x n
// slice), by Householder reflections (similarity transformations).
func hessenberg(a *mat.Dense) []float64 {
	n, _ := a.Dims()
	h := make([]float64, n*n)
	for i := range n {
		for j := range n {
			h[i*n+j] = a.At(i, j)
		}
	}
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
	return h
}

// qrEigenvalues runs the shifted QR algorithm (Wilkinson shifts, Givens
// rotations) on the upper Hessenberg h, deflating converged 1x1 blocks.
// A trailing 2x2 block with complex eigenvalues gives ErrComplexEigen.
func qrEigenvalues(h []float64, n int) ([]float64, error) {
	vals := make([]float64, 0, n)
	hi := n - 1
	var norm float64
	for _, x := range h {
		norm = math.Max(norm, math.Abs(x))
	}
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
		if disc < 0 && (iter > 60 || lo == hi-1) {
			if lo == hi-1 {
				return nil, ErrComplexEigen
			}
		}
		if lo == hi-1 && disc >= 0 {
			// a 2x2 block with real eigenvalues: take them directly
			s := math.Sqrt(disc)
			vals = append(vals, tr/2+s, tr/2-s)
			hi -= 2
			iter = 0
			continue
		}
		iter++
		if iter > 500 {
			return nil, fmt.Errorf("%w (the QR iteration did not converge)", ErrComplexEigen)
		}
		// Wilkinson shift: the eigenvalue of the trailing 2x2 nearer d
		var mu float64
		if disc >= 0 {
			s := math.Sqrt(disc)
			l1, l2 := tr/2+s, tr/2-s
			mu = l1
			if math.Abs(l2-d) < math.Abs(l1-d) {
				mu = l2
			}
		} else {
			mu = tr / 2
		}
		if iter%11 == 0 { // exceptional shift
			mu = d + math.Abs(c)
		}
		// QR step on the block lo..hi: H - mu I = QR, H = RQ + mu I
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
	return vals, nil
}
