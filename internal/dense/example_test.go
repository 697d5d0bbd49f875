package dense_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/dense"
)

// ExampleCholesky factors a symmetric positive definite matrix (row-major,
// only the lower triangle read) and solves a system with the factor.
func ExampleCholesky() {
	a := []float64{
		4, 0, 0,
		2, 5, 0,
		2, 3, 6,
	}
	if !dense.Cholesky(a, 3, 1e-12) {
		fmt.Println("not positive definite")
		return
	}
	fmt.Println("L diagonal:", a[0], a[4], a[8])
	b := []float64{8, 10, 11} // A·(1, 1, 1), with A symmetric
	dense.CholeskySolve(a, 3, b)
	fmt.Printf("x = %.12f\n", b)
	// Output:
	// L diagonal: 2 2 2
	// x = [1.000000000000 1.000000000000 1.000000000000]
}
