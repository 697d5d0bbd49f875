package topic

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// psiRef is digamma by a central difference of math.Lgamma, independent
// of the package's digamma (error below 1e-9 for x >= 0.5).
func psiRef(x float64) float64 {
	const h = 1e-5
	a, _ := math.Lgamma(x + h)
	b, _ := math.Lgamma(x - h)
	return (a - b) / (2 * h)
}

// TestEStepByHand checks the E-step on one document and two topics
// against values computed by hand: the first iteration from gamma = (1,
// 1), where exp(digamma) is the same for both topics, the second with
// digamma from math.Lgamma, and the fixed point of a document whose one
// word both topics give the same probability, found by bisection.
func TestEStepByHand(t *testing.T) {
	beta := mat.New(2, 2, []float64{
		0.8, 0.2, // word 0
		0.1, 0.9, // word 1
	})
	alpha := []float64{0.5, 0.5}
	d := moments.Doc{Words: []int32{0, 1}, Counts: []uint32{2, 1}}
	s := newEStepScratch(2)
	gamma := []float64{1, 1}
	if it := estep(beta, alpha, d, gamma, 1, 0, s); it != 1 {
		t.Fatalf("%d iterations, want 1", it)
	}
	// phi_0 = (0.8, 0.2) / 1.0, phi_1 = (0.1, 0.9) / 1.0:
	// gamma = 0.5 + 2 (0.8, 0.2) + (0.1, 0.9) = (2.2, 1.8).
	want := []float64{2.2, 1.8}
	for j := range gamma {
		if math.Abs(gamma[j]-want[j]) > 1e-14 {
			t.Fatalf("first iteration: gamma %v, want %v", gamma, want)
		}
	}
	// Second iteration by hand with e_j = exp(psi(gamma_j)).
	e := []float64{math.Exp(psiRef(2.2)), math.Exp(psiRef(1.8))}
	next := []float64{0.5, 0.5}
	for i, w := range []int{0, 1} {
		c := []float64{2, 1}[i]
		z := beta.At(w, 0)*e[0] + beta.At(w, 1)*e[1]
		for j := 0; j < 2; j++ {
			next[j] += c * beta.At(w, j) * e[j] / z
		}
	}
	estep(beta, alpha, d, gamma, 1, 0, s)
	for j := range gamma {
		if math.Abs(gamma[j]-next[j]) > 1e-8 {
			t.Fatalf("second iteration: gamma %v, want %v", gamma, next)
		}
	}

	// One word, count 3, equally likely in both topics, alpha = (1, 2):
	// at the fixed point gamma = (1 + 3p, 2 + 3(1-p)) with
	// p = e0/(e0 + e1), e_j = exp(psi(gamma_j)).
	flat := mat.New(1, 2, []float64{0.5, 0.5})
	one := moments.Doc{Words: []int32{0}, Counts: []uint32{3}}
	f := func(p float64) float64 {
		g0, g1 := 1+3*p, 2+3*(1-p)
		return p - 1/(1+math.Exp(psiRef(g1)-psiRef(g0)))
	}
	lo, hi := 0.0, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	p := (lo + hi) / 2
	g := []float64{2, 2}
	estep(flat, []float64{1, 2}, one, g, 1000, 1e-13, s)
	if math.Abs(g[0]-(1+3*p)) > 1e-7 || math.Abs(g[1]-(2+3*(1-p))) > 1e-7 {
		t.Fatalf("fixed point gamma %v, want (%v, %v)", g, 1+3*p, 2+3*(1-p))
	}
}

// TestDocBound compares the per-document bound, whose phi terms are
// folded into log sum_j beta_wj exp(E log theta_j), with the bound of Blei
// et al. written out term by term with phi explicit, and checks the
// expected counts it accumulates.
func TestDocBound(t *testing.T) {
	beta := mat.New(3, 2, []float64{
		0.5, 0.1,
		0.3, 0.2,
		0.2, 0.7,
	})
	alpha := []float64{0.3, 1.7}
	d := moments.Doc{Words: []int32{0, 2}, Counts: []uint32{4, 2}}
	gamma := []float64{2.5, 5.5}
	stats := mat.Zeros(3, 2)
	got := docBound(beta, alpha, lgammaSum(alpha), d, gamma, stats, newEStepScratch(2))

	g0 := gamma[0] + gamma[1]
	elog := []float64{psiRef(gamma[0]) - psiRef(g0), psiRef(gamma[1]) - psiRef(g0)}
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	want := lg(alpha[0]+alpha[1]) - lg(alpha[0]) - lg(alpha[1]) -
		lg(g0) + lg(gamma[0]) + lg(gamma[1])
	for j := 0; j < 2; j++ {
		want += (alpha[j] - 1) * elog[j]
		want -= (gamma[j] - 1) * elog[j]
	}
	for i, w := range d.Words {
		c := float64(d.Counts[i])
		phi := []float64{beta.At(int(w), 0) * math.Exp(elog[0]), beta.At(int(w), 1) * math.Exp(elog[1])}
		z := phi[0] + phi[1]
		for j := range phi {
			phi[j] /= z
			want += c * phi[j] * (elog[j] + math.Log(beta.At(int(w), j)) - math.Log(phi[j]))
			if math.Abs(stats.At(int(w), j)-c*phi[j]) > 1e-8 {
				t.Fatalf("expected count of word %d, topic %d: %v, want %v", w, j, stats.At(int(w), j), c*phi[j])
			}
		}
	}
	if stats.At(1, 0) != 0 || stats.At(1, 1) != 0 {
		t.Fatal("counts for a word not in the document")
	}
	if math.Abs(got-want) > 1e-8*math.Abs(want) {
		t.Fatalf("bound %.12g, written out %.12g", got, want)
	}
}

func TestMStep(t *testing.T) {
	stats := mat.New(2, 2, []float64{3, 0, 1, 2})
	beta := mat.Zeros(2, 2)
	mstep(beta, stats, 0.5)
	// Topic 0: (3.5, 1.5)/5; topic 1: (0.5, 2.5)/3.
	want := []float64{0.7, 0.5 / 3, 0.3, 2.5 / 3}
	for i, v := range want {
		if math.Abs(beta.RawRow(i / 2)[i%2]-v) > 1e-15 {
			t.Fatalf("beta %v, want %v", beta, want)
		}
	}
	// Under Dirichlet(1, 2): E log beta = (psi(1) - psi(3), psi(2) - psi(3))
	// = (-3/2, -1/2).
	lambda := mat.New(2, 1, []float64{1, 2})
	eb := mat.Zeros(2, 1)
	kl := expElogKL(eb, lambda, 0.5)
	if math.Abs(eb.At(0, 0)-math.Exp(-1.5)) > 1e-13 || math.Abs(eb.At(1, 0)-math.Exp(-0.5)) > 1e-13 {
		t.Fatalf("exp(E log beta) = %v, want (%v, %v)", eb, math.Exp(-1.5), math.Exp(-0.5))
	}
	// E[log p(beta | 0.5)] - E[log q(beta | lambda)] written out with
	// math.Lgamma: lgamma(2 eta) - 2 lgamma(eta) - lgamma(3) + lgamma(1)
	// + lgamma(2) + (eta - 1)(-3/2) + (eta - 2)(-1/2).
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	wantKL := lg(1) - 2*lg(0.5) - lg(3) + lg(1) + lg(2) + (0.5-1)*(-1.5) + (0.5-2)*(-0.5)
	if math.Abs(kl-wantKL) > 1e-14 {
		t.Fatalf("topic terms of the bound %.17g, want %.17g", kl, wantKL)
	}
}

// TestRefineSynthetic refines the spectral estimate of a generated LDA
// corpus: the mean l1 error per topic must not grow, the held-out
// log-likelihood per token must rise by at least 0.003 nats (it rises by 0.007), the bounds
// must never fall, and the result must have the same bits with 1 and 3
// workers.
func TestRefineSynthetic(t *testing.T) {
	for _, point := range []bool{false, true} {
		name := "variational"
		if point {
			name = "point"
		}
		t.Run(name, func(t *testing.T) { testRefineSynthetic(t, point) })
	}
}

func testRefineSynthetic(t *testing.T, point bool) {
	r := rand.New(rand.NewPCG(11, 11))
	const k = 6
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = 0.1
	}
	model := synth.RandomLDA(r, 300, k, 0.1, alpha)
	train := model.NewCorpus(2000, 30, 80, 21).Materialize()
	held := model.NewCorpus(400, 30, 80, 22).Materialize()
	ctx := context.Background()
	raw, err := LearnLDA(ctx, train, k, 0.6, &Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var bounds []float64
	ref, rep, err := Refine(ctx, train, raw, &RefineOptions{Point: point, Passes: moments.Options{Workers: 1},
		OnPass: func(pass int, bound, change float64) { bounds = append(bounds, bound) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(bounds) != len(rep.Bounds) || len(bounds) < 2 {
		t.Fatalf("%d passes reported, %d bounds", len(bounds), len(rep.Bounds))
	}
	for i := 1; i < len(bounds); i++ {
		if bounds[i] < bounds[i-1]-1e-10*math.Abs(bounds[i-1]) {
			t.Fatalf("bound fell at pass %d: %v", i+1, bounds)
		}
	}
	_, rawErrs := eval.MatchTopics(model.Topics, raw.Topics)
	_, refErrs := eval.MatchTopics(model.Topics, ref.Topics)
	llRaw, tokens, err := raw.LogLikelihood(ctx, held, 0)
	if err != nil {
		t.Fatal(err)
	}
	llRef, _, err := ref.LogLikelihood(ctx, held, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d passes (converged %v): l1 error %.4f -> %.4f, held-out log-likelihood per token %.4f -> %.4f",
		len(rep.Bounds), rep.Converged, eval.Mean(rawErrs), eval.Mean(refErrs), llRaw/float64(tokens), llRef/float64(tokens))
	if eval.Mean(refErrs) > eval.Mean(rawErrs) {
		t.Errorf("refinement raised the mean l1 error per topic from %.4f to %.4f", eval.Mean(rawErrs), eval.Mean(refErrs))
	}
	if gain := (llRef - llRaw) / float64(tokens); !(gain >= 0.003) {
		t.Errorf("held-out log-likelihood per token gained %.4g nats, want at least 0.003", gain)
	}
	for j := 0; j < k; j++ {
		var s float64
		for i := 0; i < 300; i++ {
			s += ref.Topics.At(i, j)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("refined topic %d sums to %v", j, s)
		}
	}

	ref3, rep3, err := Refine(ctx, train, raw, &RefineOptions{Point: point, Passes: moments.Options{Workers: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rep.Bounds {
		if math.Float64bits(rep.Bounds[i]) != math.Float64bits(rep3.Bounds[i]) {
			t.Fatalf("bounds differ with 3 workers: %v vs %v", rep.Bounds, rep3.Bounds)
		}
	}
	a, b := ref.Topics.RawData(), ref3.Topics.RawData()
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("topics differ with 3 workers at %d: %v vs %v", i, a[i], b[i])
		}
	}

	// Cancellation and bad options.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Refine(cctx, train, raw, nil); err == nil {
		t.Error("a cancelled context was ignored")
	}
	if _, _, err := Refine(ctx, train, raw, &RefineOptions{Eta: -1}); err == nil || !errors.Is(err, ErrBadOption) {
		t.Errorf("a negative Eta was accepted or not classified: %v, want ErrBadOption", err)
	}
	if _, _, err := Refine(ctx, train, raw, &RefineOptions{Passes: moments.Options{Workers: -1}}); !errors.Is(err, ErrBadOption) {
		t.Errorf("Passes.Workers = -1: %v, want ErrBadOption", err)
	}
	if _, _, err := Refine(ctx, train, &LDAResult{Model: Model{Topics: raw.Topics}}, nil); err == nil || !errors.Is(err, ErrModel) {
		t.Errorf("a model without Alpha was accepted or not classified: %v, want ErrModel", err)
	}
	bad := *raw
	bad.Alpha = append([]float64(nil), raw.Alpha...)
	bad.Alpha[0] = math.NaN()
	if _, _, err := Refine(ctx, train, &bad, nil); !errors.Is(err, ErrModel) {
		t.Errorf("a NaN alpha: %v, want ErrModel", err)
	}
	bad.Alpha = raw.Alpha[1:]
	if _, _, err := Refine(ctx, train, &bad, nil); !errors.Is(err, ErrModel) {
		t.Errorf("too few alphas: %v, want ErrModel", err)
	}
	bad.Alpha = raw.Alpha
	bad.Topics = raw.Topics.Clone()
	bad.Topics.Set(0, 0, -1)
	if _, _, err := Refine(ctx, train, &bad, nil); !errors.Is(err, ErrModel) {
		t.Errorf("a negative topic entry: %v, want ErrModel", err)
	}
}

// TestSelectAlpha0 draws documents from an LDA model with alpha0 = 0.3
// and asks SelectAlpha0 to pick it from {0.03, 0.3, 3} by held-out
// likelihood.
func TestSelectAlpha0(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	model := synth.RandomLDA(r, 200, 3, 0.1, []float64{0.1, 0.1, 0.1})
	train := model.NewCorpus(3000, 30, 80, 1).Materialize()
	valid := model.NewCorpus(500, 30, 80, 2).Materialize()
	best, scores, err := SelectAlpha0(context.Background(), train, valid, 3, []float64{0.03, 0.3, 3}, &Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scores %+v", scores)
	if best != 0.3 {
		t.Fatalf("chose alpha0 = %v, want 0.3 (scores %+v)", best, scores)
	}
	if _, _, err := SelectAlpha0(context.Background(), train, valid, 3, []float64{}, nil); err == nil || !errors.Is(err, ErrBadOption) {
		t.Fatalf("an empty grid was accepted or not classified: %v, want ErrBadOption", err)
	}
}

// TestArgumentErrors: a k outside 1..n and an alpha0 that is not
// positive and finite are errors matching ErrBadOption.
func TestArgumentErrors(t *testing.T) {
	ctx := context.Background()
	var b moments.Builder
	for i := 0; i < 4; i++ {
		if err := b.Add([]int32{0, 1, 2}, []uint32{1, 2, 1}); err != nil {
			t.Fatal(err)
		}
	}
	c := b.Corpus()
	for _, k := range []int{0, 4} {
		if _, err := LearnLDA(ctx, c, k, 1, nil); !errors.Is(err, ErrBadOption) {
			t.Errorf("LearnLDA, k = %d of 3 words: %v, want ErrBadOption", k, err)
		}
		if _, err := LearnECA(ctx, c, k, nil); !errors.Is(err, ErrBadOption) {
			t.Errorf("LearnECA, k = %d of 3 words: %v, want ErrBadOption", k, err)
		}
	}
	m := LDAMoments{Topics: mat.Identity(3), Alpha: []float64{0.5, 0.5, 0.5}}
	for _, a := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := LearnLDAMoments(ctx, m, 2, a, nil); !errors.Is(err, ErrBadOption) {
			t.Errorf("LearnLDAMoments, alpha0 = %v: %v, want ErrBadOption", a, err)
		}
	}
}

// TestCorpusPassesContext: Labels, LogLikelihood and Perplexity stop
// with ctx.Err() for a cancelled ctx, and give the same answers with a
// live one as document-by-document inference does.
func TestCorpusPassesContext(t *testing.T) {
	var b moments.Builder
	for i := 0; i < 200; i++ {
		w := int32(i % 3)
		if err := b.Add([]int32{w}, []uint32{uint32(1 + i%4)}); err != nil {
			t.Fatal(err)
		}
	}
	c := b.Corpus()
	m := &Model{Topics: mat.Identity(3), Alpha: []float64{0.1, 0.1, 0.1}}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Labels(cctx, c, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Labels with a cancelled ctx: %v", err)
	}
	if _, _, err := m.LogLikelihood(cctx, c, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("LogLikelihood with a cancelled ctx: %v", err)
	}
	if _, err := m.Perplexity(cctx, c, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Perplexity with a cancelled ctx: %v", err)
	}
	ctx := context.Background()
	labels, err := m.Labels(ctx, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range labels {
		if l != i%3 {
			t.Fatalf("document %d (word %d only) labelled %d", i, i%3, l)
		}
	}
	ll, tokens, err := m.LogLikelihood(ctx, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tokens != c.Tokens() || !(ll < 0) {
		t.Errorf("LogLikelihood = %v over %d tokens, want a negative value over %d", ll, tokens, c.Tokens())
	}
	p, err := m.Perplexity(ctx, c, 0)
	if want := math.Exp(-ll / float64(tokens)); err != nil || math.Abs(p-want) > 1e-12*want {
		t.Errorf("Perplexity = %v (%v), want exp(-ll/tokens) = %v", p, err, want)
	}
}
