package tensor3

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPackedIndexing checks At against the dense expansion for every
// ordering of every index triple, that Set writes exactly one stored
// value whatever the ordering, and that FromDense inverts Dense.
func TestPackedIndexing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for d := 0; d <= 9; d++ {
		x := randSym(r, d)
		a := x.Dense()
		if len(a) != d*d*d {
			t.Fatalf("d=%d: Dense has %d values", d, len(a))
		}
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				for l := 0; l < d; l++ {
					v := x.At(i, j, l)
					for _, p := range [][3]int{{i, j, l}, {i, l, j}, {j, i, l}, {j, l, i}, {l, i, j}, {l, j, i}} {
						if a[at3(d, p[0], p[1], p[2])] != v {
							t.Fatalf("d=%d: At(%d,%d,%d) = %v, dense at %v is %v", d, i, j, l, v, p, a[at3(d, p[0], p[1], p[2])])
						}
					}
				}
			}
		}
		// Set under each ordering changes one stored value, the same one.
		seen := map[int]bool{}
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				for l := 0; l < d; l++ {
					y := x.Clone()
					y.Set(l, i, j, 42)
					changed := -1
					for p, v := range y.RawData() {
						if v != x.RawData()[p] {
							if changed >= 0 {
								t.Fatalf("d=%d: Set(%d,%d,%d) changed two values", d, l, i, j)
							}
							changed = p
						}
					}
					if changed < 0 || y.At(i, l, j) != 42 || y.At(j, i, l) != 42 {
						t.Fatalf("d=%d: Set(%d,%d,%d) did not take", d, l, i, j)
					}
					if i <= j && j <= l {
						if seen[changed] {
							t.Fatalf("d=%d: two sorted triples share stored value %d", d, changed)
						}
						seen[changed] = true
					}
				}
			}
		}
		if len(seen) != PackedLen(d) {
			t.Fatalf("d=%d: %d sorted triples for %d stored values", d, len(seen), PackedLen(d))
		}
		z := FromDense(d, a)
		for p, v := range z.RawData() {
			if v != x.RawData()[p] {
				t.Fatalf("d=%d: FromDense(Dense()) differs at %d", d, p)
			}
		}
	}
}

func TestNormFrob(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 1))
	for d := 0; d <= 12; d++ {
		x := randSym(r, d)
		want := fullNorm(x.Dense())
		if got := x.NormFrob(); math.Abs(got-want) > 1e-14*want {
			t.Fatalf("d=%d: NormFrob = %v, dense %v", d, got, want)
		}
	}
	// No overflow or underflow where the sum of squares would.
	for _, s := range []float64{1e300, 1e-300} {
		x := randSym(r, 7)
		want := fullNorm(x.Dense()) * s
		x.Scale(s, x)
		if got := x.NormFrob(); math.Abs(got-want) > 1e-13*want {
			t.Fatalf("scale %v: NormFrob = %v, want %v", s, got, want)
		}
	}
	x := randSym(r, 5)
	x.Set(1, 2, 3, math.Inf(-1))
	if n := x.NormFrob(); !math.IsInf(n, 1) {
		t.Fatalf("with -Inf: NormFrob = %v", n)
	}
	x.Set(0, 4, 4, math.NaN())
	if n := x.NormFrob(); !math.IsNaN(n) {
		t.Fatalf("with NaN and Inf: NormFrob = %v", n)
	}
	if n := (&Sym{}).NormFrob(); n != 0 {
		t.Fatalf("empty: NormFrob = %v", n)
	}
}

func TestArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	a, b := randSym(r, 6), randSym(r, 6)
	check := func(name string, got *Sym, f func(x, y float64) float64) {
		t.Helper()
		for p := range got.RawData() {
			if w := f(a.RawData()[p], b.RawData()[p]); math.Abs(got.RawData()[p]-w) > 4*eps*(math.Abs(a.RawData()[p])+3*math.Abs(b.RawData()[p])) {
				t.Fatalf("%s: value %d = %v, want %v", name, p, got.RawData()[p], w)
			}
		}
	}
	var s Sym
	s.Add(a, b)
	check("Add", &s, func(x, y float64) float64 { return x + y })
	var u Sym
	u.Sub(a, b)
	check("Sub", &u, func(x, y float64) float64 { return x - y })
	var v Sym
	v.AddScaled(a, -2.5, b)
	check("AddScaled", &v, func(x, y float64) float64 { return x - 2.5*y })
	var w Sym
	w.Scale(3, a)
	check("Scale", &w, func(x, _ float64) float64 { return 3 * x })
	// In place, on either operand.
	c := b.Clone()
	c.AddScaled(a, 0.5, c)
	check("AddScaled into b", c, func(x, y float64) float64 { return x + 0.5*y })
	c = a.Clone()
	c.Sub(c, b)
	check("Sub into a", c, func(x, y float64) float64 { return x - y })
	var e Sym
	e.Copy(a)
	check("Copy", &e, func(x, _ float64) float64 { return x })
	e.Zero()
	check("Zero", &e, func(_, _ float64) float64 { return 0 })
	e.Reset()
	if !e.IsEmpty() || e.Dim() != 0 {
		t.Fatalf("Reset: dimension %d", e.Dim())
	}
}

func TestPanics(t *testing.T) {
	a, b := New(3, nil), New(4, nil)
	m := New(3, nil)
	mustPanic(t, "New negative", func() { New(-1, nil) })
	mustPanic(t, "New short", func() { New(3, make([]float64, 9)) })
	mustPanic(t, "FromDense", func() { FromDense(2, make([]float64, 7)) })
	mustPanic(t, "At", func() { a.At(0, 3, 1) })
	mustPanic(t, "Set", func() { a.Set(-1, 0, 0, 1) })
	mustPanic(t, "Add", func() { m.Add(a, b) })
	mustPanic(t, "Copy", func() { b.Copy(a) })
	mustPanic(t, "AddOuter", func() { a.AddOuter(1, make([]float64, 4)) })
	mustPanic(t, "ContractVec", func() { a.ContractVec(nil, make([]float64, 2)) })
	mustPanic(t, "ContractVec dst", func() { a.ContractVec(make([]float64, 2), make([]float64, 3)) })
	mustPanic(t, "PackedLen", func() { PackedLen(-3) })
}
