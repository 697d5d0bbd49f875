package topic

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

func randomAlpha(r *rand.Rand, k int) []float64 {
	a := make([]float64, k)
	for i := range a {
		a[i] = 0.05 + r.Float64()
	}
	return a
}

// TestExactLDA feeds the population moments of random LDA models to the
// learner and asks for the topics and alpha to 1e-9, with both ways of
// decomposing the whitened tensor.
func TestExactLDA(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for k := 2; k <= 20; k++ {
		n := 3*k + 10
		alpha := randomAlpha(r, k)
		model := synth.RandomLDA(r, n, k, 0.3, alpha)
		mom := LDAMoments{Topics: model.Topics, Alpha: alpha}
		for _, method := range []Method{TensorPower, SingleTheta} {
			res, err := LearnLDAMoments(context.Background(), mom, k, model.Alpha0(), &Options{Method: method, Seed: uint64(k)})
			if err != nil {
				t.Fatalf("k=%d method %d: %v", k, method, err)
			}
			perm, errs := eval.MatchTopics(model.Topics, res.Topics)
			for j, e := range errs {
				if e > 1e-9 {
					t.Fatalf("k=%d method %d: topic %d l1 error %g", k, method, j, e)
				}
				if d := math.Abs(res.Alpha[perm[j]] - alpha[j]); d > 1e-9*alpha[j] {
					t.Fatalf("k=%d method %d: alpha_%d = %v, want %v", k, method, j, res.Alpha[perm[j]], alpha[j])
				}
				if res.Moved[perm[j]] > 1e-9 {
					t.Fatalf("k=%d: exact topic %d moved %g by the projection", k, j, res.Moved[perm[j]])
				}
			}
			if res.Residual > 1e-9 {
				t.Fatalf("k=%d method %d: residual %g", k, method, res.Residual)
			}
		}
	}
}

// TestExactECA recovers independent skewed factors in canonical form, up
// to sign, from their population central moments.
func TestExactECA(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, k := range []int{2, 5, 12} {
		n := 2*k + 5
		o := mat.Zeros(n, k)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				o.Set(i, j, r.NormFloat64())
			}
		}
		vr, third := make([]float64, k), make([]float64, k)
		for j := range vr {
			// Bernoulli(p) factors: variance p(1-p), third central
			// moment p(1-p)(1-2p), skewed unless p = 1/2.
			p := 0.1 + 0.3*r.Float64()
			vr[j] = p * (1 - p)
			third[j] = p * (1 - p) * (1 - 2*p)
		}
		mom := FactorMoments{O: o, Var: vr, Third: third}
		res, err := LearnECAMoments(context.Background(), mom, k, &Options{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		canon := mom.Canonical()
		if d := eval.Dist(canon, res.Factors); d > 1e-24 {
			t.Fatalf("k=%d: dist %g between the canonical factors and the estimate", k, d)
		}
		perm := eval.MatchColumns(canon, res.Factors)
		var worst float64
		for j, p := range perm {
			for i := 0; i < n; i++ {
				worst = math.Max(worst, math.Abs(math.Abs(res.Factors.At(i, p))-math.Abs(canon.At(i, j))))
			}
		}
		if worst > 1e-12 {
			t.Fatalf("k=%d: a factor entry is off by %g", k, worst)
		}
	}
}

// TestSyntheticLDA is the acceptance test of the issue: k = 10 topics
// over 500 words, alpha0 = 1, documents of 50 to 150 tokens; the mean l1
// error per topic must be below 0.1 at 20k documents and shrink from 5k.
func TestSyntheticLDA(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const k = 10
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = 0.1
	}
	model := synth.RandomLDA(r, 500, k, 0.1, alpha)
	var errsAt []float64
	for _, n := range []int{5000, 20000} {
		if testing.Short() && n > 5000 {
			break
		}
		corpus := model.NewCorpus(n, 50, 150, 42)
		res, err := LearnLDA(context.Background(), corpus, k, 1, &Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		_, errs := eval.MatchTopics(model.Topics, res.Topics)
		errsAt = append(errsAt, eval.Mean(errs))
		t.Logf("N = %d: mean l1 error per topic %.4f, alpha %.3f", n, eval.Mean(errs), res.Alpha)
	}
	if len(errsAt) == 2 {
		if errsAt[1] >= 0.1 || errsAt[1] >= errsAt[0] {
			t.Fatalf("mean l1 error per topic %.4f at 5k and %.4f at 20k documents", errsAt[0], errsAt[1])
		}
	}
}

func TestWhiteningError(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	alpha := randomAlpha(r, 4)
	model := synth.RandomLDA(r, 30, 4, 0.3, alpha)
	_, err := LearnLDAMoments(context.Background(), LDAMoments{Topics: model.Topics, Alpha: alpha}, 6, model.Alpha0(), nil)
	var we *WhiteningError
	if !errors.Is(err, ErrWhitening) || !errors.As(err, &we) || we.K != 6 || len(we.Spectrum) < 6 {
		t.Fatalf("k = 6 for a rank-4 model: %v", err)
	}
	if _, err := LearnLDAMoments(context.Background(), LDAMoments{Topics: model.Topics, Alpha: alpha}, 4, 0, nil); err == nil {
		t.Fatal("alpha0 = 0 accepted")
	}
}

func TestProjectSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(12)
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64() * 0.5
		}
		orig := append([]float64(nil), v...)
		moved := ProjectSimplex(v)
		var s, l1 float64
		for i, x := range v {
			if x < 0 {
				t.Fatalf("negative entry %v", x)
			}
			s += x
			l1 += math.Abs(x - orig[i])
		}
		if math.Abs(s-1) > 1e-12 || math.Abs(l1-moved) > 1e-12 {
			t.Fatalf("sum %v, moved %v (reported %v)", s, l1, moved)
		}
		// Optimality: x = max(v - tau, 0) for one tau; every positive x
		// has v - x equal to it and every zero x has v <= it.
		tau := math.NaN()
		for i, x := range v {
			if x > 0 {
				if math.IsNaN(tau) {
					tau = orig[i] - x
				} else if math.Abs(orig[i]-x-tau) > 1e-12 {
					t.Fatalf("not a projection: %v -> %v", orig, v)
				}
			}
		}
		for i, x := range v {
			if x == 0 && orig[i] > tau+1e-12 {
				t.Fatalf("not a projection: %v -> %v", orig, v)
			}
		}
	}
	p := []float64{0.2, 0.5, 0.3}
	if moved := ProjectSimplex(p); moved != 0 || p[1] != 0.5 {
		t.Fatalf("a distribution moved: %v %v", p, moved)
	}
	// Entries so large (or so negative) that x - 1 rounds to x: the
	// projection is still the vertex of the largest, or the split of
	// two close ones (found by FuzzLDA: an LDA topic of 3 words
	// normalised to [2.49e16, 0, 4.54] came back unprojected).
	for _, c := range []struct{ v, want []float64 }{
		{[]float64{2.4931929618363376e16, 0, 4.540837792812156}, []float64{1, 0, 0}},
		{[]float64{-1e20, -1e20 - 65536}, []float64{1, 0}},
		{[]float64{1e300, 1e300, -1e300}, []float64{0.5, 0.5, 0}},
		{[]float64{3, 2.5, 0}, []float64{0.75, 0.25, 0}},
	} {
		v := append([]float64(nil), c.v...)
		ProjectSimplex(v)
		if !slices.Equal(v, c.want) {
			t.Errorf("projection of %v: %v, want %v", c.v, v, c.want)
		}
	}
}

// TestDigamma compares with scipy.special.digamma (scipy 1.10).
func TestDigamma(t *testing.T) {
	for _, c := range [][2]float64{
		{1, -0.5772156649015329},
		{0.5, -1.9635100260214235},
		{10, 2.251752589066721},
		{0.01, -100.56088545786868},
		{123.4, 4.8113737751162775},
		{6.5, 1.792911330399933},
	} {
		if got := digamma(c[0]); math.Abs(got-c[1]) > 1e-12*math.Max(1, math.Abs(c[1])) {
			t.Errorf("digamma(%v) = %v, want %v", c[0], got, c[1])
		}
	}
}

// TestInfer checks the topic proportions inferred with the true model
// against the proportions the documents were drawn with.
func TestInfer(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	alpha := []float64{0.2, 0.2, 0.2, 0.2}
	model := synth.RandomLDA(r, 200, 4, 0.05, alpha)
	corpus := model.NewCorpus(300, 400, 400, 9)
	res := &Model{Topics: model.Topics, Alpha: alpha, Alpha0: 0.8}
	var total float64
	c := corpus.Materialize()
	for i := 0; i < c.NumDocs(); i++ {
		theta := res.Infer(c.Doc(i), 0)
		truth := corpus.Theta(i)
		for j := range theta {
			total += math.Abs(theta[j] - truth[j])
		}
	}
	if mean := total / float64(c.NumDocs()); mean > 0.1 {
		t.Fatalf("mean l1 error of inferred proportions %v", mean)
	}
	if p, err := res.Perplexity(context.Background(), c, 0); err != nil || !(p > 1 && p < 200) {
		t.Fatalf("perplexity %v (%v)", p, err)
	}
}

// TestSyntheticECA learns independent skewed factors from documents of
// the switch model: exactly from the population moments, and from
// sampled corpora with an error that shrinks with N.
func TestSyntheticECA(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const k = 4
	model := synth.RandomSwitches(r, 60, k, 0.3, 0.9)
	o, vr, third := model.Factors()
	mom := FactorMoments{O: o, Var: vr, Third: third}
	canon := mom.Canonical()
	exact, err := LearnECAMoments(context.Background(), mom, k, &Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d := eval.Dist(canon, exact.Factors); d > 1e-20 {
		t.Fatalf("exact moments: dist %g", d)
	}
	var dists []float64
	for _, n := range []int{5000, 40000} {
		if testing.Short() && n > 5000 {
			break
		}
		corpus := model.NewCorpus(n, 40, 80, 3).Materialize()
		res, err := LearnECA(context.Background(), corpus, k, &Options{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		dists = append(dists, eval.Dist(canon, res.Factors))
		t.Logf("N = %d: dist %.4f", n, dists[len(dists)-1])
	}
	if len(dists) == 2 && (dists[1] >= dists[0] || dists[1] > 0.05) {
		t.Fatalf("dist %.4f at 5k documents and %.4f at 40k", dists[0], dists[1])
	}
}

// TestLDAZeroEigenvalue: two one-word documents and an empty one give a
// whitened third moment with eigenvalue 0, and alpha = +Inf came back
// without an error (found by FuzzLDA); it is an error now.
func TestLDAZeroEigenvalue(t *testing.T) {
	var b moments.Builder
	b.SetVocabSize(4)
	for _, d := range []struct {
		w []int32
		c []uint32
	}{{[]int32{0}, []uint32{3}}, {[]int32{2}, []uint32{4}}, {nil, nil}} {
		if err := b.Add(d.w, d.c); err != nil {
			t.Fatal(err)
		}
	}
	res, err := LearnLDA(context.Background(), b.Corpus(), 1, 3.75, &Options{Method: SingleTheta, Seed: 169})
	if err == nil && (math.IsInf(res.Alpha[0], 0) || math.IsNaN(res.Alpha[0])) {
		t.Fatalf("alpha %v (eigenvalue %v) and no error", res.Alpha, res.Lambda)
	}
	if err == nil {
		t.Fatalf("no error; alpha %v, eigenvalue %v (the test needs the eigenvalue 0)", res.Alpha, res.Lambda)
	}
}

// projectSimplexSorted is ProjectSimplex as defined, by a sort of all
// the entries: the reference for TestProjectSimplexCandidates.
func projectSimplexSorted(v []float64) float64 {
	u := append([]float64(nil), v...)
	slices.Sort(u)
	var top float64
	if m := u[len(u)-1]; math.Abs(m) > 1 {
		top = m
	}
	return projectSorted(v, u, top)
}

// projectSorted finishes the reference projections: tau is (sum of the j
// largest - 1)/j for the largest j at which the j-th largest entry of the
// sorted candidates u (shifted by top) still exceeds it, and each entry
// of v becomes max(v - top - tau, 0); it returns the l1 mass moved.
func projectSorted(v, u []float64, top float64) float64 {
	var cum, tau float64
	for j := 1; j <= len(u); j++ {
		x := u[len(u)-j] - top
		cum += x
		if t := (cum - 1) / float64(j); x > t {
			tau = t
		}
	}
	var moved float64
	for i, x := range v {
		p := math.Max((x-top)-tau, 0)
		moved += math.Abs(p - x)
		v[i] = p
	}
	return moved
}

// TestProjectSimplexCandidates: ProjectSimplex, which sorts only the
// entries above its lower bound on tau, gives the bits of the full sort
// on vectors shaped like spectral topics (a few large entries among many
// small ones of both signs, summing to 1), on Gaussian vectors, on
// vectors of ties and on large-magnitude ones.
func TestProjectSimplexCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(20000)
		v := make([]float64, n)
		switch trial % 4 {
		case 0: // topic-like
			var s float64
			for i := range v {
				v[i] = r.NormFloat64() * 1e-5
				if r.IntN(50) == 0 {
					v[i] = r.ExpFloat64() * 1e-2
				}
				s += v[i]
			}
			for i := range v {
				v[i] /= s
			}
		case 1:
			for i := range v {
				v[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
			}
		case 2: // ties
			for i := range v {
				v[i] = float64(r.IntN(5)) / 7
			}
		case 3:
			for i := range v {
				v[i] = r.NormFloat64() * 1e12
			}
		}
		want := append([]float64(nil), v...)
		wantMoved := projectSimplexSorted(want)
		got := append([]float64(nil), v...)
		moved := ProjectSimplex(got)
		if !slices.Equal(got, want) || moved != wantMoved {
			t.Fatalf("trial %d (n = %d): projection differs from the full sort's (moved %v, want %v)", trial, n, moved, wantMoved)
		}
	}
}
