package treemix_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/moments-go/moments/latent/treemix"
)

// With exact marginals in, the spectral method recovers the union graph,
// the mixing weights and the component trees exactly.
func Example() {
	m := treemix.RandomTreeMixture(rand.New(rand.NewPCG(1, 2)), 8, 3, 2, treemix.GenOptions{})
	est, rep, err := treemix.Learn(context.Background(), treemix.Exact(m), 2, treemix.LearnOptions{
		Spectral: treemix.SpectralOptions{EdgesOnly: true},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("union graph recovered:", rep.Rank.Graph.Equal(m.UnionGraph()))
	fmt.Println("reference node:", rep.Components.Reference)
	for h := range m.Weights {
		fmt.Printf("true H=%d: weight %.4f, tree %v\n", h, m.Weights[h], m.Nets[h].TreeEdges())
	}
	for h := range est.Weights {
		fmt.Printf("estimate H=%d: weight %.4f, tree %v\n", h, est.Weights[h], est.Nets[h].TreeEdges())
	}
	// Output:
	// union graph recovered: true
	// reference node: 0
	// true H=0: weight 0.6472, tree [[1 2] [1 3] [1 4] [2 7] [4 5] [4 6]]
	// true H=1: weight 0.3528, tree [[1 3] [1 6] [1 7] [2 4] [4 7] [5 6]]
	// estimate H=0: weight 0.6472, tree [[1 2] [1 3] [1 4] [2 7] [4 5] [4 6]]
	// estimate H=1: weight 0.3528, tree [[1 3] [1 6] [1 7] [2 4] [4 7] [5 6]]
}

// Reading integer CSV data, scoring it under a model, and EM from a
// random start.
func ExampleEM() {
	m := treemix.RandomTreeMixture(rand.New(rand.NewPCG(3, 4)), 6, 3, 2, treemix.GenOptions{})
	x, _ := m.Sample(rand.New(rand.NewPCG(5, 6)), 2000)
	var csv strings.Builder
	treemix.WriteCSV(&csv, x)
	y, err := treemix.ReadCSV(strings.NewReader(csv.String()), treemix.CSVOptions{})
	if err != nil {
		panic(err)
	}
	n, p, d := y.Dims()
	fmt.Println(n, "samples of", p, "variables with", d, "states")
	ctx := context.Background()
	fit, res, err := treemix.EM(ctx, y, treemix.RandomStart(rand.New(rand.NewPCG(7, 8)), y, 2), treemix.EMOptions{})
	if err != nil {
		panic(err)
	}
	truth, _ := m.LogLikelihood(ctx, y, treemix.Options{})
	fmt.Printf("EM converged: %v, mean log-likelihood %.1f (true model %.1f)\n", res.Converged, res.MeanLogLik, truth/float64(n))
	fmt.Printf("weights %.1f\n", fit.Weights)
	// Output:
	// 2000 samples of 6 variables with 3 states
	// EM converged: true, mean log-likelihood -4.6 (true model -4.6)
	// weights [0.6 0.4]
}
