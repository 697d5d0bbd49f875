package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// symmetricDAGs returns count random hidden-variable models (n x k,
// density 0.3, gap 0.5) with uniform and Laplace noises, hidden and
// observed, that satisfy the conditions of the coefficient step (the
// expansion property and l1 recovery, see satisfiesConditions), with
// their seeds.
func symmetricDAGs(t *testing.T, n, k, count int) ([]*synth.DAG, []uint64) {
	var ms []*synth.DAG
	var seeds []uint64
	for s := uint64(1); len(ms) < count && s < 200; s++ {
		m := synth.RandomDAG(rand.New(rand.NewPCG(s, 1)), n, k, 0.3, 0.5, synth.Symmetric)
		if satisfiesConditions(t, m.A, dagHiddenSigma(m), false) {
			ms, seeds = append(ms, m), append(seeds, s)
		}
	}
	if len(ms) < count {
		t.Fatalf("only %d symmetric models %dx%d satisfy the conditions", len(ms), n, k)
	}
	return ms, seeds
}

// learnSampled runs LearnDAG on N samples of m (seed 1000+seed) with
// the cumulants c, and returns the result with the relative Frobenius
// errors of A and Lambda after alignment (eval.RelError).
func learnSampled(t *testing.T, m *synth.DAG, N int, seed uint64, c Cumulants) (*DAG, float64, float64) {
	t.Helper()
	_, k := m.Dims()
	src := m.Samples(N, 1000+seed)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := LearnDAG(context.Background(), sm.Sigma, &SampleThird{Moments: sm, Src: src}, k, &DAGOptions{Options: Options{Seed: seed}, Cumulants: c})
	if err != nil {
		t.Fatalf("seed %d, N = %d, %v: %v", seed, N, c, err)
	}
	ta, tl := dagTruth(m)
	ea, el := alignDAG(ta, d, d.Lambda)
	return d, eval.RelError(ta, ea), eval.RelError(tl, el)
}

// TestLearnDAGSymmetricNoise: on hidden-variable models whose noises
// are all uniform or Laplace (skewness 0), CumulantsAuto chooses the
// fourth cumulant, and A and Lambda converge as N grows: at N = 100000
// every model's relative error of A is at most 0.02 and of Lambda at
// most 0.05 (measured: at most 0.0068 and 0.024), and the mean error of
// Lambda falls from N = 20000 (measured 0.029) to 100000 (0.013).
// The third cumulant alone, blind to symmetric noises, gets Lambda
// wrong: at N = 100000 its relative error is at least 10 times the
// fourth's on every model (measured: 25 times and more) and 0.5 on
// average (measured 1.1).
func TestLearnDAGSymmetricNoise(t *testing.T) {
	count := 5
	if testutil.SlowTarget() {
		count = 2
	}
	ms, seeds := symmetricDAGs(t, 30, 4, count)
	var mean20, mean100, mean3 float64
	for i, m := range ms {
		for _, N := range []int{20000, 100000} {
			d, ea, el := learnSampled(t, m, N, seeds[i], CumulantsAuto)
			t.Logf("seed %d N = %d: %v, dist A %.3g, dist Lambda %.3g, kurtosis %.3f, %d steps", seeds[i], N, d.Cumulants, ea, el, d.Kurtosis, d.Iterations)
			if d.Cumulants != CumulantsFourth {
				t.Errorf("seed %d N = %d: chose %v, want fourth", seeds[i], N, d.Cumulants)
			}
			if len(d.Kurtosis) != len(d.Skewness) || len(d.NoiseFourth) != len(d.NoiseVar) {
				t.Errorf("seed %d N = %d: %d kurtoses for %d noises, %d noise fourth cumulants for %d variables", seeds[i], N, len(d.Kurtosis), len(d.Skewness), len(d.NoiseFourth), len(d.NoiseVar))
			}
			for j, k := range d.Kurtosis {
				if !(math.Abs(k) >= 0.6) {
					t.Errorf("seed %d N = %d: hidden noise %d has excess kurtosis %.3g; uniform and Laplace have -1.2 and 3", seeds[i], N, j, k)
				}
			}
			if N == 20000 {
				mean20 += el / float64(len(ms))
				continue
			}
			mean100 += el / float64(len(ms))
			if !(ea <= 0.02) || !(el <= 0.05) {
				t.Errorf("seed %d N = %d: dist A %.3g (bound 0.02), dist Lambda %.3g (bound 0.05)", seeds[i], N, ea, el)
			}
			_, _, el3 := learnSampled(t, m, N, seeds[i], CumulantsThird)
			t.Logf("seed %d N = %d: third cumulant only: dist Lambda %.3g", seeds[i], N, el3)
			mean3 += el3 / float64(len(ms))
			if !(el3 >= 10*el) {
				t.Errorf("seed %d N = %d: the third cumulant found Lambda of symmetric noises within %.3g, the fourth within %.3g", seeds[i], N, el3, el)
			}
		}
	}
	if !(mean3 >= 0.5) {
		t.Errorf("the third cumulant's mean dist Lambda on symmetric noises is %.3g, below 0.5", mean3)
	}
	t.Logf("mean dist Lambda: %.3g at N = 20000, %.3g at N = 100000", mean20, mean100)
	if !(mean100 < mean20) || !(mean100 <= 0.03) {
		t.Errorf("mean dist Lambda %.3g at N = 100000 (bound 0.03) against %.3g at N = 20000: no convergence", mean100, mean20)
	}
}

// TestLearnDAGSkewedKeepsThird: on skewed models that satisfy the
// conditions, CumulantsAuto keeps the third cumulant, and then returns
// exactly CumulantsThird's estimate with the hidden noises' excess
// kurtosis measured besides, unless a noise that the third recovers is
// not significantly skewed against its measured standard error (a
// direction that the observation noise dominates): then it takes the
// fourth, whose Lambda must be no worse. Of the three models, the first
// two keep the third; the third (seed 19) switches, and its relative
// error of Lambda goes from 0.117 to 0.018.
func TestLearnDAGSkewedKeepsThird(t *testing.T) {
	ms, seeds := conditionedDAGs(t, 24, 4, 0.5, 3, false)
	kept := 0
	for i, m := range ms {
		auto, _, el := learnSampled(t, m, 20000, seeds[i], CumulantsAuto)
		third, _, el3 := learnSampled(t, m, 20000, seeds[i], CumulantsThird)
		t.Logf("seed %d: %v, dist Lambda %.3g (third: %.3g), kurtosis %.3f", seeds[i], auto.Cumulants, el, el3, auto.Kurtosis)
		if third.Cumulants != CumulantsThird || !slices.ContainsFunc(third.Kurtosis, math.IsNaN) {
			t.Errorf("seed %d: CumulantsThird reports %v, kurtosis %v", seeds[i], third.Cumulants, third.Kurtosis)
		}
		if slices.ContainsFunc(auto.Kurtosis, math.IsNaN) {
			t.Errorf("seed %d: CumulantsAuto did not measure the kurtosis: %v", seeds[i], auto.Kurtosis)
		}
		if auto.Cumulants != CumulantsThird {
			if !(el <= el3) {
				t.Errorf("seed %d: CumulantsAuto switched to %v and got dist Lambda %.3g, worse than the third's %.3g", seeds[i], auto.Cumulants, el, el3)
			}
			continue
		}
		kept++
		if !slices.Equal(auto.A.RawData(), third.A.RawData()) || !slices.Equal(auto.Lambda.RawData(), third.Lambda.RawData()) ||
			!slices.Equal(auto.Skewness, third.Skewness) || !slices.Equal(auto.Warnings, third.Warnings) || auto.NoiseFourth != nil {
			t.Errorf("seed %d: CumulantsAuto kept the third but its estimate differs from CumulantsThird's", seeds[i])
		}
	}
	if kept < 2 {
		t.Errorf("CumulantsAuto kept the third cumulant on %d of %d skewed models, want at least 2", kept, len(ms))
	}
}

// TestLearnDAGGaussianNoise: with Gaussian hidden noises neither
// cumulant separates them, and the verdict says so ("noise
// non-Gaussianity" fails), or LearnDAG returns an error.
func TestLearnDAGGaussianNoise(t *testing.T) {
	ms, seeds := symmetricDAGs(t, 30, 4, 1)
	m := *ms[0]
	m.Eta = slices.Clone(m.Eta)
	for j := range m.Eta {
		m.Eta[j].Kind = synth.Gaussian
	}
	_, k := m.Dims()
	src := m.Samples(20000, 7)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := LearnDAG(context.Background(), sm.Sigma, &SampleThird{Moments: sm, Src: src}, k, &DAGOptions{Options: Options{Seed: seeds[0]}})
	if err != nil {
		t.Logf("error: %v", err)
		return
	}
	t.Logf("%v, skewness %.3f, kurtosis %.3f, warnings %q", d.Cumulants, d.Skewness, d.Kurtosis, d.Warnings)
	if d.Cumulants == CumulantsThird || !slices.ContainsFunc(d.Warnings, func(w string) bool { return strings.HasPrefix(w, "noise non-Gaussianity FAILS") }) {
		t.Errorf("Gaussian hidden noises: chose %v with warnings %q; want the fourth or both with a noise non-Gaussianity warning", d.Cumulants, d.Warnings)
	}
}

// TestLearnDAGCumulantsOption: the fourth cumulant needs
// NoisyFourthMoments (population moments from a formula give none), the
// cross-moment learners take only the third, and an explicit
// CumulantsFourth on symmetric samples matches CumulantsAuto.
func TestLearnDAGCumulantsOption(t *testing.T) {
	ms, seeds := symmetricDAGs(t, 30, 4, 1)
	m := ms[0]
	_, k := m.Dims()
	for _, c := range []Cumulants{CumulantsFourth, CumulantsBoth} {
		if _, err := LearnDAG(context.Background(), m.Sigma(), PsiFunc(m.Psi), k, &DAGOptions{Cumulants: c}); !errors.Is(err, ErrBadOption) {
			t.Errorf("LearnDAG, %v with PsiFunc: %v, want ErrBadOption", c, err)
		}
		if _, err := LearnCrossDAG(context.Background(), m.Sigma(), nil, k, &DAGOptions{Cumulants: c}); !errors.Is(err, ErrBadOption) {
			t.Errorf("LearnCrossDAG, %v: %v, want ErrBadOption", c, err)
		}
	}
	// Exact symmetric moments leave the third cumulant, which refuses.
	if _, err := LearnDAG(context.Background(), m.Sigma(), PsiFunc(m.Psi), k, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("LearnDAG on exact symmetric moments: %v, want ErrRankDeficient", err)
	}
	auto, _, _ := learnSampled(t, m, 20000, seeds[0], CumulantsAuto)
	fourth, ea, el := learnSampled(t, m, 20000, seeds[0], CumulantsFourth)
	if fourth.Cumulants != CumulantsFourth || !slices.Equal(auto.Lambda.RawData(), fourth.Lambda.RawData()) {
		t.Errorf("CumulantsFourth chose %v, Lambda equal to Auto's: %v", fourth.Cumulants, slices.Equal(auto.Lambda.RawData(), fourth.Lambda.RawData()))
	}
	both, eb, elb := learnSampled(t, m, 20000, seeds[0], CumulantsBoth)
	t.Logf("fourth: dist A %.3g, Lambda %.3g; both: dist A %.3g, Lambda %.3g", ea, el, eb, elb)
	if both.Cumulants != CumulantsBoth || !(elb <= 0.1) {
		t.Errorf("CumulantsBoth: chose %v, dist Lambda %.3g (bound 0.1)", both.Cumulants, elb)
	}
}

// TestLearnDAGNoiseCumulants: the fourth-order route's estimates of the
// observation noises' cumulants (from the part of the diagonal slices
// outside the range of L, see noiseTerms) are consistent: at N =
// 100000 the median over the 30 variables of |kappa_est - kappa| /
// sigma^4 is at most 0.1 (measured 0.035 to 0.064; the largest, of
// strongly observed variables, up to 1.3) and that of |mu_est| /
// sigma^3 (symmetric noises: mu = 0) at most 0.05 (measured 0.009 to
// 0.018).
func TestLearnDAGNoiseCumulants(t *testing.T) {
	ms, seeds := symmetricDAGs(t, 30, 4, 3)
	for i, m := range ms {
		d, _, _ := learnSampled(t, m, 100000, seeds[i], CumulantsFourth)
		var e4, e3 []float64
		for l, e := range m.Eps {
			k4 := -1.2
			if e.Kind == synth.Laplace {
				k4 = 3
			}
			e4 = append(e4, math.Abs(d.NoiseFourth[l]-k4*e.Var*e.Var)/(e.Var*e.Var))
			e3 = append(e3, math.Abs(d.NoiseThird[l])/math.Pow(e.Var, 1.5))
		}
		slices.Sort(e4)
		slices.Sort(e3)
		t.Logf("seed %d: kappa error median %.3g, largest %.3g; |mu| median %.3g, largest %.3g", seeds[i], e4[len(e4)/2], e4[len(e4)-1], e3[len(e3)/2], e3[len(e3)-1])
		if !(e4[len(e4)/2] <= 0.1) || !(e3[len(e3)/2] <= 0.05) {
			t.Errorf("seed %d: median errors of the noise cumulants %.3g (fourth, bound 0.1) and %.3g (third, bound 0.05)", seeds[i], e4[len(e4)/2], e3[len(e3)/2])
		}
	}
}

// TestDiagonalMoments compares SampleThird.DiagonalMoments with the
// moments computed sample by sample.
func TestDiagonalMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const N, n, k = 3000, 7, 3
	x := mat.Zeros(N, n)
	for s := 0; s < N; s++ {
		for j := 0; j < n; j++ {
			x.Set(s, j, r.ExpFloat64()+float64(j))
		}
	}
	w := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			w.Set(i, j, r.NormFloat64())
		}
	}
	src := moments.DenseSamples{X: x}
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := (&SampleThird{Moments: sm, Src: src}).DiagonalMoments(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	m2, m3, m4 := make([]float64, n), make([]float64, n), make([]float64, n)
	xy, x2y, x3y := mat.Zeros(n, k), mat.Zeros(n, k), mat.Zeros(n, k)
	for s := 0; s < N; s++ {
		c := make([]float64, n)
		for j := range c {
			c[j] = x.At(s, j) - sm.Mean[j]
		}
		y := w.MulVecT(nil, c)
		for i, v := range c {
			m2[i] += v * v / N
			m3[i] += v * v * v / N
			m4[i] += v * v * v * v / N
			for j, yj := range y {
				xy.Set(i, j, xy.At(i, j)+v*yj/N)
				x2y.Set(i, j, x2y.At(i, j)+v*v*yj/N)
				x3y.Set(i, j, x3y.At(i, j)+v*v*v*yj/N)
			}
		}
	}
	rel := func(a, b []float64) float64 {
		var d, s float64
		for i := range a {
			d = math.Max(d, math.Abs(a[i]-b[i]))
			s = math.Max(s, math.Abs(b[i]))
		}
		return d / s
	}
	for _, c := range []struct {
		name      string
		got, want []float64
	}{{"M2", d.M2, m2}, {"M3", d.M3, m3}, {"M4", d.M4, m4}, {"XY", d.XY.RawData(), xy.RawData()}, {"X2Y", d.X2Y.RawData(), x2y.RawData()}, {"X3Y", d.X3Y.RawData(), x3y.RawData()}} {
		if e := rel(c.got, c.want); !(e <= 1e-12) {
			t.Errorf("%s: relative error %.3g (bound 1e-12)", c.name, e)
		}
	}
}

// TestNoiseTermsKeepTruth: on a model whose hidden noises are all
// uniform and whose observed ones are uniform or Laplace (a chain of
// four hidden variables), the true noise directions are a fixed point
// of the noise-corrected fourth-order iteration (every direction stays
// within |cos| >= 0.995 of where it started; measured 0.9991) but not
// of the iteration without the observation noises' fourth cumulants,
// which the Laplace noises pull to a mixture of two directions (|cos|
// <= 0.98; measured 0.922).
func TestNoiseTermsKeepTruth(t *testing.T) {
	if testutil.SlowTarget() {
		t.Skip("400000 samples")
	}
	m := synth.RandomDAG(rand.New(rand.NewPCG(45, 1)), 30, 4, 0.3, 0.5, synth.Symmetric)
	n, k := m.Dims()
	const N = 400000
	src := m.Samples(N, 45)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := (&DAGOptions{}).defaults()
	o.Seed = 45
	coef, err := coefficientMatrix(context.Background(), sm.Sigma, k, &o.Options, rand.New(rand.NewPCG(o.Seed, 0xc0ef)), "")
	if err != nil {
		t.Fatal(err)
	}
	w, winvT, _, err := whiten(coef.DLD.L, k)
	if err != nil {
		t.Fatal(err)
	}
	st := &SampleThird{Moments: sm, Src: src}
	y, err := st.WhitenedSamples(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := st.DiagonalMoments(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	nt := newNoiseTerms(y, w, winvT, dm, coef.DLD.D, o.MaxNoiseSkew)
	// The true directions: W^T B diag(sd(eta)), B = A G, made exactly
	// orthonormal.
	mix := m.Mixing()
	for j := 0; j < k; j++ {
		sd := math.Sqrt(m.Eta[j].Var)
		for i := 0; i < n; i++ {
			mix.Set(i, j, mix.At(i, j)*sd)
		}
	}
	var vt mat.Dense
	vt.MulAT(w, mix)
	truth, err := symOrth(&vt)
	if err != nil {
		t.Fatal(err)
	}
	leastCos := func(fourth []float64) float64 {
		nt.fourth = fourth
		v, _, _, err := iterate(context.Background(), y, nil, truth, kurtosisContrast, &o, fourthTol, nil, nt)
		if err != nil {
			t.Fatal(err)
		}
		var c mat.Dense
		c.MulAT(truth, v)
		least := 1.0
		for j := 0; j < k; j++ {
			least = math.Min(least, math.Abs(c.At(j, j)))
		}
		return least
	}
	corrected := leastCos(nt.fourth)
	plain := leastCos(nil)
	t.Logf("least |cos| to the true directions: %.4f with the noise terms, %.4f without", corrected, plain)
	if !(corrected >= 0.995) || !(plain <= 0.98) {
		t.Errorf("least |cos| %.4f with the noise terms (bound >= 0.995), %.4f without (bound <= 0.98)", corrected, plain)
	}
}

// TestLearnDAGMixedNoise: with hidden noises drawn from uniform,
// Laplace, exponential and chi-square, some symmetric and some skewed,
// CumulantsAuto takes the fourth cumulant (every noise is kurtic) and
// at N = 100000 finds Lambda within 0.05 relative error on each model
// (measured 0.0054 to 0.037; the third cumulant alone: 0.051 to 1.3).
func TestLearnDAGMixedNoise(t *testing.T) {
	count := 4
	if testutil.SlowTarget() {
		count = 1
	}
	kinds := []synth.NoiseKind{synth.Uniform, synth.Exponential, synth.Laplace, synth.ChiSquared}
	found := 0
	for s := uint64(1); found < count && s < 300; s++ {
		m := synth.RandomDAG(rand.New(rand.NewPCG(s, 1)), 30, 4, 0.3, 0.5, kinds)
		if !satisfiesConditions(t, m.A, dagHiddenSigma(m), false) {
			continue
		}
		found++
		d, ea, el := learnSampled(t, m, 100000, s, CumulantsAuto)
		t.Logf("seed %d: %v, dist A %.3g, dist Lambda %.3g, skewness %.2f, kurtosis %.2f", s, d.Cumulants, ea, el, d.Skewness, d.Kurtosis)
		if d.Cumulants != CumulantsFourth || !(el <= 0.05) || len(d.Warnings) != 0 {
			t.Errorf("seed %d: chose %v, dist Lambda %.3g (bound 0.05), warnings %q", s, d.Cumulants, el, d.Warnings)
		}
	}
}
