package fuzz

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/internal/sym3"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// FuzzSym3Rows checks the third-order update on fuzzed shapes, strides,
// weights and magnitudes (entries between 2^-100 and 2^100, so that no
// product overflows) against a sum over the samples, within the rounding
// bound, on every kernel path; it also checks that nothing past the
// tensor is written.
func FuzzSym3Rows(f *testing.F) {
	f.Add(uint8(3), uint8(4), uint8(0), int8(0), uint64(1))
	f.Add(uint8(17), uint8(130), uint8(5), int8(60), uint64(2))
	f.Add(uint8(33), uint8(9), uint8(2), int8(-90), uint64(3))
	f.Fuzz(func(t *testing.T, d8, n8, flags uint8, expo int8, seed uint64) {
		d, n := int(d8%40), int(n8)
		ldy := max(d, 1) + int(flags&3)
		r := rand.New(rand.NewPCG(seed, uint64(flags)))
		scale := math.Ldexp(1, int(expo)%70)
		gen := func(k int) []float64 {
			s := make([]float64, k)
			for i := range s {
				if r.IntN(8) != 0 { // some exact zeros
					s[i] = r.NormFloat64() * scale * math.Ldexp(1, r.IntN(21)-10)
				}
			}
			return s
		}
		y := gen(max(0, (n-1)*ldy+d)) // exactly as long as needed
		var w []float64
		if flags&4 != 0 {
			w = gen(n)
			for i := range w {
				w[i] /= scale * scale
			}
		}
		alpha := []float64{1, -0.5, 3, 0}[flags>>3&3]
		size := sym3.Len(d)
		t0 := gen(size)
		simdtest.ForSelected(t, func(p simd.Level) {
			tt := append(append([]float64(nil), t0...), 7, 7)
			sym3.Rows(d, n, alpha, y, ldy, w, tt[:size])
			if tt[size] != 7 || tt[size+1] != 7 {
				t.Fatalf("%v: wrote past the tensor", p)
			}
			for j := 0; j < d; j++ {
				for i := 0; i <= j; i++ {
					for l := j; l < d; l++ {
						idx := sym3.Base(d, j) + i*(d-j) + l - j
						var s, sa float64
						for q := 0; q < n; q++ {
							wq := alpha
							if w != nil {
								wq *= w[q]
							}
							v := wq * y[q*ldy+i] * y[q*ldy+j] * y[q*ldy+l]
							s += v
							sa += math.Abs(v)
						}
						want := t0[idx] + s
						if alpha == 0 {
							want = t0[idx]
						}
						bound := 2 * SumBound(n+8, sa+math.Abs(t0[idx]))
						if e := math.Abs(tt[idx] - want); !(e <= bound) {
							t.Fatalf("%v: d=%d n=%d: T[%d][%d][%d] = %v, want %v (error %g > %g)", p, d, n, i, j, l, tt[idx], want, e, bound)
						}
					}
				}
			}
		})
	})
}

// FuzzTensor3Contract checks T(I, I, v), T(I, v, v) and T(v, v, v) of
// fuzzed tensors against sums over the dense expansion, on every path.
func FuzzTensor3Contract(f *testing.F) {
	f.Add(uint8(1), int8(0), uint64(1))
	f.Add(uint8(13), int8(40), uint64(2))
	f.Add(uint8(27), int8(-60), uint64(3))
	f.Fuzz(func(t *testing.T, d8 uint8, expo int8, seed uint64) {
		d := int(d8 % 30)
		r := rand.New(rand.NewPCG(seed, 9))
		scale := math.Ldexp(1, int(expo)%80)
		x := tensor3.New(d, nil)
		for i := range x.RawData() {
			x.RawData()[i] = r.NormFloat64() * scale * math.Ldexp(1, r.IntN(11)-5)
		}
		v := make([]float64, d)
		for i := range v {
			v[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(11)-5)
		}
		a := x.Dense()
		simdtest.ForSelected(t, func(p simd.Level) {
			var m mat.Dense
			x.ContractMat(&m, v)
			vec := x.ContractVec(nil, v)
			sc := x.ContractScalar(v)
			var sAll, saAll float64
			for i := 0; i < d; i++ {
				var si, sai float64
				for j := 0; j < d; j++ {
					var s, sa float64
					for l := 0; l < d; l++ {
						s += a[(i*d+j)*d+l] * v[l]
						sa += math.Abs(a[(i*d+j)*d+l] * v[l])
					}
					if e := math.Abs(m.At(i, j) - s); !(e <= 2*SumBound(d+2, sa)) {
						t.Fatalf("%v: d=%d: T(I,I,v)[%d][%d] = %v, want %v", p, d, i, j, m.At(i, j), s)
					}
					si += s * v[j]
					sai += sa * math.Abs(v[j])
				}
				if e := math.Abs(vec[i] - si); !(e <= 4*SumBound(2*d+4, sai)) {
					t.Fatalf("%v: d=%d: T(I,v,v)[%d] = %v, want %v", p, d, i, vec[i], si)
				}
				sAll += si * v[i]
				saAll += sai * math.Abs(v[i])
			}
			if e := math.Abs(sc - sAll); !(e <= 8*SumBound(3*d+8, saAll)) {
				t.Fatalf("%v: d=%d: T(v,v,v) = %v, want %v", p, d, sc, sAll)
			}
		})
	})
}

// FuzzTensor3PowerMethod runs the power method (both variants) on
// arbitrary tensors, NaN and Inf included: it must return an error
// wrapping ErrNotFinite exactly when the input or the iteration is not
// finite, never panic, and otherwise give sorted non-negative values,
// unit vectors and a residual no larger than the tensor's norm allows.
func FuzzTensor3PowerMethod(f *testing.F) {
	seedFloats(f, []float64{1, 0, 0, 0}, []float64{3, 1, -2, 0.5, 0, 0, 1, 2, 3, 4}, []float64{math.NaN(), 1, 2, 3},
		// Subnormal values: once an endless loop (1/norm overflowed).
		[]float64{1.12e-321, 1.9893790223e-314, 5.304989477e-315, 5.307579804e-315})
	// Values from 1e-153 to 1e164: once vectors off unit length by 1e-6
	// (subnormal norms after scaling).
	f.Add([]byte("0000000b0000000000000000000000000000000 0000000 0000000 000000000000000 0000000 0000000 0000000 0000000 0000000 0000000 0000000 0000000 0000000 0000000 0000000 "))
	f.Fuzz(func(t *testing.T, b []byte) {
		vals := floats(b)
		d := 0
		for sym3.Len(d+1) <= len(vals) && d < 6 {
			d++
		}
		x := tensor3.New(d, vals[:sym3.Len(d)])
		finite := true
		for _, v := range x.RawData() {
			finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
		for _, sim := range []bool{false, true} {
			k := d / 2
			if len(b) > 0 {
				k = int(b[0]) % (d + 1)
			}
			dec, err := tensor3.PowerMethod(context.Background(), x, k, &tensor3.PowerOptions{Simultaneous: sim, SimIters: 50, Seed: 1})
			if !finite {
				if !errors.Is(err, tensor3.ErrNotFinite) {
					t.Fatalf("non-finite input: err = %v", err)
				}
				continue
			}
			if errors.Is(err, tensor3.ErrNotFinite) {
				continue // overflow in the iteration, for huge values
			}
			if err != nil && !errors.Is(err, tensor3.ErrNoConvergence) {
				t.Fatalf("unexpected error %v", err)
			}
			for i, lam := range dec.Values {
				if lam < 0 || (i > 0 && lam > dec.Values[i-1]) || math.IsNaN(lam) {
					t.Fatalf("values %v", dec.Values)
				}
				var n float64
				for j := 0; j < d; j++ {
					n += dec.Vectors.At(j, i) * dec.Vectors.At(j, i)
				}
				if math.Abs(n-1) > 1e-9 {
					t.Fatalf("vector %d has norm^2 %v", i, n)
				}
			}
			if !sim && !math.IsInf(dec.Residual, 0) && dec.Residual > x.NormFrob()*(1+1e-9)+1e-300 && x.NormFrob() < 1e100 {
				// Each deflation removes the best rank-one term found,
				// which cannot increase the norm in exact arithmetic
				// when lambda = T(v, v, v) at a unit v.
				t.Fatalf("residual %v above the norm %v", dec.Residual, x.NormFrob())
			}
		}
	})
}
