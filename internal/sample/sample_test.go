package sample

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGamma checks the mean and the variance (both equal to the shape)
// of 200000 draws to within 5 standard errors, for shapes on both sides
// of 1 (the two branches of the method).
func TestGamma(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 1))
	const n = 200000
	for _, shape := range []float64{0.05, 0.3, 1, 2.5, 10} {
		var s, s2 float64
		for range n {
			x := Gamma(r, shape)
			if !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("Gamma(%v) drew %v", shape, x)
			}
			s += x
			s2 += x * x
		}
		mean := s / n
		vr := s2/n - mean*mean
		// The sample mean has variance shape/n; the sample variance
		// about (mu4 - sigma^4)/n, with mu4 = 3 shape^2 + 6 shape.
		if math.Abs(mean-shape) > 5*math.Sqrt(shape/n) {
			t.Errorf("Gamma(%v): mean %v", shape, mean)
		}
		if math.Abs(vr-shape) > 5*math.Sqrt((2*shape*shape+6*shape)/n) {
			t.Errorf("Gamma(%v): variance %v", shape, vr)
		}
	}
}

// TestDirichlet checks that every draw is a probability vector, and the
// means alpha_j/a0 and variances m_j (1 - m_j)/(a0 + 1) of 100000 draws
// to within 5 standard errors (the variance's standard error from the
// sample fourth central moment).
func TestDirichlet(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 2))
	alpha := []float64{0.1, 0.5, 2, 0.4}
	const a0 = 3.0
	const n = 100000
	p := make([]float64, len(alpha))
	draws := make([][]float64, len(alpha))
	for range n {
		Dirichlet(r, alpha, p)
		var s float64
		for j, v := range p {
			if !(v >= 0) {
				t.Fatalf("proportion %v", v)
			}
			s += v
			draws[j] = append(draws[j], v)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("sum %v", s)
		}
	}
	for j, a := range alpha {
		m := a / a0
		v := m * (1 - m) / (a0 + 1)
		var mean float64
		for _, x := range draws[j] {
			mean += x / n
		}
		var m2, m4 float64
		for _, x := range draws[j] {
			e := (x - mean) * (x - mean)
			m2 += e / n
			m4 += e * e / n
		}
		if math.Abs(mean-m) > 5*math.Sqrt(v/n) {
			t.Errorf("mean[%d] = %v, want %v", j, mean, m)
		}
		if math.Abs(m2-v) > 5*math.Sqrt((m4-m2*m2)/n) {
			t.Errorf("variance[%d] = %v, want %v", j, m2, v)
		}
	}
	// Tiny alphas: every Gamma draw may underflow; the result is still a
	// probability vector (a vertex of the simplex).
	for range 100 {
		Dirichlet(r, []float64{1e-300, 1e-300}, p[:2])
		if p[0]+p[1] != 1 || p[0]*p[1] != 0 {
			t.Fatalf("tiny alphas: %v", p[:2])
		}
	}
}

// chiSquare returns the chi-square statistic of counts of n draws
// against weights w (zero-weight outcomes must have no draws: it fails
// the test otherwise) and its degrees of freedom.
func chiSquare(t *testing.T, counts []float64, n int, w []float64) (float64, int) {
	t.Helper()
	var s, chi float64
	for _, v := range w {
		s += v
	}
	df := -1
	for i, v := range w {
		e := float64(n) * v / s
		if e == 0 {
			if counts[i] != 0 {
				t.Fatalf("drew index %d of weight 0", i)
			}
			continue
		}
		chi += (counts[i] - e) * (counts[i] - e) / e
		df++
	}
	return chi, df
}

// TestAlias compares the frequencies of 10^6 draws with the weights by a
// chi-square statistic: seven non-zero weights, 6 degrees of freedom,
// whose 0.9999 quantile is about 27.9.
func TestAlias(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	w := []float64{1, 0, 3, 0.5, 7, 2, 0.01, 4}
	a := NewAlias(w)
	if a.Len() != len(w) {
		t.Fatalf("Len %d", a.Len())
	}
	const n = 1000000
	counts := make([]float64, len(w))
	for range n {
		counts[a.Draw(r)]++
	}
	if chi, df := chiSquare(t, counts, n, w); df != 6 || chi > 27.9 {
		t.Fatalf("chi-square %v with %d degrees of freedom", chi, df)
	}
	// one outcome: always drawn
	one := NewAlias([]float64{2.5})
	for range 100 {
		if one.Draw(r) != 0 {
			t.Fatal("one outcome: drew another")
		}
	}
}

// TestCategorical is TestAlias for inversion sampling, on a probability
// vector with a zero in the middle and at the end (5 non-zero weights:
// 4 degrees of freedom, 0.9999 quantile about 23.5).
func TestCategorical(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 4))
	p := []float64{0.1, 0.25, 0, 0.05, 0.4, 0.2, 0}
	const n = 1000000
	counts := make([]float64, len(p))
	for range n {
		counts[Categorical(r, p)]++
	}
	if chi, df := chiSquare(t, counts, n, p); df != 4 || chi > 23.5 {
		t.Fatalf("chi-square %v with %d degrees of freedom", chi, df)
	}
	// a sum short of 1 by rounding: the last positive index absorbs the
	// rest, never a zero-probability one
	short := []float64{0.5, 0.5 - 1e-9, 0}
	for range 100000 {
		if Categorical(r, short) == 2 {
			t.Fatal("drew an index of probability 0")
		}
	}
}

// TestSeeded: the same seed gives the same draws.
func TestSeeded(t *testing.T) {
	draw := func() []float64 {
		r := rand.New(rand.NewPCG(5, 5))
		p := make([]float64, 3)
		Dirichlet(r, []float64{0.5, 1, 2}, p)
		a := NewAlias(p)
		return append(p, float64(a.Draw(r)), float64(Categorical(r, p)), Gamma(r, 0.7))
	}
	a, b := draw(), draw()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("draw %d: %v then %v", i, a[i], b[i])
		}
	}
}

// TestPanics: programmer errors panic with a message.
func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Gamma(0)":          func() { Gamma(rand.New(rand.NewPCG(1, 1)), 0) },
		"Gamma(+Inf)":       func() { Gamma(rand.New(rand.NewPCG(1, 1)), math.Inf(1)) },
		"Dirichlet lengths": func() { Dirichlet(rand.New(rand.NewPCG(1, 1)), []float64{1}, make([]float64, 2)) },
		"NewAlias negative": func() { NewAlias([]float64{1, -1}) },
		"NewAlias zero sum": func() { NewAlias([]float64{0, 0}) },
		"NewAlias NaN":      func() { NewAlias([]float64{math.NaN()}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
