package topic

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

// TestImplausibleWarnings: LDA with k = 2 on three documents gives alphas
// summing to 236 for alpha0 = 1; the result must carry warnings for the
// alpha sum and for the number of documents.
func TestImplausibleWarnings(t *testing.T) {
	var b moments.Builder
	b.SetVocabSize(20)
	for _, d := range []struct {
		w []int32
		c []uint32
	}{{[]int32{7, 13, 19}, []uint32{3, 3, 1}}, {[]int32{3, 17}, []uint32{3, 2}}, {[]int32{9, 15}, []uint32{2, 3}}} {
		if err := b.Add(d.w, d.c); err != nil {
			t.Fatal(err)
		}
	}
	res, err := LearnLDA(context.Background(), b.Corpus(), 2, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, a := range res.Alpha {
		sum += a
	}
	all := strings.Join(res.Warnings, "\n")
	if sum < 2 || len(res.Warnings) != 2 || !strings.Contains(all, "alphas sum to") || !strings.Contains(all, "only 3 documents for k = 2") {
		t.Fatalf("alphas sum to %.4g; warnings:\n%s", sum, all)
	}
}

// TestPlausibleNoWarnings: a healthy synthetic LDA corpus of 3000
// documents, and the exact moments of a model, give no warning.
func TestPlausibleNoWarnings(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	alpha := []float64{0.1, 0.1, 0.1, 0.1, 0.1}
	model := synth.RandomLDA(r, 500, 5, 0.1, alpha)
	res, err := LearnLDA(context.Background(), model.NewCorpus(3000, 50, 150, 2), 5, model.Alpha0(), &Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Fatalf("healthy corpus: %q", res.Warnings)
	}
	res, err = LearnLDAMoments(context.Background(), LDAMoments{Topics: model.Topics, Alpha: alpha}, 5, model.Alpha0(), nil)
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("exact moments: %v %q", err, res.Warnings)
	}
}

// TestDuplicateTopics checks the duplicate rule on its own: two columns
// at l1 distance 0.2 (LDA) or |cosine| 0.995 (ECA) are reported, columns
// far apart are not.
func TestDuplicateTopics(t *testing.T) {
	lda := mat.FromRows([][]float64{{0.5, 0.4, 0}, {0.5, 0.6, 0}, {0, 0, 1}})
	if w := duplicateTopics(lda, true); len(w) != 1 || !strings.Contains(w[0], "topics 1 and 2") {
		t.Fatalf("LDA: %q", w)
	}
	c := math.Sqrt(1 - 0.995*0.995)
	eca := mat.FromRows([][]float64{{1, -0.995, 0}, {0, c, 0}, {0, 0, 2}})
	if w := duplicateTopics(eca, false); len(w) != 1 || !strings.Contains(w[0], "factors 1 and 2") {
		t.Fatalf("ECA: %q", w)
	}
	if w := duplicateTopics(mat.Identity(3), true); len(w) != 0 {
		t.Fatalf("distinct: %q", w)
	}
}

// TestBadOptions: NaN or senseless MaxCond and unknown methods are
// errors naming the option, not panics.
func TestBadOptions(t *testing.T) {
	m := LDAMoments{Topics: mat.Identity(4), Alpha: []float64{1, 1, 1, 1}}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{MaxCond: math.NaN()}, "Options.MaxCond = NaN"},
		{Options{MaxCond: 0.5}, "Options.MaxCond = 0.5"},
		{Options{MaxCond: math.Inf(1)}, "Options.MaxCond = +Inf"},
		{Options{Method: 9}, "Options.Method = 9"},
	} {
		_, err := LearnLDAMoments(context.Background(), m, 2, 4, &c.o)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}

// TestProjectSimplexNaN: with a NaN in the input every entry and the
// distance are NaN, so that no entry looks like part of a distribution.
func TestProjectSimplexNaN(t *testing.T) {
	v := []float64{math.NaN(), 0.5, 0.7}
	if d := ProjectSimplex(v); !math.IsNaN(d) || !math.IsNaN(v[1]) || !math.IsNaN(v[2]) {
		t.Fatalf("distance %v, v %v", d, v)
	}
}
