//go:build !purego

package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// zhatAssembly: the AVX2 and AVX-512 levels have an assembly ZhatAt.
const zhatAssembly = true

// TestSecularOrder pins the bits of the secular kernels: s and ds are
// each a reduction (modelReduce) of the terms tx = r[i]*inv and
// fma(tx, inv, ·), inv = 1/((g[i] - o) - t) one true division (o = 0 at
// even lengths), with the
// masked-off lanes of the tail adding exact zeros. The shifts include
// t = 0 and a subnormal t, where a masked-off lane's 1/(0 - t) is
// infinite and would make a NaN if it were not zeroed.
func TestSecularOrder(t *testing.T) {
	eachSecularLevel(t, 17, func(t *testing.T, l simd.Level, w int, r *rand.Rand) {
		for _, n := range orderLengths() {
			g := wide(r, n)
			rz := make([]float64, n)
			for i := range rz {
				rz[i] = math.Abs(r.NormFloat64()) * math.Ldexp(1, r.IntN(40)-20)
			}
			for _, sh := range []float64{0, 0x1p-1070, r.NormFloat64() * 1e-3, r.NormFloat64()} {
				o := 0.0
				if n%2 == 1 {
					o = r.NormFloat64()
				}
				inv := func(i int) float64 {
					if i >= n {
						return 0
					}
					return 1 / ((g[i] - o) - sh)
				}
				wantS := modelReduce(n, w, func(acc float64, i int) float64 { return acc + at(rz, i)*inv(i) })
				wantD := modelReduce(n, w, func(acc float64, i int) float64 { return math.FMA(at(rz, i)*inv(i), inv(i), acc) })
				s, ds := SecularAt(l, g, rz, o, sh)
				if !sameBits(s, wantS) || !sameBits(ds, wantD) {
					t.Fatalf("n=%d o=%g t=%g: got (%v, %v), model (%v, %v)", n, o, sh, s, ds, wantS, wantD)
				}
			}
		}
	})
}

// TestSecularVecOrder pins the bits of the eigenvector kernels: each
// v[i] (and u[i]) is the scalar expression's, one true division, and the
// sums of squares are reductions of fused multiply-adds; the elements
// past len(z) are left alone.
func TestSecularVecOrder(t *testing.T) {
	eachSecularLevel(t, 19, func(t *testing.T, l simd.Level, w int, r *rand.Rand) {
		const guard = 3
		for _, n := range orderLengths() {
			z, d := wide(r, n), wide(r, n)
			for _, o := range []float64{0, r.NormFloat64()} {
				for _, tau := range []float64{0, 0x1p-1070, r.NormFloat64() * 1e-3} {
					v1 := make([]float64, n+guard)
					v2 := make([]float64, n+guard)
					u2 := make([]float64, n+guard)
					for k := n; k < n+guard; k++ {
						v1[k], v2[k], u2[k] = 7, 7, 7
					}
					s := SecularVecAt(l, z, d, o, tau, v1)
					nv, nu := SecularVec2At(l, z, d, o, tau, v2, u2)
					x1 := func(i int) float64 {
						if i >= n {
							return 0
						}
						return z[i] / ((d[i] - o) - tau)
					}
					x2 := func(i int) float64 {
						if i >= n {
							return 0
						}
						return z[i] / (((d[i] - o) - tau) * ((d[i] + o) + tau))
					}
					y2 := func(i int) float64 { return at(d, i) * x2(i) }
					for i := 0; i < n+guard; i++ {
						w1, w2, wu := x1(i), x2(i), y2(i)
						if i >= n {
							w1, w2, wu = 7, 7, 7
						}
						if !sameBits(v1[i], w1) || !sameBits(v2[i], w2) || !sameBits(u2[i], wu) {
							t.Fatalf("n=%d o=%g t=%g: element %d is (%v, %v, %v), want (%v, %v, %v)", n, o, tau, i, v1[i], v2[i], u2[i], w1, w2, wu)
						}
					}
					ws := modelReduce(n, w, func(acc float64, i int) float64 { return math.FMA(x1(i), x1(i), acc) })
					wv := modelReduce(n, w, func(acc float64, i int) float64 { return math.FMA(x2(i), x2(i), acc) })
					wu := modelReduce(n, w, func(acc float64, i int) float64 { return math.FMA(y2(i), y2(i), acc) })
					if !sameBits(s, ws) || !sameBits(nv, wv) || !sameBits(nu, wu) {
						t.Fatalf("n=%d o=%g t=%g: sums (%v, %v, %v), model (%v, %v, %v)", n, o, tau, s, nv, nu, ws, wv, wu)
					}
				}
			}
		}
	})
}

// TestZhatOrder pins the bits of the zhat kernels: the ratios (one true
// division each) multiplied in four accumulators of lanes as a
// reduction adds (modelReduce with products: single vectors into the
// first, the tail into the second, its masked-off lanes ratio one),
// then (a0*a1)*(a2*a3) and the lanes multiplied pairwise, halving.
func TestZhatOrder(t *testing.T) {
	eachSecularLevel(t, 31, func(t *testing.T, l simd.Level, w int, r *rand.Rand) {
		for _, n := range orderLengths() {
			o := make([]float64, n)
			tau := make([]float64, n)
			d := make([]float64, n)
			for i := range d {
				d[i] = 1 + r.Float64()
				o[i] = 1 + r.Float64()
				tau[i] = r.NormFloat64() * 1e-3
			}
			p := r.Float64() * 0.5
			for _, sq := range []bool{false, true} {
				ratio := func(i int) float64 {
					if i >= n {
						return 1
					}
					x, y := (o[i]-p)+tau[i], d[i]-p
					if sq {
						x *= (o[i] + p) + tau[i]
						y *= d[i] + p
					}
					return x / y
				}
				want := modelLanes(n, w, 1, func(acc float64, i int) float64 { return acc * ratio(i) }, func(a, b float64) float64 { return a * b })
				if got := ZhatAt(l, sq, o, tau, d, p); !sameBits(got, want) {
					t.Fatalf("n=%d sq=%v: got %v, model %v", n, sq, got, want)
				}
			}
		}
	})
}

// eachSecularLevel runs f on every level that has secular kernels in
// assembly, with their vector width w and a PCG stream of seed and the
// level (the others are skipped: no assembly order to pin there).
func eachSecularLevel(t *testing.T, seed uint64, f func(t *testing.T, l simd.Level, w int, r *rand.Rand)) {
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		w := secularLanes(l)
		if w == 0 {
			t.Skip("no assembly order to pin at this level")
		}
		f(t, l, w, rand.New(rand.NewPCG(seed, uint64(l))))
	})
}

// secularLanes is the vector width of the secular kernels at level l:
// 4 at both assembly levels (AVX-512 calls the AVX2 routines), 0 for the
// others.
func secularLanes(l simd.Level) int {
	if lanes(l) == 0 {
		return 0
	}
	return 4
}
