package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// LDA is a latent Dirichlet allocation model: k topics over n words (the
// columns of Topics, each a probability vector) and the Dirichlet
// parameter Alpha of the documents' topic proportions.
type LDA struct {
	Topics *mat.Dense // n x k
	Alpha  []float64  // k positive values
}

// RandomLDA draws k topics over n words, each from a symmetric Dirichlet
// with parameter beta, and pairs them with alpha (which it keeps).
func RandomLDA(r *rand.Rand, n, k int, beta float64, alpha []float64) *LDA {
	if len(alpha) != k {
		panic(fmt.Sprintf("synth: RandomLDA: %d alphas for %d topics", len(alpha), k))
	}
	topics := mat.Zeros(n, k)
	b := make([]float64, n)
	for i := range b {
		b[i] = beta
	}
	p := make([]float64, n)
	for j := 0; j < k; j++ {
		Dirichlet(r, b, p)
		topics.SetCol(j, p)
	}
	return &LDA{Topics: topics, Alpha: slices.Clone(alpha)}
}

// SymmetricLDA is the generator of the LDA scale benchmarks
// (bench/cmd/ldascale, bench/cmd/ldareal's generated corpus, beam's
// beambench): RandomLDA with r = rand.New(rand.NewPCG(seed, 0)) and
// alpha spread evenly, alpha0/k for each of the k topics. The same
// arguments give the same model.
func SymmetricLDA(seed uint64, n, k int, beta, alpha0 float64) *LDA {
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = alpha0 / float64(k)
	}
	return RandomLDA(rand.New(rand.NewPCG(seed, 0)), n, k, beta, alpha)
}

// Alpha0 returns the sum of the Dirichlet parameters.
func (m *LDA) Alpha0() float64 {
	var s float64
	for _, a := range m.Alpha {
		s += a
	}
	return s
}

// Corpus is a synthetic corpus that stores no documents: document i is
// drawn, whenever it is asked for, from a random stream of its own
// (seeded by the corpus seed and i), so the same document comes back
// every time and any range can be generated in parallel. It implements
// moments.Source.
//
// Every document is a mixture of word distributions (the components):
// it draws its mixture weights (for LDA, topic proportions theta from
// Dirichlet(Alpha)), a length uniformly in [MinLen, MaxLen], and then each
// token's component from the weights and its word from that component.
type Corpus struct {
	docs, minLen, maxLen int
	seed                 uint64
	vocab                int
	components           []*Alias
	weights              func(r *rand.Rand, w []float64)
	model                *LDA
}

// NewCorpus returns the corpus of docs documents of lengths uniform in
// [minLen, maxLen] drawn from the model with the given seed (document i
// from its own random stream, so any range of documents can be
// generated alone). Theta(i) of the corpus is the document's topic
// proportions.
func (m *LDA) NewCorpus(docs, minLen, maxLen int, seed uint64) *Corpus {
	n, k := m.Topics.Dims()
	if len(m.Alpha) != k {
		panic(fmt.Sprintf("synth: LDA.NewCorpus: %d alphas for %d topics", len(m.Alpha), k))
	}
	c := newCorpus(docs, minLen, maxLen, seed, n, columns(m.Topics), func(r *rand.Rand, w []float64) { Dirichlet(r, m.Alpha, w) })
	c.model = m
	return c
}

func newCorpus(docs, minLen, maxLen int, seed uint64, vocab int, components [][]float64, weights func(*rand.Rand, []float64)) *Corpus {
	if docs < 0 || minLen < 0 || maxLen < minLen {
		panic(fmt.Sprintf("synth: bad corpus sizes: docs=%d lengths %d..%d", docs, minLen, maxLen))
	}
	c := &Corpus{docs: docs, minLen: minLen, maxLen: maxLen, seed: seed, vocab: vocab, weights: weights}
	for _, p := range components {
		c.components = append(c.components, NewAlias(p))
	}
	return c
}

func columns(m *mat.Dense) [][]float64 {
	_, k := m.Dims()
	out := make([][]float64, k)
	for j := range out {
		out[j] = m.Col(nil, j)
	}
	return out
}

// NumDocs returns the number of documents.
func (c *Corpus) NumDocs() int { return c.docs }

// VocabSize returns the number of words.
func (c *Corpus) VocabSize() int { return c.vocab }

// Model returns the LDA model of a corpus made by LDA.NewCorpus (nil
// for other corpora).
func (c *Corpus) Model() *LDA { return c.model }

// Range generates documents lo..hi-1 and calls f with each; see
// moments.Source.
func (c *Corpus) Range(lo, hi int, f func(i int, d moments.Doc)) {
	g := c.newGen()
	for i := lo; i < hi; i++ {
		f(i, g.doc(i))
	}
}

// Theta returns the mixture weights of document i: for an LDA corpus its
// topic proportions.
func (c *Corpus) Theta(i int) []float64 {
	g := c.newGen()
	g.doc(i)
	return slices.Clone(g.theta)
}

// Materialize generates every document into a moments.Corpus.
func (c *Corpus) Materialize() *moments.Corpus {
	var b moments.Builder
	b.SetVocabSize(c.VocabSize())
	c.Range(0, c.docs, func(_ int, d moments.Doc) {
		if err := b.AddSorted(d); err != nil {
			panic(err) // the generator makes sorted documents
		}
	})
	return b.Corpus()
}

// gen holds the scratch space of one generating goroutine.
type gen struct {
	c      *Corpus
	theta  []float64
	tokens []int32
	doc_   moments.Doc
}

func (c *Corpus) newGen() *gen {
	return &gen{c: c, theta: make([]float64, len(c.components))}
}

func (g *gen) doc(i int) moments.Doc {
	c := g.c
	r := rand.New(rand.NewPCG(c.seed, uint64(i)))
	c.weights(r, g.theta)
	mix := NewAlias(g.theta)
	n := c.minLen + r.IntN(c.maxLen-c.minLen+1)
	g.tokens = g.tokens[:0]
	for t := 0; t < n; t++ {
		g.tokens = append(g.tokens, int32(c.components[mix.Draw(r)].Draw(r)))
	}
	slices.Sort(g.tokens)
	d := moments.Doc{Words: g.doc_.Words[:0], Counts: g.doc_.Counts[:0]}
	for j, w := range g.tokens {
		if j > 0 && w == g.tokens[j-1] {
			d.Counts[len(d.Counts)-1]++
			continue
		}
		d.Words = append(d.Words, w)
		d.Counts = append(d.Counts, 1)
	}
	g.doc_ = d
	return d
}
