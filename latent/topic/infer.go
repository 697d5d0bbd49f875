package topic

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
)

// Infer returns the topic proportions of document d under the model
// (Topics and Alpha; d's word ids index the rows of Topics): the mean of
// the variational Dirichlet posterior after iters fixed-point
// iterations (0 means 50) of
//
//	phi_wj ∝ Topics[w][j] exp(digamma(gamma_j)),  gamma = Alpha + sum_w c_w phi_w
//
// stopping early once gamma moves by less than 1e-6 of the document's
// length. Words that every topic gives probability 0 are ignored. It
// panics if Alpha does not hold one parameter per topic.
func (m *Model) Infer(d moments.Doc, iters int) []float64 {
	return m.infer(d, iters, nil)
}

// inferScratch holds the work space of infer, reused across documents.
type inferScratch struct {
	rows                          []float64
	next, expPsi, counts, weights []float64
}

// infer is Infer with work space from s (nil: allocated). The topic rows
// of d's words are gathered into one contiguous block first, so that each
// iteration is two matrix-vector products with it (kernels.Gemv).
// The result is a new slice.
func (m *Model) infer(d moments.Doc, iters int, s *inferScratch) []float64 {
	if _, k := m.Topics.Dims(); len(m.Alpha) != k {
		panic(fmt.Sprintf("topic: Infer: %d alphas for %d topics", len(m.Alpha), k))
	}
	if s == nil {
		s = &inferScratch{}
	}
	if iters <= 0 {
		iters = 50
	}
	k := len(m.Alpha)
	nw := len(d.Words)
	rows := slices.Grow(s.rows[:0], nw*k)[:nw*k]
	counts := slices.Grow(s.counts[:0], nw)[:nw]
	for t, w := range d.Words {
		copy(rows[t*k:(t+1)*k], m.Topics.RawRow(int(w)))
		counts[t] = float64(d.Counts[t])
	}
	next := slices.Grow(s.next[:0], 2*k)[:2*k]
	expPsi := slices.Grow(s.expPsi[:0], k)[:k]
	weights := slices.Grow(s.weights[:0], nw)[:nw]
	s.rows, s.counts, s.next, s.expPsi, s.weights = rows, counts, next, expPsi, weights
	acc := next[k:]
	next = next[:k]
	gamma := make([]float64, k)
	l := float64(d.Len())
	for j := range gamma {
		gamma[j] = m.Alpha[j] + l/float64(k)
	}
	for it := 0; it < iters; it++ {
		for j, g := range gamma {
			expPsi[j] = math.Exp(digamma(g))
		}
		// sum_t c_t phi_t with phi_tj = b_tj e_j / (b_t . e), e =
		// exp(digamma(gamma)), is e times sum_t (c_t / (b_t . e)) b_t:
		// two matrix-vector products with the gathered rows. A word
		// whose b_t . e is not positive (every topic gives it 0) counts
		// for nothing: its row is zeroed, which keeps it at 0 later too.
		if nw > 0 {
			kernels.Gemv(false, nw, k, 1, rows, k, expPsi, 0, weights)
		}
		for t, sum := range weights {
			if !(sum > 0) {
				clear(rows[t*k : (t+1)*k])
				weights[t] = 0
				continue
			}
			weights[t] = counts[t] / sum
		}
		if nw > 0 {
			kernels.Gemv(true, nw, k, 1, rows, k, weights, 0, acc)
		} else {
			clear(acc)
		}
		for j := range next {
			next[j] = m.Alpha[j] + expPsi[j]*acc[j]
		}
		var change float64
		for j := range gamma {
			change += math.Abs(next[j] - gamma[j])
			gamma[j] = next[j]
		}
		if change < 1e-6*math.Max(l, 1) {
			break
		}
	}
	var sum float64
	for _, g := range gamma {
		sum += g
	}
	for j := range gamma {
		gamma[j] /= sum
	}
	return gamma
}

// inferChunk is the number of documents Labels and LogLikelihood infer
// between two checks of their ctx.
const inferChunk = 64

// eachDoc calls f for every document of src in order, checking ctx
// before every chunk of inferChunk documents; it returns ctx.Err() once
// ctx is done.
func eachDoc(ctx context.Context, src moments.Source, f func(i int, d moments.Doc)) error {
	total := src.NumDocs()
	for lo := 0; lo < total; lo += inferChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		src.Range(lo, min(lo+inferChunk, total), f)
	}
	return nil
}

// Labels returns, for every document of src, its most probable topic
// under Infer. ctx must not be nil; Labels checks it between chunks of
// documents and returns ctx.Err() once it is done.
func (m *Model) Labels(ctx context.Context, src moments.Source, iters int) ([]int, error) {
	labels := make([]int, src.NumDocs())
	err := eachDoc(ctx, src, func(i int, d moments.Doc) {
		theta := m.Infer(d, iters)
		best := 0
		for j, v := range theta {
			if v > theta[best] {
				best = j
			}
		}
		labels[i] = best
	})
	if err != nil {
		return nil, err
	}
	return labels, nil
}

// SmoothFloor is the weight of the uniform distribution mixed into every
// topic when LogLikelihood scores held-out words, so that a word no topic
// produces costs log(SmoothFloor/n) instead of an infinite penalty.
const SmoothFloor = 1e-3

// LogLikelihood returns the plug-in log-likelihood of the documents of
// src, sum_d sum_w c_w log(sum_j theta_dj beta_wj) with theta_d from
// Infer and beta the topics mixed with SmoothFloor of the uniform
// distribution, and the number of tokens it covers. ctx must not be
// nil; LogLikelihood checks it between chunks of documents and returns
// ctx.Err() once it is done.
func (m *Model) LogLikelihood(ctx context.Context, src moments.Source, iters int) (ll float64, tokens int, err error) {
	n, _ := m.Topics.Dims()
	floor := SmoothFloor / float64(n)
	err = eachDoc(ctx, src, func(_ int, d moments.Doc) {
		theta := m.Infer(d, iters)
		m.addLogLikelihood(d, theta, floor, &ll, &tokens)
	})
	if err != nil {
		return 0, 0, err
	}
	return ll, tokens, nil
}

// addLogLikelihood adds to *ll the log-likelihood of the words of d,
// sum_w c_w log(sum_j theta_j beta_wj) with beta the topics mixed with
// floor = SmoothFloor/n of the uniform distribution, term by term, and to
// *tokens the number of tokens of d. It is the sum of LogLikelihood and
// of the held-out likelihood of the alpha0 choice.
func (m *Model) addLogLikelihood(d moments.Doc, theta []float64, floor float64, ll *float64, tokens *int) {
	for t, w := range d.Words {
		var p float64
		for j, b := range m.Topics.RawRow(int(w)) {
			p += theta[j] * b
		}
		p = (1-SmoothFloor)*p + floor
		*ll += float64(d.Counts[t]) * math.Log(p)
		*tokens += int(d.Counts[t])
	}
}

// Perplexity returns exp(-LogLikelihood/tokens) of the documents of src.
// ctx must not be nil; the error is LogLikelihood's.
func (m *Model) Perplexity(ctx context.Context, src moments.Source, iters int) (float64, error) {
	ll, tokens, err := m.LogLikelihood(ctx, src, iters)
	if err != nil {
		return 0, err
	}
	return math.Exp(-ll / float64(tokens)), nil
}
