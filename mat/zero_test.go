package mat

import "testing"

// TestZeroValue runs the methods with the zero value of Dense as
// operand and as destination: it behaves as a 0x0 matrix.
func TestZeroValue(t *testing.T) {
	var z Dense
	check := func(what string, m *Dense, r, c int) {
		t.Helper()
		if mr, mc := m.Dims(); mr != r || mc != c {
			t.Fatalf("%s: result is %dx%d, want %dx%d", what, mr, mc, r, c)
		}
	}
	for name, f := range map[string]func(d *Dense){
		"Add":       func(d *Dense) { d.Add(&z, &Dense{}) },
		"Sub":       func(d *Dense) { d.Sub(&z, &z) },
		"Scale":     func(d *Dense) { d.Scale(2, &z) },
		"AddScaled": func(d *Dense) { d.AddScaled(&z, 2, &z) },
		"MulElem":   func(d *Dense) { d.MulElem(&z, &z) },
		"Copy":      func(d *Dense) { d.Copy(&z) },
		"Mul":       func(d *Dense) { d.Mul(&z, &z) },
		"MulAT":     func(d *Dense) { d.MulAT(&z, &z) },
		"MulBT":     func(d *Dense) { d.MulBT(&z, &z) },
		"GramCols":  func(d *Dense) { d.GramCols(&z) },
		"GramRows":  func(d *Dense) { d.GramRows(&z) },
	} {
		var d Dense
		f(&d)
		check(name, &d, 0, 0)
		f(&z) // the zero value as its own destination
		check(name+" in place", &z, 0, 0)
	}
	var c Dense
	c.Mul(Zeros(3, 0), &z)
	check("Mul 3x0 by 0x0", &c, 3, 0)
	c.Reset()
	c.MulAT(&z, Zeros(0, 4))
	check("MulAT 0x0 by 0x4", &c, 0, 4)
	if y := z.MulVec(nil, nil); len(y) != 0 {
		t.Fatalf("MulVec of the zero value: %v", y)
	}
	if y := z.MulVecT(nil, nil); len(y) != 0 {
		t.Fatalf("MulVecT of the zero value: %v", y)
	}
	if z.NormFrob() != 0 || z.Norm1() != 0 || z.NormInf() != 0 || z.NormMax() != 0 || z.Trace() != 0 {
		t.Fatalf("norms of the zero value are not 0")
	}
	check("T", z.T(), 0, 0)
	check("Clone", z.Clone(), 0, 0)
	check("Slice", z.Slice(0, 0, 0, 0), 0, 0)
	if !Equal(&z, Zeros(0, 0)) || !EqualApprox(&z, &Dense{}, 0) {
		t.Fatalf("the zero value is not equal to 0x0")
	}
}
