package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

// verdictModel is a model of a family of the verdict tests with its
// class: whether its true A meets the conditions (the expansion property
// and the l1 recovery of every column from exact moments).
type verdictModel struct {
	family string
	seed   uint64
	m      *synth.DAG
	passes bool
}

// smallModels draws count random small models (n = 12..24, k = 3..5,
// Example 2's kind with gap 0.5), which usually fail the expansion
// property.
func smallModels(t *testing.T, count int) []verdictModel {
	return randomModels(t, "small", count, 0.3)
}

// randomModels draws count random models with n = 12..24, k = 3..5 and
// edge density p (of A and Lambda).
func randomModels(t *testing.T, family string, count int, p float64) []verdictModel {
	var out []verdictModel
	for s := uint64(1); s <= uint64(count); s++ {
		r := rand.New(rand.NewPCG(s, 0x5a11))
		k := 3 + r.IntN(3)
		n := 12 + r.IntN(13)
		m := synth.RandomDAG(r, n, k, p, 0.5, synth.Skewed)
		out = append(out, verdictModel{family, s, m, satisfiesConditions(t, m.A, dagHiddenSigma(m), false)})
	}
	return out
}

// truthClass classifies the true A of m against the conditions at the
// support thresholds 0, 0.01, 0.02 and 0.05 of each column's largest
// entry: one letter each, P where the expansion property and the l1
// recovery of every column (from exact moments) hold, F where either
// fails. "PPPP" and "FFFF" are the models whose class does not hang on
// entries below 1% of their column's largest: on samples, no estimate
// resolves such entries at N <= 100k (the sampling error of an entry of
// A relative to its column's largest is 0.003 to 0.02 at N = 10k..100k
// in these families), so a check computed from data cannot tell the two
// classes apart there.
func truthClass(m *synth.DAG) string {
	ta, _ := dagTruth(m)
	h := dagHiddenSigma(m)
	var b strings.Builder
	for _, tol := range []float64{0, 0.01, 0.02, 0.05} {
		a := thresholded(ta, tol)
		margin, _, _ := ExpansionMargin(a, 0)
		cov, err := L1Recovery(context.Background(), a, h, nil)
		if margin >= 0 && err == nil && !slices.Contains(cov, false) {
			b.WriteByte('P')
		} else {
			b.WriteByte('F')
		}
	}
	return b.String()
}

// learnVerdict runs LearnDAG on the population moments of m (N = 0) or
// on N samples.
func learnVerdict(m *synth.DAG, N int, seed uint64) (*DAG, error) {
	return learnVerdictRefine(m, N, seed, false)
}

// learnVerdictRefine is learnVerdict with Options.RefineNoise set to
// refine.
func learnVerdictRefine(m *synth.DAG, N int, seed uint64, refine bool) (*DAG, error) {
	_, k := m.Dims()
	opts := &DAGOptions{Options: Options{Seed: seed, RefineNoise: refine}}
	if N == 0 {
		return LearnDAG(context.Background(), m.Sigma(), PsiFunc(m.Psi), k, opts)
	}
	src := m.Samples(N, 1000+seed)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		return nil, err
	}
	return LearnDAG(context.Background(), sm.Sigma, &SampleThird{Moments: sm, Src: src}, k, opts)
}

// relFrob is ||est - truth||_F / ||truth||_F.
func relFrob(truth, est *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(est, truth)
	return d.NormFrob() / truth.NormFrob()
}

// verdictLine formats the values of d's checks and its errors against
// the truth.
func verdictLine(m *synth.DAG, d *DAG) string {
	var b strings.Builder
	for _, c := range d.Checks {
		fmt.Fprintf(&b, " %s=%.3g", strings.ReplaceAll(c.Name, " ", "_"), c.Value)
	}
	ta, tl := dagTruth(m)
	tm, _, _ := ExpansionMargin(ta, 0)
	_, k := d.A.Dims()
	fmt.Fprintf(&b, " k=%d", k)
	if c := d.Coefficients; c != nil && c.DLD != nil {
		fmt.Fprintf(&b, " gapL=%.3g gapDLD=%.3g", c.TWM.EigenGap, c.DLD.Gap)
	}
	fmt.Fprintf(&b, " | true-exp %d", tm)
	ea, el := alignDAG(ta, d, d.Lambda)
	fmt.Fprintf(&b, " | distA %.3f relA %.3f relL %.3f warnings %d", eval.Dist(ta, ea), relFrob(ta, ea), relFrob(tl, el), len(d.Warnings))
	return b.String()
}

// TestVerdictSweep prints the measures behind the thresholds of the
// checks (MinSpectrumGap and the others): for small random models
// (most fail the conditions) on population moments and on samples, and
// for conditioned models on samples (gapL and gapDLD are the spectrum
// gaps of L and of the DLD blocks, whose least is spectrum_gap). Run
// with -v to see them; with MOMENTS_VERDICT_REFINE set the learner runs
// with Options.RefineNoise.
func TestVerdictSweep(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("the sweep only prints measures: run it with -v")
	}
	refine := os.Getenv("MOMENTS_VERDICT_REFINE") != ""
	small := smallModels(t, 30)
	small = append(small, randomModels(t, "dense", 15, 0.5)...)
	cond, seeds := conditionedDAGs(t, 24, 4, 0.5, 5, false)
	for i, m := range cond {
		small = append(small, verdictModel{"cond24x4", seeds[i], m, true})
	}
	cond, seeds = conditionedDAGs(t, 60, 8, 0.5, 3, false)
	for i, m := range cond {
		small = append(small, verdictModel{"cond60x8", seeds[i], m, true})
	}
	cond, seeds = conditionedDAGs(t, 150, 25, 0.5, 3, false)
	for i, m := range cond {
		small = append(small, verdictModel{"paper", seeds[i], m, true})
	}
	for _, vm := range small {
		n, k := vm.m.Dims()
		cls := truthClass(vm.m)
		for _, N := range []int{0, 2000, 10000, 100000} {
			if vm.family == "paper" && N < 10000 {
				continue // the sweep is about N >= 10k; population moments at this size take long
			}
			d, err := learnVerdictRefine(vm.m, N, vm.seed, refine)
			head := fmt.Sprintf("%-8s seed %2d %2dx%d pass=%-5v cls %s N=%-6d", vm.family, vm.seed, n, k, vm.passes, cls, N)
			if err != nil {
				t.Logf("%s error: %v", head, err)
				continue
			}
			t.Logf("%s%s", head, verdictLine(vm.m, d))
		}
	}
}

// observedVerdictModel is a fully observed BN on n variables whose
// noises are skewed or, if symmetric, Gaussian.
func observedVerdictModel(seed uint64, n int, symmetric bool) *synth.DAG {
	m := observedModel(seed, n)
	if symmetric {
		for i := range m.Eta {
			m.Eta[i].Kind = synth.Gaussian
		}
	}
	return m
}

func learnObservedVerdict(m *synth.DAG, N int) (*ObservedBN, error) {
	opts := &DAGOptions{Options: Options{Seed: 2}}
	if N == 0 {
		return LearnObservedBN(context.Background(), m.Sigma(), PsiFunc(m.Psi), opts)
	}
	src := m.Samples(N, 9)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		return nil, err
	}
	return LearnObservedBN(context.Background(), sm.Sigma, &SampleThird{Moments: sm, Src: src}, opts)
}

// TestObservedVerdictSweep prints the checks of LearnObservedBN on
// skewed and on Gaussian noises.
func TestObservedVerdictSweep(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("the sweep only prints measures: run it with -v")
	}
	for _, sym := range []bool{false, true} {
		for seed := uint64(1); seed <= 5; seed++ {
			m := observedVerdictModel(seed, 8, sym)
			for _, N := range []int{0, 2000, 10000, 100000} {
				bn, err := learnObservedVerdict(m, N)
				if err != nil {
					t.Logf("symmetric=%v seed %d N=%d: error %v", sym, seed, N, err)
					continue
				}
				var b strings.Builder
				for _, c := range bn.Checks {
					fmt.Fprintf(&b, " %s=%.3g", strings.ReplaceAll(c.Name, " ", "_"), c.Value)
				}
				t.Logf("symmetric=%-5v seed %d N=%-6d%s relL %.3f warnings %d", sym, seed, N, b.String(), relFrob(m.Lambda, bn.Lambda), len(bn.Warnings))
			}
		}
	}
}

// verdictException is an estimate of a model that meets the conditions
// and still carries a warning at N >= 10k, with the reason, checked by
// TestVerdictFamilies so that the list stays exact.
type verdictException struct {
	family string
	seed   uint64
	N      int
	// why says why the warning is right; check verifies it.
	why   string
	check func(d *DAG, relA, relL float64) bool
}

// verdictExceptions are the estimates of passing models (class PPPP) at
// N >= 10k that carry a warning, all measured by TestVerdictSweep; why
// each warning is right is checked by TestVerdictExceptionEvidence.
var verdictExceptions = []verdictException{
	{"cond24x4", 19, 10000, "the estimate is wrong (rel F of A above 0.3): a hidden variable with three small coefficients, which the second moments at 10k do not resolve",
		func(_ *DAG, relA, _ float64) bool { return relA > 0.3 }},
	{"cond24x4", 19, 100000, "the halves of the samples (50k each) disagree: DLD on the full estimate's partition gives one a wrong A (split ratio above 50); the estimate also carries the spectrum gap of a DLD block (1.21), which Options.RefineNoise keeps while it makes the halves agree",
		func(d *DAG, _, _ float64) bool { return checkValue(d, "split stability") > 50 }},
	{"paper", 2, 10000, "Lambda is wrong (rel F above 0.5): seven hidden variables owe under 5% of their standard deviation to their own noise, and their order is below the sampling error of the noise directions at 10k",
		func(_ *DAG, _, relL float64) bool { return relL > 0.5 }},
}

// checkValue returns the value of d's check named name (NaN if absent).
func checkValue(d *DAG, name string) float64 {
	for _, c := range d.Checks {
		if c.Name == name {
			return c.Value
		}
	}
	return math.NaN()
}

// TestVerdictFamilies checks the warnings on the generated families:
// random small models (n = 12..24, k = 3..5; edge density 0.3, and 0.5
// for the dense family; most fail the expansion property) and
// conditioned ones (24 x 4, 60 x 8 and, with MOMENTS_VERDICT_PAPER set,
// the paper's 150 x 25, which takes minutes). On population moments
// every model whose true A fails the conditions and that gets an
// estimate carries a warning (9 of the 30 small models and 12 of the 15
// dense ones; most others are errors) and no passing model does. On
// samples (N = 10k and 100k) the test asserts the condition on
// every model whose class does not hang on entries of A below 1% of
// their column's largest (truthClass "FFFF" or "PPPP"): every estimate
// of a failing model carries a warning (70 of 70 with the paper's
// size), and no estimate of a passing model does, but the three of
// verdictExceptions, whose warnings are right (two wrong estimates and
// one whose halves disagree), and which the test checks are still
// warned for that reason. The models whose class changes between the
// support thresholds 0 and 5% are logged, not asserted: no data at N
// <= 100k resolve the entries their class hangs on (among them the
// conditioned 60 x 8 model of seed 7, whose expansion margin is 0 with
// an entry below 1% of its column and -1 without it: its estimate at
// 100k is warned by the split expansion check).
func TestVerdictFamilies(t *testing.T) {
	small := smallModels(t, 30)
	failing, warned, passing := 0, 0, 0
	for _, vm := range append(small, randomModels(t, "dense", 15, 0.5)...) {
		d, err := learnVerdict(vm.m, 0, vm.seed)
		if err != nil {
			continue
		}
		if vm.passes {
			passing++
			if len(d.Warnings) != 0 {
				t.Errorf("%s seed %d passes the conditions, population moments: warnings %q", vm.family, vm.seed, d.Warnings)
			}
			continue
		}
		failing++
		if len(d.Warnings) == 0 {
			t.Errorf("%s seed %d fails the conditions, population moments: an estimate without a warning", vm.family, vm.seed)
		} else {
			warned++
		}
	}
	t.Logf("population moments: %d failing models with an estimate, %d warned; %d passing", failing, warned, passing)
	if failing < 15 || passing < 3 {
		t.Errorf("the family has %d failing models with an estimate and %d passing: too few to test", failing, passing)
	}
	if testutil.SlowTarget() {
		return
	}
	models := append(small, randomModels(t, "dense", 15, 0.5)...)
	cond, seeds := conditionedDAGs(t, 24, 4, 0.5, 5, false)
	for i, m := range cond {
		models = append(models, verdictModel{"cond24x4", seeds[i], m, true})
	}
	cond, seeds = conditionedDAGs(t, 60, 8, 0.5, 3, false)
	for i, m := range cond {
		models = append(models, verdictModel{"cond60x8", seeds[i], m, true})
	}
	if os.Getenv("MOMENTS_VERDICT_PAPER") != "" {
		cond, seeds = conditionedDAGs(t, 150, 25, 0.5, 3, false)
		for i, m := range cond {
			models = append(models, verdictModel{"paper", seeds[i], m, true})
		}
	}
	failing, warned, passing = 0, 0, 0
	excepted := 0
	var single []string // failing estimates warned by one check alone
	for _, vm := range models {
		cls := truthClass(vm.m)
		for _, N := range []int{10000, 100000} {
			d, err := learnVerdict(vm.m, N, vm.seed)
			if err != nil {
				continue // no estimate: nothing to warn
			}
			ta, tl := dagTruth(vm.m)
			ea, el := alignDAG(ta, d, d.Lambda)
			relA, relL := relFrob(ta, ea), relFrob(tl, el)
			switch cls {
			case "FFFF":
				failing++
				var fails []string
				for _, c := range d.Checks {
					if !c.Holds {
						fails = append(fails, fmt.Sprintf("%s (margin %.3g)", c.Name, c.Margin))
					}
				}
				if len(fails) == 1 {
					single = append(single, fmt.Sprintf("%s seed %d N=%d: %s", vm.family, vm.seed, N, fails[0]))
				}
				if len(d.Warnings) == 0 {
					t.Errorf("%s seed %d N=%d fails the conditions: an estimate without a warning (%s)", vm.family, vm.seed, N, verdictLine(vm.m, d))
				} else {
					warned++
				}
			case "PPPP":
				passing++
				i := slices.IndexFunc(verdictExceptions, func(e verdictException) bool {
					return e.family == vm.family && e.seed == vm.seed && e.N == N
				})
				switch {
				case i >= 0 && len(d.Warnings) == 0:
					t.Errorf("%s seed %d N=%d: listed as warned (%s) but carries no warning", vm.family, vm.seed, N, verdictExceptions[i].why)
				case i >= 0 && !verdictExceptions[i].check(d, relA, relL):
					t.Errorf("%s seed %d N=%d: warned, but not because %s (rel F of A %.3f, of Lambda %.3f; %s)", vm.family, vm.seed, N, verdictExceptions[i].why, relA, relL, verdictLine(vm.m, d))
				case i >= 0:
					excepted++
				case len(d.Warnings) != 0:
					t.Errorf("%s seed %d N=%d meets the conditions: warnings %q", vm.family, vm.seed, N, d.Warnings)
				}
			default:
				t.Logf("%s seed %d N=%d: class %s hangs on entries below 1%%; %d warnings (%s)", vm.family, vm.seed, N, cls, len(d.Warnings), verdictLine(vm.m, d))
			}
		}
	}
	t.Logf("samples, N = 10k and 100k: %d estimates of failing models, %d warned; %d of passing models, %d of them the listed exceptions", failing, warned, passing, excepted)
	// The failing side's margins: the estimates that one check alone
	// warns, with that check's margin.
	t.Logf("estimates of failing models warned by one check alone: %d", len(single))
	for _, s := range single {
		t.Logf("  %s", s)
	}
	if failing < 60 || passing < 15 {
		t.Errorf("%d estimates of failing models and %d of passing ones: too few to test", failing, passing)
	}
	// The conditioned 60 x 8 models that meet the conditions with room
	// to spare (class PPPP, seeds 3 and 8) carry no warning at N = 10k
	// or 100k; the loop above asserts it (the earlier form of this test
	// asserted it for seed 7 too, whose class hangs on an entry below 1%).
}

// TestObservedVerdict checks LearnObservedBN's verdict: skewed noises
// give no warning at N >= 2k, Gaussian ones always do, and exact moments
// of Gaussian noises are an error (the third moment vanishes).
func TestObservedVerdict(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		for _, sym := range []bool{false, true} {
			m := observedVerdictModel(seed, 8, sym)
			for _, N := range []int{0, 2000, 10000} {
				bn, err := learnObservedVerdict(m, N)
				if sym && N == 0 {
					if !errors.Is(err, ErrRankDeficient) {
						t.Errorf("seed %d: Gaussian noises, exact moments: error %v, want ErrRankDeficient", seed, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("seed %d symmetric=%v N=%d: %v", seed, sym, N, err)
				}
				if sym != (len(bn.Warnings) > 0) {
					t.Errorf("seed %d symmetric=%v N=%d: warnings %q", seed, sym, N, bn.Warnings)
				}
			}
		}
	}
}

// bruteMargin is the least |N(S)| - |S| - d_max over all sets S of at
// least two columns of the support of a.
func bruteMargin(a *mat.Dense) int {
	n, k := a.Dims()
	dmax := bruteMaxDegree(a)
	best := n
	for set := 0; set < 1<<k; set++ {
		size := 0
		for j := 0; j < k; j++ {
			size += set >> j & 1
		}
		if size < 2 {
			continue
		}
		nb := 0
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				if set>>j&1 == 1 && a.At(i, j) != 0 {
					nb++
					break
				}
			}
		}
		best = min(best, nb-size-dmax)
	}
	return best
}

func TestExpansionMargin(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 200; trial++ {
		n, k := 6+r.IntN(20), 2+r.IntN(9)
		a := synth.BernoulliGaussian(r, n, k, 0.15+0.4*r.Float64())
		m, set, exact := ExpansionMargin(a, 0)
		if want := bruteMargin(a); m != want || !exact {
			t.Fatalf("%dx%d: margin %d (exact %v), brute force %d", n, k, m, exact, want)
		}
		rep, err := CheckExpansion(a, 0)
		if err != nil {
			t.Fatal(err)
		}
		if holds := rep.Holds; holds != (m >= 0) {
			t.Fatalf("%dx%d: margin %d but CheckExpansion says %v", n, k, m, holds)
		}
		// The set attains the margin.
		sub := mat.Zeros(n, len(set))
		for c, j := range set {
			for i := 0; i < n; i++ {
				sub.Set(i, c, a.At(i, j))
			}
		}
		nb := 0
		for i := 0; i < n; i++ {
			for c := range set {
				if sub.At(i, c) != 0 {
					nb++
					break
				}
			}
		}
		dmax := bruteMaxDegree(a)
		if len(set) < 2 || nb-len(set)-dmax != m {
			t.Fatalf("%dx%d: set %v gives %d, margin %d", n, k, set, nb-len(set)-dmax, m)
		}
	}
	// A failing check's margin is negative and a NaN value never holds.
	if c := atLeast("x", math.NaN(), 1, ""); c.Holds {
		t.Error("a NaN value holds")
	}
	if c := atMost("x", 0.3, 0.25, ""); c.Holds || math.Abs(c.Margin+0.05) > 1e-15 {
		t.Errorf("atMost(0.3, 0.25): %+v", c)
	}
}

// aFromNoise returns the rel F error (after alignment) of the canonical
// A that LearnTWM finds in sigma - diag(d), against ta.
func aFromNoise(t *testing.T, sigma *mat.Dense, d []float64, ta *mat.Dense) float64 {
	_, k := ta.Dims()
	l := sigma.Clone()
	for i, v := range d {
		l.Set(i, i, l.At(i, i)-v)
	}
	tw, err := LearnTWM(context.Background(), l, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := UnitVariance(tw.A, l)
	if err != nil {
		t.Fatal(err)
	}
	est, _, _ := alignCols(ta, a)
	return relFrob(ta, est)
}

// TestVerdictExceptionEvidence checks the evidence that the warnings of
// verdictExceptions are right: that the data at that N do not resolve
// what the estimate gets wrong.
//
// The 24 x 4 model of seed 19 has a hidden variable with three small
// coefficients (0.16, 0.07 and -0.09, against noise variances near 1),
// whose footprint on Sigma is near its sampling noise. At N = 10k the
// Gaussian factor-analysis likelihood has two fixed points, reached by
// its EM steps (Options.RefineNoise) from DLD's noise variances and from
// the true ones, whose A differ (rel F 0.05 and 0.40) while their
// discrepancies differ by less than 1/N (the wrong one fits a little
// better): the second moments do not tell them apart; and with the right
// A (RefineNoise) the estimate is warned all the same, rightly, because
// that variable's noise is not measurably non-Gaussian at 10k (check
// "noise non-Gaussianity" below 1). At 100k the data resolve it:
// RefineNoise gives the right A and halves that agree (split ratio
// below MaxSplitRatio; the default's DLD on the full estimate's
// partition gives one wrong half, ratio 91); the warning left is the
// spectrum gap of a DLD block (1.2 to 1.3: that column's share of the
// blocks is near their sampling noise), with either estimator.
//
// The 150 x 25 model of seed 2 (with MOMENTS_VERDICT_PAPER set, about
// a minute): at N = 10k its hidden noise directions are all within
// |cos| 0.99 of the truth and fit the sample's third cumulant better
// than the true directions do (no better optimum to find), yet with
// the true A in place of the learned one they still give a wrong order
// (triangularity above 0.5): seven of its hidden variables owe 0.8% to
// 4.3% of their standard deviation to their own noise, so the columns
// of C that place them are of the size of the directions' sampling
// error. The fourth cumulant and both (DAGOptions.Cumulants) give
// wrong orders too (triangularity above 0.5).
func TestVerdictExceptionEvidence(t *testing.T) {
	if testutil.SlowTarget() {
		t.Skip("minutes on slow targets")
	}
	ctx := context.Background()
	ms, seeds := conditionedDAGs(t, 24, 4, 0.5, 5, false)
	i := slices.Index(seeds, 19)
	if i < 0 {
		t.Fatalf("seed 19 is not among the conditioned 24 x 4 models %v", seeds)
	}
	m := ms[i]
	ta, _ := dagTruth(m)
	trueVar := make([]float64, len(m.Eps))
	for j, e := range m.Eps {
		trueVar[j] = e.Var
	}
	src := m.Samples(10000, 1019)
	sm, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := LearnCoefficients(ctx, sm.Sigma, 4, &Options{Seed: 19})
	if err != nil {
		t.Fatal(err)
	}
	dA, _ := refineNoise(context.Background(), sm.Sigma, c.NoiseVar, 4)
	dT, _ := refineNoise(context.Background(), sm.Sigma, trueVar, 4)
	relDLD, relA, relT := aFromNoise(t, sm.Sigma, c.NoiseVar, ta), aFromNoise(t, sm.Sigma, dA, ta), aFromNoise(t, sm.Sigma, dT, ta)
	fA, fT := faDiscrepancy(sm.Sigma, dA, 4), faDiscrepancy(sm.Sigma, dT, 4)
	t.Logf("24x4 seed 19, N = 10k: rel F of A from DLD %.3f; EM from DLD %.3f, from the truth %.3f; N x discrepancy %.3f and %.3f", relDLD, relA, relT, 1e4*fA, 1e4*fT)
	if !(relDLD > 0.3 && relA < 0.1 && relT > 0.3 && 1e4*math.Abs(fA-fT) < 1) {
		t.Errorf("24x4 seed 19, N = 10k: want two fixed points (rel F < 0.1 and > 0.3) within 1/N of discrepancy, and DLD's A wrong")
	}
	d, err := learnRefined(m, 10000, 19)
	if err != nil {
		t.Fatal(err)
	}
	ea, _ := alignDAG(ta, d, d.Lambda)
	if ng := checkValue(d, "noise non-Gaussianity"); relFrob(ta, ea) > 0.1 || !(ng < 1) {
		t.Errorf("24x4 seed 19, N = 10k, RefineNoise: rel F of A %.3f (want < 0.1), non-Gaussianity %.3g (want < 1)", relFrob(ta, ea), ng)
	}
	d, err = learnRefined(m, 100000, 19)
	if err != nil {
		t.Fatal(err)
	}
	ea, _ = alignDAG(ta, d, d.Lambda)
	split := checkValue(d, "split stability")
	t.Logf("24x4 seed 19, N = 100k, RefineNoise: rel F of A %.3f, split ratio %.3g, gap of L %.3g and of a DLD block %.3g, warnings %q", relFrob(ta, ea), split, d.Coefficients.TWM.EigenGap, d.Coefficients.DLD.Gap, d.Warnings)
	if relFrob(ta, ea) > 0.05 || !(split <= MaxSplitRatio) || len(d.Warnings) != 1 || !(d.Coefficients.DLD.Gap < MinSpectrumGap) || !(d.Coefficients.TWM.EigenGap >= MinSpectrumGap) {
		t.Errorf("24x4 seed 19, N = 100k, RefineNoise: want A right, the halves agreeing and the DLD block's gap the one warning")
	}
	if os.Getenv("MOMENTS_VERDICT_PAPER") == "" {
		return
	}
	paperEvidence(t)
}

// learnRefined is learnVerdict on N samples with Options.RefineNoise.
func learnRefined(m *synth.DAG, N int, seed uint64) (*DAG, error) {
	_, k := m.Dims()
	src := m.Samples(N, 1000+seed)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		return nil, err
	}
	return LearnDAG(context.Background(), sm.Sigma, &SampleThird{Moments: sm, Src: src}, k, &DAGOptions{Options: Options{Seed: seed, RefineNoise: true}})
}

// cumulantObjective is sum_j T(v_j, v_j, v_j)^2 over the columns of v.
func cumulantObjective(t *tensor3.Sym, v *mat.Dense) float64 {
	_, k := v.Dims()
	col := make([]float64, k)
	var s float64
	for j := 0; j < k; j++ {
		v.Col(col, j)
		x := t.ContractScalar(col)
		s += x * x
	}
	return s
}

// paperEvidence is the part of TestVerdictExceptionEvidence about the
// 150 x 25 model of seed 2 at N = 10k.
func paperEvidence(t *testing.T) {
	ctx := context.Background()
	ms, seeds := conditionedDAGs(t, 150, 25, 0.5, 3, false)
	i := slices.Index(seeds, 2)
	if i < 0 {
		t.Fatalf("seed 2 is not among the conditioned 150 x 25 models %v", seeds)
	}
	m := ms[i]
	n, k := m.Dims()
	ta, _ := dagTruth(m)
	src := m.Samples(10000, 1002)
	sm, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	// LearnDAG's steps up to the noise directions (the third cumulant,
	// which its default chooses here), with its seeds.
	o := (&DAGOptions{Options: Options{Seed: 2}}).defaults()
	o.Samples = 10000
	coef, err := coefficientMatrix(ctx, sm.Sigma, k, &o.Options, rand.New(rand.NewPCG(2, 0xc0ef)), "")
	if err != nil {
		t.Fatal(err)
	}
	w, winvT, _, err := whiten(coef.DLD.L, k)
	if err != nil {
		t.Fatal(err)
	}
	e := &eca{w: w, winvT: winvT, third: &SampleThird{Moments: sm, Src: src}, opts: &o, noisy: true, noiseVar: coef.DLD.D}
	v, eig, err := e.tensor(ctx, rand.New(rand.NewPCG(2, 0xda6)))
	if err != nil {
		t.Fatal(err)
	}
	tt, _, err := e.whitenedTensor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tt = tt.Clone()
	tt.AddOuterRows(-1, w, e.noiseThird)
	// The true directions: W^T (A G) diag(sd(eta)), orthonormalised.
	mix := m.Mixing()
	for j := 0; j < k; j++ {
		sd := math.Sqrt(m.Eta[j].Var)
		for r := 0; r < n; r++ {
			mix.Set(r, j, mix.At(r, j)*sd)
		}
	}
	var tv mat.Dense
	tv.MulAT(w, mix)
	tvo, err := symOrth(&tv)
	if err != nil {
		t.Fatal(err)
	}
	worst := 1.0
	col, lc := make([]float64, k), make([]float64, k)
	for j := 0; j < k; j++ {
		tvo.Col(col, j)
		best := 0.0
		for l := 0; l < k; l++ {
			v.Col(lc, l)
			best = math.Max(best, math.Abs(dot(col, lc)))
		}
		worst = math.Min(worst, best)
	}
	learned, truth := cumulantObjective(tt, v), cumulantObjective(tt, tvo)
	t.Logf("150x25 seed 2, N = 10k: least |cos| of a true direction with a learned one %.4f; objective learned %.4g, true %.4g", worst, learned, truth)
	if worst < 0.99 || learned < truth {
		t.Errorf("150x25 seed 2: want every direction within |cos| 0.99 and the learned ones at least as good for the objective")
	}
	// C with the true A (columns in the learned order and signs) and the
	// learned directions, and with the learned A and the true directions.
	var s mat.Dense
	s.Mul(winvT, v)
	_, perm, signs := alignCols(ta, coef.A)
	trueA := mat.Zeros(n, k)
	for j := 0; j < k; j++ {
		for r := 0; r < n; r++ {
			trueA.Set(r, perm[j], signs[j]*ta.At(r, j))
		}
	}
	tri := func(a, s *mat.Dense, eig []float64) float64 {
		var apinv, c mat.Dense
		if _, err := svd.PseudoInverse(&apinv, a, 1e-12); err != nil {
			t.Fatal(err)
		}
		c.Mul(&apinv, s)
		d, err := dagFromC(&c, eig, coef.HiddenSigma, &o)
		if err != nil {
			t.Fatal(err)
		}
		return d.Triangularity
	}
	skew := make([]float64, k)
	for j := range skew {
		skew[j] = m.Eta[j].ThirdMoment() / math.Pow(m.Eta[j].Var, 1.5)
	}
	trueALearnedS, learnedATrueS := tri(trueA, &s, eig), tri(coef.A, mix, skew)
	t.Logf("150x25 seed 2: triangularity with the true A and the learned directions %.3f, with the learned A and the true directions %.3f", trueALearnedS, learnedATrueS)
	if !(trueALearnedS > MaxHiddenTriangularity) || !(learnedATrueS < MaxHiddenTriangularity) {
		t.Errorf("150x25 seed 2: want the learned directions to give a wrong order with the true A, and the true ones a right one with the learned A")
	}
	for _, c := range []Cumulants{CumulantsFourth, CumulantsBoth} {
		d, err := LearnDAG(ctx, sm.Sigma, &SampleThird{Moments: sm, Src: src}, k, &DAGOptions{Options: Options{Seed: 2}, Cumulants: c, SkipSplitCheck: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("150x25 seed 2, %v: triangularity %.3f", c, d.Triangularity)
		if !(d.Triangularity > MaxHiddenTriangularity) {
			t.Errorf("150x25 seed 2, %v: triangularity %.3f, want above %g", c, d.Triangularity, MaxHiddenTriangularity)
		}
	}
}
