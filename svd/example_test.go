package svd_test

import (
	"context"
	"fmt"
	"math"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// The singular value decomposition of a small matrix, and a graded matrix
// whose tiny singular value Jacobi gets to full relative accuracy.
func Example() {
	a := mat.FromRows([][]float64{
		{3, 2, 2},
		{2, 3, -2},
	})
	s, err := svd.Factorize(a, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("singular values: %.4f\n", s.S)
	u, v := s.U.Dims()
	fmt.Printf("U is %dx%d, ", u, v)
	u, v = s.V.Dims()
	fmt.Printf("V is %dx%d\n", u, v)

	// Columns scaled by 1 and 1e-20: the small singular value is about
	// 1e-20 * (the distance between the directions) and is computed to
	// all its digits, where a bidiagonalization would return noise of
	// order 1e-16.
	g := mat.FromRows([][]float64{
		{1, 1e-20},
		{1, 2e-20},
	})
	vals, _ := svd.Values(g)
	fmt.Printf("graded: %.6e %.6e\n", vals[0], vals[1])
	// Output:
	// singular values: [5.0000 3.0000]
	// U is 2x2, V is 3x2
	// graded: 1.414214e+00 7.071068e-21
}

// Eigenpairs of a symmetric matrix.
func ExampleEigSym() {
	a := mat.FromRows([][]float64{
		{2, 1, 0},
		{1, 2, 0},
		{0, 0, -1},
	})
	e, err := svd.EigSym(a, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("eigenvalues: %.4f, positive semidefinite: %v\n", e.Values, e.PSD)
	// Output:
	// eigenvalues: [3.0000 1.0000 -1.0000], positive semidefinite: false
}

// The top eigenpairs of a matrix that is only available as a product:
// M = F*Fᵀ for a tall F, applied as F*(Fᵀ*X) without ever forming the
// 1000 x 1000 matrix M.
func ExampleRandomizedEigSym() {
	n := 1000
	f := mat.Zeros(n, 2)
	for i := 0; i < n; i++ {
		f.Set(i, 0, 1)            // column norm² 1000
		f.Set(i, 1, float64(i%2)) // column norm² 500, not orthogonal to the first
	}
	op := svd.SymOperator(n, func(_ context.Context, x *mat.Dense) (*mat.Dense, error) {
		var t, y mat.Dense
		t.MulAT(f, x)
		y.Mul(f, &t)
		return &y, nil
	})
	e, err := svd.RandomizedEigSym(context.Background(), op, 2, &svd.RandomizedOptions{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("top eigenvalues of F*Fᵀ: %.2f\n", e.Values)
	// Output:
	// top eigenvalues of F*Fᵀ: [1309.02 190.98]
}

// Options.Method chooses the algorithm: for a graded 100 x 100 matrix
// (its columns scaled by 1 to 10^-19.8, in a scrambled order),
// MethodJacobi computes the smallest singular value, about 1.6e-20, to
// full relative accuracy, while MethodBidiagonal (the default from
// BidiagonalMin on, and much faster on large matrices) only promises
// accuracy relative to the largest one.
func ExampleFactorize_method() {
	n := 100
	a := mat.Zeros(n, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			// The identity plus a small fixed pattern, then the
			// grading of column j by 10^(-((37 j) mod n)/5).
			v := 0.1 * float64((i*7+j*3)%11) / 11
			if i == j {
				v += 1
			}
			a.Set(i, j, v*math.Pow(10, -float64((37*j)%n)/5))
		}
	}
	jac, err := svd.Factorize(a, &svd.Options{Method: svd.MethodJacobi, Want: svd.WantNone})
	if err != nil {
		panic(err)
	}
	bd, err := svd.Factorize(a, &svd.Options{Method: svd.MethodBidiagonal, Want: svd.WantNone})
	if err != nil {
		panic(err)
	}
	fmt.Printf("Jacobi: smallest %.4e\n", jac.S[n-1])
	fmt.Printf("bidiagonal: smallest off by more than 0.1%%: %v\n", math.Abs(bd.S[n-1]-jac.S[n-1]) > 1e-3*jac.S[n-1])
	fmt.Printf("largest values agree to 1e-13: %v\n", math.Abs(bd.S[0]-jac.S[0]) < 1e-13*jac.S[0])
	// Output:
	// Jacobi: smallest 1.5605e-20
	// bidiagonal: smallest off by more than 0.1%: true
	// largest values agree to 1e-13: true
}
