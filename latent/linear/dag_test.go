package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// dagTruth returns A and Lambda of m in canonical form: hidden variables
// scaled to unit variance.
func dagTruth(m *synth.DAG) (a, lambda *mat.Dense) {
	sd := diagSqrt(dagHiddenSigma(m))
	a = canonical(m.A, sd)
	lambda = rowScale(canonical(m.Lambda, sd), sd)
	return a, lambda
}

// alignDAG maps a learned DAG to the labels of the truth a: the columns
// of A matched and signed, Lambda permuted and signed accordingly.
func alignDAG(a *mat.Dense, d *DAG, lambda *mat.Dense) (*mat.Dense, *mat.Dense) {
	est, perm, signs := alignCols(a, d.A)
	k := len(perm)
	l := mat.Zeros(k, k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			l.Set(i, j, signs[i]*signs[j]*lambda.At(perm[i], perm[j]))
		}
	}
	return est, l
}

func TestLearnDAGExact(t *testing.T) {
	cases := []struct {
		n, k  int
		gamma float64
	}{{60, 8, 0.5}, {150, 25, 0.5}}
	if testutil.SlowTarget() {
		cases = cases[:1]
	}
	for _, tc := range cases {
		ms, seeds := conditionedDAGs(t, tc.n, tc.k, tc.gamma, 1, false)
		m := ms[0]
		ta, tl := dagTruth(m)
		for _, method := range []ECAMethod{ECATensor, ECASingle, ECAPower} {
			d, err := LearnDAG(context.Background(), m.Sigma(), PsiFunc(m.Psi), tc.k, &DAGOptions{Options: Options{Seed: seeds[0]}, Method: method})
			if err != nil {
				t.Fatalf("n=%d k=%d %v: %v", tc.n, tc.k, method, err)
			}
			t.Logf("n=%d k=%d %v: %d iterations, triangularity %.3g", tc.n, tc.k, method, d.Iterations, d.Triangularity)
			if len(d.Warnings) != 0 {
				t.Errorf("n=%d k=%d %v: a conditioned model with exact moments: warnings %q", tc.n, tc.k, method, d.Warnings)
			}
			ea, el := alignDAG(ta, d, d.LambdaSecond)
			_, el3 := alignDAG(ta, d, d.LambdaThird)
			checkClose(t, "A", ta, ea, 1e-8)
			checkClose(t, "Lambda (second moments)", tl, el, 1e-8)
			checkClose(t, "Lambda (third moments)", tl, el3, 1e-8)
			if method == ECATensor {
				for i, nz := range m.Eps {
					if d := d.NoiseThird[i] - nz.ThirdMoment(); d > 1e-8 || d < -1e-8 {
						t.Errorf("E[eps_%d^3] = %v, want %v", i, d, nz.ThirdMoment())
					}
				}
			}
		}
	}
}

func TestLearnDAGGivenOrder(t *testing.T) {
	ms, seeds := conditionedDAGs(t, 60, 8, 0.5, 1, false)
	m := ms[0]
	ta, tl := dagTruth(m)
	oracle := func(a *mat.Dense) ([]int, error) {
		// The true labels are a topological order: sort the columns of
		// a by the true column each matches.
		_, perm, _ := alignCols(ta, a)
		return perm, nil
	}
	d, err := LearnDAGGivenOrder(context.Background(), m.Sigma(), 8, oracle, &Options{Seed: seeds[0]})
	if err != nil {
		t.Fatal(err)
	}
	// The result is in the true order already.
	est, _, signs := alignCols(ta, d.A)
	checkClose(t, "A", ta, est, 1e-8)
	l := d.Lambda.Clone()
	for i := 0; i < 8; i++ {
		for j := 0; j < 8; j++ {
			l.Set(i, j, signs[i]*signs[j]*l.At(i, j))
		}
	}
	checkClose(t, "Lambda", tl, l, 1e-8)
}

// observedModel is a fully observed linear BN: a synth.DAG with A = I and
// no observation noise.
func observedModel(seed uint64, n int) *synth.DAG {
	r := rand.New(rand.NewPCG(seed, 5))
	m := synth.RandomDAG(r, n, n, 0.3, 0.5, synth.Skewed)
	m.A = mat.Identity(n)
	for i := range m.Eps {
		m.Eps[i] = synth.Noise{Kind: synth.Gaussian, Var: 0}
	}
	return m
}

func TestLearnObservedBNExact(t *testing.T) {
	m := observedModel(1, 12)
	for _, method := range []ECAMethod{ECATensor, ECASingle, ECAPower} {
		bn, err := LearnObservedBN(context.Background(), m.Sigma(), PsiFunc(m.Psi), &DAGOptions{Options: Options{Seed: 2}, Method: method})
		if err != nil {
			t.Fatalf("%v: %v", method, err)
		}
		checkClose(t, method.String()+": Lambda", m.Lambda, bn.Lambda, 1e-8)
		checkClose(t, method.String()+": Lambda (second moments)", m.Lambda, bn.LambdaSecond, 1e-8)
		for i, nz := range m.Eta {
			if d := bn.EtaVar[i] - nz.Var; d > 1e-8 || d < -1e-8 {
				t.Errorf("%v: var eta_%d = %v, want %v", method, i, bn.EtaVar[i], nz.Var)
			}
		}
	}
}

func TestLearnObservedBNSampled(t *testing.T) {
	m := observedModel(3, 8)
	var last float64 = math.Inf(1)
	for _, n := range []int{20000, 200000} {
		src := m.Samples(n, 9)
		sm, err := moments.NewSampleMoments(context.Background(), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		bn, err := LearnObservedBN(context.Background(), sm.Sigma, &SampleThird{Moments: sm, Src: src}, &DAGOptions{Options: Options{Seed: 2}})
		if err != nil {
			t.Fatal(err)
		}
		var d mat.Dense
		d.Sub(bn.Lambda, m.Lambda)
		e := d.NormMax()
		t.Logf("N=%d: max |Lambda error| %.3g", n, e)
		if e > last || e > 0.2 {
			t.Errorf("N=%d: max |Lambda error| %.3g (before %.3g)", n, e, last)
		}
		last = e
	}
}

// TestSampleThirdMismatch: a SampleThird whose parts do not fit (no Src,
// a Src of other samples or of another dimension) is an error matching
// ErrBadData for both learners that take one, never a panic or a result
// whose checks count the wrong samples.
func TestSampleThirdMismatch(t *testing.T) {
	m := observedModel(3, 8)
	ctx := context.Background()
	src := m.Samples(400, 9)
	sm, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := m.Samples(20, 9)
	wider := observedModel(3, 9).Samples(400, 9)
	cases := map[string]*SampleThird{
		"no Src":            {Moments: sm},
		"no Moments":        {Src: src},
		"other sample size": {Moments: sm, Src: other},
		"other dimension":   {Moments: sm, Src: wider},
	}
	for name, st := range cases {
		if _, err := LearnDAG(ctx, sm.Sigma, st, 2, nil); !errors.Is(err, ErrBadData) {
			t.Errorf("LearnDAG, %s: err = %v, want ErrBadData", name, err)
		}
		if _, err := LearnObservedBN(ctx, sm.Sigma, st, nil); !errors.Is(err, ErrBadData) {
			t.Errorf("LearnObservedBN, %s: err = %v, want ErrBadData", name, err)
		}
	}
}
