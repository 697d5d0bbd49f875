package mat

import (
	"fmt"
	"math"
	"testing"
)

// inView returns a view holding the elements of m inside a padded
// parent, so that the norms are tested on a stride larger than the row.
func inView(m *Dense) testMat {
	r, c := m.Dims()
	v := blankMat(r, c, true)
	v.Copy(m)
	return v
}

type norms struct{ frob, one, inf, max float64 }

func normsOf(m *Dense) norms {
	return norms{m.NormFrob(), m.Norm1(), m.NormInf(), m.NormMax()}
}

func TestNorms(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		m    *Dense
		want norms
		// tolerance of the Frobenius norm in units of u (Norm1 and NormInf
		// get 2, NormMax none)
		ulps float64
	}{
		{FromRows([][]float64{{1, -2}, {3, 4}}), norms{math.Sqrt(30), 6, 7, 4}, 2},
		{FromRows([][]float64{{-5}}), norms{5, 5, 5, 5}, 0},
		{FromRows([][]float64{{1, 2, -3}}), norms{math.Sqrt(14), 3, 6, 3}, 2},
		{FromRows([][]float64{{1}, {2}, {-3}}), norms{math.Sqrt(14), 6, 3, 3}, 2},
		// Squares of these overflow; the norm does not.
		{FromRows([][]float64{{3e300, -4e300}, {0, 0}}), norms{5e300, 4e300, 7e300, 4e300}, 2},
		{FromRows([][]float64{{1e300, 1e300}, {1e300, 1e300}}), norms{2e300, 2e300, 2e300, 1e300}, 2},
		{FromRows([][]float64{{1.2e308, 0}, {-1.2e308, 0}}), norms{math.Sqrt2 * 1.2e308, inf, 1.2e308, 1.2e308}, 2},
		// Squares of these underflow; the norm does not.
		{FromRows([][]float64{{3e-300, 0}, {0, 4e-300}}), norms{5e-300, 4e-300, 4e-300, 4e-300}, 2},
		{FromRows([][]float64{{3e-320, 4e-320}}), norms{5e-320, 4e-320, 7e-320, 4e-320}, 0},
		// NaN beats everything, Inf beats numbers.
		{FromRows([][]float64{{1, nan}, {3, 4}}), norms{nan, nan, nan, nan}, 0},
		{FromRows([][]float64{{inf, 1}, {3, nan}}), norms{nan, nan, nan, nan}, 0},
		{FromRows([][]float64{{nan, 1}, {3, -inf}}), norms{nan, nan, nan, nan}, 0},
		{FromRows([][]float64{{1, 2}, {-inf, 4}}), norms{inf, inf, inf, inf}, 0},
		{Zeros(0, 0), norms{}, 0}, {Zeros(0, 5), norms{}, 0}, {Zeros(5, 0), norms{}, 0},
		{Zeros(3, 2), norms{}, 0},
	} {
		for _, view := range []bool{false, true} {
			m := c.m
			if view {
				tm := inView(c.m)
				m = tm.Dense
				defer tm.checkPadding(t, "norms")
			}
			what := fmt.Sprintf("%v (view=%v)", c.m, view)
			got := normsOf(m)
			check := func(name string, g, w, ulps float64) {
				t.Helper()
				if math.IsNaN(w) {
					if !math.IsNaN(g) {
						t.Fatalf("%s of %s = %v, want NaN", name, what, g)
					}
					return
				}
				if !(math.Abs(g-w) <= ulps*u*w) && g != w {
					t.Fatalf("%s of %s = %v, want %v", name, what, g, w)
				}
			}
			check("NormFrob", got.frob, c.want.frob, c.ulps)
			check("Norm1", got.one, c.want.one, 2)
			check("NormInf", got.inf, c.want.inf, 2)
			check("NormMax", got.max, c.want.max, 0)
		}
	}
}

func TestTrace(t *testing.T) {
	m := FromRows([][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9.5}})
	if tr := m.Trace(); tr != 15.5 {
		t.Fatalf("Trace = %v", tr)
	}
	if tr := inView(m).Trace(); tr != 15.5 {
		t.Fatalf("Trace of a view = %v", tr)
	}
	if tr := m.Slice(1, 3, 0, 2).Trace(); tr != 12 {
		t.Fatalf("Trace of a slice = %v", tr)
	}
	if tr := Zeros(0, 0).Trace(); tr != 0 {
		t.Fatalf("Trace of 0x0 = %v", tr)
	}
	mustPanic(t, func() { Zeros(3, 4).Trace() }, "Trace", "3x4")
	mustPanic(t, func() { Zeros(0, 5).Trace() }, "Trace", "0x5")
}

func TestEqualApprox(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	one := func(v float64) *Dense { return New(1, 1, []float64{v}) }
	for _, c := range []struct {
		a, b  float64
		tol   float64
		want  bool
		exact bool
	}{
		{1, 1, 0, true, true},
		{0, math.Copysign(0, -1), 0, true, true},
		{0, 1e-9, 1e-9, true, false},         // absolute below 1
		{0, 2e-9, 1e-9, false, false},        //
		{1e6, 1e6 + 5e-4, 1e-9, true, false}, // relative above 1
		{1e6, 1e6 + 2e-3, 1e-9, false, false},
		{-1e6, -1e6 - 5e-4, 1e-9, true, false},
		{inf, inf, 0, true, true},
		{inf, -inf, 1, false, false},
		{inf, math.MaxFloat64, 1, false, false},
		{nan, nan, 1, false, false},
		{nan, 1, 1, false, false},
	} {
		a, b := one(c.a), one(c.b)
		if got := EqualApprox(a, b, c.tol); got != c.want {
			t.Fatalf("EqualApprox(%v, %v, %v) = %v", c.a, c.b, c.tol, got)
		}
		if got := EqualApprox(b, a, c.tol); got != c.want {
			t.Fatalf("EqualApprox(%v, %v, %v) = %v", c.b, c.a, c.tol, got)
		}
		if got := Equal(a, b); got != c.exact {
			t.Fatalf("Equal(%v, %v) = %v", c.a, c.b, got)
		}
	}
	m := FromRows([][]float64{{1, 2}, {3, 4}})
	v := inView(m)
	if !EqualApprox(m, v.Dense, 0) || !Equal(v.Dense, m) {
		t.Fatalf("a view and its copy differ")
	}
	v.Set(1, 1, 4.5)
	if EqualApprox(m, v.Dense, 0.1) || !EqualApprox(m, v.Dense, 0.2) {
		t.Fatalf("EqualApprox ignores the last element")
	}
	for _, s := range [][2]*Dense{{Zeros(2, 3), Zeros(3, 2)}, {Zeros(0, 5), Zeros(5, 0)}, {Zeros(0, 0), Zeros(0, 1)}} {
		if EqualApprox(s[0], s[1], 1) || Equal(s[0], s[1]) {
			t.Fatalf("matrices of different shapes are equal")
		}
	}
	if !EqualApprox(Zeros(0, 5), Zeros(0, 5), 0) || !Equal(Zeros(5, 0), Zeros(5, 0)) {
		t.Fatalf("empty matrices of one shape differ")
	}
}

func TestNonFinite(t *testing.T) {
	big := 1e308
	m := FromRows([][]float64{{1, 2, 3}, {big, big, big}, {4, math.Inf(-1), math.NaN()}})
	if i, j, found := m.NonFinite(); !found || i != 2 || j != 1 {
		t.Errorf("NonFinite = %d, %d, %v; want 2, 1, true (row 1 sums to +Inf but is finite)", i, j, found)
	}
	if _, _, found := m.Slice(0, 2, 0, 3).NonFinite(); found {
		t.Error("a finite view reported non-finite")
	}
	// Elements beyond a view's columns are not its own.
	if _, _, found := m.Slice(2, 3, 0, 1).NonFinite(); found {
		t.Error("a view saw the elements of its parent")
	}
}
