package linear_test

import (
	"fmt"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/mat"
)

// ExampleSparseLambda finds the parents of a chain a -> b -> c, with a
// also a parent of c, from its second moment alone: given the order, the
// regression of c on a and b keeps both, that of b keeps a; with exact
// moments (samples = 0) nothing spurious is kept, and forbidding a -> c
// leaves c with b alone.
func ExampleSparseLambda() {
	// x_a = eta_a, x_b = 0.8 x_a + eta_b, x_c = -1.5 x_b + 0.5 x_a + eta_c,
	// unit noise variances: Sigma = G G^T, G = (I - Lambda)^{-1}.
	g := mat.New(3, 3, []float64{
		1, 0, 0,
		0.8, 1, 0,
		-1.5*0.8 + 0.5, -1.5, 1,
	})
	var sigma mat.Dense
	sigma.MulBT(g, g)
	order := []int{0, 1, 2}
	fit, err := linear.SparseLambda(&sigma, order, 0, nil)
	if err != nil {
		panic(err)
	}
	show := func(l *mat.Dense) {
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				fmt.Printf(" %5.2f", l.At(i, j)+0) // +0: no negative zero
			}
			fmt.Println()
		}
	}
	show(fit.Lambda)
	fit, err = linear.SparseLambda(&sigma, order, 0, &linear.SparseOptions{Forbidden: []linear.Edge{{From: 0, To: 2}}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("without a -> c: c = %.2f b\n", fit.Lambda.At(2, 1))
	// Output:
	//   0.00  0.00  0.00
	//   0.80  0.00  0.00
	//   0.50 -1.50  0.00
	// without a -> c: c = -1.26 b
}
