package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestSecularAccuracy checks SecularAt at every level against the sums
// taken term by term with true divisions: with S the sum of the
// magnitudes of the terms (all of one sign on each side of t), the error
// of either sum must stay within 4*(n+4)*eps*S (a few roundings per term
// for the paired reciprocals of the generic loop, the summation's n).
// The poles straddle t, close to it and far, and the lengths cover every
// tail of both vector widths.
func TestSecularAccuracy(t *testing.T) {
	const eps = 0x1p-52
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(23, uint64(l)))
		for n := 0; n <= 80; n++ {
			g := make([]float64, n)
			rz := make([]float64, n)
			for i := range g {
				g[i] = float64(i-n/2) + r.Float64()*0.5 + 0.25
				rz[i] = r.Float64() * math.Ldexp(1, r.IntN(20)-10)
			}
			for _, sh := range []float64{0, 1e-9, -0.2, 0.37} {
				var ws, wd, as, ad float64
				for i := range g {
					inv := 1 / (g[i] - sh)
					ws += rz[i] * inv
					wd += rz[i] * inv * inv
					as += math.Abs(rz[i] * inv)
					ad += rz[i] * inv * inv
				}
				s, ds := SecularAt(l, g, rz, sh)
				tol := 4 * float64(n+4) * eps
				if math.Abs(s-ws) > tol*as || math.Abs(ds-wd) > tol*ad {
					t.Fatalf("n=%d t=%g: got (%v, %v), want (%v, %v) within %g relative", n, sh, s, ds, ws, wd, tol)
				}
				if n > 0 && (math.IsNaN(s) || math.IsNaN(ds)) {
					t.Fatalf("n=%d t=%g: NaN", n, sh)
				}
			}
		}
		// A zero difference g[i] - t gives infinite sums, never NaN.
		s, ds := SecularAt(l, []float64{1, 2, 3}, []float64{1, 1, 1}, 2)
		if !math.IsInf(s, 0) || !math.IsInf(ds, 1) {
			t.Errorf("pole at t: got (%v, %v), want infinite", s, ds)
		}
	})
}
