package synth

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/mat"
)

func TestEnsureGap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, gamma := range []float64{0.3, 0.5} {
		a := BernoulliGaussian(r, 200, 25, 0.3)
		b := a.Clone()
		EnsureGap(a, gamma)
		for i := 0; i < 200; i++ {
			var m1, m2 float64
			changed := 0
			for j := 0; j < 25; j++ {
				v := math.Abs(a.At(i, j))
				if v > m1 {
					m1, m2 = v, m1
				} else if v > m2 {
					m2 = v
				}
				if a.At(i, j) != b.At(i, j) {
					changed++
					if math.Signbit(a.At(i, j)) != math.Signbit(b.At(i, j)) {
						t.Fatal("EnsureGap flipped a sign")
					}
				}
			}
			if m1 > 0 && m2/m1 > 1-gamma+1e-12 || changed > 1 {
				t.Fatalf("row %d: ratio %v with gamma %v (%d entries changed)", i, m2/m1, gamma, changed)
			}
		}
	}
}

func TestG(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	m := RandomDAG(r, 40, 12, 0.3, 0.5, Skewed)
	var prod mat.Dense
	ilam := mat.Identity(12)
	ilam.Sub(ilam, m.Lambda)
	prod.Mul(ilam, m.G())
	if !mat.EqualApprox(&prod, mat.Identity(12), 1e-12) {
		t.Fatalf("(I - Lambda) G != I:\n%v", &prod)
	}
}

// TestNoise checks mean 0, the variance, the third moment and the fourth
// moment (from the family's excess kurtosis) of 400000 draws of each
// family to within 6 standard errors.
func TestNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const n = 400000
	// Excess kurtosis of each family at variance 0.7 (Poisson: 1/mean).
	exKurt := map[NoiseKind]float64{Exponential: 6, Poisson: 1 / 0.7, ChiSquared: 12, Gaussian: 0, Uniform: -1.2, Laplace: 3}
	for _, kind := range append(slices.Clone(All), Symmetric...) {
		nz := Noise{Kind: kind, Var: 0.7}
		var s1, s2, s3, s4, s6, s8 float64
		for i := 0; i < n; i++ {
			x := nz.Draw(r)
			s1 += x
			s2 += x * x
			s3 += x * x * x
			s4 += x * x * x * x
			s6 += x * x * x * x * x * x
			s8 += x * x * x * x * x * x * x * x
		}
		m1, m2, m3, m4 := s1/n, s2/n, s3/n, s4/n
		se1 := math.Sqrt(m2 / n)
		se2 := math.Sqrt((s4/n - m2*m2) / n)
		se3 := math.Sqrt((s6/n - m3*m3) / n)
		se4 := math.Sqrt((s8/n - m4*m4) / n)
		if math.Abs(m1) > 6*se1 || math.Abs(m2-nz.Var) > 6*se2 || math.Abs(m3-nz.ThirdMoment()) > 6*se3 {
			t.Errorf("%v: mean %v, variance %v (want %v), third moment %v (want %v)", kind, m1, m2, nz.Var, m3, nz.ThirdMoment())
		}
		if want := (exKurt[kind] + 3) * nz.Var * nz.Var; math.Abs(m4-want) > 6*se4 {
			t.Errorf("%v: fourth moment %v, want %v", kind, m4, want)
		}
	}
}

// TestSamplesBlocks checks that a sample is the same whichever block it
// is drawn in.
func TestSamplesBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for name, s := range map[string]interface {
		Block(lo, hi int, dst *mat.Dense)
		Dim() int
	}{
		"dag":       RandomDAG(r, 30, 6, 0.3, 0.5, Skewed).Samples(100, 1),
		"hierarchy": RandomHierarchy(r, []int{3, 9, 27}, 0.3, 0.5, All).Samples(100, 1),
	} {
		whole := mat.Zeros(100, s.Dim())
		s.Block(0, 100, whole)
		part := mat.Zeros(13, s.Dim())
		s.Block(40, 53, part)
		if !mat.Equal(part, whole.Slice(40, 53, 0, s.Dim())) {
			t.Fatalf("%s: samples 40..52 differ between blocks", name)
		}
	}
}

// maxZ returns the largest |emp_ab - pop_ab| / se_ab over the entries of
// the sample mean of f_ab(x) = x_a x_b g(x), where g is 1 (the second
// moment) or <zeta, x> (Psi), and se_ab is the standard error of that
// mean estimated from the same samples.
func maxZ(x *mat.Dense, g []float64, pop *mat.Dense) float64 {
	n, d := x.Dims()
	var worst float64
	for a := 0; a < d; a++ {
		for b := 0; b <= a; b++ {
			var s, s2 float64
			for i := 0; i < n; i++ {
				v := x.At(i, a) * x.At(i, b)
				if g != nil {
					v *= g[i]
				}
				s += v
				s2 += v * v
			}
			mean := s / float64(n)
			se := math.Sqrt((s2/float64(n) - mean*mean) / float64(n))
			worst = math.Max(worst, math.Abs(mean-pop.At(a, b))/se)
		}
	}
	return worst
}

// TestPopulationMoments compares the population moments of both models
// with 200000 samples entry by entry: every deviation must be within 5.5
// standard errors (for the 210 distinct entries of a 20 x 20 symmetric
// moment, a correct formula exceeds that with probability about 1e-5,
// while leaving out, say, the noise's third moments of Psi gives z-scores
// above 10).
func TestPopulationMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const n = 200000
	dag := RandomDAG(r, 20, 5, 0.3, 0.5, Skewed)
	x := mat.Zeros(n, 20)
	dag.Samples(n, 3).Block(0, n, x)
	zeta := make([]float64, 20)
	for i := range zeta {
		zeta[i] = r.NormFloat64()
	}
	if z := maxZ(x, nil, dag.Sigma()); z > 5.5 {
		t.Errorf("DAG Sigma: deviation of %.1f standard errors", z)
	}
	xz := x.MulVec(nil, zeta)
	psi := dag.Psi(zeta)
	if z := maxZ(x, xz, psi); z > 5.5 {
		t.Errorf("DAG Psi: deviation of %.1f standard errors", z)
	}
	wrong := psi.Clone()
	for i := 0; i < 20; i++ {
		wrong.Set(i, i, wrong.At(i, i)-zeta[i]*dag.Eps[i].ThirdMoment())
	}
	if z := maxZ(x, xz, wrong); z < 10 {
		t.Errorf("the test cannot tell Psi without the noise's third moments (z = %.1f)", z)
	}
	h := RandomHierarchy(r, []int{3, 8, 20}, 0.3, 0.5, All)
	h.Samples(n, 4).Block(0, n, x)
	if z := maxZ(x, nil, h.Sigma()); z > 5.5 {
		t.Errorf("hierarchy Sigma: deviation of %.1f standard errors", z)
	}
	s := h.Sigma()
	var st mat.Dense
	st.Copy(s.T())
	if !mat.Equal(s, &st) {
		t.Error("hierarchy Sigma is not exactly symmetric")
	}
}
