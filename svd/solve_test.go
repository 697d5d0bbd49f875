package svd

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestPseudoInverseBits checks that the scaling by powers of two in
// PseudoInverse and Solve leaves the result of a matrix in the normal
// range bit for bit that of the plain product V*diag(1/S)*Uᵀ*B.
func TestPseudoInverseBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, sc := range []float64{1, 0x1p-700, 0x1p10} {
		a := mat.Zeros(9, 6)
		for i := range 9 {
			for j := range 6 {
				a.Set(i, j, sc*rnd.NormFloat64())
			}
		}
		s, err := Factorize(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := s.Rank(0)
		vs := s.V.Slice(0, 6, 0, r).Clone()
		for i := range 6 {
			row := vs.RawRow(i)
			for j := range row {
				row[j] /= s.S[j]
			}
		}
		var want, got mat.Dense
		want.MulBT(vs, s.U.Slice(0, 9, 0, r))
		if _, err := s.PseudoInverse(&got, 0); err != nil {
			t.Fatal(err)
		}
		if !sameBits(&got, &want) {
			t.Errorf("scale %g: PseudoInverse differs from the plain product", sc)
		}
		b := mat.Zeros(9, 2)
		for i := range 9 {
			b.Set(i, 0, 3*rnd.NormFloat64())
			b.Set(i, 1, 1e5*rnd.NormFloat64())
		}
		var c, x, wantX mat.Dense
		c.MulAT(s.U.Slice(0, 9, 0, r), b)
		for i := range r {
			row := c.RawRow(i)
			for j := range row {
				row[j] /= s.S[i]
			}
		}
		wantX.Mul(s.V.Slice(0, 6, 0, r), &c)
		if _, err := s.Solve(&x, b, 0); err != nil {
			t.Fatal(err)
		}
		if !sameBits(&x, &wantX) {
			t.Errorf("scale %g: Solve differs from the plain product", sc)
		}
	}
}

// TestSolveBitsWideRange: where the plain product is finite it is the
// result, however far apart B's columns or the singular values lie.
func TestSolveBitsWideRange(t *testing.T) {
	a := mat.New(2, 2, []float64{1, 2, 3, 4})
	s, err := Factorize(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := mat.New(2, 2, []float64{1e200, 1e-200, 2e200, 3e-200})
	var c, want, x mat.Dense
	c.MulAT(s.U, b)
	for i := range 2 {
		row := c.RawRow(i)
		for j := range row {
			row[j] /= s.S[i]
		}
	}
	want.Mul(s.V, &c)
	if _, err := s.Solve(&x, b, 0); err != nil || !sameBits(&x, &want) {
		t.Errorf("columns 1e200 and 1e-200: %v, want %v (%v)", &x, &want, err)
	}
	d := mat.New(2, 2, []float64{0x1p30, 0, 0, 0x1p-1000})
	var p mat.Dense
	if rank, err := PseudoInverse(&p, d, 0x1p-1040); err != nil || rank != 2 ||
		p.At(0, 0) != 0x1p-30 || p.At(1, 1) != 0x1p1000 || p.At(0, 1) != 0 || p.At(1, 0) != 0 {
		t.Errorf("diag(2^30, 2^-1000): %v, rank %d, %v", &p, rank, err)
	}
}

func sameBits(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := range ar {
		for j := range ac {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// TestPseudoInverseRange checks the ends of the float64 range: a
// pseudo-inverse whose singular value's reciprocal overflows but whose
// entries fit is computed (to 8 eps relative), one that does not fit
// gives ErrRange with dst as it was, a right-hand side near the largest
// float64 whose solution fits is solved, and a non-finite B or a NaN
// rcond is an error.
func TestPseudoInverseRange(t *testing.T) {
	const tol = 8 * 0x1p-52
	// 4 x 4 of 2^-1026: S[0] = 2^-1024, whose reciprocal overflows, but
	// the pseudo-inverse is 2^1022 everywhere.
	a := mat.Zeros(4, 4)
	for i := range 4 {
		for j := range 4 {
			a.Set(i, j, 0x1p-1026)
		}
	}
	var p mat.Dense
	rank, err := PseudoInverse(&p, a, 0)
	if err != nil || rank != 1 {
		t.Fatalf("rank %d, %v", rank, err)
	}
	for i := range 4 {
		for j := range 4 {
			if v := p.At(i, j); !(math.Abs(v-0x1p1022) <= tol*0x1p1022) {
				t.Fatalf("pinv[%d][%d] = %g, want 2^1022", i, j, v)
			}
		}
	}

	// diag(1e-310, 2e-310): its pseudo-inverse does not fit.
	d := mat.Zeros(2, 2)
	d.Set(0, 0, 1e-310)
	d.Set(1, 1, 2e-310)
	keep := mat.Zeros(1, 1)
	keep.Set(0, 0, 7)
	rank, err = PseudoInverse(keep, d, 0)
	if !errors.Is(err, ErrRange) || rank != 2 {
		t.Fatalf("diag(1e-310, 2e-310): rank %d, %v; want 2, ErrRange", rank, err)
	}
	if r, c := keep.Dims(); r != 1 || c != 1 || keep.At(0, 0) != 7 {
		t.Fatalf("dst changed on ErrRange: %v", keep)
	}

	// A = [[1, 1], [1, -1]], B = (M, M/2) with M the largest float64:
	// X = A⁻¹B = (3M/4, M/4) fits, though Uᵀ*B may not.
	h := mat.New(2, 2, []float64{1, 1, 1, -1})
	s, err := Factorize(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := mat.New(2, 1, []float64{math.MaxFloat64, math.MaxFloat64 / 2})
	var x mat.Dense
	if _, err := s.Solve(&x, b, 0); err != nil {
		t.Fatalf("Solve near the top of the range: %v", err)
	}
	for i, w := range []float64{0.75 * math.MaxFloat64, 0.25 * math.MaxFloat64} {
		if v := x.At(i, 0); !(math.Abs(v-w) <= tol*w) {
			t.Errorf("x[%d] = %g, want %g", i, v, w)
		}
	}
	// B = (M, 0): X = (M/2, M/2).
	b2 := mat.New(2, 1, []float64{math.MaxFloat64, 0})
	if _, err := s.Solve(&x, b2, 0); err != nil ||
		!(math.Abs(x.At(0, 0)-math.MaxFloat64/2) <= tol*math.MaxFloat64) ||
		!(math.Abs(x.At(1, 0)-math.MaxFloat64/2) <= tol*math.MaxFloat64) {
		t.Errorf("B = (M, 0): %v, %v", &x, err)
	}
	// 0.5*x = M: X = 2M does not fit.
	big := mat.Zeros(1, 1)
	big.Set(0, 0, 0.5)
	sb, err := Factorize(big, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Solve(&x, mat.New(1, 1, []float64{math.MaxFloat64}), 0); !errors.Is(err, ErrRange) {
		t.Errorf("0.5 x = M: %v, want ErrRange", err)
	}

	// The scaled path scales each column of B by its own power of two:
	// with A = [[1, 1], [1, -1]] as above, B's first column (M, M/2)
	// makes the plain product overflow; one scale for both columns
	// (2^-1024) would flush the second, of 2^-1000, to zero.
	b4 := mat.New(2, 2, []float64{math.MaxFloat64, 0x1p-1000 / 3, math.MaxFloat64 / 2, 0x1p-1000 * 0.7})
	var x4 mat.Dense
	if _, err := s.Solve(&x4, b4, 0); err != nil {
		t.Fatal(err)
	}
	c1, c2 := b4.At(0, 1), b4.At(1, 1)
	for i, w := range []float64{0.75 * math.MaxFloat64, 0.25 * math.MaxFloat64, (c1 + c2) / 2, (c1 - c2) / 2} {
		if v := x4.At(i%2, i/2); !(math.Abs(v-w) <= tol*math.Abs(w)) {
			t.Errorf("columns of different scale: x[%d][%d] = %g, want %g", i%2, i/2, v, w)
		}
	}
	// A block of 2^-1025 (S = 2^-1024) beside 2^10, with an rcond that
	// keeps both: the scale is raised to keep 2^10 in range, and the
	// pseudo-inverse holds 2^1023 and 2^-10.
	wide := mat.Zeros(3, 3)
	for i := range 2 {
		for j := range 2 {
			wide.Set(i, j, 0x1p-1025)
		}
	}
	wide.Set(2, 2, 0x1p10)
	var pw mat.Dense
	rank, err = PseudoInverse(&pw, wide, 0x1p-1060)
	if err != nil || rank != 2 {
		t.Fatalf("blocks of 2^-1025 and 2^10: rank %d, %v", rank, err)
	}
	for i := range 3 {
		for j := range 3 {
			w := 0.0
			switch {
			case i < 2 && j < 2:
				w = 0x1p1023
			case i == 2 && j == 2:
				w = 0x1p-10
			}
			if v := pw.At(i, j); !(math.Abs(v-w) <= tol*math.Max(w, 0x1p-10)) {
				t.Errorf("blocks of 2^-1025 and 2^10: pinv[%d][%d] = %g, want %g", i, j, v, w)
			}
		}
	}

	if _, err := s.Solve(&x, mat.New(2, 1, []float64{1, math.NaN()}), 0); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN in B: %v, want ErrNotFinite", err)
	}
	if _, err := s.PseudoInverse(&x, math.NaN()); !errors.Is(err, ErrBadOption) {
		t.Errorf("NaN rcond: %v, want ErrBadOption", err)
	}
	if _, err := PseudoInverse(&x, h, math.NaN()); !errors.Is(err, ErrBadOption) {
		t.Errorf("NaN rcond: %v, want ErrBadOption", err)
	}
}
