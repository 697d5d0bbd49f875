package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestGerAt checks that GerAt gives the bits of AxpyAt row by row, at
// every level, for row counts that cover the four-row blocks and the
// single rows, row lengths that cover every tail, and a row stride with
// a gap that must stay untouched.
func TestGerAt(t *testing.T) {
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(7, 11))
		for _, m := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 13} {
			for n := 0; n <= 37; n++ {
				lda := n + 3
				x := simdtest.RandSlice(r, m)
				y := simdtest.RandSlice(r, n)
				alpha := r.NormFloat64()
				fill := simdtest.RandVec(r)
				g := simdtest.NewGuarded(m*lda, n%5, fill)
				a := g.S()
				want := make([]float64, len(a))
				copy(want, a)
				for i := 0; i < m; i++ {
					AxpyAt(l, alpha*x[i], y, want[i*lda:i*lda+n])
				}
				GerAt(l, m, n, alpha, a, lda, x, y)
				for k := range a {
					if math.Float64bits(a[k]) != math.Float64bits(want[k]) {
						t.Fatalf("m=%d n=%d: a[%d] = %v, want %v (AxpyAt by rows)", m, n, k, a[k], want[k])
					}
				}
				g.Check(t, "GerAt")
			}
		}
	})
}
