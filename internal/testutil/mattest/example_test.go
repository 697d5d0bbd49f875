package mattest_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// ExampleFactorResidual checks a factorization A = U diag(s) Vᵀ by its
// residual and the orthonormality of its factors, the assertions of the
// decomposition tests. Here the factors are exact: U and V are identities.
func ExampleFactorResidual() {
	s := []float64{3, 2, 1}
	a := mat.Diag(s)
	u, v := mat.Identity(3), mat.Identity(3)
	resid, norm := mattest.FactorResidual(a, u, s, v, 0)
	fmt.Println(resid, norm)
	fmt.Println(mattest.OrthColsRatio(u), mattest.OrthRowsRatio(v), mattest.Asym(a))

	r := mattest.RandDense(rand.New(rand.NewPCG(1, 1)), 4, 3)
	fmt.Println(r.Dims())
	fmt.Println(mattest.MaxRelErr(r, r.Clone()))
	// Output:
	// 0 3
	// 0 0 0
	// 4 3
	// 0
}
