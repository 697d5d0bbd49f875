package treemix

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/dense"
	"github.com/moments-go/moments/mat"
)

// The r x r matrices of the spectral decomposition (r is the number of
// components: a handful) are inverted and diagonalized with the small
// dense toolkit (internal/dense); package svd has a symmetric
// eigensolver only. The singular value decompositions come from package
// svd (linalg.go).

// flat returns a row-major copy of the square a, and its order.
func flat(what string, a *mat.Dense) ([]float64, int) {
	n, c := a.Dims()
	if n != c {
		panic(fmt.Sprintf("treemix: %s: %dx%d matrix", what, n, c))
	}
	s := make([]float64, n*n)
	for i := range n {
		copy(s[i*n:i*n+n], a.RawRow(i))
	}
	return s, n
}

// inverse returns a^{-1}, or ErrRankDeficient if a pivot is not above
// 1e-14 times the largest magnitude in a.
func inverse(a *mat.Dense) (*mat.Dense, error) {
	inv, n := flat("inverse", a)
	if !dense.Invert(inv, n, make([]int, n), 1e-14) {
		return nil, ErrRankDeficient
	}
	return mat.New(n, n, inv), nil
}

// eigReal returns the eigenvalues (in decreasing order) and unit
// eigenvectors (the columns of vecs) of a small square matrix whose
// eigenvalues are real and distinct: the eigenvalues from the shifted QR
// algorithm on the Hessenberg form, each eigenvector by inverse
// iteration. Complex eigenvalues give ErrComplexEigen, repeated ones
// ErrRankDeficient.
func eigReal(a *mat.Dense) ([]float64, *mat.Dense, error) {
	h, n := flat("eigReal", a)
	vals, err := dense.RealEigenvalues(h, n)
	switch {
	case errors.Is(err, dense.ErrNoConvergence):
		return nil, nil, fmt.Errorf("%w (the QR iteration did not converge)", ErrComplexEigen)
	case err != nil:
		return nil, nil, ErrComplexEigen
	}
	slices.SortFunc(vals, func(x, y float64) int { return cmp.Compare(y, x) })
	norm := a.NormMax()
	for i := 1; i < n; i++ {
		if vals[i-1]-vals[i] <= 1e-13*math.Max(norm, 1e-300) {
			return nil, nil, fmt.Errorf("%w: repeated eigenvalue %g of the observable operator", ErrRankDeficient, vals[i])
		}
	}
	vecs := mat.Zeros(n, n)
	shifted := make([]float64, n*n)
	perm := make([]int, n)
	// factor sets shifted to the LU factors of a - sh I.
	factor := func(sh float64) bool {
		for i := range n {
			copy(shifted[i*n:i*n+n], a.RawRow(i))
			shifted[i*n+i] -= sh
		}
		return dense.LUFactor(shifted, n, perm, 1e-14)
	}
	x, y := make([]float64, n), make([]float64, n)
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
		// exactly singular: the shift hit the eigenvalue; nudge further
		if !factor(sh) && !factor(lam+1e-3*gap) {
			return nil, nil, fmt.Errorf("%w: eigenvector %d", ErrRankDeficient, k)
		}
		for i := range x {
			x[i] = 1 / math.Sqrt(float64(n)) * (1 + 0.1*float64(i))
		}
		for range 3 {
			dense.LUSolve(y, shifted, n, perm, x)
			var s float64
			for _, v := range y {
				s += v * v
			}
			s = math.Sqrt(s)
			for i := range y {
				x[i] = y[i] / s
			}
		}
		vecs.SetCol(k, x)
	}
	return vals, vecs, nil
}
