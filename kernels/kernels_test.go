package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/internal/vec"
)

const eps = simdtest.Eps

// ref is the generic implementation of the vector kernels, the reference
// of the tests.

func TestDot(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(1, uint64(p)))
		for _, n := range simdtest.Lengths() {
			for off := 0; off < 8; off += 3 {
				x := simdtest.NewGuarded(n, off, simdtest.RandVec(r))
				y := simdtest.NewGuarded(n, (off+5)%8, simdtest.RandVec(r))
				got := im.Dot(x.S(), y.S())
				want := vec.DotAt(simd.Generic, x.S(), y.S())
				var s float64
				for i := range n {
					s += math.Abs(x.S()[i] * y.S()[i])
				}
				if math.Abs(got-want) > simdtest.SumBound(n, s) {
					t.Fatalf("n=%d off=%d: Dot = %v, reference %v (bound %v)", n, off, got, want, simdtest.SumBound(n, s))
				}
			}
		}
	})
}

func TestAxpyScalRot(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(2, uint64(p)))
		for _, n := range simdtest.Lengths() {
			off := n % 8
			alpha := r.NormFloat64()
			x := simdtest.NewGuarded(n, off, simdtest.RandVec(r))
			y := simdtest.NewGuarded(n, 7-off, simdtest.RandVec(r))
			want := append([]float64(nil), y.S()...)
			vec.AxpyAt(simd.Generic, alpha, x.S(), want)
			im.Axpy(alpha, x.S(), y.S())
			y.Check(t, "Axpy")
			x.Check(t, "Axpy (x)")
			for i := range want {
				// One rounding of alpha*x[i] and one of the sum, or a
				// single fused one: they differ by at most 2 ulps of
				// the larger term.
				if tol := 2 * eps * (math.Abs(alpha*x.S()[i]) + math.Abs(want[i])); math.Abs(y.S()[i]-want[i]) > tol {
					t.Fatalf("Axpy n=%d i=%d: %v, reference %v", n, i, y.S()[i], want[i])
				}
			}

			want = append(want[:0], x.S()...)
			vec.ScalAt(simd.Generic, alpha, want)
			im.Scal(alpha, x.S())
			x.Check(t, "Scal")
			for i := range want {
				if x.S()[i] != want[i] { // a single rounded product: exact match
					t.Fatalf("Scal n=%d i=%d: %v, reference %v", n, i, x.S()[i], want[i])
				}
			}

			th := r.Float64() * 2 * math.Pi
			c, s := math.Cos(th), math.Sin(th)
			wx := append([]float64(nil), x.S()...)
			wy := append([]float64(nil), y.S()...)
			vec.RotAt(simd.Generic, wx, wy, c, s)
			xs := append([]float64(nil), x.S()...)
			ys := append([]float64(nil), y.S()...)
			im.Rot(x.S(), y.S(), c, s)
			x.Check(t, "Rot x")
			y.Check(t, "Rot y")
			for i := range wx {
				tol := 4 * eps * (math.Abs(xs[i]) + math.Abs(ys[i]))
				if math.Abs(x.S()[i]-wx[i]) > tol || math.Abs(y.S()[i]-wy[i]) > tol {
					t.Fatalf("Rot n=%d i=%d: (%v, %v), reference (%v, %v)", n, i, x.S()[i], y.S()[i], wx[i], wy[i])
				}
			}
		}
	})
}

func TestAsumNrm2Iamax(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(3, uint64(p)))
		for _, n := range simdtest.Lengths() {
			x := simdtest.NewGuarded(n, n%7, simdtest.RandVec(r)).S()
			var s float64
			for _, v := range x {
				s += math.Abs(v)
			}
			if got, want := im.Asum(x), vec.AsumAt(simd.Generic, x); math.Abs(got-want) > simdtest.SumBound(n, s) {
				t.Fatalf("Asum n=%d: %v, reference %v", n, got, want)
			}
			if got, want := im.Nrm2(x), math.Sqrt(vec.SumSqAt(simd.Generic, x, 1)); math.Abs(got-want) > float64(n+2)*eps*want {
				t.Fatalf("Nrm2 n=%d: %v, reference %v", n, got, want)
			}
			wantI := -1
			best := -1.0
			for i, v := range x {
				if math.Abs(v) > best {
					best, wantI = math.Abs(v), i
				}
			}
			if got := im.Iamax(x); got != wantI {
				t.Fatalf("Iamax n=%d: %d, want %d", n, got, wantI)
			}
			if n > 2 {
				// Ties go to the first index, and -x counts like x.
				x[n-1] = -x[wantI]
				if got := im.Iamax(x); got != wantI {
					t.Fatalf("Iamax tie n=%d: %d, want %d", n, got, wantI)
				}
				x[n-2] = math.Inf(-1)
				if got := im.Iamax(x); got != n-2 {
					t.Fatalf("Iamax -Inf n=%d: %d, want %d", n, got, n-2)
				}
			}
		}
	})
}

// TestNrm2Range checks Nrm2 against exact values over the whole exponent
// range, where a plain sum of squares overflows or underflows.
func TestNrm2Range(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		for _, n := range []int{1, 2, 3, 7, 8, 9, 31, 100, 1000} {
			for _, scale := range []float64{0x1p-1074, 0x1p-1060, 0x1p-1022, 0x1p-600, 0x1p-500, 1, 0x1p500, 0x1p600, 0x1p1000, 0x1p1020} {
				x := make([]float64, n)
				for i := range x {
					x[i] = 3 * scale
					if i%2 == 1 {
						x[i] = -4 * scale
					}
				}
				// Exact: sqrt(n_odd*16 + n_even*9) * scale.
				ne, no := (n+1)/2, n/2
				want := math.Sqrt(float64(9*ne+16*no)) * scale
				got := im.Nrm2(x)
				if scale == 0x1p-1074 {
					// 3 and 4 times the smallest subnormal are exact; the
					// result may round to a subnormal: allow one ulp.
					if math.Abs(got-want) > 2*0x1p-1074 {
						t.Fatalf("Nrm2 n=%d scale=%g: %g, want %g", n, scale, got, want)
					}
					continue
				}
				if math.IsInf(want, 0) {
					if !math.IsInf(got, 1) {
						t.Fatalf("Nrm2 n=%d scale=%g: %g, want +Inf", n, scale, got)
					}
					continue
				}
				if math.Abs(got-want) > 4*float64(n)*eps*want {
					t.Fatalf("Nrm2 n=%d scale=%g: %g, want %g (rel err %g)", n, scale, got, want, math.Abs(got-want)/want)
				}
			}
		}
		if got := im.Nrm2(nil); got != 0 {
			t.Fatalf("im.Nrm2(nil) = %v", got)
		}
		if got := im.Nrm2(make([]float64, 37)); got != 0 {
			t.Fatalf("im.Nrm2(zeros) = %v", got)
		}
		// The largest finite vector whose norm is still finite.
		big := []float64{math.MaxFloat64 / 2, math.MaxFloat64 / 2}
		if got, want := im.Nrm2(big), math.MaxFloat64/math.Sqrt2; math.Abs(got-want) > 4*eps*want {
			t.Fatalf("im.Nrm2(big) = %v, want %v", got, want)
		}
	})
}

// TestNaNInf plants NaN and Inf at every position of vectors of several
// lengths and checks that they propagate as IEEE arithmetic says.
func TestNaNInf(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		for _, n := range []int{1, 3, 7, 8, 9, 15, 16, 17, 33, 64, 71} {
			for pos := 0; pos < n; pos++ {
				x := make([]float64, n)
				y := make([]float64, n)
				for i := range x {
					x[i] = float64(i%5) - 2
					y[i] = 1
				}
				x[pos] = nan
				if v := im.Dot(x, y); !math.IsNaN(v) {
					t.Fatalf("Dot with NaN at %d/%d = %v", pos, n, v)
				}
				if v := im.Asum(x); !math.IsNaN(v) {
					t.Fatalf("Asum with NaN at %d/%d = %v", pos, n, v)
				}
				if v := im.Nrm2(x); !math.IsNaN(v) {
					t.Fatalf("Nrm2 with NaN at %d/%d = %v", pos, n, v)
				}
				if v := im.Iamax(x); v != pos {
					t.Fatalf("Iamax with NaN at %d/%d = %d", pos, n, v)
				}
				if v := vec.MaxAbsAt(im.level, x); !math.IsNaN(v) {
					t.Fatalf("maxAbs with NaN at %d/%d = %v", pos, n, v)
				}
				yy := append([]float64(nil), y...)
				im.Axpy(2, x, yy)
				for i, v := range yy {
					if math.IsNaN(v) != (i == pos) {
						t.Fatalf("Axpy with NaN at %d/%d: y[%d] = %v", pos, n, i, v)
					}
				}
				x[pos] = -inf
				if v := im.Asum(x); !math.IsInf(v, 1) {
					t.Fatalf("Asum with -Inf at %d/%d = %v", pos, n, v)
				}
				if v := im.Nrm2(x); !math.IsInf(v, 1) {
					t.Fatalf("Nrm2 with -Inf at %d/%d = %v", pos, n, v)
				}
				if v := im.Iamax(x); v != pos {
					t.Fatalf("Iamax with -Inf at %d/%d = %d", pos, n, v)
				}
				if v := im.Dot(x, y); !math.IsInf(v, -1) {
					t.Fatalf("Dot with -Inf at %d/%d = %v", pos, n, v)
				}
				x[pos] = 0
				im.Scal(0, x) // 0 * finite stays finite
				x[pos] = inf
				im.Scal(0, x)
				if !math.IsNaN(x[pos]) {
					t.Fatalf("im.Scal(0) of Inf at %d/%d = %v, want NaN", pos, n, x[pos])
				}
			}
		}
	})
}

func TestStrided(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(4, uint64(p)))
		for _, n := range []int{0, 1, 2, 5, 17, 100} {
			for _, incX := range []int{1, 2, 3} {
				for _, incY := range []int{1, 4} {
					x := make([]float64, max(0, (n-1)*incX+1))
					y := make([]float64, max(0, (n-1)*incY+1))
					for i := range x {
						x[i] = r.NormFloat64()
					}
					for i := range y {
						y[i] = r.NormFloat64()
					}
					xc := make([]float64, n)
					yc := make([]float64, n)
					for i := range n {
						xc[i], yc[i] = x[i*incX], y[i*incY]
					}
					var s float64
					for i := range n {
						s += math.Abs(xc[i] * yc[i])
					}
					if got, want := im.DotInc(n, x, incX, y, incY), vec.DotAt(simd.Generic, xc, yc); math.Abs(got-want) > simdtest.SumBound(n, s) {
						t.Fatalf("DotInc n=%d inc=%d,%d: %v want %v", n, incX, incY, got, want)
					}
					if got, want := im.Nrm2Inc(n, x, incX), math.Sqrt(vec.SumSqAt(simd.Generic, xc, 1)); math.Abs(got-want) > float64(n+2)*eps*want {
						t.Fatalf("Nrm2Inc n=%d inc=%d: %v want %v", n, incX, got, want)
					}
					if got, want := im.AsumInc(n, x, incX), vec.AsumAt(simd.Generic, xc); math.Abs(got-want) > simdtest.SumBound(n, want) {
						t.Fatalf("AsumInc n=%d inc=%d: %v want %v", n, incX, got, want)
					}
					if got, want := im.IamaxInc(n, x, incX), im.Iamax(xc); got != want {
						t.Fatalf("IamaxInc n=%d inc=%d: %v want %v", n, incX, got, want)
					}
					// Axpy, Scal and Rot must touch only the strided
					// elements.
					y0 := append([]float64(nil), y...)
					im.AxpyInc(n, 0.5, x, incX, y, incY)
					for i := range y {
						want := y0[i]
						if i%incY == 0 && i/incY < n {
							want = y0[i] + 0.5*x[i/incY*incX]
						}
						if math.Abs(y[i]-want) > 2*eps*(math.Abs(want)+math.Abs(y0[i])) {
							t.Fatalf("AxpyInc n=%d inc=%d,%d: y[%d]=%v want %v", n, incX, incY, i, y[i], want)
						}
					}
					x0 := append([]float64(nil), x...)
					im.ScalInc(n, 3, x, incX)
					for i := range x {
						want := x0[i]
						if i%incX == 0 && i/incX < n {
							want *= 3
						}
						if x[i] != want {
							t.Fatalf("ScalInc n=%d inc=%d: x[%d]=%v want %v", n, incX, i, x[i], want)
						}
					}
					x0 = append(x0[:0], x...)
					y0 = append(y0[:0], y...)
					im.RotInc(n, x, incX, y, incY, 0.6, 0.8)
					for i := range n {
						xi, yi := x0[i*incX], y0[i*incY]
						wx, wy := 0.6*xi+0.8*yi, 0.6*yi-0.8*xi
						tol := 4 * eps * (math.Abs(xi) + math.Abs(yi))
						if math.Abs(x[i*incX]-wx) > tol || math.Abs(y[i*incY]-wy) > tol {
							t.Fatalf("RotInc n=%d: pair %d = (%v,%v), want (%v,%v)", n, i, x[i*incX], y[i*incY], wx, wy)
						}
					}
				}
			}
		}
	})
}

func TestGemvGer(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(5, uint64(p)))
		dims := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100}
		for _, m := range dims {
			for _, n := range dims {
				lda := n + 3
				a := make([]float64, max(m*lda, 1))
				for i := range a {
					a[i] = r.NormFloat64()
				}
				for _, trans := range []bool{false, true} {
					lx, ly := n, m
					if trans {
						lx, ly = m, n
					}
					x := simdtest.NewGuarded(lx, 1, simdtest.RandVec(r))
					y := simdtest.NewGuarded(ly, 3, simdtest.RandVec(r))
					alpha, beta := r.NormFloat64(), r.NormFloat64()
					want := make([]float64, ly)
					bound := make([]float64, ly)
					for i := range ly {
						want[i] = beta * y.S()[i]
						bound[i] = math.Abs(want[i])
					}
					for i := range m {
						for j := range n {
							if trans {
								want[j] += alpha * a[i*lda+j] * x.S()[i]
								bound[j] += math.Abs(alpha * a[i*lda+j] * x.S()[i])
							} else {
								want[i] += alpha * a[i*lda+j] * x.S()[j]
								bound[i] += math.Abs(alpha * a[i*lda+j] * x.S()[j])
							}
						}
					}
					im.Gemv(trans, m, n, alpha, a, lda, x.S(), beta, y.S())
					y.Check(t, "Gemv")
					for i := range ly {
						if d := math.Abs(y.S()[i] - want[i]); d > simdtest.SumBound(m+n, bound[i]) {
							t.Fatalf("Gemv trans=%v %dx%d: y[%d]=%v want %v", trans, m, n, i, y.S()[i], want[i])
						}
					}
				}
				// Ger, checking the padding columns are untouched.
				x := make([]float64, m)
				y := make([]float64, n)
				for i := range x {
					x[i] = r.NormFloat64()
				}
				for i := range y {
					y[i] = r.NormFloat64()
				}
				a0 := append([]float64(nil), a...)
				im.Ger(m, n, 1.5, x, y, a, lda)
				for i := range m {
					for j := range lda {
						want := a0[i*lda+j]
						if j < n {
							want += 1.5 * x[i] * y[j]
						}
						if d := math.Abs(a[i*lda+j] - want); d > 4*eps*(math.Abs(want)+math.Abs(a0[i*lda+j])) {
							t.Fatalf("Ger %dx%d: a[%d,%d]=%v want %v", m, n, i, j, a[i*lda+j], want)
						}
					}
				}
			}
		}
	})
}

// TestGemvBetaZero checks the BLAS convention that beta == 0 ignores y.
func TestGemvBetaZero(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		a := []float64{1, 2, 3, 4}
		y := []float64{math.NaN(), math.Inf(1)}
		im.Gemv(false, 2, 2, 1, a, 2, []float64{1, 1}, 0, y)
		if y[0] != 3 || y[1] != 7 {
			t.Fatalf("Gemv beta=0: %v, want [3 7]", y)
		}
	})
}

func TestPanics(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(){
		"Dot short":     func() { Dot(make([]float64, 3), make([]float64, 2)) },
		"DotInc stride": func() { DotInc(2, make([]float64, 3), 0, make([]float64, 3), 1) },
		"DotInc short":  func() { DotInc(3, make([]float64, 4), 2, make([]float64, 3), 1) },
		"Gemm lda": func() {
			Gemm(false, false, 2, 2, 3, 1, make([]float64, 6), 2, make([]float64, 6), 2, 0, make([]float64, 4), 2)
		},
		"Gemm short": func() {
			Gemm(false, false, 2, 2, 2, 1, make([]float64, 3), 2, make([]float64, 4), 2, 0, make([]float64, 4), 2)
		},
		"Gemm negative": func() { Gemm(false, false, -1, 2, 2, 1, nil, 2, nil, 2, 0, nil, 2) },
		"Gemv short x":  func() { Gemv(false, 2, 3, 1, make([]float64, 6), 3, make([]float64, 2), 0, make([]float64, 2)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestUse(t *testing.T) {
	info := Info()
	if len(info.Implementations) == 0 || info.Implementations[0] != "generic" {
		t.Fatalf("implementations %v do not start with generic", info.Implementations)
	}
	defer Use(info.Active)
	for _, l := range []simd.Level{simd.Generic, simd.AVX2, simd.AVX512, simd.NEON} {
		err := Use(strings.ToUpper(l.String()))
		if (err == nil) != simd.Supported(l) {
			t.Fatalf("Use(%v) = %v but Supported = %v", l, err, simd.Supported(l))
		}
		if err == nil && Info().Active != l.String() {
			t.Fatalf("after Use(%v) the active implementation is %s", l, Info().Active)
		}
	}
	if err := Use("sse9"); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Fatalf("Use(sse9) = %v", err)
	}
	ps := info.Implementations
	if err := Use(ps[len(ps)-1]); err != nil {
		t.Fatal(err)
	}
	t.Log(Info())
	_ = fmt.Sprint(Info())
}
