package house

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMulLeftBlocked checks the blocked MulLeft (one block of few
// reflectors, or blocks of BlockSize; C full or [X; 0], whose zero rows
// it skips) against the reflectors applied one at a time, for Q_full C
// and Q_fullᵀ C: the largest difference must be below 1e-13 (the entries
// are of order 1 and the products orthogonal). The same for the
// reflectors of FactorT (whose one block's T comes from the
// factorization) and for MulLeftTop given the count of nonzero rows,
// blocked and (with 8 columns) one reflector at a time. The cases run
// both forms of a block's W = V C (applyLeft, applyLeftPacked).
func TestMulLeftBlocked(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct{ k, n, r, top int }{
		{50, 300, 40, 300}, {50, 300, 40, 50}, {50, 300, 40, 20}, {50, 300, 40, 0},
		{100, 300, 60, 300}, {100, 300, 60, 100}, {100, 300, 60, 70},
		{50, 300, 8, 300}, {50, 300, 8, 50}, {50, 300, 8, 20}, {50, 300, 8, 0},
		{64, 64, 200, 64}, {64, 64, 200, 30}, {20, 1000, 30, 20},
		// Blocks of 32 on C of 250 columns (chunks of leftChunk): W =
		// V C without packing C (rows not zero from 170 on: the first
		// block applied reads fewer), and with 60 rows the first
		// block applied on the packed path, the others without.
		{150, 200, 250, 200}, {150, 200, 250, 170}, {150, 200, 250, 60},
	} {
		for _, trans := range []bool{false, true} {
			for _, variant := range []string{"Factor/MulLeft", "FactorT/MulLeft", "Factor/MulLeftTop", "FactorT/MulLeftTop"} {
				t.Run(fmt.Sprintf("k=%d/n=%d/r=%d/top=%d/trans=%v/%s", c.k, c.n, c.r, c.top, trans, variant), func(t *testing.T) {
					factor, mul, _ := strings.Cut(variant, "/")
					f := randomFactor(rng, factor, c.k, c.n)
					x := make([]float64, c.n*c.r)
					for i := range x[:c.top*c.r] {
						x[i] = rng.NormFloat64()
					}
					want := append([]float64(nil), x...)
					w := make([]float64, c.r)
					v := make([]float64, c.n)
					for s := 0; s < c.k; s++ {
						i := s
						if trans {
							i = c.k - 1 - s
						}
						ReflectLeft(f.Tau[i], f.vector(i, v), c.r, want[i*c.r:], c.r, w)
					}
					if blocked := f.useBlocks(c.r); blocked != (c.r > 16) {
						t.Fatalf("the case runs blocked: %v, want %v", blocked, c.r > 16)
					}
					if mul == "MulLeftTop" {
						f.MulLeftTop(trans, c.top, c.r, x, c.r)
					} else {
						f.MulLeft(trans, c.r, x, c.r)
					}
					var diff float64
					for i := range x {
						diff = math.Max(diff, math.Abs(x[i]-want[i]))
					}
					if !(diff < 1e-13) {
						t.Fatalf("blocked and one-at-a-time products differ by %g", diff)
					}
				})
			}
		}
	}
}

// TestFactorT checks that FactorT factors as Factor does (L and the
// reflectors within 1e-14 of Factor's, entries of order 1) and that the T
// it forms for its one block is the T that a product forms from the
// reflectors (within 1e-13 relative to the largest entry of T).
func TestFactorT(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, c := range [][2]int{{50, 1000}, {64, 64}, {17, 200}, {40, 30}, {2, 5}} {
		m, n := c[0], c[1]
		a := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		b := append([]float64(nil), a...)
		f := Factor(m, n, a, n)
		g := FactorT(m, n, b, n)
		for i := range a {
			if !(math.Abs(a[i]-b[i]) < 1e-14) {
				t.Fatalf("%dx%d: factored matrices differ at %d: %v and %v", m, n, i, a[i], b[i])
			}
		}
		if len(g.blocks) != 1 || g.blocks[0].i0 != 0 || g.blocks[0].ib != min(m, n) || g.blocks[0].t == nil {
			t.Fatalf("%dx%d: FactorT formed blocks %+v, want one of all %d reflectors with its T", m, n, g.blocks, min(m, n))
		}
		f.mu.Lock()
		f.buildBlocks()
		f.mu.Unlock()
		bf, _ := f.loadBlock(0, nil)
		tg := g.blocks[0].t
		var big, diff float64
		for i := range bf.t {
			big = math.Max(big, math.Abs(bf.t[i]))
			diff = math.Max(diff, math.Abs(bf.t[i]-tg[i]))
		}
		if !(diff <= 1e-13*big) {
			t.Fatalf("%dx%d: T differs by %g (largest entry %g)", m, n, diff, big)
		}
	}
}

// TestFormQ checks FormQ, which applies each reflector or block only to
// the rows of [I_p 0] that it can change, against the reflectors applied
// one at a time to all p rows of [I_p 0] (Q_full from the right, H_{k-1}
// first): the largest difference must be below 1e-13 (entries of
// orthogonal rows). The cases cover p below, at and above the number of
// reflectors, one reflector at a time (few reflectors or rows), one
// block (FactorT's) and blocks of BlockSize, on square and wide
// factorizations.
func TestFormQ(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for _, c := range []struct{ m, n, p int }{
		{10, 40, 10}, {10, 40, 4}, {10, 40, 25},
		{50, 300, 50}, {50, 300, 20}, {50, 300, 120},
		{150, 400, 150}, {150, 400, 100}, {150, 400, 33}, {150, 400, 300},
		{200, 200, 200}, {200, 200, 64},
	} {
		for _, factor := range []string{"Factor", "FactorT"} {
			t.Run(fmt.Sprintf("m=%d/n=%d/p=%d/%s", c.m, c.n, c.p, factor), func(t *testing.T) {
				f := randomFactor(rng, factor, c.m, c.n)
				want := make([]float64, c.p*c.n)
				for i := 0; i < c.p; i++ {
					want[i*c.n+i] = 1
				}
				w := make([]float64, c.p)
				v := make([]float64, c.n)
				for i := len(f.Tau) - 1; i >= 0; i-- {
					ReflectRight(f.Tau[i], f.vector(i, v), c.p, want[i:], c.n, w)
				}
				q := make([]float64, c.p*c.n)
				for i := range q {
					q[i] = math.NaN() // FormQ writes every entry
				}
				f.FormQ(c.p, q, c.n)
				var diff float64
				for i := range q {
					diff = math.Max(diff, math.Abs(q[i]-want[i]))
				}
				if !(diff < 1e-13) {
					t.Fatalf("FormQ and the one-at-a-time product differ by %g", diff)
				}
			})
		}
	}
}

// randomFactor returns the reflectors of the LQ factorization of an
// m x n Gaussian matrix from rng, by FactorT when factor is "FactorT"
// and by Factor otherwise.
func randomFactor(rng *rand.Rand, factor string, m, n int) *Reflectors {
	a := make([]float64, m*n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	if factor == "FactorT" {
		return FactorT(m, n, a, n)
	}
	return Factor(m, n, a, n)
}
