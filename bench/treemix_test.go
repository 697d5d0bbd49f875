package bench

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/moments-go/moments/latent/treemix"
)

// treemixData samples n observations of a random mixture of r trees over
// p variables with d states.
func treemixData(p, d, r, n int) (*treemix.Mixture, *treemix.Data) {
	m := treemix.RandomTreeMixture(p, d, r, &treemix.GenOptions{Seed: 1})
	x, _ := m.Sample(n, 2)
	return m, x
}

// BenchmarkTreemixRankTest: the union graph of a mixture of two trees,
// p = 50, d = 4, eta = 2, the timing target.
func BenchmarkTreemixRankTest(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		_, x := treemixData(50, 4, 2, n)
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := treemix.LearnUnionGraph(context.Background(), treemix.Empirical(x, &treemix.Options{}), 2, &treemix.RankOptions{Eta: 2}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTreemixCount: one pass filling every triple table of 50
// variables (19600 tables of 64 cells) over 10^5 samples.
func BenchmarkTreemixCount(b *testing.B) {
	_, x := treemixData(50, 4, 2, 100000)
	var sets [][]int
	for u := range 50 {
		for v := u + 1; v < 50; v++ {
			for w := v + 1; w < 50; w++ {
				sets = append(sets, []int{u, v, w})
			}
		}
	}
	for b.Loop() {
		if _, err := treemix.Count(context.Background(), x, sets, &treemix.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(sets))*1e5*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gtable-samples/s")
}

// BenchmarkTreemixSpectral: FindMixtureComponents on the true union
// graph, p = 20, d = 4, r = 2, N = 10^5.
func BenchmarkTreemixSpectral(b *testing.B) {
	m, x := treemixData(20, 4, 2, 100000)
	g := m.UnionGraph()
	for b.Loop() {
		if _, err := treemix.LearnComponents(context.Background(), treemix.Empirical(x, &treemix.Options{}), g, 2, &treemix.SpectralOptions{EdgesOnly: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreemixEMIteration: one EM iteration (E-step and Chow–Liu
// M-step), p = 20, d = 4, r = 2, N = 10^5.
func BenchmarkTreemixEMIteration(b *testing.B) {
	_, x := treemixData(20, 4, 2, 100000)
	init := treemix.RandomStart(x, 2, 2)
	for b.Loop() {
		// Tol < 0 never converges: exactly one iteration, then the cap
		if _, _, err := treemix.LearnEM(context.Background(), x, init, &treemix.EMOptions{MaxIter: 1, Tol: -1}); !errors.Is(err, treemix.ErrNoConvergence) {
			b.Fatal(err)
		}
	}
}
