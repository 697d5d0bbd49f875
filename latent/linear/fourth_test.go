package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// observedData draws a fully observed BN on p variables with noises of
// the given families (Bernoulli(0.3)-Gaussian Lambda with gap 0.5, as
// observedModel), relabels the variables by a random permutation so
// that the causal order is not the labels' order, and returns its Lambda
// in the new labels and N samples with their moments.
func observedData(t *testing.T, seed uint64, p, n int, kinds []synth.NoiseKind) (*mat.Dense, *SampleThird) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 18))
	m := synth.RandomDAG(r, p, p, 0.3, 0.5, kinds)
	m.A = mat.Identity(p)
	for i := range m.Eps {
		m.Eps[i] = synth.Noise{Kind: synth.Gaussian, Var: 0}
	}
	perm := r.Perm(p) // variable i of the data is variable perm[i] of m
	raw := mat.Zeros(n, p)
	m.Samples(n, seed+100).Block(0, n, raw)
	x := mat.Zeros(n, p)
	for s := 0; s < n; s++ {
		for i, pi := range perm {
			x.Set(s, i, raw.At(s, pi))
		}
	}
	lambda := mat.Zeros(p, p)
	for i, pi := range perm {
		for j, pj := range perm {
			lambda.Set(i, j, m.Lambda.At(pi, pj))
		}
	}
	src := moments.DenseSamples{X: x}
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return lambda, &SampleThird{Moments: sm, Src: src}
}

// misordered counts the true edges j -> i (lambda[i][j] != 0) with i
// before j in order.
func misordered(lambda *mat.Dense, order []int) int {
	p, _ := lambda.Dims()
	pos := make([]int, p)
	for i, v := range order {
		pos[v] = i
	}
	bad := 0
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			if lambda.At(i, j) != 0 && pos[j] > pos[i] {
				bad++
			}
		}
	}
	return bad
}

// supportErrors counts the true edges with |weight| >= strong whose
// estimate is at most cut in magnitude (missed) and the non-edges whose
// estimate exceeds cut (spurious).
func supportErrors(lambda, est *mat.Dense, strong, cut float64) (missed, spurious int) {
	p, _ := lambda.Dims()
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			w, e := lambda.At(i, j), math.Abs(est.At(i, j))
			switch {
			case w == 0 && e > cut:
				spurious++
			case math.Abs(w) >= strong && e <= cut:
				missed++
			}
		}
	}
	return missed, spurious
}

// TestObservedBNSymmetricNoise: with uniform and with Laplace noises (p
// = 10, N = 20000) the default choice is the fourth cumulant, the causal
// order is exact (no true edge against it) and the support is recovered
// from the second-moment Lambda given the order: every edge of weight at
// least 0.2 above 0.1, every non-edge at most 0.1. The third cumulant
// alone, the learner before fourth moments, misorders edges on the same
// data (so the test can tell the two apart) and is warned about.
func TestObservedBNSymmetricNoise(t *testing.T) {
	ctx := context.Background()
	for _, kind := range synth.Symmetric {
		for _, seed := range []uint64{1, 2} {
			lambda, third := observedData(t, seed, 10, 20000, []synth.NoiseKind{kind})
			bn, err := LearnObservedBN(ctx, third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: seed}})
			if err != nil {
				t.Fatalf("%v, seed %d: %v", kind, seed, err)
			}
			if bn.Cumulants != CumulantsFourth {
				t.Errorf("%v, seed %d: chose the %v cumulants, want fourth", kind, seed, bn.Cumulants)
			}
			if m := misordered(lambda, bn.Order); m != 0 {
				t.Errorf("%v, seed %d: %d true edges against the learned order", kind, seed, m)
			}
			missed, spurious := supportErrors(lambda, bn.LambdaSecond, 0.2, 0.1)
			if missed+spurious > 0 {
				t.Errorf("%v, seed %d: support: %d strong edges missed, %d spurious", kind, seed, missed, spurious)
			}
			if len(bn.Warnings) > 0 {
				t.Errorf("%v, seed %d: warnings %q", kind, seed, bn.Warnings)
			}
			want := -1.2
			if kind == synth.Laplace {
				want = 3
			}
			for i, k := range bn.Kurtosis {
				// Sample excess kurtosis at N = 20000: its standard error
				// is 0.008 for the uniform and 0.24 for the Laplace
				// (delta method), so 0.1 is 12 and 0.75 three of them.
				if tol := map[bool]float64{true: 0.75, false: 0.1}[kind == synth.Laplace]; math.Abs(k-want) > tol {
					t.Errorf("%v, seed %d: excess kurtosis of eta_%d %.3g, want %v within %v", kind, seed, i, k, want, tol)
				}
			}
			t.Logf("%v, seed %d: %d iterations, %d edges", kind, seed, bn.Iterations, countEdges(lambda))

			old, err := LearnObservedBN(ctx, third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: seed}, Cumulants: CumulantsThird})
			if err != nil {
				t.Fatalf("%v, seed %d, third cumulant: %v", kind, seed, err)
			}
			if m := misordered(lambda, old.Order); m == 0 || len(old.Warnings) == 0 {
				t.Errorf("%v, seed %d: the third cumulant alone misorders %d edges with warnings %q; want some of both", kind, seed, m, old.Warnings)
			}
		}
	}
}

func countEdges(lambda *mat.Dense) int {
	p, _ := lambda.Dims()
	c := 0
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			if lambda.At(i, j) != 0 {
				c++
			}
		}
	}
	return c
}

// TestObservedBNSkewedNoise: with skewed noises the default stays with
// the third cumulant, and its result is the third-cumulant learner's to
// the bit, with an exact order at N = 20000; it also reports the
// kurtosis of the recovered noises.
func TestObservedBNSkewedNoise(t *testing.T) {
	ctx := context.Background()
	lambda, third := observedData(t, 3, 10, 20000, synth.Skewed)
	bn, err := LearnObservedBN(ctx, third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if bn.Cumulants != CumulantsThird {
		t.Errorf("chose the %v cumulants, want third", bn.Cumulants)
	}
	old, err := LearnObservedBN(ctx, third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: 3}, Cumulants: CumulantsThird})
	if err != nil {
		t.Fatal(err)
	}
	var d mat.Dense
	d.Sub(bn.Lambda, old.Lambda)
	if e := d.NormMax(); e != 0 {
		t.Errorf("the default differs from the third cumulant's result by %g", e)
	}
	if m := misordered(lambda, bn.Order); m != 0 {
		t.Errorf("%d true edges against the learned order", m)
	}
	if len(bn.Warnings) > 0 {
		t.Errorf("warnings %q", bn.Warnings)
	}
	// The default measures the kurtosis of the recovered noises (all of
	// the skewed families have excess kurtosis above 1); the third
	// cumulant alone does not look at it.
	for i, k := range bn.Kurtosis {
		if !(k > 0.5) || !math.IsNaN(old.Kurtosis[i]) {
			t.Errorf("Kurtosis %v, want all above 0.5; forced third cumulant %v, want NaN", bn.Kurtosis, old.Kurtosis)
			break
		}
	}
}

// TestObservedBNMixedNoise: skewed and symmetric noises together (p =
// 10, N = 20000): the third cumulant does not separate the symmetric
// ones, so the default moves to the fourth (or both), with an exact
// order and no warning.
func TestObservedBNMixedNoise(t *testing.T) {
	ctx := context.Background()
	kinds := []synth.NoiseKind{synth.Exponential, synth.ChiSquared, synth.Uniform, synth.Laplace}
	lambda, third := observedData(t, 4, 10, 20000, kinds)
	bn, err := LearnObservedBN(ctx, third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if bn.Cumulants == CumulantsThird {
		t.Errorf("chose the third cumulants for symmetric noises")
	}
	if m := misordered(lambda, bn.Order); m != 0 {
		t.Errorf("%v: %d true edges against the learned order", bn.Cumulants, m)
	}
	if len(bn.Warnings) > 0 {
		t.Errorf("%v: warnings %q", bn.Cumulants, bn.Warnings)
	}
	both, err := LearnObservedBN(ctx, third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: 4}, Cumulants: CumulantsBoth})
	if err != nil {
		t.Fatal(err)
	}
	if both.Cumulants != CumulantsBoth {
		t.Errorf("CumulantsBoth reports %v", both.Cumulants)
	}
	if m := misordered(lambda, both.Order); m != 0 || len(both.Warnings) > 0 {
		t.Errorf("both: %d true edges against the learned order, warnings %q", m, both.Warnings)
	}
}

// TestObservedBNGaussianNoise: Gaussian noises (p = 8, N = 20000) carry
// no information in either cumulant; the learner still returns an
// estimate (of the fourth cumulant: no noise is skewed, so both would
// not help), with the kurtosis and non-Gaussianity checks failing in
// its verdict.
func TestObservedBNGaussianNoise(t *testing.T) {
	_, third := observedData(t, 5, 8, 20000, []synth.NoiseKind{synth.Gaussian})
	bn, err := LearnObservedBN(context.Background(), third.Moments.Sigma, third, &DAGOptions{Options: Options{Seed: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if bn.Cumulants != CumulantsFourth {
		t.Errorf("chose the %v cumulants, want fourth", bn.Cumulants)
	}
	for _, name := range []string{"noise kurtosis", "noise non-Gaussianity"} {
		found := false
		for _, c := range bn.Checks {
			if c.Name == name {
				found = true
				if c.Holds || !(c.Margin < 0) {
					t.Errorf("check holds: %v", c)
				}
			}
		}
		if !found {
			t.Errorf("no %s check in %v", name, bn.Checks)
		}
		if !strings.Contains(bn.Verdict.String(), name+" FAILS") {
			t.Errorf("warnings %q lack the %s failure", bn.Warnings, name)
		}
	}
}

// TestObservedBNCumulantsOption: a value out of range is ErrBadOption,
// and so is asking for fourth moments of moments that have none.
func TestObservedBNCumulantsOption(t *testing.T) {
	ctx := context.Background()
	m := observedModel(1, 6)
	for _, c := range []Cumulants{-1, CumulantsBoth + 1} {
		if _, err := LearnObservedBN(ctx, m.Sigma(), PsiFunc(m.Psi), &DAGOptions{Cumulants: c}); !errors.Is(err, ErrBadOption) {
			t.Errorf("Cumulants %d: err %v, want ErrBadOption", int(c), err)
		}
	}
	for _, c := range []Cumulants{CumulantsFourth, CumulantsBoth} {
		if _, err := LearnObservedBN(ctx, m.Sigma(), PsiFunc(m.Psi), &DAGOptions{Cumulants: c}); !errors.Is(err, ErrBadOption) {
			t.Errorf("%v on PsiFunc: err %v, want ErrBadOption", c, err)
		}
	}
	// Exact third moments of skewed noises: the default is the third
	// cumulant, exact.
	bn, err := LearnObservedBN(ctx, m.Sigma(), PsiFunc(m.Psi), nil)
	if err != nil {
		t.Fatal(err)
	}
	if bn.Cumulants != CumulantsThird {
		t.Errorf("exact moments: chose %v", bn.Cumulants)
	}
	checkClose(t, "exact moments: Lambda", m.Lambda, bn.Lambda, 1e-8)
}

// whitenedICA returns N = 20000 whitened samples y (N x 6) of three
// uniform and three Laplace noises (kinds) along the random orthonormal
// directions v (columns).
func whitenedICA(t *testing.T) (y, v *mat.Dense, kinds []synth.NoiseKind) {
	t.Helper()
	const k, n = 6, 20000
	r := rand.New(rand.NewPCG(6, 6))
	v = randomOrthogonal(t, r, k)
	kinds = []synth.NoiseKind{synth.Uniform, synth.Laplace, synth.Uniform, synth.Laplace, synth.Uniform, synth.Laplace}
	e := mat.Zeros(n, k)
	for s := 0; s < n; s++ {
		for j, kind := range kinds {
			e.Set(s, j, synth.Noise{Kind: kind, Var: 1}.Draw(r))
		}
	}
	// y = e V^T whitened by the symmetric root of its sample covariance
	// (as the learner whitens), which moves the true directions by
	// O(1/sqrt(N)) only.
	var raw, cov, root mat.Dense
	y = new(mat.Dense)
	raw.MulBT(e, v)
	cov.MulAT(&raw, &raw)
	cov.Scale(1.0/n, &cov)
	vals, u, err := topEigSym(&cov, k)
	if err != nil {
		t.Fatal(err)
	}
	scaled := u.Clone()
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			scaled.Set(i, j, u.At(i, j)/math.Sqrt(vals[j]))
		}
	}
	root.MulBT(scaled, u)
	y.Mul(&raw, &root)
	return y, v, kinds
}

// TestFourthOrderDirections: whitened samples y = V e of 6 independent
// unit-variance noises (three uniform, three Laplace; N = 20000) along
// the columns of a random orthonormal V. The fourth-order fixed point,
// polished, recovers every column to 1 - |cos| <= 1e-3 (an angle of
// 0.045; the sampling error of a direction is of order 1/sqrt(N) =
// 0.007 times a constant of the noises), and the
// measured excess kurtoses are within 0.15 (uniform) and 1 (Laplace) of
// -1.2 and 3 (their sample excess kurtoses have standard errors 0.008
// and 0.24 at this N).
func TestFourthOrderDirections(t *testing.T) {
	const k = 6
	y, v, kinds := whitenedICA(t)
	o := (&DAGOptions{}).defaults()
	c, err := fourthOrder(context.Background(), y, nil, rand.New(rand.NewPCG(1, 1)), &o)
	if err != nil {
		t.Fatal(err)
	}
	if !c.converged {
		t.Errorf("did not converge in %d steps", c.iters)
	}
	var cos mat.Dense
	cos.MulAT(v, c.v) // true direction i against found j
	for i, kind := range kinds {
		best, at := 0.0, -1
		for j := 0; j < k; j++ {
			if a := math.Abs(cos.At(i, j)); a > best {
				best, at = a, j
			}
		}
		if 1-best > 1e-3 {
			t.Errorf("direction %d: 1 - |cos| = %.3g", i, 1-best)
			continue
		}
		want, tol := -1.2, 0.15
		if kind == synth.Laplace {
			want, tol = 3, 1
		}
		if math.Abs(c.kurt[at]-want) > tol {
			t.Errorf("direction %d (%v): excess kurtosis %.3g, want %v within %v", i, kind, c.kurt[at], want, tol)
		}
	}
}

// TestObservedOrderExact: on C = G P D exactly (G = (I - Lambda)^{-1}
// of a random DAG in a random labelling, P a permutation, D a scaling
// with signs), the order is a topological order of the DAG and the
// matching undoes P.
func TestObservedOrderExact(t *testing.T) {
	const p = 12
	r := rand.New(rand.NewPCG(12, 12))
	topo := r.Perm(p)
	lambda := mat.Zeros(p, p)
	for a := 0; a < p; a++ {
		for b := 0; b < a; b++ {
			if r.Float64() < 0.3 {
				lambda.Set(topo[a], topo[b], 0.5+1.5*r.Float64())
			}
		}
	}
	ilam := mat.Identity(p)
	ilam.Sub(ilam, lambda)
	g, err := inverse(ilam)
	if err != nil {
		t.Fatal(err)
	}
	perm := r.Perm(p) // column j of C is column perm[j] of G
	c := mat.Zeros(p, p)
	for j, pj := range perm {
		d := 0.5 + r.Float64()
		if r.IntN(2) == 0 {
			d = -d
		}
		for i := 0; i < p; i++ {
			c.Set(i, j, d*g.At(i, pj))
		}
	}
	order, match, err := observedOrder(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := misordered(lambda, order); m != 0 {
		t.Errorf("%d edges against the order %v", m, order)
	}
	for v, col := range match {
		if perm[col] != v {
			t.Errorf("variable %d matched to column %d, which holds G's column %d", v, col, perm[col])
		}
	}
}

// TestStandardErrors: the measured standard error of the skewness of
// Gaussian samples is sqrt(6/N) to within 5% (N = 50000), and of
// Laplace samples sqrt(63/N) to within 15% (its estimate rests on sixth
// moments).
func TestStandardErrors(t *testing.T) {
	const n = 50000
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		kind synth.NoiseKind
		want float64
		tol  float64
	}{{synth.Gaussian, math.Sqrt(6.0 / n), 0.05}, {synth.Laplace, math.Sqrt(63.0 / n), 0.15}} {
		p := mat.Zeros(n, 1)
		for s := 0; s < n; s++ {
			p.Set(s, 0, synth.Noise{Kind: c.kind, Var: 1}.Draw(r))
		}
		k3, k4 := make([]float64, 1), make([]float64, 1)
		cumulantsOf(p, k3, k4)
		se := standardErrors(p, k3)
		if math.Abs(se[0]/c.want-1) > c.tol {
			t.Errorf("%v: standard error %.4g, want %.4g within %v", c.kind, se[0], c.want, c.tol)
		}
	}
}

// TestFourthOrderVariableStart: with a whitening given, fourthOrder
// starts from variableStart (here W = I, the identity directions, at
// random angles to the true V of whitenedICA) and recovers every
// direction to 1 - |cos| <= 1e-3 as from the slice starts; the true
// directions pass pairwiseOptimal, and a pair of them rotated by pi/4
// (a 50:50 mixture of a uniform and a Laplace noise) or by pi/6 fails it
// (the best rotation of the pair is then pi/4 or pi/6 away, beyond
// pairMaxAngle = pi/8).
func TestFourthOrderVariableStart(t *testing.T) {
	const k = 6
	y, v, _ := whitenedICA(t)
	o := (&DAGOptions{}).defaults()
	c, err := fourthOrder(context.Background(), y, mat.Identity(k), rand.New(rand.NewPCG(1, 1)), &o)
	if err != nil {
		t.Fatal(err)
	}
	if !c.converged {
		t.Errorf("did not converge in %d steps", c.iters)
	}
	var cos mat.Dense
	cos.MulAT(v, c.v)
	for i := 0; i < k; i++ {
		best := 0.0
		for j := 0; j < k; j++ {
			best = math.Max(best, math.Abs(cos.At(i, j)))
		}
		if 1-best > 1e-3 {
			t.Errorf("direction %d: 1 - |cos| = %.3g", i, 1-best)
		}
	}
	proj := func(v *mat.Dense) *mat.Dense {
		var p mat.Dense
		p.Mul(y, v)
		return &p
	}
	if !pairwiseOptimal(proj(v)) {
		t.Error("the true directions fail the pairwise check")
	}
	for _, angle := range []float64{math.Pi / 4, math.Pi / 6} {
		mixed := rotatePair(v, 0, 1, angle) // a uniform and a Laplace direction
		if pairwiseOptimal(proj(mixed)) {
			t.Errorf("directions with a pair rotated by %.3g pass the pairwise check", angle)
		}
	}
}

// TestTanhFast: tanhFast is within 1e-15 of math.Tanh on a grid of
// [-40, 40] (step 1e-4, both sides of the clamp at 20, off the table's
// nodes by a step of 1/9999.7), and relatively within 1e-15 for |x| >=
// 0.5; NaN gives NaN and +-Inf gives +-1.
func TestTanhFast(t *testing.T) {
	for i := -400000; i <= 400000; i++ {
		x := float64(i) / 9999.7
		got, want := tanhFast(x), math.Tanh(x)
		d := math.Abs(got - want)
		if d > 1e-15 || math.Abs(x) >= 0.5 && d > 1e-15*math.Abs(want) {
			t.Fatalf("tanhFast(%v) = %v, math.Tanh %v", x, got, want)
		}
	}
	if got := tanhFast(math.NaN()); !math.IsNaN(got) {
		t.Errorf("tanhFast(NaN) = %v", got)
	}
	if tanhFast(math.Inf(1)) != 1 || tanhFast(math.Inf(-1)) != -1 {
		t.Errorf("tanhFast(+-Inf) = %v, %v", tanhFast(math.Inf(1)), tanhFast(math.Inf(-1)))
	}
}
