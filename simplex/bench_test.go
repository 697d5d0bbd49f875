package simplex

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

func BenchmarkL1Single(b *testing.B) {
	for _, sz := range [][2]int{{150, 25}, {180, 30}} {
		r := rand.New(rand.NewPCG(1, 2))
		B := mattest.RandDense(r, sz[0], sz[1])
		q := B.Row(nil, 0)
		b.Run("", func(b *testing.B) {
			it := 0
			for b.Loop() {
				res, err := L1Min(B, q, nil)
				if err != nil {
					b.Fatal(err)
				}
				it = res.Iterations
			}
			b.ReportMetric(float64(it), "iters")
		})
	}
}

func BenchmarkL1Batch(b *testing.B) {
	for _, warm := range []bool{true, false} {
		r := rand.New(rand.NewPCG(1, 2))
		B := mattest.RandDense(r, 150, 25)
		b.Run("", func(b *testing.B) { benchL1Batch(b, B, &L1Options{NoWarmStart: !warm}) })
	}
}

func BenchmarkL1BatchSparse(b *testing.B) {
	for _, frac := range []float64{0.05, 0.1} {
		r := rand.New(rand.NewPCG(1, 2))
		B, _ := sparseFactorB(r, 150, 25, frac)
		b.Run("", func(b *testing.B) { benchL1Batch(b, B, nil) })
	}
}

// benchL1Batch runs L1MinBatch on the columns of B as the q's and
// reports the iterations of one batch.
func benchL1Batch(b *testing.B, B *mat.Dense, opts *L1Options) {
	it := 0
	for b.Loop() {
		res, err := L1MinBatch(context.Background(), B, B, opts)
		if err != nil {
			b.Fatal(err)
		}
		it = 0
		for _, x := range res {
			it += x.Iterations
		}
	}
	b.ReportMetric(float64(it), "iters")
}

func BenchmarkNetlib(b *testing.B) {
	for _, name := range []string{"greenbea", "80bau3b", "25fv47", "perold"} {
		p := readNetlib(b, name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Solve(context.Background(), p, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
