package sample_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/sample"
)

// ExampleNewAlias builds an alias table once and draws from it many times;
// outcomes of weight zero are never drawn.
func ExampleNewAlias() {
	a := sample.NewAlias([]float64{1, 0, 3})
	r := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, a.Len())
	for range 4000 {
		counts[a.Draw(r)]++
	}
	fmt.Println(a.Len(), counts[1], counts[2] > 2*counts[0])
	// Output: 3 0 true
}

// ExampleDirichlet draws a probability vector: nonnegative entries summing to 1.
func ExampleDirichlet() {
	r := rand.New(rand.NewPCG(1, 2))
	p := make([]float64, 4)
	sample.Dirichlet(r, []float64{0.5, 1, 2, 4}, p)
	sum, nonneg := 0.0, true
	for _, v := range p {
		sum += v
		nonneg = nonneg && v >= 0
	}
	fmt.Printf("%.12f %v\n", sum, nonneg)
	// Output: 1.000000000000 true
}
