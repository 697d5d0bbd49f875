package treemix_test

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/moments-go/moments/latent/treemix"
)

// byWeight returns the component indices in decreasing order of weight:
// hidden labels are identifiable only up to a permutation.
func byWeight(w []float64) []int {
	idx := make([]int, len(w))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return w[idx[a]] > w[idx[b]] })
	return idx
}

// With exact marginals in, the spectral method recovers the union graph,
// the mixing weights and the component trees exactly (components listed
// by decreasing weight, since hidden labels come in any order).
func Example() {
	m := treemix.RandomTreeMixture(8, 3, 2, &treemix.GenOptions{Seed: 1})
	est, rep, err := treemix.Learn(context.Background(), treemix.Exact(m), 2, &treemix.LearnOptions{
		Spectral: treemix.SpectralOptions{EdgesOnly: true},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("union graph recovered:", rep.Rank.Graph.Equal(m.UnionGraph()))
	fmt.Println("reference node:", rep.Components.Reference)
	for _, h := range byWeight(m.Weights) {
		fmt.Printf("true:     weight %.4f, tree %v\n", m.Weights[h], m.Nets[h].TreeEdges())
	}
	for _, h := range byWeight(est.Weights) {
		fmt.Printf("estimate: weight %.4f, tree %v\n", est.Weights[h], est.Nets[h].TreeEdges())
	}
	// Output:
	// union graph recovered: true
	// reference node: 6
	// true:     weight 0.6362, tree [[0 3] [0 4] [1 7] [2 4] [4 7] [5 7]]
	// true:     weight 0.3638, tree [[0 1] [0 3] [0 7] [1 2] [3 5] [4 5]]
	// estimate: weight 0.6362, tree [[0 3] [0 4] [1 7] [2 4] [4 7] [5 7]]
	// estimate: weight 0.3638, tree [[0 1] [0 3] [0 7] [1 2] [3 5] [4 5]]
}

// Reading integer CSV data, scoring it under a model, and EM from a
// random start.
func ExampleLearnEM() {
	m := treemix.RandomTreeMixture(6, 3, 2, &treemix.GenOptions{Seed: 3})
	x, _ := m.Sample(2000, 5)
	var csv strings.Builder
	treemix.WriteCSV(&csv, x)
	y, err := treemix.ReadCSV(strings.NewReader(csv.String()), nil)
	if err != nil {
		panic(err)
	}
	n, p, d := y.Dims()
	fmt.Println(n, "samples of", p, "variables with", d, "states")
	ctx := context.Background()
	fit, res, err := treemix.LearnEM(ctx, y, treemix.RandomStart(y, 2, 7), nil)
	if err != nil {
		panic(err)
	}
	truth, _ := m.LogLikelihood(ctx, y, nil)
	fmt.Printf("EM converged: %v, mean log-likelihood %.1f (true model %.1f)\n", res.Converged, res.MeanLogLik, truth/float64(n))
	var w []float64
	for _, h := range byWeight(fit.Weights) {
		w = append(w, fit.Weights[h])
	}
	fmt.Printf("weights %.1f\n", w)
	// Output:
	// 2000 samples of 6 variables with 3 states
	// EM converged: true, mean log-likelihood -5.1 (true model -5.1)
	// weights [0.5 0.5]
}
