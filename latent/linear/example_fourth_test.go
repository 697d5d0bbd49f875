package linear_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// ExampleLearnObservedBN learns a fully observed BN whose noises are
// uniform, symmetric, so that the third moments cannot order it:
// x1 -> x0 -> x2 with x2 also caused by x1. The default choice takes
// the fourth cumulant.
func ExampleLearnObservedBN() {
	const n = 20000
	r := rand.New(rand.NewPCG(1, 2))
	x := mat.Zeros(n, 3)
	for s := 0; s < n; s++ {
		e := make([]float64, 3)
		for i := range e {
			e[i] = synth.Noise{Kind: synth.Uniform, Var: 1}.Draw(r)
		}
		x1 := e[1]
		x0 := 0.8*x1 + e[0]
		x2 := -1.5*x0 + 0.7*x1 + e[2]
		x.SetRow(s, []float64{x0, x1, x2})
	}
	src := moments.DenseSamples{X: x}
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		panic(err)
	}
	bn, err := linear.LearnObservedBN(context.Background(), sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("cumulants:", bn.Cumulants)
	fmt.Println("order:", bn.Order)
	fmt.Printf("x0 <- x1: %.1f, x2 <- x0: %.1f, x2 <- x1: %.1f\n", bn.LambdaSecond.At(0, 1), bn.LambdaSecond.At(2, 0), bn.LambdaSecond.At(2, 1))
	fmt.Println("warnings:", len(bn.Warnings))
	// Output:
	// cumulants: fourth
	// order: [1 0 2]
	// x0 <- x1: 0.8, x2 <- x0: -1.5, x2 <- x1: 0.7
	// warnings: 0
}
