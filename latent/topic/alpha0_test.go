package topic

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// TestSelectAlpha0Shared: the fits of SelectAlpha0 in one common basis
// give the scores of independent LearnLDA fits (within 1e-3 nats per
// token, while neighbouring grid values differ by more than 0.01), and
// every Basis has orthonormal columns with a row per word of train's
// vocabulary (one of which no document uses).
func TestSelectAlpha0Shared(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(31, 32))
	model := synth.RandomLDA(r, 300, 4, 0.1, []float64{0.1, 0.1, 0.1, 0.1})
	all := model.NewCorpus(2500, 30, 80, 3).Materialize()
	// A word no document uses: Basis must keep its row.
	var b moments.Builder
	for i := 0; i < all.NumDocs(); i++ {
		d := all.Doc(i)
		if err := b.Add(d.Words, d.Counts); err != nil {
			t.Fatal(err)
		}
	}
	b.SetVocabSize(all.VocabSize() + 1)
	train := b.Corpus()
	valid := model.NewCorpus(400, 30, 80, 4).Materialize()
	grid := []float64{0.1, 0.4, 1.6}
	opts := &Options{Seed: 2}
	_, scores, err := SelectAlpha0(ctx, train, valid, 4, grid, opts)
	if err != nil {
		t.Fatal(err)
	}
	n := train.VocabSize()
	for i, s := range scores {
		if s.Err != nil {
			t.Fatalf("alpha0 %v: %v", s.Alpha0, s.Err)
		}
		res, err := LearnLDA(ctx, train, 4, s.Alpha0, opts)
		if err != nil {
			t.Fatal(err)
		}
		ll, tokens := completionLogLik(&res.Model, valid)
		alone := ll / float64(tokens)
		t.Logf("alpha0 %v: shared %.6f, alone %.6f", s.Alpha0, s.LogLik, alone)
		if math.Abs(s.LogLik-alone) > 1e-3 {
			t.Errorf("alpha0 %v: score %.6f shared, %.6f alone", s.Alpha0, s.LogLik, alone)
		}
		if i > 0 && math.Abs(s.LogLik-scores[i-1].LogLik) <= 0.01 {
			t.Errorf("alpha0 %v and %v score within 0.01: the test cannot tell the fits apart", scores[i-1].Alpha0, s.Alpha0)
		}
		rows, l := s.Basis.Dims()
		if rows != n {
			t.Fatalf("Basis has %d rows for %d words", rows, n)
		}
		var g mat.Dense
		g.MulAT(s.Basis, s.Basis)
		g.Sub(&g, mat.Identity(l))
		if o := g.NormFrob(); o > 1e-12 {
			t.Errorf("||I - Basis^T Basis|| = %.3g", o)
		}
	}
}

// TestLearnLDAStart: a Start with a row per word of the vocabulary warms
// LearnLDA also when it learns on the words that occur (here fewer than
// half of them), and gives the topics of a cold start within 1e-6.
func TestLearnLDAStart(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(41, 42))
	model := synth.RandomLDA(r, 100, 3, 0.1, []float64{0.2, 0.2, 0.2})
	small := model.NewCorpus(3000, 30, 80, 5).Materialize()
	var b moments.Builder
	for i := 0; i < small.NumDocs(); i++ {
		d := small.Doc(i)
		if err := b.Add(d.Words, d.Counts); err != nil {
			t.Fatal(err)
		}
	}
	b.SetVocabSize(250) // 150 words no document uses
	c := b.Corpus()
	opts := &Options{Seed: 3, Eigen: &svd.TopEigOptions{Tol: 1e-10}}
	cold, err := LearnLDA(ctx, c, 3, 0.6, opts)
	if err != nil {
		t.Fatal(err)
	}
	fit, valid := SplitAlpha0(c, 1)
	_, scores, err := SelectAlpha0(ctx, fit, valid, 3, []float64{0.6}, opts)
	if err != nil {
		t.Fatal(err)
	}
	warmOpts := *opts
	eo := *opts.Eigen
	eo.Start = scores[0].Basis
	warmOpts.Eigen = &eo
	warm, err := LearnLDA(ctx, c, 3, 0.6, &warmOpts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("products: cold %d, warm %d", cold.Whitening.Products, warm.Whitening.Products)
	if warm.Whitening.Products >= cold.Whitening.Products {
		t.Errorf("warm start: %d products, cold %d", warm.Whitening.Products, cold.Whitening.Products)
	}
	// Topics up to order: match each warm topic to the nearest cold one.
	col, best := make([]float64, 250), make([]float64, 250)
	for j := 0; j < 3; j++ {
		warm.Topics.Col(col, j)
		d := math.Inf(1)
		for i := 0; i < 3; i++ {
			cold.Topics.Col(best, i)
			var s float64
			for w := range col {
				s += math.Abs(col[w] - best[w])
			}
			d = math.Min(d, s)
		}
		if d > 1e-6 {
			t.Errorf("warm topic %d is %.3g (l1) from every cold topic", j, d)
		}
	}
}

// TestSampleTol: 1e-2/sqrt(docs), floored at 1e-6.
func TestSampleTol(t *testing.T) {
	for _, c := range []struct {
		docs int
		want float64
	}{{0, 1e-2}, {1, 1e-2}, {400, 5e-4}, {1000000, 1e-5}, {100000000, 1e-6}, {1 << 40, 1e-6}} {
		if got := SampleTol(c.docs); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("SampleTol(%d) = %v, want %v", c.docs, got, c.want)
		}
	}
}

// TestEigenStartErrors: an Options.Eigen that TopEigSym refuses is an
// error matching the package's ErrBadOption, from every entry point;
// the ones that need no vocabulary (a NaN in Start, a NaN Tol, a
// negative MaxIter) come before the corpus pass, so a cancelled context
// does not hide them.
func TestEigenStartErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	model := synth.RandomLDA(r, 50, 3, 0.1, []float64{0.2, 0.2, 0.2})
	c := model.NewCorpus(300, 20, 40, 7).Materialize()
	nan := mat.Zeros(c.VocabSize(), 2)
	nan.Set(3, 1, math.NaN())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, e := range map[string]*svd.TopEigOptions{
		"NaN in Start":     {Start: nan},
		"NaN Tol":          {Tol: math.NaN()},
		"negative MaxIter": {MaxIter: -1},
	} {
		if _, err := LearnLDA(cancelled, c, 3, 1, &Options{Eigen: e}); !errors.Is(err, ErrBadOption) {
			t.Errorf("LearnLDA, %s: %v, want ErrBadOption before the pass", name, err)
		}
		if _, _, err := SelectAlpha0(cancelled, c, c, 3, []float64{1}, &Options{Eigen: e}); !errors.Is(err, ErrBadOption) {
			t.Errorf("SelectAlpha0, %s: %v, want ErrBadOption before the pass", name, err)
		}
	}
	short := &svd.TopEigOptions{Start: mat.Zeros(7, 2)}
	if _, err := LearnLDA(context.Background(), c, 3, 1, &Options{Eigen: short}); !errors.Is(err, ErrBadOption) {
		t.Errorf("LearnLDA, a 7-row Start: %v, want ErrBadOption", err)
	}
	if _, err := LearnECA(context.Background(), c, 3, &Options{Eigen: short}); !errors.Is(err, ErrBadOption) {
		t.Errorf("LearnECA, a 7-row Start: %v, want ErrBadOption", err)
	}
}

// TestSelectAlpha0Reference: the reference alpha0 (here 0.5, whose
// a0/(a0+1) = 1/3 lies nearest the middle of [1/11, 2/3]) is fitted in
// the common basis as LearnLDA fits it: at a tight eigensolver tolerance
// the scores agree to 1e-8 nats per token. The other grid values are
// Rayleigh-Ritz approximations and agree to 1e-3 (TestSelectAlpha0Shared).
func TestSelectAlpha0Reference(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(71, 72))
	model := synth.RandomLDA(r, 200, 3, 0.1, []float64{0.2, 0.15, 0.15})
	train := model.NewCorpus(2000, 30, 80, 8).Materialize()
	valid := model.NewCorpus(300, 30, 80, 9).Materialize()
	grid := []float64{0.1, 0.5, 2}
	if ref := refAlpha0(grid); ref != 1 {
		t.Fatalf("refAlpha0(%v) = %d, want 1", grid, ref)
	}
	opts := &Options{Seed: 4, Eigen: &svd.TopEigOptions{Tol: 1e-10}}
	_, scores, err := SelectAlpha0(ctx, train, valid, 3, grid, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := LearnLDA(ctx, train, 3, 0.5, opts)
	if err != nil {
		t.Fatal(err)
	}
	ll, tokens := completionLogLik(&res.Model, valid)
	if d := math.Abs(scores[1].LogLik - ll/float64(tokens)); !(d <= 1e-8) {
		t.Errorf("reference alpha0: score %.10f in the common basis, %.10f from LearnLDA", scores[1].LogLik, ll/float64(tokens))
	}
}

// TestRefAlpha0: the grid value whose a0/(a0+1) lies nearest the middle
// of the range, among the positive finite ones; -1 when there is none.
func TestRefAlpha0(t *testing.T) {
	for _, c := range []struct {
		grid []float64
		want int
	}{
		{Alpha0Grid, 2}, // weights 0.09, 0.23, 0.5, 0.75: middle 0.42
		{[]float64{1}, 0},
		{[]float64{-1, math.NaN(), 3, math.Inf(1)}, 2},
		{[]float64{0, math.Inf(1)}, -1},
	} {
		if got := refAlpha0(c.grid); got != c.want {
			t.Errorf("refAlpha0(%v) = %d, want %d", c.grid, got, c.want)
		}
	}
}
