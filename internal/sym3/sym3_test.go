package sym3

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/kernels"
)

// sym3Naive is the reference update, one sample and one stored value at
// a time, with the bound on each value's rounding error.
const eps = simdtest.Eps

func sym3Naive(d, n int, alpha float64, y []float64, ldy int, w []float64, t []float64) (ref, bound []float64) {
	ref = append([]float64(nil), t[:Len(d)]...)
	bound = make([]float64, len(ref))
	for j := 0; j < d; j++ {
		for i := 0; i <= j; i++ {
			for l := j; l < d; l++ {
				idx := Base(d, j) + i*(d-j) + l - j
				var s, sa float64
				for p := 0; p < n; p++ {
					wp := alpha
					if w != nil {
						wp *= w[p]
					}
					row := y[p*ldy:]
					v := wp * row[i] * row[j] * row[l]
					s += v
					sa += math.Abs(v)
				}
				ref[idx] += s
				bound[idx] = 2*float64(n+6)*eps*(sa+math.Abs(t[idx])) + 1e-300
			}
		}
	}
	return ref, bound
}

func TestSym3Layout(t *testing.T) {
	t.Parallel()
	for d := 0; d <= 12; d++ {
		next := 0
		for j := 0; j < d; j++ {
			if Base(d, j) != next {
				t.Fatalf("d=%d: Base(%d) = %d, want %d", d, j, Base(d, j), next)
			}
			next += (j + 1) * (d - j)
		}
		if Base(d, d) != next || Len(d) != next {
			t.Fatalf("d=%d: Base(d, d) = %d, Len = %d, want %d", d, Base(d, d), Len(d), next)
		}
	}
}

// TestSym3Kernel runs each path's micro-kernel on every tile shape it can
// be given, against the generic loop, with guard cells around the
// destination.
func TestSym3Kernel(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(31, uint64(p)))
		chunk := im.nv * im.vl
		for _, k := range []int{0, 1, 2, 3, 5, 8, 17, 64} {
			for mr := 1; mr <= im.mr; mr++ {
				for nc := 1; nc <= chunk; nc++ {
					ld := im.mr + chunk + 3
					src := simdtest.RandSlice(r, k*ld+ld)
					wa := simdtest.RandSlice(r, k)
					ldc := nc + 2
					raw := make([]float64, (im.mr+2)*ldc+4)
					for i := range raw {
						raw[i] = simdtest.Sentinel
					}
					off := ldc + 1
					for i := 0; i < mr; i++ {
						for c := 0; c < nc; c++ {
							raw[off+i*ldc+c] = r.NormFloat64()
						}
					}
					want := append([]float64(nil), raw...)
					a, b, zc := src[1:], src[im.mr+2:], src[0:]
					sym3KernelGeneric(k, a, b, zc, ld, wa, want[off:], ldc, mr, nc)
					span := max(k-1, 0) * ld
					im.kernel(k, a[:span+im.mr], b[:span+roundUp(nc, im.vl)], zc[:span+1], ld, wa, raw[off:off+(mr-1)*ldc+nc], ldc, mr, nc)
					for idx := range raw {
						i, c := (idx-off)/ldc, (idx-off)%ldc
						inside := idx >= off && i < mr && c < nc
						if !inside {
							if raw[idx] != simdtest.Sentinel {
								t.Fatalf("k=%d mr=%d nc=%d: wrote outside the tile at %d", k, mr, nc, idx-off)
							}
							continue
						}
						var s float64
						for q := 0; q < k; q++ {
							s += math.Abs(a[q*ld+i] * wa[q] * zc[q*ld] * b[q*ld+c])
						}
						s += math.Abs(want[idx])
						if d := math.Abs(raw[idx] - want[idx]); d > simdtest.SumBound(k+3, s) {
							t.Fatalf("k=%d mr=%d nc=%d: (%d,%d) = %v, reference %v", k, mr, nc, i, c, raw[idx], want[idx])
						}
					}
				}
			}
		}
	})
}

func checkSym3(t *testing.T, what string, got, ref, bound []float64) {
	t.Helper()
	for i := range ref {
		if d := math.Abs(got[i] - ref[i]); !(d <= bound[i]) {
			t.Fatalf("%s: value %d = %v, reference %v (bound %v)", what, i, got[i], ref[i], bound[i])
		}
	}
	for i := len(ref); i < len(got); i++ {
		if got[i] != simdtest.Sentinel {
			t.Fatalf("%s: wrote past the tensor at %d", what, i)
		}
	}
}

// TestSym3Run covers the driver: every dimension up to a few tiles,
// sample counts around the block size, small blocks, weights or none,
// strides, y cut exactly at its last row (the copied tail), and several
// workers.
func TestSym3Run(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(32, uint64(p)))
		dims := []int{1, 2, 3, im.mr - 1, im.mr, im.mr + 1, 2*im.mr + 3, im.nv*im.vl + 1, 37}
		for _, d := range dims {
			if d < 1 {
				continue
			}
			for _, n := range []int{1, 2, 5, 16, 17, 40} {
				for _, bs := range []int{1, 4, 16} {
					for _, weighted := range []bool{false, true} {
						workers := 1 + (d+n+bs)%3
						ldy := d + (n % 3)
						y := simdtest.RandSlice(r, (n-1)*ldy+d) // exact length: the tail is copied
						var w []float64
						if weighted {
							w = simdtest.RandSlice(r, n)
						}
						tt := simdtest.RandSlice(r, Len(d)+3)
						for i := Len(d); i < len(tt); i++ {
							tt[i] = simdtest.Sentinel
						}
						ref, bound := sym3Naive(d, n, -0.75, y, ldy, w, tt)
						sym3Run(im, bs, workers, d, n, -0.75, y, ldy, w, tt)
						checkSym3(t, fmt.Sprintf("d=%d n=%d bs=%d weighted=%v workers=%d", d, n, bs, weighted, workers), tt, ref, bound)
					}
				}
			}
		}
	})
}

// TestSym3Rows checks the public entry point, including its early
// returns.
func TestSym3Rows(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(33, uint64(p)))
		for _, sz := range [][2]int{{0, 5}, {4, 0}, {1, 1}, {10, 1000}, {50, 300}, {7, 129}} {
			d, n := sz[0], sz[1]
			y := simdtest.RandSlice(r, n*d)
			w := simdtest.RandSlice(r, n)
			tt := simdtest.RandSlice(r, Len(d))
			ld := max(d, 1)
			ref, bound := sym3Naive(d, n, 1.5, y, ld, w, tt)
			im.Rows(d, n, 1.5, y, ld, w, tt)
			checkSym3(t, fmt.Sprintf("d=%d n=%d", d, n), tt, ref, bound)
			before := append([]float64(nil), tt...)
			im.Rows(d, n, 0, y, ld, w, tt)
			for i := range tt {
				if tt[i] != before[i] {
					t.Fatalf("alpha = 0 changed the tensor")
				}
			}
		}
	})
}

// TestSym3Workers checks that the result does not depend on the number
// of goroutines, bit for bit.
func TestSym3Workers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(0))
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(34, uint64(p)))
		sizes := [][2]int{{50, 2000}, {13, 5000}, {90, 300}}
		if testing.Short() || runtime.GOARCH != "amd64" { // CI runs arm64 under qemu
			sizes = [][2]int{{30, 600}, {13, 1500}, {60, 150}}
		}
		for _, sz := range sizes {
			d, n := sz[0], sz[1]
			y := simdtest.RandSlice(r, n*d)
			var first []float64
			for _, w := range []int{1, 2, 3, 5, 8, 2} {
				kernels.SetMaxWorkers(w)
				tt := make([]float64, Len(d))
				im.Rows(d, n, 1, y, d, nil, tt)
				if first == nil {
					first = tt
					continue
				}
				for i := range tt {
					if math.Float64bits(tt[i]) != math.Float64bits(first[i]) {
						t.Fatalf("d=%d n=%d: %d workers give t[%d] = %v, 1 worker %v", d, n, w, i, tt[i], first[i])
					}
				}
			}
		}
	})
}

func TestSym3NaNInf(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		d, n := 20, 30
		y := make([]float64, n*d)
		for i := range y {
			y[i] = 1
		}
		y[5*d+3] = math.NaN()
		y[7*d+11] = math.Inf(1)
		tt := make([]float64, Len(d))
		im.Rows(d, n, 1, y, d, nil, tt)
		for j := 0; j < d; j++ {
			for i := 0; i <= j; i++ {
				for l := j; l < d; l++ {
					v := tt[Base(d, j)+i*(d-j)+l-j]
					has3 := i == 3 || j == 3 || l == 3
					has11 := i == 11 || j == 11 || l == 11
					switch {
					case has3 && !math.IsNaN(v):
						t.Fatalf("(%d,%d,%d) = %v, want NaN", i, j, l, v)
					case !has3 && has11 && !math.IsInf(v, 1):
						t.Fatalf("(%d,%d,%d) = %v, want +Inf", i, j, l, v)
					case !has3 && !has11 && v != float64(n):
						t.Fatalf("(%d,%d,%d) = %v, want %d", i, j, l, v, n)
					}
				}
			}
		}
	})
}

func TestSym3Panics(t *testing.T) {
	t.Parallel()
	cases := map[string]func(){
		"negative d": func() { Rows(-1, 1, 1, nil, 1, nil, nil) },
		"short y":    func() { Rows(3, 2, 1, make([]float64, 5), 3, nil, make([]float64, 10)) },
		"small ldy":  func() { Rows(3, 2, 1, make([]float64, 6), 2, nil, make([]float64, 10)) },
		"short w":    func() { Rows(3, 2, 1, make([]float64, 6), 3, []float64{1}, make([]float64, 10)) },
		"short t":    func() { Rows(3, 2, 1, make([]float64, 6), 3, nil, make([]float64, 9)) },
		"Len":        func() { Len(-2) },
		"Base":       func() { Base(3, 4) },
	}
	for name, f := range cases {
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

// BenchmarkSym3Rows measures the update on every path, one goroutine,
// in useful GFLOP/s (2 flops per stored value and sample).
func BenchmarkSym3Rows(b *testing.B) {
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
	for _, p := range simd.Available() {
		im := table.For(p)
		for _, sz := range [][2]int{{10, 100000}, {50, 20000}, {100, 5000}} {
			d, n := sz[0], sz[1]
			b.Run(fmt.Sprintf("%v/d=%d", p, d), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 1))
				y := simdtest.RandSlice(r, n*d)
				tt := make([]float64, Len(d))
				for b.Loop() {
					sym3Run(im, sym3Block, 1, d, n, 1, y, d, nil, tt)
				}
				b.ReportMetric(2*float64(n)*float64(Len(d))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// The formulations the update micro-kernel was chosen against, kept for
// BenchmarkSym3Formulations. Measured on one Zen 5 core (AVX-512), useful
// GFLOP/s for d = 10, 50, 100: per-sample axpy 1.5, 5.5, 8.6; per-group
// kernels.Gemm on blocks of 256 samples 2.1, 17.9, 34.4; sym3Run 20.6,
// 66.3, 78.5.

// sym3Axpy updates per sample: for each stored row (i, j): T[i][j][j:] += (w y_i y_j) y[j:].
func sym3Axpy(d, n int, y []float64, w []float64, t []float64) {
	for p := 0; p < n; p++ {
		row := y[p*d : p*d+d]
		for j := 0; j < d; j++ {
			z := w[p] * row[j]
			base := Base(d, j)
			for i := 0; i <= j; i++ {
				kernels.Axpy(z*row[i], row[j:], t[base+i*(d-j):base+(i+1)*(d-j)])
			}
		}
	}
}

// sym3Gemm runs blocks of bs samples, one Gemm per group: T_j += Y[:, :j+1]^T (z_j o Y[:, j:]).
func sym3Gemm(d, n, bs int, y []float64, w []float64, t []float64) {
	bz := make([]float64, bs*d)
	for p0 := 0; p0 < n; p0 += bs {
		sc := min(bs, n-p0)
		yb := y[p0*d:]
		for j := 0; j < d; j++ {
			cols := d - j
			for p := 0; p < sc; p++ {
				z := w[p0+p] * yb[p*d+j]
				for c := 0; c < cols; c++ {
					bz[p*cols+c] = z * yb[p*d+j+c]
				}
			}
			base := Base(d, j)
			kernels.Gemm(true, false, j+1, cols, sc, 1, yb, d, bz, cols, 1, t[base:], cols)
		}
	}
}

// BenchmarkSym3Formulations compares the micro-kernel with the two
// formulations above on one goroutine.
func BenchmarkSym3Formulations(b *testing.B) {
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
	for _, sz := range [][2]int{{10, 100000}, {50, 20000}, {100, 5000}} {
		d, n := sz[0], sz[1]
		r := rand.New(rand.NewPCG(1, 1))
		y := simdtest.RandSlice(r, n*d)
		w := simdtest.RandSlice(r, n)
		tt := make([]float64, Len(d))
		flops := 2 * float64(n) * float64(Len(d))
		b.Run(fmt.Sprintf("d=%d/kernel", d), func(b *testing.B) {
			for b.Loop() {
				Rows(d, n, 1, y, d, w, tt)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("d=%d/axpy", d), func(b *testing.B) {
			for b.Loop() {
				sym3Axpy(d, n, y, w, tt)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("d=%d/gemm", d), func(b *testing.B) {
			for b.Loop() {
				sym3Gemm(d, n, 256, y, w, tt)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
