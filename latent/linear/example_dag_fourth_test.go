package linear_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
)

// ExampleLearnDAG_symmetricNoise learns a model with 4 hidden
// variables behind 30 observed ones whose noises, hidden and observed,
// are all uniform or Laplace: symmetric, so that the third moments
// cannot find the causal order. SampleThird gives the whitened samples,
// and the default choice takes the fourth cumulant. The hidden
// variables are numbered in the learned order.
func ExampleLearnDAG_symmetricNoise() {
	m := synth.RandomDAG(rand.New(rand.NewPCG(3, 1)), 30, 4, 0.3, 0.5, synth.Symmetric)
	src := m.Samples(100000, 1003)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		panic(err)
	}
	d, err := linear.LearnDAG(context.Background(), sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, 4, &linear.DAGOptions{Options: linear.Options{Seed: 3}})
	if err != nil {
		panic(err)
	}
	fmt.Println("cumulants:", d.Cumulants)
	for j, k := range d.Kurtosis {
		kind := "uniform (-1.2)"
		if k > 0 {
			kind = "Laplace (3)"
		}
		fmt.Printf("h%d: excess kurtosis %.1f, %s\n", j, k, kind)
	}
	// The model has one edge, between its two Laplace noises, of
	// coefficient 0.31 in canonical units.
	for i := range 4 {
		for j := range 4 {
			if v := d.Lambda.At(i, j); v != 0 {
				fmt.Printf("edge h%d -> h%d: %.2f\n", j, i, math.Abs(v))
			}
		}
	}
	fmt.Println("warnings:", len(d.Warnings))
	// Output:
	// cumulants: fourth
	// h0: excess kurtosis -1.2, uniform (-1.2)
	// h1: excess kurtosis 3.0, Laplace (3)
	// h2: excess kurtosis -1.2, uniform (-1.2)
	// h3: excess kurtosis 3.1, Laplace (3)
	// edge h1 -> h3: 0.30
	// warnings: 0
}
