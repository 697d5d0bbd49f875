package linear_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
)

// Example learns a DAG with 8 hidden and 60 observed variables from its
// population moments (Example 2 of the topic-model paper, smaller): the
// coefficient matrix and Lambda come out exact up to the order and signs
// of the hidden variables.
func Example() {
	m := synth.RandomDAG(rand.New(rand.NewPCG(3, 1)), 60, 8, 0.3, 0.5, synth.Skewed)
	rep, err := linear.CheckExpansion(m.A, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("expansion:", rep.Holds)

	d, err := linear.LearnDAG(context.Background(), m.Sigma(), linear.PsiFunc(m.Psi), 8, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("dist(A, Â) < 1e-20: %v\n", eval.Dist(m.A, d.A) < 1e-20)
	edges := 0
	for i := 0; i < 8; i++ {
		for j := 0; j < i; j++ {
			if m.Lambda.At(i, j) != 0 {
				edges++
			}
		}
	}
	found := 0
	for i := 0; i < 8; i++ {
		for j := 0; j < i; j++ {
			if v := d.Lambda.At(i, j); v > 1e-9 || v < -1e-9 {
				found++
			}
		}
	}
	fmt.Printf("edges among the hidden variables: %d true, %d found\n", edges, found)
	// Output:
	// expansion: true
	// dist(A, Â) < 1e-20: true
	// edges among the hidden variables: 10 true, 10 found
}
