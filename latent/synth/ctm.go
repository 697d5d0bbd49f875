package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/mat"
)

// CorrelatedTopics is a topic model whose k topics are correlated through
// a linear Bayesian network (the model that linear.LearnCrossDAG and
// linear.LearnCorrelatedTopics learn): a document's topic activities are h = Lambda h + eta, with
// Lambda strictly lower triangular and independent eta_j = Bernoulli(P_j)
// (skewed for P_j != 1/2), and each of its tokens is drawn independently
// from the word distribution
//
//	q = Background + A h.
//
// The columns of A sum to zero (each topic moves probability between
// the words of its support), so q sums to one for every h, and A is
// scaled so that q >= Background/5 for every h; the model is exactly
// linear, E[x_v | h] = Background + A h for every token x_v.
type CorrelatedTopics struct {
	Background []float64  // n word probabilities
	A          *mat.Dense // n x k, sparse columns summing to zero
	Lambda     *mat.Dense // k x k, strictly lower triangular
	P          []float64  // the Bernoulli parameters of eta
}

// RandomCorrelatedTopics draws a model over n words with k topics: a
// background with probabilities in [0.5, 1.5]/n (normalised), the
// supports of A and Lambda Bernoulli(p) with N(0, 1) values (each column
// of A then centred on its support), P uniform in [0.1, 0.3].
func RandomCorrelatedTopics(r *rand.Rand, n, k int, p float64) *CorrelatedTopics {
	bg := make([]float64, n)
	var s float64
	for i := range bg {
		bg[i] = 0.5 + r.Float64()
		s += bg[i]
	}
	for i := range bg {
		bg[i] /= s
	}
	a := BernoulliGaussian(r, n, k, p)
	for j := 0; j < k; j++ {
		var sum float64
		var cnt int
		for i := 0; i < n; i++ {
			if v := a.At(i, j); v != 0 {
				sum += v
				cnt++
			}
		}
		if cnt < 2 {
			panic(fmt.Sprintf("synth: RandomCorrelatedTopics: topic %d has %d words; raise p or n", j, cnt))
		}
		for i := 0; i < n; i++ {
			if v := a.At(i, j); v != 0 {
				a.Set(i, j, v-sum/float64(cnt))
			}
		}
	}
	m := &CorrelatedTopics{Background: bg, A: a, Lambda: StrictlyLower(r, k, p), P: make([]float64, k)}
	for j := range m.P {
		m.P[j] = 0.1 + 0.2*r.Float64()
	}
	// |h_j| <= sum_l |G_jl| for eta in [0, 1]^k; scale A so that
	// |(A h)_i| <= 0.8 Background_i.
	g := m.G()
	hmax := make([]float64, k)
	for j := range hmax {
		for _, v := range g.RawRow(j) {
			hmax[j] += math.Abs(v)
		}
	}
	scale := math.Inf(1)
	for i := 0; i < n; i++ {
		var b float64
		for j, v := range a.RawRow(i) {
			b += math.Abs(v) * hmax[j]
		}
		if b > 0 {
			scale = math.Min(scale, 0.8*bg[i]/b)
		}
	}
	a.Scale(scale, a)
	return m
}

// Dims returns the numbers of words and topics.
func (m *CorrelatedTopics) Dims() (n, k int) { return m.A.Dims() }

// G returns (I - Lambda)^{-1}.
func (m *CorrelatedTopics) G() *mat.Dense { return unitLowerInverse(m.Lambda) }

// Mixing returns B = A G, so that q = Background + B eta.
func (m *CorrelatedTopics) Mixing() *mat.Dense {
	var b mat.Dense
	b.Mul(m.A, m.G())
	return &b
}

// EtaVar returns the variances P(1-P) of eta.
func (m *CorrelatedTopics) EtaVar() []float64 {
	v := make([]float64, len(m.P))
	for j, p := range m.P {
		v[j] = p * (1 - p)
	}
	return v
}

// EtaThird returns the third central moments P(1-P)(1-2P) of eta.
func (m *CorrelatedTopics) EtaThird() []float64 {
	v := make([]float64, len(m.P))
	for j, p := range m.P {
		v[j] = p * (1 - p) * (1 - 2*p)
	}
	return v
}

// Pairs returns the population second cross cumulant of two tokens of a
// document, E[x1 x2^T] - M1 M1^T = B diag(EtaVar) B^T.
func (m *CorrelatedTopics) Pairs() *mat.Dense {
	n, _ := m.Dims()
	return lowRankPlusDiag(m.Mixing(), m.EtaVar(), make([]float64, n))
}

// NewCorpus returns docs documents of lengths uniform in [minLen, maxLen]
// drawn from the model with the given seed (document i from its own
// random stream, so any range of documents can be generated alone).
// Theta(i) of the corpus is the document's word distribution q.
func (m *CorrelatedTopics) NewCorpus(docs, minLen, maxLen int, seed uint64) *Corpus {
	n, k := m.Dims()
	unit := make([][]float64, n)
	for i := range unit {
		unit[i] = make([]float64, n)
		unit[i][i] = 1
	}
	g := m.G()
	return newCorpus(docs, minLen, maxLen, seed, n, unit, func(r *rand.Rand, q []float64) {
		eta := make([]float64, k)
		for j, p := range m.P {
			if r.Float64() < p {
				eta[j] = 1
			}
		}
		h := g.MulVec(nil, eta)
		m.A.MulVec(q, h)
		for i, b := range m.Background {
			q[i] += b
		}
	})
}
