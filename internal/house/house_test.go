package house

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMulLeftBlocked checks the blocked MulLeft (one block of few
// reflectors, or blocks of BlockSize; C full or [X; 0], whose zero rows
// it skips) against the reflectors applied one at a time, for Q_full C
// and Q_fullᵀ C: the largest difference must be below 1e-13 (the entries
// are of order 1 and the products orthogonal).
func TestMulLeftBlocked(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct{ k, n, r, top int }{
		{50, 300, 40, 300}, {50, 300, 40, 50}, {50, 300, 40, 20}, {50, 300, 40, 0},
		{100, 300, 60, 300}, {100, 300, 60, 100}, {100, 300, 60, 70},
	} {
		for _, trans := range []bool{false, true} {
			t.Run(fmt.Sprintf("k=%d/n=%d/r=%d/top=%d/trans=%v", c.k, c.n, c.r, c.top, trans), func(t *testing.T) {
				a := make([]float64, c.k*c.n)
				for i := range a {
					a[i] = rng.NormFloat64()
				}
				f := Factor(c.k, c.n, a, c.n)
				x := make([]float64, c.n*c.r)
				for i := range x[:c.top*c.r] {
					x[i] = rng.NormFloat64()
				}
				want := append([]float64(nil), x...)
				w := make([]float64, c.r)
				v := make([]float64, c.n)
				for s := 0; s < c.k; s++ {
					i := s
					if trans {
						i = c.k - 1 - s
					}
					ReflectLeft(f.Tau[i], f.vector(i, v), c.r, want[i*c.r:], c.r, w)
				}
				if !f.useBlocks(c.r) {
					t.Fatal("the case does not run blocked")
				}
				f.MulLeft(trans, c.r, x, c.r)
				var diff float64
				for i := range x {
					diff = math.Max(diff, math.Abs(x[i]-want[i]))
				}
				if !(diff < 1e-13) {
					t.Fatalf("blocked and one-at-a-time products differ by %g", diff)
				}
			})
		}
	}
}
