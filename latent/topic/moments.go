package topic

import (
	"context"
	"fmt"
	"math"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// Moments is what the learners need from the data: the vocabulary size,
// products of Pairs with thin n x m matrices, and the whitened third
// moment Triples(W, W, W) for an n x k whitening W. Both are those of
// one moments.Variant (raw, central, or alpha0-corrected).
// *moments.DocMoments implements it for corpora.
type Moments interface {
	VocabSize() int
	PairsTimes(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
	WhitenedTriples(ctx context.Context, w *mat.Dense) (*tensor3.Sym, error)
}

// docMoments adapts *moments.DocMoments to Moments.
type docMoments struct{ *moments.DocMoments }

func (d docMoments) VocabSize() int { return len(d.M1) }

// LDAMoments are the population moments of an LDA model with topics O
// (n x k, columns on the simplex) and Dirichlet parameter alpha:
// Pairs_a0 = O diag(alpha) O^T / ((a0+1) a0) and Triples_a0 =
// sum_i 2 alpha_i / ((a0+2)(a0+1) a0) O_i(x)O_i(x)O_i.
type LDAMoments struct {
	Topics *mat.Dense
	Alpha  []float64
}

// VocabSize returns the number of words.
func (m LDAMoments) VocabSize() int { n, _ := m.Topics.Dims(); return n }

func (m LDAMoments) alpha0() float64 {
	var s float64
	for _, a := range m.Alpha {
		s += a
	}
	return s
}

// PairsTimes returns Pairs_a0 X.
func (m LDAMoments) PairsTimes(_ context.Context, x *mat.Dense) (*mat.Dense, error) {
	a0 := m.alpha0()
	w := make([]float64, len(m.Alpha))
	for i, a := range m.Alpha {
		w[i] = a / ((a0 + 1) * a0)
	}
	return lowRankTimes(m.Topics, w, x), nil
}

// WhitenedTriples returns Triples_a0(W, W, W).
func (m LDAMoments) WhitenedTriples(_ context.Context, w *mat.Dense) (*tensor3.Sym, error) {
	a0 := m.alpha0()
	c := make([]float64, len(m.Alpha))
	for i, a := range m.Alpha {
		c[i] = 2 * a / ((a0 + 2) * (a0 + 1) * a0)
	}
	return whitenedSum(m.Topics, c, w), nil
}

// FactorMoments are the population central moments of the independent
// factor model of Algorithm 1 with x = O h + noise: Pairs =
// O diag(sigma^2) O^T and Triples = sum_i mu3_i O_i(x)O_i(x)O_i, where
// sigma^2 and mu3 are the variances and central third moments of the
// factors h_i.
type FactorMoments struct {
	O     *mat.Dense // n x k
	Var   []float64  // sigma_i^2 > 0
	Third []float64  // mu3_i = E[(h_i - E h_i)^3]
}

// VocabSize returns the dimension n of the observations.
func (m FactorMoments) VocabSize() int { n, _ := m.O.Dims(); return n }

// PairsTimes returns O diag(sigma^2) O^T X.
func (m FactorMoments) PairsTimes(_ context.Context, x *mat.Dense) (*mat.Dense, error) {
	return lowRankTimes(m.O, m.Var, x), nil
}

// WhitenedTriples returns sum_i mu3_i (W^T O_i)^(x)3.
func (m FactorMoments) WhitenedTriples(_ context.Context, w *mat.Dense) (*tensor3.Sym, error) {
	return whitenedSum(m.O, m.Third, w), nil
}

// Canonical returns O in canonical form, O diag(sigma): the columns ECA
// recovers (up to sign and order).
func (m FactorMoments) Canonical() *mat.Dense {
	o := m.O.Clone()
	n, k := o.Dims()
	for i := 0; i < n; i++ {
		row := o.RawRow(i)
		for j := 0; j < k; j++ {
			row[j] *= math.Sqrt(m.Var[j])
		}
	}
	return o
}

// lowRankTimes returns O diag(w) O^T X.
func lowRankTimes(o *mat.Dense, w []float64, x *mat.Dense) *mat.Dense {
	var otx mat.Dense
	otx.MulAT(o, x) // k x m
	k, cols := otx.Dims()
	for i := 0; i < k; i++ {
		row := otx.RawRow(i)
		for j := 0; j < cols; j++ {
			row[j] *= w[i]
		}
	}
	var out mat.Dense
	out.Mul(o, &otx)
	return &out
}

// whitenedSum returns sum_i c_i (W^T O_i)^(x)3.
func whitenedSum(o *mat.Dense, c []float64, w *mat.Dense) *tensor3.Sym {
	var wo mat.Dense
	wo.MulAT(w, o) // k x r: column i is W^T O_i
	k, r := wo.Dims()
	if len(c) != r {
		panic(fmt.Sprintf("topic: %d coefficients for %d columns", len(c), r))
	}
	rows := wo.T() // r x k
	t := tensor3.New(k, nil)
	t.AddOuterRows(1, rows, c)
	return t
}
