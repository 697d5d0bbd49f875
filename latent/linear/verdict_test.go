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
	_, k := m.Dims()
	opts := &DAGOptions{Options: Options{Seed: seed}}
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
	fmt.Fprintf(&b, " | true-exp %d", tm)
	ea, el := alignDAG(ta, d, d.Lambda)
	fmt.Fprintf(&b, " | distA %.3f relA %.3f relL %.3f warnings %d", eval.Dist(ta, ea), relFrob(ta, ea), relFrob(tl, el), len(d.Warnings))
	return b.String()
}

// TestVerdictSweep prints the measures behind the thresholds of the
// checks (MinSpectrumGap and the others): for small random models
// (most fail the conditions) on population moments and on samples, and
// for conditioned models on samples. Run with -v to see them.
func TestVerdictSweep(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("the sweep only prints measures: run it with -v")
	}
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
			d, err := learnVerdict(vm.m, N, vm.seed)
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
// N >= 10k that carry a warning, all measured by TestVerdictSweep.
var verdictExceptions = []verdictException{
	{"cond24x4", 19, 10000, "the estimate is wrong (rel F of A above 0.3)",
		func(_ *DAG, relA, _ float64) bool { return relA > 0.3 }},
	{"cond24x4", 19, 100000, "the halves of the samples (50k each) disagree: one gives a wrong estimate (split ratio above 50)",
		func(d *DAG, _, _ float64) bool { return checkValue(d, "split stability") > 50 }},
	{"paper", 2, 10000, "Lambda is wrong (rel F above 0.5)",
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
