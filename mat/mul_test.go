package mat

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/kernels"
)

// product is a product method under test: its operand shapes for the
// result m x n with inner dimension k, and what it computes.
type product struct {
	name           string
	gram           bool
	transA, transB bool
	run            func(dst, a, b *Dense)
}

var products = []product{
	{"Mul", false, false, false, func(d, a, b *Dense) { d.Mul(a, b) }},
	{"MulAT", false, true, false, func(d, a, b *Dense) { d.MulAT(a, b) }},
	{"MulBT", false, false, true, func(d, a, b *Dense) { d.MulBT(a, b) }},
	{"GramCols", true, true, false, func(d, a, _ *Dense) { d.GramCols(a) }},
	{"GramRows", true, false, true, func(d, a, _ *Dense) { d.GramRows(a) }},
}

// shapes returns the shapes of A and B for an m x n result with inner
// dimension k (for a Gram matrix n = m and B is A).
func (p product) shapes(m, n, k int) (ar, ac, br, bc int) {
	ar, ac = m, k
	if p.transA {
		ar, ac = k, m
	}
	br, bc = k, n
	if p.transB {
		br, bc = n, k
	}
	return
}

func TestMulProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	sizes := [][3]int{{1, 1, 1}, {3, 4, 5}, {5, 3, 4}, {17, 33, 65}, {70, 40, 90}, {150, 130, 300},
		{0, 0, 0}, {0, 5, 3}, {5, 0, 3}, {5, 3, 0}, {0, 0, 4}, {4, 4, 0}}
	for _, p := range products {
		for _, sz := range sizes {
			m, n, k := sz[0], sz[1], sz[2]
			if p.gram {
				n = m
			}
			ar, ac, br, bc := p.shapes(m, n, k)
			a0, b0 := randMat(rng, ar, ac, false), randMat(rng, br, bc, false)
			if p.gram {
				b0 = a0
			}
			ref, bound := refProduct(a0.Dense, b0.Dense, p.transA, p.transB)
			for views := 0; views < 8; views++ {
				what := fmt.Sprintf("%s m=%d n=%d k=%d views=%03b", p.name, m, n, k, views)
				a, b := blankMat(ar, ac, views&1 != 0), blankMat(br, bc, views&2 != 0)
				a.Copy(a0.Dense)
				b.Copy(b0.Dense)
				if p.gram {
					b = a
				}

				// A destination full of NaN: its old values must not leak.
				dst := blankMat(m, n, views&4 != 0)
				for i := 0; i < m; i++ {
					for j := 0; j < n; j++ {
						dst.Set(i, j, math.NaN())
					}
				}
				p.run(dst.Dense, a.Dense, b.Dense)
				checkClose(t, what, dst.Dense, ref, bound)
				dst.checkPadding(t, what)
				a.checkPadding(t, what)
				b.checkPadding(t, what)

				var e Dense
				p.run(&e, a.Dense, b.Dense)
				checkBits(t, what+" into empty", &e, dst.Dense)
			}
		}
	}
}

// TestGram checks that the Gram matrices are exactly symmetric and agree
// with the general products: each is within the bound (k+2)*u*sum|a||b|
// of the exact product, so they are within twice that of each other.
func TestGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {3, 7}, {40, 100}, {130, 70}, {257, 300}} {
		r, c := sz[0], sz[1]
		a0 := randMat(rng, r, c, false)
		refC, boundC := refProduct(a0.Dense, a0.Dense, true, false)
		refR, boundR := refProduct(a0.Dense, a0.Dense, false, true)
		for _, view := range []bool{false, true} {
			a := blankMat(r, c, view)
			a.Copy(a0.Dense)
			var gc, gr, mc, mr Dense
			gc.GramCols(a.Dense)
			gr.GramRows(a.Dense)
			mc.MulAT(a.Dense, a.Dense)
			mr.MulBT(a.Dense, a.Dense)
			for _, g := range []struct {
				name                  string
				gram, mul, ref, bound *Dense
			}{{"GramCols", &gc, &mc, refC, boundC}, {"GramRows", &gr, &mr, refR, boundR}} {
				what := fmt.Sprintf("%s %dx%d view=%v", g.name, r, c, view)
				n, _ := g.gram.Dims()
				for i := 0; i < n; i++ {
					for j := 0; j < i; j++ {
						if math.Float64bits(g.gram.At(i, j)) != math.Float64bits(g.gram.At(j, i)) {
							t.Fatalf("%s: not exactly symmetric at (%d, %d)", what, i, j)
						}
					}
				}
				checkClose(t, what, g.gram, g.ref, g.bound)
				var twice Dense
				twice.Scale(2, g.bound)
				checkClose(t, what+" against Mul", g.gram, g.mul, &twice)
			}
			a.checkPadding(t, "Gram")
		}
	}
}

func TestMulPanics(t *testing.T) {
	a, b := Zeros(3, 4), Zeros(5, 2)
	mustPanic(t, func() { new(Dense).Mul(a, b) }, "Mul", "A is 3x4", "B is 5x2")
	mustPanic(t, func() { new(Dense).MulAT(a, b) }, "MulAT", "A is 3x4", "B is 5x2")
	mustPanic(t, func() { new(Dense).MulBT(a, b) }, "MulBT", "A is 3x4", "B is 5x2")
	mustPanic(t, func() { Zeros(3, 4).Mul(Zeros(3, 2), Zeros(2, 5)) }, "Mul", "destination is 3x4", "result is 3x5")
	mustPanic(t, func() { Zeros(3, 3).MulAT(Zeros(2, 4), Zeros(2, 3)) }, "MulAT", "destination is 3x3", "result is 4x3")
	mustPanic(t, func() { Zeros(3, 3).MulBT(Zeros(3, 4), Zeros(2, 4)) }, "MulBT", "destination is 3x3", "result is 3x2")
	mustPanic(t, func() { Zeros(3, 3).GramCols(Zeros(3, 4)) }, "GramCols", "destination is 3x3", "result is 4x4")
	mustPanic(t, func() { Zeros(3, 3).GramRows(Zeros(4, 3)) }, "GramRows", "destination is 3x3", "result is 4x4")
	mustPanic(t, func() { Zeros(0, 5).Mul(Zeros(5, 0), Zeros(0, 5)) }, "Mul", "destination is 0x5", "result is 5x5")
}

// TestMulAliasing checks products whose destination shares memory
// with an operand: the result equals, bit for bit, the product of
// copies of the operands.
func TestMulAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	const n = 37
	for _, p := range products {
		fresh := func(a, b *Dense) *Dense {
			var c Dense
			p.run(&c, a.Clone(), b.Clone())
			return &c
		}
		// The destination is A, then B, then both.
		a, b := randMat(rng, n, n, true), randMat(rng, n, n, false)
		want := fresh(a.Dense, b.Dense)
		p.run(a.Dense, a.Dense, b.Dense)
		checkBits(t, p.name+" dst==a", a.Dense, want)
		a.checkPadding(t, p.name+" dst==a")

		a, b = randMat(rng, n, n, false), randMat(rng, n, n, true)
		if !p.gram {
			want = fresh(a.Dense, b.Dense)
			p.run(b.Dense, a.Dense, b.Dense)
			checkBits(t, p.name+" dst==b", b.Dense, want)
			b.checkPadding(t, p.name+" dst==b")
		}

		want = fresh(a.Dense, a.Dense)
		p.run(a.Dense, a.Dense, a.Dense)
		checkBits(t, p.name+" dst==a==b", a.Dense, want)

		// The destination partially overlaps B (and A for a Gram matrix).
		par := randMat(rng, n+5, n+5, true)
		dst, bb := par.Slice(0, n, 0, n), par.Slice(3, n+3, 2, n+2)
		a = randMat(rng, n, n, false)
		if p.gram {
			want = fresh(bb, bb)
			p.run(dst, bb, nil)
		} else {
			want = fresh(a.Dense, bb)
			p.run(dst, a.Dense, bb)
		}
		checkBits(t, p.name+" partial overlap", dst, want)
		par.checkPadding(t, p.name+" partial overlap")
	}
}

// TestMulWorkers checks that the products do not depend on the
// number of goroutines, bit for bit, on shapes that take the parallel
// paths of kernels.Gemm (row blocks, and the split of a long k) and on
// views.
func TestMulWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(0))
	rng := rand.New(rand.NewPCG(11, 11))
	for _, sz := range [][3]int{{300, 200, 400}, {20, 30, 9000}, {9, 700, 300}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, p := range products {
			n := n
			if p.gram {
				n = m
			}
			ar, ac, br, bc := p.shapes(m, n, k)
			a, b := randMat(rng, ar, ac, true), randMat(rng, br, bc, false)
			var first *Dense
			for _, w := range []int{1, 2, 3, 8} {
				kernels.SetMaxWorkers(w)
				c := blankMat(m, n, true)
				p.run(c.Dense, a.Dense, b.Dense)
				if first == nil {
					first = c.Clone()
					continue
				}
				checkBits(t, fmt.Sprintf("%s %dx%dx%d with %d workers", p.name, m, n, k, w), c.Dense, first)
				c.checkPadding(t, p.name)
			}
		}
	}
}

func TestMulVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	for _, s := range [][2]int{{1, 1}, {3, 5}, {5, 3}, {40, 70}, {0, 0}, {0, 5}, {5, 0}} {
		r, c := s[0], s[1]
		for _, view := range []bool{false, true} {
			a := randMat(rng, r, c, view)
			for _, trans := range []bool{false, true} {
				what := fmt.Sprintf("MulVec %dx%d view=%v trans=%v", r, c, view, trans)
				nx, ny := c, r
				mulVec := a.MulVec
				if trans {
					nx, ny = r, c
					mulVec = a.MulVecT
				}
				x := New(nx, 1, nil)
				fillRand(rng, x)
				ref, bound := refProduct(a.Dense, x, trans, false)

				y := mulVec(nil, x.RawData()[:nx:nx])
				if len(y) != ny {
					t.Fatalf("%s: len %d, want %d", what, len(y), ny)
				}
				checkClose(t, what, New(ny, 1, y), ref, bound)

				dst := make([]float64, ny)
				for i := range dst {
					dst[i] = math.NaN()
				}
				if got := mulVec(dst, x.RawData()[:nx:nx]); ny > 0 && &got[0] != &dst[0] {
					t.Fatalf("%s: dst not used", what)
				}
				checkBits(t, what+" into dst", New(ny, 1, dst), New(ny, 1, y))
				a.checkPadding(t, what)
			}
		}
	}

	// dst may be x, or share memory with the matrix.
	a := randMat(rng, 6, 6, true)
	x := make([]float64, 6)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	want := a.MulVec(nil, x)
	a.MulVec(x, x)
	checkBits(t, "MulVec into x", New(6, 1, x), New(6, 1, want))
	want = a.MulVecT(nil, a.Row(nil, 2))
	a.MulVecT(a.RawRow(2), a.RawRow(2))
	checkBits(t, "MulVecT into a row of the matrix", New(6, 1, a.Row(nil, 2)), New(6, 1, want))
	a.checkPadding(t, "MulVec aliasing")

	mustPanic(t, func() { Zeros(3, 4).MulVec(nil, make([]float64, 3)) }, "MulVec", "3x4", "3 elements")
	mustPanic(t, func() { Zeros(3, 4).MulVec(make([]float64, 4), make([]float64, 4)) }, "MulVec", "4 elements", "want 3")
	mustPanic(t, func() { Zeros(3, 4).MulVecT(nil, make([]float64, 4)) }, "MulVecT", "3x4", "4 elements")
	mustPanic(t, func() { Zeros(3, 4).MulVecT(make([]float64, 3), make([]float64, 3)) }, "MulVecT", "3 elements", "want 4")
}
