package moments_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// TestPairsUnbiased checks on documents of two to four tokens that the
// estimate converges to the population E[x1 x2^T] = O E[h h^T] O^T of an
// LDA model, E[h h^T] = (diag(alpha) + alpha alpha^T) / (a0 (a0+1)); the
// naive c c^T / l^2, biased by the diagonal on such short documents, must
// fail the same threshold.
func TestPairsUnbiased(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const n, docs = 12, 200000
	alpha := []float64{0.3, 0.5, 0.2}
	model := synth.RandomLDA(r, n, 3, 1, alpha)
	corpus := model.NewCorpus(docs, 2, 4, 11).Materialize()

	k, a0 := len(alpha), model.Alpha0()
	ehh := mat.Zeros(k, k)
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			v := alpha[a] * alpha[b]
			if a == b {
				v += alpha[a]
			}
			ehh.Set(a, b, v/(a0*(a0+1)))
		}
	}
	var oh, pop mat.Dense
	oh.Mul(model.Topics, ehh)
	pop.MulBT(&oh, model.Topics)

	m, err := moments.NewDocMoments(context.Background(), corpus, moments.Raw, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.PairsTimes(context.Background(), mat.Identity(n))
	if err != nil {
		t.Fatal(err)
	}
	naive := mat.Zeros(n, n)
	for i := 0; i < corpus.NumDocs(); i++ {
		d := corpus.Doc(i)
		l2 := float64(d.Len() * d.Len())
		for a, wa := range d.Words {
			for b, wb := range d.Words {
				naive.Set(int(wa), int(wb), naive.At(int(wa), int(wb))+float64(d.Counts[a]*d.Counts[b])/l2/docs)
			}
		}
	}
	rel := func(x *mat.Dense) float64 {
		var d mat.Dense
		d.Sub(x, &pop)
		return d.NormFrob() / pop.NormFrob()
	}
	if e := rel(got); e > 0.02 {
		t.Errorf("relative error %v of E[x1 x2^T] over %d short documents", e, docs)
	}
	if e := rel(naive); e < 0.1 {
		t.Errorf("the naive estimate is within %v: the test cannot tell a biased formula", e)
	}
}
