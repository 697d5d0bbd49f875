package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// tsImpls returns the GEMM building blocks that have a no-pack kernel:
// the portable one (set up here with the generic tile, so that the
// driver is tested on every architecture and in purego builds) and each
// available level's.
func tsImpls() map[string]*gemmImpl {
	out := map[string]*gemmImpl{
		"go": {mr: genericMR, nr: genericNR, kernel: gemmKernelGeneric, level: simd.Generic,
			tsKernel: tsKernelGeneric, tsMR: tsGenericMR, tsNR: tsGenericNR, tsNNMax: 60},
		"go-whole": {mr: genericMR, nr: genericNR, kernel: gemmKernelGeneric, level: simd.Generic,
			tsKernel: tsKernelGeneric, tsMR: tsGenericMR, tsNR: tsGenericNR, tsWhole: true, tsNNMax: 40, tsKCMul: 2},
	}
	for _, l := range simd.Available() {
		if g := &table.For(l).gemm; g.tsKernel != nil {
			out[l.String()] = g
		}
	}
	return out
}

// TestTSKernel runs each no-pack micro-kernel against the reference loop
// for every number of columns jw, both layouts of A, store and add, with
// strides wider than the tile and guard cells around it in C.
func TestTSKernel(t *testing.T) {
	t.Parallel()
	for name, g := range tsImpls() {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(21, uint64(len(name))))
			mr, nr := g.tsMR, g.tsNR
			for _, k := range []int{1, 2, 3, 7, 64} {
				for jw := 1; jw <= nr; jw++ {
					if g.tsWhole && jw < nr {
						continue // such kernels compute whole tiles only
					}
					for _, transA := range []bool{false, true} {
						for add := 0; add <= 1; add++ {
							lda := k + 3
							sai, sap := lda, 1
							if transA {
								lda = mr + 5
								sai, sap = 1, lda
							}
							a := simdtest.RandSlice(r, (mr+k)*lda)
							ldb := nr + 7
							b := simdtest.RandSlice(r, k*ldb)
							ldc := nr + 3
							c := simdtest.RandSlice(r, (mr+2)*ldc)
							for i := range c {
								if i < ldc || i >= (mr+1)*ldc || i%ldc >= jw {
									c[i] = simdtest.Sentinel
								}
							}
							c0 := append([]float64(nil), c...)
							const alpha = -0.75
							g.tsKernel(k, a, sai, sap, b, ldb, c[ldc:], ldc, alpha, add, jw)
							for i := range c {
								row, j := i/ldc-1, i%ldc
								if row < 0 || row >= mr || j >= jw {
									if c[i] != simdtest.Sentinel {
										t.Fatalf("k=%d jw=%d transA=%v add=%d: wrote C[%d] outside the tile", k, jw, transA, add, i)
									}
									continue
								}
								var s, sa float64
								for p := 0; p < k; p++ {
									v := a[row*sai+p*sap] * b[p*ldb+j]
									s += v
									sa += math.Abs(v)
								}
								ref, bd := alpha*s, math.Abs(alpha)*sa
								if add == 1 {
									ref += c0[i]
									bd += math.Abs(c0[i])
								}
								if d := math.Abs(c[i] - ref); !(d <= simdtest.SumBound(k+2, bd)) {
									t.Fatalf("k=%d jw=%d transA=%v add=%d: C[%d,%d] = %v, reference %v", k, jw, transA, add, row, j, c[i], ref)
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestGemmTSShapes runs gemmRun on shapes that take the no-pack path
// (checked with useTS) at every remainder of the tile in rows and
// columns, with a small KC so that k is cut into several slices, padded
// strides, beta 0, 1 and other, alpha != 1, and 1 or 3 workers.
func TestGemmTSShapes(t *testing.T) {
	t.Parallel()
	for name, g := range tsImpls() {
		t.Run(name, func(t *testing.T) {
			mr, nr := g.tsMR, g.tsNR
			r := rand.New(rand.NewPCG(22, uint64(len(name))))
			bl := Blocking{MR: g.mr, NR: g.nr, KC: 16, MC: 2 * g.mr, NC: 2 * g.nr}
			var ms, ns []int
			for i := mr; i <= 3*mr+1; i++ {
				ms = append(ms, i)
			}
			for j := 1; j <= 2*nr+1; j++ {
				if j >= nr || !g.tsWhole { // whole tiles need n >= nr
					ns = append(ns, j)
				}
			}
			for _, workers := range []int{1, 3} {
				run := func(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
					if !g.useTS(transA, transB, m, n, k) {
						t.Fatalf("%dx%dx%d transA=%v: not on the no-pack path", m, n, k, transA)
					}
					gemmRun(g, bl, workers, false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
				}
				for _, m := range ms {
					for _, n := range ns {
						for _, transA := range []bool{false, true} {
							ks := []int{1, 7, 16, 17, g.tsNNMax}
							if transA {
								ks = []int{tsTNMinK, tsTNMinK + 1, 17, 100}
							}
							for _, k := range ks {
								beta := []float64{0, 1, 0.5}[(m+n+k)%3]
								alpha := []float64{-0.75, 1, 2.5}[(m+2*n+k)%3]
								checkGemmCase(t, r, run, transA, false, m, n, k, alpha, beta)
							}
						}
					}
				}
			}
		})
	}
}

// TestGemmTSThresholds checks the dispatch on either side of each
// threshold of the no-pack path, and the product there against the
// reference, through the public entry point.
func TestGemmTSThresholds(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		g := &im.gemm
		r := rand.New(rand.NewPCG(23, uint64(p)))
		mr := max(g.tsMR, 1)
		nnMax := max(g.tsNNMax, 40)
		cases := []struct {
			transA, transB bool
			m, n, k        int
			want           bool
		}{
			{true, false, 20, 20, tsTNMinK - 1, false},
			{true, false, 20, 20, tsTNMinK, true},
			{true, false, tsTNMaxMN, tsTNMaxMN, 300, true},
			{true, false, tsTNMaxMN, tsTNMaxMN + 1, 300, false},
			{true, false, tsTNMaxMN + 1, 20, 300, false},
			{true, false, mr - 1, 20, 300, false},
			{true, false, mr, 20, 300, true},
			{true, true, 20, 20, 300, false},
			{true, false, 20, 20, 2*tsKSplit - 1, true},
			{true, false, 37, 41, 2*tsKSplit + 5, true},
			{false, false, 100, nnMax, nnMax, true},
			{false, false, 100, nnMax + 1, 20, false},
			{false, false, 100, 20, nnMax + 1, false},
			{false, false, mr - 1, 40, 40, false},
			{false, false, mr, 20, 20, true},
			{false, true, 100, 40, 40, false},
		}
		if g.tsWhole {
			cases = append(cases, struct {
				transA, transB bool
				m, n, k        int
				want           bool
			}{true, false, 20, g.tsNR - 1, 300, false}, struct {
				transA, transB bool
				m, n, k        int
				want           bool
			}{false, false, 100, g.tsNR, 40, true})
		}
		for _, tc := range cases {
			want := tc.want && g.tsKernel != nil && tc.m >= 1
			if got := g.useTS(tc.transA, tc.transB, tc.m, tc.n, tc.k); got != want {
				t.Errorf("useTS(%v, %v, %d, %d, %d) = %v, want %v", tc.transA, tc.transB, tc.m, tc.n, tc.k, got, want)
			}
			if tc.m < 1 {
				continue
			}
			for _, ab := range [][2]float64{{1, 0}, {-2, 1}, {0.5, -0.25}} {
				checkGemmCase(t, r, im.Gemm, tc.transA, tc.transB, tc.m, tc.n, tc.k, ab[0], ab[1])
			}
		}
	})
}

// TestGemmTSWorkers checks that the no-pack path gives the same bits
// for any number of workers: the A B shape split by rows, the Aᵀ B
// shape serial and with the split of a long k; and that Syrk of the Aᵀ A
// shape is symmetric and equal to Gemm on its upper triangle.
func TestGemmTSWorkers(t *testing.T) {
	eachLevelWorkers(t, 24, 0, func(t *testing.T, im *impl, r *rand.Rand) {
		for _, sz := range []struct {
			transA  bool
			m, n, k int
		}{{false, 2003, 37, 41}, {true, 37, 41, 5000}, {true, 43, 29, 21416}} {
			m, n, k := sz.m, sz.n, sz.k
			a := simdtest.RandSlice(r, m*k)
			b := simdtest.RandSlice(r, k*n)
			lda := k
			if sz.transA {
				lda = m
			}
			var first []float64
			for _, w := range []int{1, 2, 3, 8, 2} {
				SetMaxWorkers(w)
				c := make([]float64, m*n)
				im.Gemm(sz.transA, false, m, n, k, 1, a, lda, b, n, 0, c, n)
				if first == nil {
					first = c
					continue
				}
				for i := range c {
					if math.Float64bits(c[i]) != math.Float64bits(first[i]) {
						t.Fatalf("%dx%dx%d transA=%v: %d workers give C[%d] = %v, 1 worker %v", m, n, k, sz.transA, w, i, c[i], first[i])
					}
				}
			}
		}
		for _, n := range []int{5, 21, 60} {
			k := 3000
			a := simdtest.RandSlice(r, k*n)
			c := make([]float64, n*n)
			c2 := make([]float64, n*n)
			SetMaxWorkers(1)
			im.Syrk(true, n, k, 1.5, a, n, 0, c, n)
			im.Gemm(true, false, n, n, k, 1.5, a, n, a, n, 0, c2, n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if c[i*n+j] != c[j*n+i] || (j >= i && c[i*n+j] != c2[i*n+j]) {
						t.Fatalf("Syrk n=%d: C[%d,%d] = %v, C[%d,%d] = %v, Gemm %v", n, i, j, c[i*n+j], j, i, c[j*n+i], c2[i*n+j])
					}
				}
			}
		}
	})
}

// tsBenchShape is a product of the no-pack benchmarks: C = op(A) B with
// C m x n and op(A) m x k (A is k x m when transA).
type tsBenchShape struct {
	transA  bool
	m, n, k int
}

// benchTSPaths times, on one worker, product(path, ...) for the paths
// "pack" and "nopack" on each shape, named by name, on random operands
// from a PCG stream of seed; besides ns/op it reports GFLOP/s of CPU time
// (user + system, from getrusage), which a busy machine disturbs less.
func benchTSPaths(b *testing.B, seed uint64, shapes []tsBenchShape, name func(s tsBenchShape, path string) string,
	product func(path string, s tsBenchShape, a []float64, lda int, bm, c []float64)) {
	defer SetMaxWorkers(SetMaxWorkers(1))
	r := rand.New(rand.NewPCG(seed, 0))
	for _, s := range shapes {
		lda := s.k
		if s.transA {
			lda = s.m
		}
		a := simdtest.RandSlice(r, s.m*s.k)
		bm := simdtest.RandSlice(r, s.k*s.n)
		c := make([]float64, s.m*s.n)
		for _, path := range []string{"pack", "nopack"} {
			b.Run(name(s, path), func(b *testing.B) {
				product(path, s, a, lda, bm, c) // warm up: page faults and caches out of the timing
				cpu0 := cpuTime()
				for b.Loop() {
					product(path, s, a, lda, bm, c)
				}
				flops := 2 * float64(s.m) * float64(s.n) * float64(s.k) * float64(b.N)
				b.ReportMetric(flops/(cpuTime()-cpu0)/1e9, "cpu-GFLOP/s")
			})
		}
	}
}

// BenchmarkGemmTS compares the packed path ("pack") with the no-pack path
// ("nopack") of the active implementation on one worker, on the shapes
// of the LOBPCG eigensolver: C = Aᵀ B (l x l, k = 21416) and C = A B
// (21416 x l, k = q), through gemmRun (the packed one with no no-pack
// kernel).
func BenchmarkGemmTS(b *testing.B) {
	im := cur()
	packed := im.gemm
	packed.tsKernel = nil
	const n = 21416
	var shapes []tsBenchShape
	for _, l := range []int{20, 40, 60} {
		shapes = append(shapes, tsBenchShape{true, l, l, n})
	}
	for _, ql := range [][2]int{{20, 20}, {40, 40}, {60, 60}, {20, 60}, {60, 20}} {
		shapes = append(shapes, tsBenchShape{false, n, ql[1], ql[0]})
	}
	name := func(s tsBenchShape, path string) string {
		if s.transA {
			return fmt.Sprintf("AtB/n=%d/l=%d/%s", s.k, s.m, path)
		}
		return fmt.Sprintf("AB/n=%d/q=%d/l=%d/%s", s.m, s.k, s.n, path)
	}
	benchTSPaths(b, 25, shapes, name, func(path string, s tsBenchShape, a []float64, lda int, bm, c []float64) {
		g := &im.gemm
		if path == "pack" {
			g = &packed
		}
		gemmRun(g, im.blocking, 1, false, s.transA, false, s.m, s.n, s.k, 1, a, lda, bm, s.n, 0, c, s.n)
	})
}

// BenchmarkGemmTSThresholds runs both paths, whatever useTS says, on
// shapes on either side of the dispatch thresholds (tsTNMinK, tsTNMaxMN,
// the kernel's tsNNMax), to measure where the no-pack path stops paying.
func BenchmarkGemmTSThresholds(b *testing.B) {
	im := cur()
	g := &im.gemm
	if g.tsKernel == nil {
		b.Skip("no no-pack kernel here")
	}
	var shapes []tsBenchShape
	for _, k := range []int{8, 16, 32, 64} {
		shapes = append(shapes, tsBenchShape{true, 20, 20, k}, tsBenchShape{true, 60, 60, k})
	}
	for _, l := range []int{96, 128, 192} {
		shapes = append(shapes, tsBenchShape{true, l, l, 21416})
	}
	for _, nk := range [][2]int{{60, 60}, {64, 64}, {64, 72}, {72, 64}, {80, 60}, {96, 96}, {40, 128}, {128, 40}, {128, 128}} {
		shapes = append(shapes, tsBenchShape{false, 21416, nk[0], nk[1]})
	}
	shapes = append(shapes, tsBenchShape{false, 4, 40, 40}, tsBenchShape{false, 8, 40, 40})
	name := func(s tsBenchShape, path string) string {
		name := fmt.Sprintf("AB/m=%d/n=%d/k=%d/%s", s.m, s.n, s.k, path)
		if s.transA {
			name = "At" + name[1:]
		}
		return name
	}
	benchTSPaths(b, 26, shapes, name, func(path string, s tsBenchShape, a []float64, lda int, bm, c []float64) {
		if path == "pack" {
			gemmBlocked(g, im.blocking, false, s.transA, false, s.m, s.n, s.k, 1, a, lda, bm, s.n, 0, c, s.n, 1)
		} else {
			gemmTS(g, im.blocking.KC, 1, false, s.transA, s.m, s.n, s.k, 1, a, lda, bm, s.n, 0, c, s.n)
		}
	})
}
