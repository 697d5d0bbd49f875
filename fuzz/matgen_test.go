package fuzz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/mat"
)

func TestSpectrum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, mode := range Modes {
		for _, n := range []int{0, 1, 2, 7} {
			d := Spectrum(rnd, mode, n, 1e6)
			if len(d) != n {
				t.Fatalf("%v n=%d: %d values", mode, n, len(d))
			}
			for i, v := range d {
				if v < 1e-6*(1-1e-12) || v > 1 || (i > 0 && v > d[i-1]) {
					t.Errorf("%v n=%d: values %v", mode, n, d)
					break
				}
			}
			if n >= 2 && mode != ModeLogUniform {
				if d[0] != 1 || math.Abs(d[n-1]-1e-6) > 1e-18 {
					t.Errorf("%v n=%d: ends %v, %v", mode, n, d[0], d[n-1])
				}
			}
		}
	}
	d := Spectrum(nil, ModeGeometric, 3, 100)
	if math.Abs(d[1]-0.1) > 1e-15 {
		t.Errorf("geometric middle value %v", d[1])
	}
	d = Spectrum(nil, ModeArithmetic, 3, 2)
	if d[1] != 0.75 {
		t.Errorf("arithmetic middle value %v", d[1])
	}
}

func orthError(q *mat.Dense) float64 {
	var g mat.Dense
	g.GramCols(q)
	n, _ := g.Dims()
	g.Sub(&g, mat.Identity(n))
	return g.NormMax()
}

func TestRandomOrthogonal(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{0, 1, 2, 5, 40} {
		q := RandomOrthogonal(rnd, n)
		if e := orthError(q); e > 1e-14 {
			t.Errorf("n=%d: ||QᵀQ - I|| = %v", n, e)
		}
	}
	// Haar: the mean of Q[0][0]^2 over many draws is 1/n.
	var s float64
	const draws, n = 2000, 4
	for i := 0; i < draws; i++ {
		q := RandomOrthogonal(rnd, n)
		s += q.At(0, 0) * q.At(0, 0)
	}
	if m := s / draws; math.Abs(m-1.0/n) > 0.03 {
		t.Errorf("mean of Q00² = %v, want %v", m, 1.0/n)
	}
}

func TestLatms(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, s := range [][2]int{{5, 3}, {3, 5}, {6, 6}, {0, 4}} {
		tm := TestMatrix{Rows: s[0], Cols: s[1], Mode: ModeGeometric, Cond: 1e4, Norm: 3}
		a, d := tm.Generate(rnd)
		if r, c := a.Dims(); r != s[0] || c != s[1] {
			t.Fatalf("%v: shape %dx%d", tm, r, c)
		}
		// ||A||_F² = sum d_i².
		var ss float64
		for _, v := range d {
			ss += v * v
		}
		if f := a.NormFrob(); math.Abs(f*f-ss) > 1e-12*ss {
			t.Errorf("%v: ||A||_F² = %v, sum d² = %v", tm, f*f, ss)
		}
		if len(d) > 0 && d[0] != 3 {
			t.Errorf("%v: largest value %v, want 3", tm, d[0])
		}
		// The reference singular values agree with d.
		if len(d) > 0 {
			ref := ReferenceSingularValues(a)
			for i := range d {
				if math.Abs(ref[i]-d[i]) > 1e-13*d[0] {
					t.Errorf("%v: reference %v, want %v", tm, ref, d)
					break
				}
			}
		}
	}
	d := []float64{3, -1, 0.5}
	a := LatmsSym(rnd, d)
	if !mat.Equal(a, a.T()) {
		t.Error("LatmsSym is not exactly symmetric")
	}
	if tr := a.Trace(); math.Abs(tr-2.5) > 1e-14 {
		t.Errorf("trace %v, want 2.5", tr)
	}
}

func TestGraded(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	a := Graded(rnd, 50, 6, 1e12)
	var norms []float64
	for j := 0; j < 6; j++ {
		norms = append(norms, ExactNorm(a.Col(nil, j)))
	}
	slices.Sort(norms)
	if r := norms[5] / norms[0]; r < 1e11 || r > 1e13 {
		t.Errorf("column norm ratio %v, want about 1e12", r)
	}
}

// TestReferenceSingularValues checks the double-double Jacobi on matrices
// with known singular values, including a graded one whose small value a
// float64 bidiagonalization could not resolve.
func TestReferenceSingularValues(t *testing.T) {
	// [[a, 0], [b, c]] has singular values with product |a c| and sum of
	// squares a² + b² + c².
	a := mat.FromRows([][]float64{{1, 0}, {1, 1e-20}})
	s := ReferenceSingularValues(a)
	if math.Abs(s[0]*s[1]-1e-20) > 1e-35 || math.Abs(s[0]-math.Sqrt2) > 1e-15 {
		t.Errorf("graded 2x2: %v", s)
	}
	d := ReferenceSingularValues(mat.Diag([]float64{-2, 5, 0, 1e-100}))
	if !slices.Equal(d, []float64{5, 2, 1e-100, 0}) {
		t.Errorf("diagonal: %v", d)
	}
}

// ExampleTestMatrix generates a LAPACK-style test matrix with a known
// spectrum.
func ExampleTestMatrix() {
	tm := TestMatrix{Rows: 6, Cols: 4, Mode: ModeGeometric, Cond: 1000}
	a, sv := tm.Generate(rand.New(rand.NewPCG(1, 2)))
	r, c := a.Dims()
	fmt.Println(tm, r, c)
	fmt.Printf("%.4g\n", sv)
	// Output:
	// 6x4/geometric/cond=1e+03 6 4
	// [1 0.1 0.01 0.001]
}
