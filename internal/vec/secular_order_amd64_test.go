//go:build !purego

package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestSecularOrder pins the bits of the secular kernels: s and ds are
// each a reduction (modelReduce) of the terms tx = r[i]*inv and
// fma(tx, inv, ·), inv = 1/(g[i] - t) one true division, with the
// masked-off lanes of the tail adding exact zeros. The shifts include
// t = 0 and a subnormal t, where a masked-off lane's 1/(0 - t) is
// infinite and would make a NaN if it were not zeroed.
func TestSecularOrder(t *testing.T) {
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		w := lanes(l)
		if w == 0 {
			t.Skip("no assembly order to pin at this level")
		}
		r := rand.New(rand.NewPCG(17, uint64(l)))
		for _, n := range orderLengths() {
			g := wide(r, n)
			rz := make([]float64, n)
			for i := range rz {
				rz[i] = math.Abs(r.NormFloat64()) * math.Ldexp(1, r.IntN(40)-20)
			}
			for _, sh := range []float64{0, 0x1p-1070, r.NormFloat64() * 1e-3, r.NormFloat64()} {
				inv := func(i int) float64 {
					if i >= n {
						return 0
					}
					return 1 / (g[i] - sh)
				}
				wantS := modelReduce(n, w, func(acc float64, i int) float64 { return acc + at(rz, i)*inv(i) })
				wantD := modelReduce(n, w, func(acc float64, i int) float64 { return math.FMA(at(rz, i)*inv(i), inv(i), acc) })
				s, ds := SecularAt(l, g, rz, sh)
				if !sameBits(s, wantS) || !sameBits(ds, wantD) {
					t.Fatalf("n=%d t=%g: got (%v, %v), model (%v, %v)", n, sh, s, ds, wantS, wantD)
				}
			}
		}
	})
}
