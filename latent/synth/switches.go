package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/mat"
)

// Switches is a document model with independent skewed factors, the
// setting of ECA's Algorithm 1: each of k binary factors h_i is on with
// probability P_i, independently, and a document whose factors are h draws
// its words from
//
//	(1 - sum_i h_i Shift_i) Base + sum_i h_i Shift_i Topics_i
//
// (Shift_i >= 0 with sum at most 1, Base and the columns of Topics
// distributions over the words). Then E[x | h] = Base + O h with O_i =
// Shift_i (Topics_i - Base): linear in independent factors, whose
// variances are P_i (1 - P_i) and third central moments P_i (1 - P_i)
// (1 - 2 P_i), so the factors are skewed unless P_i = 1/2.
type Switches struct {
	Base   []float64  // n
	Topics *mat.Dense // n x k
	Shift  []float64  // k
	P      []float64  // k
}

// RandomSwitches draws Base and k topics over n words from symmetric
// Dirichlet(beta) distributions, shifts uniform in [0.5, 1] scaled so
// that they sum to total (at most 1), and probabilities uniform in [0.05,
// 0.35] (clearly skewed).
func RandomSwitches(r *rand.Rand, n, k int, beta, total float64) *Switches {
	if !(total > 0 && total <= 1) {
		panic(fmt.Sprintf("synth: RandomSwitches: total shift %v outside (0, 1]", total))
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = beta
	}
	m := &Switches{Base: make([]float64, n), Topics: mat.Zeros(n, k), Shift: make([]float64, k), P: make([]float64, k)}
	Dirichlet(r, b, m.Base)
	p := make([]float64, n)
	var s float64
	for j := 0; j < k; j++ {
		Dirichlet(r, b, p)
		m.Topics.SetCol(j, p)
		m.Shift[j] = 0.5 + 0.5*r.Float64()
		s += m.Shift[j]
		m.P[j] = 0.05 + 0.3*r.Float64()
	}
	for j := range m.Shift {
		m.Shift[j] *= total / s
	}
	return m
}

// Factors returns O (n x k, O_i = Shift_i (Topics_i - Base)) and the
// variances and third central moments of the factors: the population
// central moments of the model are Pairs = O diag(variance) O^T and
// Triples = sum_i third_i O_i(x)O_i(x)O_i.
func (m *Switches) Factors() (o *mat.Dense, variance, third []float64) {
	n, k := m.Topics.Dims()
	o = mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			o.Set(i, j, m.Shift[j]*(m.Topics.At(i, j)-m.Base[i]))
		}
	}
	variance, third = make([]float64, k), make([]float64, k)
	for j, p := range m.P {
		variance[j] = p * (1 - p)
		third[j] = p * (1 - p) * (1 - 2*p)
	}
	return o, variance, third
}

// NewCorpus returns the corpus of docs documents of lengths uniform in
// [minLen, maxLen] drawn from the model with the given seed (document i
// from its own random stream, so any range of documents can be
// generated alone); the mixture weights of a document (Corpus.Theta)
// are those of Base and then of each topic.
func (m *Switches) NewCorpus(docs, minLen, maxLen int, seed uint64) *Corpus {
	n, k := m.Topics.Dims()
	if len(m.Base) != n || len(m.Shift) != k || len(m.P) != k {
		panic(fmt.Sprintf("synth: Switches.NewCorpus: base of %d words, %d shifts and %d probabilities for %d topics over %d words", len(m.Base), len(m.Shift), len(m.P), k, n))
	}
	var total float64
	for _, s := range m.Shift {
		if s < 0 {
			panic("synth: Switches.NewCorpus: negative shift")
		}
		total += s
	}
	if total > 1+1e-12 {
		panic(fmt.Sprintf("synth: Switches.NewCorpus: shifts sum to %v > 1", total))
	}
	components := append([][]float64{m.Base}, columns(m.Topics)...)
	return newCorpus(docs, minLen, maxLen, seed, n, components, func(r *rand.Rand, w []float64) {
		w[0] = 1
		for j, p := range m.P {
			w[j+1] = 0
			if r.Float64() < p {
				w[j+1] = m.Shift[j]
				w[0] -= m.Shift[j]
			}
		}
		w[0] = max(w[0], 0)
	})
}
