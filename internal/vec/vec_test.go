package vec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestAtMatchesTable checks that the direct-call functions (DotAt and the
// like, which the public kernels call) run the same code as the
// registered table of every level: the results must be bit-identical,
// since both reach the same routine. A wrong case in a switch would pick
// another level's routine, whose rounding differs for most lengths, or
// the generic loop.
func TestAtMatchesTable(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		t.Parallel()
		o := For(l)
		r := rand.New(rand.NewPCG(7, uint64(l)))
		for _, n := range simdtest.Lengths() {
			x := simdtest.RandSlice(r, n)
			y := simdtest.RandSlice(r, n)
			same := func(what string, got, want float64) {
				t.Helper()
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("n=%d: %sAt = %v, table %v", n, what, got, want)
				}
			}
			same("Dot", DotAt(l, x, y), o.Dot(x, y))
			same("Asum", AsumAt(l, x), o.Asum(x))
			same("SumSq", SumSqAt(l, x, 0.5), o.SumSq(x, 0.5))
			same("MaxAbs", MaxAbsAt(l, x), o.MaxAbs(x))
			if n > 0 {
				m := math.Abs(x[n/2])
				if g, w := IndexAbsAt(l, x, m), o.IndexAbs(x, m); g != w {
					t.Fatalf("n=%d: IndexAbsAt = %d, table %d", n, g, w)
				}
			}
			eq := func(what string, got, want []float64) {
				t.Helper()
				if !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
					t.Fatalf("n=%d: %sAt differs from the table", n, what)
				}
			}
			y1, y2 := slices.Clone(y), slices.Clone(y)
			AxpyAt(l, 0.3, x, y1)
			o.Axpy(0.3, x, y2)
			eq("Axpy", y1, y2)
			ScalAt(l, 1.7, y1)
			o.Scal(1.7, y2)
			eq("Scal", y1, y2)
			x1, x2 := slices.Clone(x), slices.Clone(x)
			RotAt(l, x1, y1, 0.6, 0.8)
			o.Rot(x2, y2, 0.6, 0.8)
			eq("Rot x", x1, x2)
			eq("Rot y", y1, y2)
			// An m x n matrix with row stride n+1 for the matrix-vector
			// kernels (m = 3 rows of n columns).
			const m = 3
			a := simdtest.RandSlice(r, m*(n+1))
			xm := simdtest.RandSlice(r, m)
			z1 := simdtest.RandSlice(r, max(m, n))
			z2 := slices.Clone(z1)
			GemvNAt(l, m, n, 0.9, a, n+1, x, z1[:m])
			o.GemvN(m, n, 0.9, a, n+1, x, z2[:m])
			eq("GemvN", z1, z2)
			GemvTAt(l, m, n, 0.9, a, n+1, xm, z1[:n])
			o.GemvT(m, n, 0.9, a, n+1, xm, z2[:n])
			eq("GemvT", z1, z2)
		}
	})
}
