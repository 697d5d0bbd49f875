package house

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkPieces times the LQ factorization of an m x n Gaussian
// matrix (Factor), the first m rows of its Q (FormQ), and Q_fullᵀ
// applied from the left to an n x m matrix (MulLeft): the products that
// run in pieces of C on the workers. Run it with -cpu 1,2 to see how
// they scale.
func BenchmarkPieces(b *testing.B) {
	for _, s := range [][2]int{{500, 500}, {1000, 1000}, {1000, 2000}} {
		m, n := s[0], s[1]
		rng := rand.New(rand.NewPCG(1, 2))
		a0 := make([]float64, m*n)
		for i := range a0 {
			a0[i] = rng.NormFloat64()
		}
		c0 := make([]float64, n*m)
		for i := range c0 {
			c0[i] = rng.NormFloat64()
		}
		f := Factor(m, n, slices.Clone(a0), n)
		name := fmt.Sprintf("%dx%d", m, n)
		b.Run("Factor/"+name, func(b *testing.B) {
			a := make([]float64, m*n)
			for i := 0; i < b.N; i++ {
				copy(a, a0)
				Factor(m, n, a, n)
			}
		})
		b.Run("FormQ/"+name, func(b *testing.B) {
			q := make([]float64, m*n)
			for i := 0; i < b.N; i++ {
				f.FormQ(m, q, n)
			}
		})
		b.Run("MulLeft/"+name, func(b *testing.B) {
			c := make([]float64, n*m)
			for i := 0; i < b.N; i++ {
				copy(c, c0)
				f.MulLeft(true, m, c, m)
			}
		})
	}
}
