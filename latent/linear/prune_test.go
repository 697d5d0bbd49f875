package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

// sparseBN draws a linear BN x = Lambda x + eta on p variables in the
// topological order 0..p-1: each pair j < i is an edge with probability
// deg/(p-1), weights uniform in +-[0.5, 2], and noises exponential with
// variances in [0.5, 1] (centred). It returns Lambda, the exact Sigma
// and, if n > 0, n samples (rows).
func sparseBN(seed uint64, p int, deg float64, n int) (lambda, sigma, x *mat.Dense) {
	r := rand.New(rand.NewPCG(seed, 18))
	lambda = mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < i; j++ {
			if r.Float64() < deg/float64(p-1) {
				w := 0.5 + 1.5*r.Float64()
				if r.IntN(2) == 0 {
					w = -w
				}
				lambda.Set(i, j, w)
			}
		}
	}
	sd := make([]float64, p)
	for i := range sd {
		sd[i] = math.Sqrt(0.5 + 0.5*r.Float64())
	}
	// G = (I - Lambda)^{-1}, Sigma = G D G^T.
	g := mat.Identity(p)
	for i := 0; i < p; i++ {
		for j := 0; j < i; j++ {
			var s float64
			for k := j; k < i; k++ {
				s += lambda.At(i, k) * g.At(k, j)
			}
			g.Set(i, j, s)
		}
	}
	sigma = mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			var s float64
			for k := 0; k < p; k++ {
				s += g.At(i, k) * g.At(j, k) * sd[k] * sd[k]
			}
			sigma.Set(i, j, s)
		}
	}
	if n > 0 {
		x = mat.Zeros(n, p)
		for t := 0; t < n; t++ {
			row := x.RawRow(t)
			for i := 0; i < p; i++ {
				v := sd[i] * (r.ExpFloat64() - 1)
				for j := 0; j < i; j++ {
					v += lambda.At(i, j) * row[j]
				}
				row[i] = v
			}
		}
	}
	return lambda, sigma, x
}

// sampleCov returns the (biased) sample covariance of the rows of x.
func sampleCov(x *mat.Dense) *mat.Dense {
	n, p := x.Dims()
	mu := make([]float64, p)
	for t := 0; t < n; t++ {
		for i, v := range x.RawRow(t) {
			mu[i] += v / float64(n)
		}
	}
	c := mat.Zeros(p, p)
	for t := 0; t < n; t++ {
		row := x.RawRow(t)
		for i := 0; i < p; i++ {
			for j := 0; j <= i; j++ {
				c.Set(i, j, c.At(i, j)+(row[i]-mu[i])*(row[j]-mu[j]))
			}
		}
	}
	for i := 0; i < p; i++ {
		for j := 0; j <= i; j++ {
			c.Set(i, j, c.At(i, j)/float64(n))
			c.Set(j, i, c.At(i, j))
		}
	}
	return c
}

// supportCounts returns the true positives, false positives and false
// negatives of est's non-zeros against truth's.
func supportCounts(truth, est *mat.Dense) (tp, fp, fn int) {
	p, _ := truth.Dims()
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			t, e := truth.At(i, j) != 0, est.At(i, j) != 0
			switch {
			case t && e:
				tp++
			case e:
				fp++
			case t:
				fn++
			}
		}
	}
	return
}

func identityOrder(p int) []int {
	o := make([]int, p)
	for i := range o {
		o[i] = i
	}
	return o
}

// TestSparseLambdaExact: on exact moments the rule recovers the support
// exactly and the coefficients to rounding, in any labelling.
func TestSparseLambdaExact(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		lambda, sigma, _ := sparseBN(seed, 15, 3, 0)
		// Relabel: variable i of the data is variable perm[i] of the model.
		perm := rand.New(rand.NewPCG(seed, 1)).Perm(15)
		order := make([]int, 15)
		for i, pi := range perm {
			order[pi] = i
		}
		fit, err := SparseLambda(permuteSym(sigma, perm), order, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := mat.Zeros(15, 15)
		for i, pi := range perm {
			for j, pj := range perm {
				got.Set(pi, pj, fit.Lambda.At(i, j))
			}
		}
		if tp, fp, fn := supportCounts(lambda, got); fp != 0 || fn != 0 {
			t.Errorf("seed %d: %d true edges found, %d false, %d missed", seed, tp, fp, fn)
		}
		checkClose(t, "Lambda", lambda, got, 1e-9)
		if fit.StdErr != nil {
			t.Errorf("seed %d: standard errors without a sample count", seed)
		}
	}
}

// TestSparseLambdaSampled: at N = 5000 the support of 20-variable models
// of expected degree 3 has precision and recall at least 0.95 (summed
// over 3 models: 102 true edges among 570 candidate pairs, so the dense
// least-squares estimate has precision 0.18), and the standard errors
// give |z| > 3 on every kept edge.
func TestSparseLambdaSampled(t *testing.T) {
	const p, n = 20, 5000
	var tp, fp, fn, dense int
	for seed := uint64(1); seed <= 3; seed++ {
		lambda, _, x := sparseBN(seed, p, 3, n)
		fit, err := SparseLambda(sampleCov(x), identityOrder(p), n, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, b, c := supportCounts(lambda, fit.Lambda)
		tp, fp, fn = tp+a, fp+b, fn+c
		dense += p * (p - 1) / 2
		for i := 0; i < p; i++ {
			for j := 0; j < i; j++ {
				if v := fit.Lambda.At(i, j); v != 0 {
					if se := fit.StdErr.At(i, j); !(se > 0) || math.Abs(v)/se < 3 {
						t.Errorf("seed %d: edge %d -> %d: coefficient %.3g, standard error %.3g", seed, j, i, v, se)
					}
				}
			}
		}
	}
	prec, rec := float64(tp)/float64(tp+fp), float64(tp)/float64(tp+fn)
	t.Logf("precision %.3f recall %.3f (%d true positives, %d false, %d missed; %d candidate pairs)", prec, rec, tp, fp, fn, dense)
	if prec < 0.95 || rec < 0.95 {
		t.Errorf("precision %.3f, recall %.3f: want both >= 0.95", prec, rec)
	}
}

// TestSparseLambdaKnowledge: a required edge absent from the model is
// kept, a forbidden true edge is dropped, and bad edges are ErrBadOption.
func TestSparseLambdaKnowledge(t *testing.T) {
	lambda, sigma, _ := sparseBN(2, 10, 3, 0)
	var absent, present Edge
	found := 0
	for i := 1; i < 10 && found != 3; i++ {
		for j := 0; j < i; j++ {
			if lambda.At(i, j) == 0 && found&1 == 0 {
				absent, found = Edge{j, i}, found|1
			}
			if lambda.At(i, j) != 0 && found&2 == 0 {
				present, found = Edge{j, i}, found|2
			}
		}
	}
	fit, err := SparseLambda(sigma, identityOrder(10), 0, &SparseOptions{Required: []Edge{absent}, Forbidden: []Edge{present}})
	if err != nil {
		t.Fatal(err)
	}
	if fit.Lambda.At(absent.To, absent.From) == 0 && math.Abs(sigma.At(absent.To, absent.From)) > 1e-12 {
		// A required parent is kept; its coefficient may be 0 only if it
		// is uncorrelated with the rest of the fit.
		t.Errorf("required edge %v dropped", absent)
	}
	if fit.Lambda.At(present.To, present.From) != 0 {
		t.Errorf("forbidden edge %v kept", present)
	}
	for _, o := range []SparseOptions{
		{Gamma: math.NaN()}, {Gamma: -1},
		{Required: []Edge{{3, 3}}}, {Forbidden: []Edge{{0, 10}}},
		{Required: []Edge{{5, 2}}}, // against the order
		{Required: []Edge{{1, 2}}, Forbidden: []Edge{{1, 2}}},
	} {
		if _, err := SparseLambda(sigma, identityOrder(10), 0, &o); !errors.Is(err, ErrBadOption) {
			t.Errorf("%+v: %v, want ErrBadOption", o, err)
		}
	}
}

// TestLearnObservedBNKnowledge: on exact moments, a forbidden true edge
// is absent from Lambda, a partial order against the true one is obeyed
// by the order found, and contradictory or malformed knowledge is
// ErrBadOption; without knowledge the pruned Lambda is the truth with
// standard errors only when a sample count is given.
func TestLearnObservedBNKnowledge(t *testing.T) {
	ctx := context.Background()
	m := observedModel(1, 10)
	sigma := m.Sigma()
	bn, err := LearnObservedBN(ctx, sigma, PsiFunc(m.Psi), &DAGOptions{Options: Options{Seed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if tp, fp, fn := supportCounts(m.Lambda, bn.Lambda); fp != 0 || fn != 0 {
		t.Errorf("exact moments: %d true edges, %d false, %d missed", tp, fp, fn)
	}
	if bn.StdErr != nil {
		t.Errorf("standard errors without a sample count")
	}
	var e Edge
	for i := 0; i < 10 && e == (Edge{}); i++ {
		for j := 0; j < i; j++ {
			if m.Lambda.At(i, j) != 0 {
				e = Edge{j, i}
				break
			}
		}
	}
	bn, err = LearnObservedBN(ctx, sigma, PsiFunc(m.Psi), &DAGOptions{Options: Options{Seed: 2}, Forbidden: []Edge{e}, Samples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if bn.Lambda.At(e.To, e.From) != 0 {
		t.Errorf("forbidden edge %v kept", e)
	}
	if bn.StdErr == nil {
		t.Errorf("no standard errors with Samples = 1000")
	}
	// Reverse the edge by a partial order: e.To must now come first.
	bn, err = LearnObservedBN(ctx, sigma, PsiFunc(m.Psi), &DAGOptions{Options: Options{Seed: 2}, PartialOrder: []Edge{{e.To, e.From}}})
	if err != nil {
		t.Fatal(err)
	}
	pos := make([]int, 10)
	for p, v := range bn.Order {
		pos[v] = p
	}
	if pos[e.To] > pos[e.From] {
		t.Errorf("partial order %d before %d not obeyed: order %v", e.To, e.From, bn.Order)
	}
	for _, o := range []DAGOptions{
		{Required: []Edge{{0, 1}, {1, 2}}, PartialOrder: []Edge{{2, 0}}}, // a cycle
		{Required: []Edge{{0, 1}}, Forbidden: []Edge{{0, 1}}},
		{Forbidden: []Edge{{0, 10}}},
		{PartialOrder: []Edge{{4, 4}}},
	} {
		if _, err := LearnObservedBN(ctx, sigma, PsiFunc(m.Psi), &o); !errors.Is(err, ErrBadOption) {
			t.Errorf("%+v: %v, want ErrBadOption", o, err)
		}
	}
}

// TestPruneThresholdRequired: the Prune threshold spares a Required edge
// smaller than it, and zeroes StdErr wherever it zeroes Lambda.
func TestPruneThresholdRequired(t *testing.T) {
	ctx := context.Background()
	m := observedModel(1, 10)
	sigma := m.Sigma()
	// The true edge of least weight, and the threshold above it.
	var e Edge
	least := math.Inf(1)
	for i := range 10 {
		for j := range 10 {
			if v := math.Abs(m.Lambda.At(i, j)); v != 0 && v < least {
				e, least = Edge{j, i}, v
			}
		}
	}
	prune := 1.5 * least
	bn, err := LearnObservedBN(ctx, sigma, PsiFunc(m.Psi), &DAGOptions{Options: Options{Seed: 2}, Samples: 1000, Required: []Edge{e}, Prune: prune})
	if err != nil {
		t.Fatal(err)
	}
	if got := bn.Lambda.At(e.To, e.From); math.Abs(got-m.Lambda.At(e.To, e.From)) > 1e-8 {
		t.Errorf("required edge %v of weight %v: Lambda = %v after the threshold %v", e, m.Lambda.At(e.To, e.From), got, prune)
	}
	if bn.StdErr == nil {
		t.Fatal("no standard errors with Samples = 1000")
	}
	if bn.StdErr.At(e.To, e.From) == 0 {
		t.Errorf("required edge %v lost its standard error", e)
	}
	for i := range 10 {
		for j := range 10 {
			lam, se := bn.Lambda.At(i, j), bn.StdErr.At(i, j)
			if lam == 0 && se != 0 {
				t.Errorf("Lambda[%d][%d] = 0 with StdErr %v", i, j, se)
			}
			if lam != 0 && (Edge{j, i}) != e && math.Abs(lam) <= prune {
				t.Errorf("Lambda[%d][%d] = %v kept under the threshold %v", i, j, lam, prune)
			}
		}
	}
}

// TestSparseLambdaSamples: a negative sample count is ErrBadOption (not
// exact moments), and a support as large as the sample count has NaN
// standard errors (unknown), not 0, while smaller supports keep finite
// positive ones.
func TestSparseLambdaSamples(t *testing.T) {
	_, sigma, _ := sparseBN(4, 6, 2, 0)
	if _, err := SparseLambda(sigma, identityOrder(6), -1, nil); !errors.Is(err, ErrBadOption) {
		t.Errorf("samples = -1: %v, want ErrBadOption", err)
	}
	// Variable 5 must keep all its 5 predecessors: with 5 samples its
	// residual variance has no degree of freedom left.
	req := []Edge{{0, 5}, {1, 5}, {2, 5}, {3, 5}, {4, 5}, {0, 1}}
	fit, err := SparseLambda(sigma, identityOrder(6), 5, &SparseOptions{Required: req})
	if err != nil {
		t.Fatal(err)
	}
	for j := range 5 {
		if se := fit.StdErr.At(5, j); !math.IsNaN(se) {
			t.Errorf("5 parents, 5 samples: StdErr[5][%d] = %v, want NaN", j, se)
		}
	}
	if se := fit.StdErr.At(1, 0); !(se > 0) || math.IsInf(se, 0) {
		t.Errorf("1 parent, 5 samples: StdErr[1][0] = %v, want finite and positive", se)
	}
}

// TestSparseLambdaSymmetricPart: only (Sigma + Sigma^T)/2 is read, and a
// regression that overflows is an error, not an infinite coefficient
// (the fuzzer's case: Sigma[0][1] = 1e300 against entries near 1e-10).
func TestSparseLambdaSymmetricPart(t *testing.T) {
	sym := mat.New(3, 3, []float64{
		2, 0.6, 0.3,
		0.6, 1.5, 0.4,
		0.3, 0.4, 1.2,
	})
	skew := sym.Clone()
	skew.Set(0, 1, 0.9)
	skew.Set(1, 0, 0.3) // same symmetric part
	order := []int{0, 1, 2}
	a, err := SparseLambda(sym, order, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SparseLambda(skew, order, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if a.Lambda.At(i, j) != b.Lambda.At(i, j) {
				t.Fatalf("Lambda[%d][%d]: %v from Sigma, %v from a Sigma with the same symmetric part", i, j, a.Lambda.At(i, j), b.Lambda.At(i, j))
			}
		}
	}
	bad := mat.New(2, 2, []float64{1.0447425640652203e-10, 1e300, 2.460056849587191e-11, 1.475402516209417e-11})
	fit, err := SparseLambda(bad, []int{0, 1}, 0, nil)
	if !errors.Is(err, ErrNotFinite) {
		t.Fatalf("overflowing regression: %v, %v; want an error matching ErrNotFinite", fit, err)
	}
}
