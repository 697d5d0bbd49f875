package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestGemmKernel runs each path's micro-kernel on random panels against
// the reference loop, for several depths, both store and add, with guard
// cells around the tile in C.
func TestGemmKernel(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		g := &im.gemm
		mr, nr := g.mr, g.nr
		r := rand.New(rand.NewPCG(6, uint64(p)))
		for _, k := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 64, 129} {
			for add := 0; add <= 1; add++ {
				a := simdtest.RandSlice(r, k*mr)
				b := simdtest.RandSlice(r, k*nr)
				ldc := nr + 5
				c := make([]float64, (mr+2)*ldc)
				for i := range c {
					c[i] = simdtest.Sentinel
				}
				want := make([]float64, len(c))
				for i := 0; i < mr; i++ {
					for j := 0; j < nr; j++ {
						v := r.NormFloat64()
						c[(i+1)*ldc+j+2] = v
					}
				}
				copy(want, c)
				gemmKernelGenericSized(mr, nr, k, a, b, want[ldc+2:], ldc, add)
				g.kernel(k, a, b, c[ldc+2:(mr)*ldc+2+nr], ldc, add)
				for idx := range c {
					i, j := idx/ldc-1, idx%ldc-2
					inside := i >= 0 && i < mr && j >= 0 && j < nr
					if !inside {
						if c[idx] != simdtest.Sentinel {
							t.Fatalf("k=%d add=%d: wrote outside the tile at (%d,%d)", k, add, i, j)
						}
						continue
					}
					var s float64
					for q := 0; q < k; q++ {
						s += math.Abs(a[q*mr+i] * b[q*nr+j])
					}
					if add == 1 {
						s += math.Abs(want[idx])
					}
					if d := math.Abs(c[idx] - want[idx]); d > simdtest.SumBound(k+1, s) {
						t.Fatalf("k=%d add=%d: c[%d,%d] = %v, reference %v", k, add, i, j, c[idx], want[idx])
					}
				}
			}
		}
	})
}

func TestPackPanel(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		g := &im.gemm
		r := rand.New(rand.NewPCG(7, uint64(p)))
		for _, ws := range []int{g.mr, g.nr} {
			for _, kc := range []int{1, 3, 4, 7, 8, 9, 16, 17, 31, 100} {
				for _, w := range []int{1, ws - 1, ws} {
					if w < 1 {
						continue
					}
					for _, contiguous := range []bool{true, false} {
						ld := max(w, kc) + 3
						src := simdtest.RandSlice(r, (max(w, kc)+1)*ld)
						want := make([]float64, kc*ws+4)
						got := make([]float64, kc*ws+4)
						for i := range got {
							got[i], want[i] = simdtest.Sentinel, simdtest.Sentinel
						}
						if contiguous {
							packCopyGeneric(kc, w, ws, -1.5, src, ld, want)
						} else {
							packTransGeneric(kc, w, ws, -1.5, src, ld, want)
						}
						g.packPanel(contiguous, kc, w, ws, -1.5, src, ld, got)
						for i := range got {
							if got[i] != want[i] {
								t.Fatalf("ws=%d kc=%d w=%d contiguous=%v: dst[%d] = %v, want %v", ws, kc, w, contiguous, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	})
}

// naiveGemm is the reference: C = alpha*op(A)*op(B) + beta*C, and the
// bound on its rounding error per element.
func naiveGemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) (ref, bound []float64) {
	ref = make([]float64, m*n)
	bound = make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s, sa float64
			for p := 0; p < k; p++ {
				var av, bv float64
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += av * bv
				sa += math.Abs(av * bv)
			}
			v := alpha * s
			bd := math.Abs(alpha) * sa
			if beta != 0 {
				v += beta * c[i*ldc+j]
				bd += math.Abs(beta * c[i*ldc+j])
			}
			ref[i*n+j] = v
			bound[i*n+j] = simdtest.SumBound(k+2, bd)
		}
	}
	return ref, bound
}

// checkGemm runs gemm (through f) on random operands with padded strides
// and compares with naiveGemm, checking that C's padding is untouched.
func checkGemmCase(t *testing.T, r *rand.Rand, f func(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int), transA, transB bool, m, n, k int, alpha, beta float64) {
	t.Helper()
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	lda, ldb, ldc := ac+1, bc+2, n+3
	a := simdtest.RandSlice(r, max(ar*lda, 1))
	b := simdtest.RandSlice(r, max(br*ldb, 1))
	c := simdtest.RandSlice(r, max(m*ldc, 1))
	for i := 0; i < m; i++ {
		for j := n; j < ldc; j++ {
			c[i*ldc+j] = simdtest.Sentinel
		}
	}
	if beta == 0 && m > 0 && n > 0 {
		c[0] = math.NaN() // must not propagate
	}
	ref, bound := naiveGemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	f(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	for i := 0; i < m; i++ {
		for j := 0; j < ldc; j++ {
			v := c[i*ldc+j]
			if j >= n {
				if v != simdtest.Sentinel {
					t.Fatalf("tA=%v tB=%v %dx%dx%d: wrote C[%d,%d] in the padding", transA, transB, m, n, k, i, j)
				}
				continue
			}
			if d := math.Abs(v - ref[i*n+j]); !(d <= bound[i*n+j]) {
				t.Fatalf("tA=%v tB=%v %dx%dx%d alpha=%v beta=%v: C[%d,%d] = %v, reference %v (bound %v)",
					transA, transB, m, n, k, alpha, beta, i, j, v, ref[i*n+j], bound[i*n+j])
			}
		}
	}
}

// TestGemmShapes covers every edge shape of the tiling with a small
// blocking, so that each loop of the driver runs more than once.
func TestGemmShapes(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		g := &im.gemm
		mr, nr := g.mr, g.nr
		r := rand.New(rand.NewPCG(8, uint64(p)))
		bl := Blocking{MR: mr, NR: nr, KC: 16, MC: 2 * mr, NC: 2 * nr}
		for _, workers := range []int{1, 3} {
			run := func(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
				gemmRun(g, bl, workers, false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			}
			ms := []int{1, 2, mr - 1, mr, mr + 1, 2*mr + 1, 5*mr + 3}
			ns := []int{1, 2, nr - 1, nr, nr + 1, 2*nr + 1, 5*nr + 3}
			for _, m := range ms {
				for _, n := range ns {
					for _, k := range []int{1, 7, 16, 17, 50} {
						for tr := 0; tr < 4; tr++ {
							beta := []float64{0, 1, 0.5}[(m+n+k+tr)%3]
							checkGemmCase(t, r, run, tr&1 != 0, tr&2 != 0, max(m, 1), max(n, 1), k, -0.75, beta)
						}
					}
				}
			}
		}
	})
}

// TestGemm exercises the public entry point with the default blocking.
func TestGemm(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(9, uint64(p)))
		for _, sz := range [][3]int{{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {1, 1, 1}, {3, 4, 5}, {64, 64, 64},
			{129, 67, 300}, {300, 129, 67}, {7, 9, 9000}, {257, 255, 513}} {
			for tr := 0; tr < 4; tr++ {
				for _, ab := range [][2]float64{{1, 0}, {-2, 1}, {0.5, -0.25}, {0, 2}} {
					checkGemmCase(t, r, im.Gemm, tr&1 != 0, tr&2 != 0, sz[0], sz[1], sz[2], ab[0], ab[1])
				}
			}
		}
	})
}

// eachLevelWorkers runs f on every kernel level with GOMAXPROCS 8 (so
// that the workers exist even on a small machine), SetMaxWorkers(workers)
// (both restored after), and a PCG stream of seed and the level.
func eachLevelWorkers(t *testing.T, seed uint64, workers int, f func(t *testing.T, im *impl, r *rand.Rand)) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer SetMaxWorkers(SetMaxWorkers(workers))
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		f(t, table.For(p), rand.New(rand.NewPCG(seed, uint64(p))))
	})
}

// TestGemmWorkers checks that the result does not depend on the number
// of goroutines, bit for bit, on shapes that take each parallel path:
// row blocks, column chunks, and the split of a long k.
func TestGemmWorkers(t *testing.T) {
	eachLevelWorkers(t, 10, 0, func(t *testing.T, im *impl, r *rand.Rand) {
		for _, sz := range [][3]int{{300, 200, 400}, {9, 700, 300}, {700, 9, 300}, {20, 30, 20000}, {3, 5, 300000}, {1000, 1000, 60}, {130, 9000, 700}, {500, 500, 1500}} {
			m, n, k := sz[0], sz[1], sz[2]
			a := simdtest.RandSlice(r, m*k)
			b := simdtest.RandSlice(r, k*n)
			var first []float64
			for _, w := range []int{1, 2, 3, 5, 8, 2, 3, 8} {
				SetMaxWorkers(w)
				c := make([]float64, m*n)
				im.Gemm(false, true, m, n, k, 1, a, k, b, k, 0, c, n)
				if first == nil {
					first = c
					continue
				}
				for i := range c {
					if math.Float64bits(c[i]) != math.Float64bits(first[i]) {
						t.Fatalf("%dx%dx%d: %d workers give C[%d] = %v, 1 worker %v", m, n, k, w, i, c[i], first[i])
					}
				}
			}
		}
	})
}

// TestGemmSerial checks that GemmSerial gives Gemm's bits on 8 workers,
// on shapes that take each path (packed, no-pack for Aᵀ B and for A B,
// the split of a long k) and both transpositions, and that a row block
// of C made alone gives the same bits as in the whole product (the
// pieces of rows svd's reduction cuts its trailing update into).
func TestGemmSerial(t *testing.T) {
	eachLevelWorkers(t, 11, 8, func(t *testing.T, im *impl, r *rand.Rand) {
		for _, sz := range [][3]int{{300, 200, 64}, {2000, 40, 30}, {9, 700, 300}, {20, 30, 20000}, {500, 500, 150}} {
			m, n, k := sz[0], sz[1], sz[2]
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}} {
				ta, tb := tr[0], tr[1]
				a := simdtest.RandSlice(r, m*k)
				b := simdtest.RandSlice(r, k*n)
				lda, ldb := k, n
				if ta {
					lda = m
				}
				if tb {
					ldb = k
				}
				c0 := simdtest.RandSlice(r, m*n)
				par, ser := slices.Clone(c0), slices.Clone(c0)
				im.Gemm(ta, tb, m, n, k, -1, a, lda, b, ldb, 1, par, n)
				im.GemmSerial(ta, tb, m, n, k, -1, a, lda, b, ldb, 1, ser, n)
				if !slices.Equal(par, ser) {
					t.Fatalf("%dx%dx%d trans %v: GemmSerial differs from Gemm", m, n, k, tr)
				}
				if ta || m < 96 {
					continue
				}
				// Rows 48..95 alone.
				blk := slices.Clone(c0)
				im.GemmSerial(ta, tb, 48, n, k, -1, a[48*lda:], lda, b, ldb, 1, blk[48*n:], n)
				if !slices.Equal(blk[48*n:96*n], par[48*n:96*n]) {
					t.Fatalf("%dx%dx%d trans %v: rows 48..95 alone differ from the whole product", m, n, k, tr)
				}
			}
		}
	})
}

// TestSyrk checks that Syrk is exactly symmetric and that its upper
// triangle is bit-identical to Gemm's (the tiles are computed the same
// way), for both orientations and several workers.
func TestSyrk(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer SetMaxWorkers(SetMaxWorkers(0))
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(11, uint64(p)))
		for _, sz := range [][2]int{{1, 1}, {5, 3}, {25, 100}, {130, 70}, {300, 257}, {40, 10000}} {
			n, k := sz[0], sz[1]
			for _, trans := range []bool{false, true} {
				for _, w := range []int{1, 3} {
					SetMaxWorkers(w)
					var a []float64
					lda := k + 1
					if trans {
						lda = n + 1
						a = simdtest.RandSlice(r, k*lda)
					} else {
						a = simdtest.RandSlice(r, n*lda)
					}
					ldc := n + 2
					c := simdtest.RandSlice(r, n*ldc)
					c2 := append([]float64(nil), c...)
					im.Syrk(trans, n, k, 0.5, a, lda, 0, c, ldc)
					im.Gemm(trans, !trans, n, n, k, 0.5, a, lda, a, lda, 0, c2, ldc)
					for i := 0; i < n; i++ {
						for j := 0; j < ldc; j++ {
							switch {
							case j >= n:
								if c[i*ldc+j] != c2[i*ldc+j] {
									t.Fatalf("Syrk wrote padding")
								}
							case c[i*ldc+j] != c[j*ldc+i]:
								t.Fatalf("Syrk n=%d k=%d trans=%v: not symmetric at (%d,%d)", n, k, trans, i, j)
							case j >= i && c[i*ldc+j] != c2[i*ldc+j]:
								t.Fatalf("Syrk n=%d k=%d trans=%v: C[%d,%d] = %v, Gemm %v", n, k, trans, i, j, c[i*ldc+j], c2[i*ldc+j])
							}
						}
					}
				}
			}
		}
	})
}

func TestChooseBlocking(t *testing.T) {
	t.Parallel()
	for _, caches := range [][3]int{{32 << 10, 256 << 10, 8 << 20}, {48 << 10, 1 << 20, 32 << 20}, {16 << 10, 128 << 10, 0}, {1 << 20, 1 << 30, 1 << 30}} {
		for _, tile := range [][2]int{{2, 4}, {4, 12}, {8, 24}, {6, 8}} {
			b := chooseBlocking(tile[0], tile[1], caches[0], caches[1], caches[2])
			if b.KC < 64 || b.KC%8 != 0 || b.MC%b.MR != 0 || b.NC%b.NR != 0 || b.MC < b.MR || b.NC < b.NR {
				t.Errorf("caches %v tile %v: bad blocking %+v", caches, tile, b)
			}
		}
	}
	_ = fmt.Sprint(Info().Blocking)
	// The packing routines of every path must cover its tile.
	for _, p := range simd.Available() {
		g := &table.For(p).gemm
		if g.transRows != 0 && (g.mr%g.transRows != 0 || g.nr%g.transRows != 0) {
			t.Errorf("%v: tile %dx%d is not a multiple of the %d rows packTrans handles", p, g.mr, g.nr, g.transRows)
		}
		if b := chooseBlocking(g.mr, g.nr, 32<<10, 256<<10, 1<<20); b.MR != g.mr || b.NR != g.nr {
			t.Errorf("%v: blocking %+v for tile %dx%d", p, b, g.mr, g.nr)
		}
	}
}
