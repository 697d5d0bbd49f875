package svd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

// BenchmarkFactorize times Factorize (U, S and V) and Values on square
// Gaussian matrices.
func BenchmarkFactorize(b *testing.B) {
	for _, n := range []int{50, 200, 400} {
		r := rand.New(rand.NewPCG(uint64(n), 1))
		a := mat.Zeros(n, n)
		for i := range n {
			for j := range n {
				a.Set(i, j, r.NormFloat64())
			}
		}
		for _, want := range []Want{WantUV, WantNone} {
			b.Run(fmt.Sprintf("n=%d/want=%d", n, want), func(b *testing.B) {
				for b.Loop() {
					if _, err := Factorize(a, &Options{Want: want}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
