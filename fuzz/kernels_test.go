package fuzz

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/kernels"
)

// floats decodes b as little-endian float64 bit patterns (any value,
// NaN and Inf included).
func floats(b []byte) []float64 {
	x := make([]float64, len(b)/8)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return x
}

func seedFloats(f *testing.F, xs ...[]float64) {
	for _, x := range xs {
		b := make([]byte, 8*len(x))
		for i, v := range x {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		f.Add(b)
	}
}

// FuzzNrm2 checks Nrm2 on arbitrary vectors against the exact norm: a
// relative error of at most (n+2) units of roundoff over the whole range,
// subnormals to overflow, and NaN/Inf as documented.
func FuzzNrm2(f *testing.F) {
	seedFloats(f, []float64{3, 4}, []float64{1e-310, -3e-320, 5e-324}, []float64{1e308, 1e308, -1e308},
		[]float64{math.NaN(), math.Inf(1)}, []float64{0, -0, 0}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Fuzz(func(t *testing.T, b []byte) {
		x := floats(b)
		want := ExactNorm(x)
		simdtest.ForSelected(t, func(p simd.Level) {
			got := kernels.Nrm2(x)
			switch {
			case math.IsNaN(want):
				if !math.IsNaN(got) {
					t.Fatalf("%v: Nrm2(%v) = %v, want NaN", p, x, got)
				}
			case math.IsInf(want, 1):
				if !math.IsInf(got, 1) {
					t.Fatalf("%v: Nrm2(%v) = %v, want +Inf", p, x, got)
				}
			default:
				tol := float64(len(x)+2)*Unit*want + 0x1p-1074
				if math.Abs(got-want) > tol {
					t.Fatalf("%v: Nrm2(%v) = %v, exact %v (error %g > %g)", p, x, got, want, math.Abs(got-want), tol)
				}
			}
		})
	})
}

// FuzzDot checks Dot on arbitrary pairs of vectors against the exact dot
// product, within the classical bound gamma(n) * sum |x_i y_i|.
func FuzzDot(f *testing.F) {
	seedFloats(f, []float64{1, 2, 3, 4}, []float64{1e300, 1e-300, -1e300, 7}, []float64{math.Inf(1), 0, 1, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		v := floats(b)
		x, y := v[:len(v)/2], v[len(v)/2:2*(len(v)/2)]
		want := ExactDot(x, y)
		var s float64
		for i := range x {
			s += math.Abs(x[i] * y[i])
		}
		simdtest.ForSelected(t, func(p simd.Level) {
			got := kernels.Dot(x, y)
			if math.IsNaN(want) || math.IsInf(s, 0) {
				// Intermediate overflow or NaN input: the order of the
				// sum decides between ±Inf and NaN, which are both
				// right; a finite answer is not.
				if !math.IsNaN(got) && !math.IsInf(got, 0) && (math.IsNaN(want) || math.IsInf(want, 0)) {
					t.Fatalf("%v: Dot = %v, exact %v", p, got, want)
				}
				return
			}
			if math.IsInf(want, 0) {
				if got != want {
					t.Fatalf("%v: Dot = %v, exact %v", p, got, want)
				}
				return
			}
			if d := math.Abs(got - want); d > SumBound(len(x), s) {
				t.Fatalf("%v: Dot(%v, %v) = %v, exact %v (error %g > %g)", p, x, y, got, want, d, SumBound(len(x), s))
			}
		})
	})
}

// FuzzGemm checks Gemm on fuzzed shapes, transpositions, scalars and
// magnitudes (entries between 2^-150 and 2^150 so that no product can
// overflow) against a naive loop, within the rounding bound, and checks
// that nothing outside C is written.
func FuzzGemm(f *testing.F) {
	f.Add(uint8(3), uint8(4), uint8(5), uint8(0), int8(0), uint64(1))
	f.Add(uint8(17), uint8(25), uint8(130), uint8(3), int8(90), uint64(2))
	f.Add(uint8(1), uint8(49), uint8(1), uint8(2), int8(-100), uint64(3))
	f.Fuzz(func(t *testing.T, m8, n8, k8, flags uint8, expo int8, seed uint64) {
		m, n, k := int(m8%64), int(n8%64), int(k8)
		transA, transB := flags&1 != 0, flags&2 != 0
		r := rand.New(rand.NewPCG(seed, uint64(flags)))
		scale := math.Ldexp(1, int(expo)%150)
		gen := func(rows, cols, ld int) []float64 {
			s := make([]float64, max(rows*ld, 1))
			for i := range s {
				if r.IntN(8) == 0 {
					continue // some exact zeros
				}
				s[i] = r.NormFloat64() * scale * math.Ldexp(1, r.IntN(21)-10)
			}
			return s
		}
		ar, ac := m, k
		if transA {
			ar, ac = k, m
		}
		br, bc := k, n
		if transB {
			br, bc = n, k
		}
		lda, ldb, ldc := ac+int(flags>>2&3), bc+int(flags>>4&3), n+1
		a, b := gen(ar, ac, max(lda, 1)), gen(br, bc, max(ldb, 1))
		lda, ldb = max(lda, 1), max(ldb, 1)
		alpha := []float64{1, -1, 0.5, 3}[flags>>6]
		beta := []float64{0, 1, -0.25, 2}[(flags>>5)&3]
		c0 := gen(m, n, ldc)
		for i := 0; i < m; i++ {
			c0[i*ldc+n] = 12345 // the padding column must survive
		}
		at := func(i, p int) float64 {
			if transA {
				return a[p*lda+i]
			}
			return a[i*lda+p]
		}
		bt := func(p, j int) float64 {
			if transB {
				return b[j*ldb+p]
			}
			return b[p*ldb+j]
		}
		simdtest.ForSelected(t, func(p simd.Level) {
			c := append([]float64(nil), c0...)
			kernels.Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			for i := 0; i < m; i++ {
				if c[i*ldc+n] != 12345 {
					t.Fatalf("%v: Gemm wrote C's padding in row %d", p, i)
				}
				for j := 0; j < n; j++ {
					var s, sa float64
					for q := 0; q < k; q++ {
						s += at(i, q) * bt(q, j)
						sa += math.Abs(at(i, q) * bt(q, j))
					}
					want := alpha*s + beta*c0[i*ldc+j]
					bound := 2 * SumBound(k+2, math.Abs(alpha)*sa+math.Abs(beta*c0[i*ldc+j]))
					if d := math.Abs(c[i*ldc+j] - want); !(d <= bound) {
						t.Fatalf("%v: Gemm tA=%v tB=%v %dx%dx%d: C[%d,%d] = %v, want %v (error %g > %g)",
							p, transA, transB, m, n, k, i, j, c[i*ldc+j], want, d, bound)
					}
				}
			}
		})
	})
}
