package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestSecularAccuracy checks SecularAt at every level against the sums
// taken term by term with true divisions of r[i] by (g[i] - o) - t: with S the sum of the
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
				o := 0.0
				if n%3 == 0 {
					o = 0.125
				}
				var ws, wd, as, ad float64
				for i := range g {
					inv := 1 / ((g[i] - o) - sh)
					ws += rz[i] * inv
					wd += rz[i] * inv * inv
					as += math.Abs(rz[i] * inv)
					ad += rz[i] * inv * inv
				}
				s, ds := SecularAt(l, g, rz, o, sh)
				tol := 4 * float64(n+4) * eps
				if math.Abs(s-ws) > tol*as || math.Abs(ds-wd) > tol*ad {
					t.Fatalf("n=%d t=%g: got (%v, %v), want (%v, %v) within %g relative", n, sh, s, ds, ws, wd, tol)
				}
				if n > 0 && (math.IsNaN(s) || math.IsNaN(ds)) {
					t.Fatalf("n=%d t=%g: NaN", n, sh)
				}
			}
		}
		// A zero difference (g[i] - o) - t gives infinite sums, never NaN.
		s, ds := SecularAt(l, []float64{1, 2, 3}, []float64{1, 1, 1}, 1, 1)
		if !math.IsInf(s, 0) || !math.IsInf(ds, 1) {
			t.Errorf("pole at t: got (%v, %v), want infinite", s, ds)
		}
	})
}

// TestSecularVecAccuracy checks SecularVecAt and SecularVec2At at every
// level against the scalar expressions: each element within 4 ulps (the
// generic pair loop's reciprocals take three roundings where a division
// takes one), the sums of squares within 4*(n+4)*eps relative, and
// nothing written past len(z).
func TestSecularVecAccuracy(t *testing.T) {
	const eps = 0x1p-52
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(29, uint64(l)))
		for n := 0; n <= 80; n++ {
			z := make([]float64, n)
			d := make([]float64, n)
			for i := range z {
				z[i] = r.NormFloat64()
				d[i] = float64(i) + r.Float64()*0.5
			}
			o, tau := float64(n/2), 0.3+r.Float64()*0.2
			v1 := make([]float64, n+1)
			v2 := make([]float64, n+1)
			u2 := make([]float64, n+1)
			v1[n], v2[n], u2[n] = -1, -1, -1
			s := SecularVecAt(l, z, d, o, tau, v1)
			nv, nu := SecularVec2At(l, z, d, o, tau, v2, u2)
			var ws, wv, wu float64
			for i := range z {
				x1 := z[i] / ((d[i] - o) - tau)
				x2 := z[i] / (((d[i] - o) - tau) * ((d[i] + o) + tau))
				y2 := d[i] * x2
				ws += x1 * x1
				wv += x2 * x2
				wu += y2 * y2
				if math.Abs(v1[i]-x1) > 4*eps*math.Abs(x1) || math.Abs(v2[i]-x2) > 4*eps*math.Abs(x2) || math.Abs(u2[i]-y2) > 4*eps*math.Abs(y2) {
					t.Fatalf("n=%d element %d: (%v, %v, %v), want (%v, %v, %v)", n, i, v1[i], v2[i], u2[i], x1, x2, y2)
				}
			}
			tol := 4 * float64(n+4) * eps
			if math.Abs(s-ws) > tol*ws || math.Abs(nv-wv) > tol*wv || math.Abs(nu-wu) > tol*wu {
				t.Fatalf("n=%d: sums (%v, %v, %v), want (%v, %v, %v)", n, s, nv, nu, ws, wv, wu)
			}
			if v1[n] != -1 || v2[n] != -1 || u2[n] != -1 {
				t.Fatalf("n=%d: wrote past len(z)", n)
			}
		}
	})
}

// TestZhatAccuracy checks ZhatAt at every level against the ratios
// multiplied one by one: within 8*(n+1) eps relative (a few roundings per
// ratio), for interlaced roots and poles as the divide-and-conquer
// solvers give (every ratio below 1), both forms; and that the generic
// loop answers 0 (take the ratios one by one) when its runs of products
// underflow, as they do for poles near 2^-300, while the assembly
// divides each ratio and stays exact there.
func TestZhatAccuracy(t *testing.T) {
	const eps = 0x1p-52
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(37, uint64(l)))
		for n := 0; n <= 70; n++ {
			for _, scale := range []float64{1, 0x1p-300} {
				// Poles d[i] = i+1+u below the roots o[i]+t[i], which
				// lie below the next pole, and p = 0 left of them all.
				d := make([]float64, n)
				o := make([]float64, n)
				tau := make([]float64, n)
				for i := range d {
					d[i] = (float64(i+1) + 0.1*r.Float64()) * scale
					o[i] = d[i]
					tau[i] = (0.2 + 0.5*r.Float64()) * scale
				}
				p := 0.5 * scale
				for _, sq := range []bool{false, true} {
					want := 1.0
					for i := range d {
						x, y := (o[i]-p)+tau[i], d[i]-p
						if sq {
							x *= (o[i] + p) + tau[i]
							y *= d[i] + p
						}
						want *= x / y
					}
					got := ZhatAt(l, sq, o, tau, d, p)
					if got == 0 && !zhatDivides(l) && scale != 1 {
						continue // the generic loop's underflow answer
					}
					if math.Abs(got-want) > 8*float64(n+1)*eps*want {
						t.Fatalf("n=%d scale=%g sq=%v: got %v, want %v", n, scale, sq, got, want)
					}
				}
			}
		}
		if l == simd.Generic {
			d := []float64{0x1p-300, 0x1p-299, 0x1p-298, 0x1p-297}
			if got := ZhatAt(l, true, d, make([]float64, 4), d, 0); got != 0 {
				t.Errorf("generic underflowing runs: got %v, want 0", got)
			}
		}
	})
}

// zhatDivides reports whether level l's ZhatAt is the assembly that
// divides each ratio (AVX2 and AVX-512 on amd64) rather than the generic
// loop, whose answer when its runs of products underflow is 0 (NEON runs
// the generic loop too).
func zhatDivides(l simd.Level) bool {
	return zhatAssembly && (l == simd.AVX2 || l == simd.AVX512)
}
