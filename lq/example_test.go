package lq_test

import (
	"fmt"

	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
)

// A least-squares line fit, a minimum-norm solution of an underdetermined
// system, and an orthonormal basis of a column space.
func Example() {
	// Fit y = c0 + c1*x to four points: A is 4x2, full column rank.
	a := mat.FromRows([][]float64{{1, 0}, {1, 1}, {1, 2}, {1, 3}})
	y := mat.FromRows([][]float64{{1}, {3}, {4}, {8}})
	qr, err := lq.FactorizeQR(a)
	if err != nil {
		panic(err)
	}
	var c mat.Dense
	if err := qr.Solve(&c, y); err != nil {
		panic(err)
	}
	fmt.Printf("line: %.2f + %.2f x\n", c.At(0, 0), c.At(1, 0))

	// x1 + x2 + x3 = 3 has many solutions; the one of least norm is
	// (1, 1, 1).
	w := mat.FromRows([][]float64{{1, 1, 1}})
	f, _ := lq.Factorize(w)
	var x mat.Dense
	f.Solve(&x, mat.FromRows([][]float64{{3}}))
	fmt.Printf("minimum norm: %.3f %.3f %.3f\n", x.At(0, 0), x.At(1, 0), x.At(2, 0))

	// A rank-1 matrix: its column space is one direction.
	r1 := mat.FromRows([][]float64{{1, 2}, {2, 4}, {2, 4}})
	basis, _ := lq.ColSpace(r1, 0)
	rows, cols := basis.Dims()
	fmt.Printf("column space: %dx%d\n", rows, cols)
	// Output:
	// line: 0.70 + 2.20 x
	// minimum norm: 1.000 1.000 1.000
	// column space: 3x1
}

// LeastSquares handles rank-deficient problems: the duplicated column
// gets half the weight in each copy.
func ExampleLeastSquares() {
	a := mat.FromRows([][]float64{{1, 1}, {2, 2}, {3, 3}})
	b := mat.FromRows([][]float64{{2}, {4}, {6}})
	var x mat.Dense
	rank, err := lq.LeastSquares(&x, a, b, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("rank %d, x = %.3f %.3f\n", rank, x.At(0, 0), x.At(1, 0))
	// Output:
	// rank 1, x = 1.000 1.000
}
