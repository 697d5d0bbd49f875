package mat

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// elemOp is an element-wise method under test with its scalar meaning
// and the largest error allowed, in units of u times the magnitude of
// the terms (0: exact).
type elemOp struct {
	name   string
	binary bool
	run    func(dst, a, b *Dense)
	scalar func(x, y float64) (v, mag float64)
	ulps   float64
}

const testScale = -1.75

var elemOps = []elemOp{
	{"Add", true, func(d, a, b *Dense) { d.Add(a, b) }, func(x, y float64) (float64, float64) { return x + y, 0 }, 0},
	{"Sub", true, func(d, a, b *Dense) { d.Sub(a, b) }, func(x, y float64) (float64, float64) { return x - y, 0 }, 0},
	{"Scale", false, func(d, a, _ *Dense) { d.Scale(testScale, a) }, func(x, _ float64) (float64, float64) { return testScale * x, 0 }, 0},
	// a + s*b rounds once with a fused multiply-add, twice without.
	{"AddScaled", true, func(d, a, b *Dense) { d.AddScaled(a, testScale, b) }, func(x, y float64) (float64, float64) {
		return x + testScale*y, math.Abs(x) + math.Abs(testScale*y)
	}, 2},
	{"MulElem", true, func(d, a, b *Dense) { d.MulElem(a, b) }, func(x, y float64) (float64, float64) { return x * y, 0 }, 0},
}

// checkElem checks got against op's scalar meaning applied to a and b.
func checkElem(t *testing.T, what string, op elemOp, got, a, b *Dense) {
	t.Helper()
	r, c := a.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: result is %dx%d, want %dx%d", what, gr, gc, r, c)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			y := 0.0
			if b != nil {
				y = b.At(i, j)
			}
			want, mag := op.scalar(a.At(i, j), y)
			g := got.At(i, j)
			if op.ulps == 0 && math.Float64bits(g) != math.Float64bits(want) ||
				op.ulps > 0 && !(math.Abs(g-want) <= op.ulps*u*mag) {
				t.Fatalf("%s: (%d, %d) = %v, want %v", what, i, j, g, want)
			}
		}
	}
}

func TestElementwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	shapes := append([][2]int{{1, 1}, {1, 9}, {9, 1}, {4, 7}, {33, 17}}, zeroShapes...)
	for _, op := range elemOps {
		for _, s := range shapes {
			for views := 0; views < 8; views++ {
				what := fmt.Sprintf("%s %dx%d views=%03b", op.name, s[0], s[1], views)
				a := randMat(rng, s[0], s[1], views&1 != 0)
				b := randMat(rng, s[0], s[1], views&2 != 0)
				dst := blankMat(s[0], s[1], views&4 != 0)
				a0, b0 := a.Clone(), b.Clone()
				op.run(dst.Dense, a.Dense, b.Dense)
				checkElem(t, what, op, dst.Dense, a0, b0)
				dst.checkPadding(t, what)
				checkBits(t, what+": a changed", a.Dense, a0)
				checkBits(t, what+": b changed", b.Dense, b0)

				// Into an empty receiver.
				var e Dense
				op.run(&e, a.Dense, b.Dense)
				checkBits(t, what+" into empty", &e, dst.Dense)

				// In place: the receiver is a, or b, or both. The result is
				// bit-identical to the out-of-place one.
				inA := a.Clone()
				op.run(inA, inA, b.Dense)
				checkBits(t, what+" dst==a", inA, dst.Dense)
				if op.binary {
					inB := randMat(rng, s[0], s[1], views&2 != 0)
					inB.Copy(b.Dense)
					op.run(inB.Dense, a.Dense, inB.Dense)
					checkBits(t, what+" dst==b", inB.Dense, dst.Dense)
					inB.checkPadding(t, what+" dst==b")
					both := a.Clone()
					op.run(both, both, both)
					op.run(dst.Dense, a.Dense, a.Dense)
					checkBits(t, what+" dst==a==b", both, dst.Dense)
				}
			}
		}
	}
}

func TestElementwisePanics(t *testing.T) {
	for _, op := range elemOps {
		if op.binary {
			mustPanic(t, func() { op.run(&Dense{}, Zeros(2, 3), Zeros(3, 2)) }, op.name, "A is 2x3", "B is 3x2")
		}
		mustPanic(t, func() { op.run(Zeros(3, 4), Zeros(2, 3), Zeros(2, 3)) }, op.name, "destination is 3x4", "result is 2x3")
		mustPanic(t, func() { op.run(Zeros(0, 3), Zeros(3, 0), Zeros(3, 0)) }, op.name, "destination is 0x3", "result is 3x0")

		// A destination that partially overlaps an operand.
		p := New(4, 4, nil)
		mustPanic(t, func() { op.run(p.Slice(0, 2, 0, 2), p.Slice(1, 3, 1, 3), Zeros(2, 2)) }, op.name, "partially overlaps")
		if op.binary {
			mustPanic(t, func() { op.run(p.Slice(0, 2, 0, 2), Zeros(2, 2), p.Slice(0, 2, 1, 3)) }, op.name, "partially overlaps")
		}
		// The same first element and shape but another stride is not the
		// same view.
		q := New(2, 4, nil)
		mustPanic(t, func() { op.run(q.Slice(0, 2, 0, 2), New(2, 2, q.RawData()[:4]), Zeros(2, 2)) }, op.name, "partially overlaps")
	}
}

// TestElementwiseInterleaved checks that views of one matrix whose rows
// interleave without sharing elements (the left and right halves) are
// not taken for overlapping.
func TestElementwiseInterleaved(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, op := range elemOps {
		p := randMat(rng, 5, 6, true)
		left, right := p.Slice(0, 5, 0, 3), p.Slice(0, 5, 3, 6)
		a, b := right.Clone(), Zeros(5, 3)
		fillRand(rng, b)
		op.run(left, right, b)
		checkElem(t, op.name+" interleaved", op, left, a, b)
		checkBits(t, op.name+" interleaved: source changed", right, a)
		p.checkPadding(t, op.name+" interleaved")
	}
}

func TestSymmetrize(t *testing.T) {
	m := FromRows([][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
	v := m.Slice(0, 2, 1, 3) // [[2 3] [5 6]], stride 3
	v.Symmetrize()
	want := FromRows([][]float64{{1, 2, 4}, {4, 4, 6}, {7, 8, 9}})
	if !Equal(m, want) {
		t.Errorf("Symmetrize on a view:\n%v\nwant\n%v", m, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("Symmetrize of a 2x3 matrix did not panic")
		}
	}()
	New(2, 3, nil).Symmetrize()
}

func TestScalePow2(t *testing.T) {
	// Powers beyond the float64 exponent range are done in steps, so
	// 2^-1070 (subnormal) times 2^2000 is exactly 2^930, and back.
	a := New(1, 3, []float64{0x1p-1070, -3, 0})
	var b Dense
	b.ScalePow2(2000, a)
	if b.At(0, 0) != 0x1p930 || !math.IsInf(b.At(0, 1), -1) || b.At(0, 2) != 0 {
		t.Errorf("ScalePow2(2000) = %v, want [2^930 -Inf 0]", b.RawData())
	}
	c := New(1, 2, []float64{0x1p930, 5})
	c.ScalePow2(-2000, c)
	if c.At(0, 0) != 0x1p-1070 || c.At(0, 1) != 0 {
		t.Errorf("in place ScalePow2(-2000) = %v, want [2^-1070 0]", c.RawData())
	}
	var d Dense
	d.ScalePow2(0, a)
	if !Equal(&d, a) {
		t.Errorf("ScalePow2(0) = %v, want a copy of %v", d.RawData(), a.RawData())
	}
}

func TestIsFinite(t *testing.T) {
	for _, tc := range []struct {
		m    *Dense
		want bool
	}{
		{New(0, 0, nil), true},
		{New(2, 2, []float64{1, 2, 3, math.MaxFloat64}), true},
		{New(1, 2, []float64{1, math.NaN()}), false},
		{New(2, 1, []float64{math.Inf(-1), 0}), false},
	} {
		if got := tc.m.IsFinite(); got != tc.want {
			t.Errorf("IsFinite(%v) = %v, want %v", tc.m.RawData(), got, tc.want)
		}
	}
}
