package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// DAG is the linear model with hidden nodes related by a DAG (effective
// depth one, Example 2 of the topic-model paper):
//
//	h = Lambda h + eta,  x = A h + eps
//
// with Lambda strictly lower triangular (the hidden nodes are numbered in
// a topological order), eta and eps independent centred noises. So
// h = G eta with G = (I - Lambda)^{-1}, and x = A G eta + eps.
type DAG struct {
	A      *mat.Dense // n x k
	Lambda *mat.Dense // k x k, strictly lower triangular
	Eta    []Noise    // k hidden noises
	Eps    []Noise    // n observed noises
}

// RandomDAG draws the model of Example 2: A (n x k) Bernoulli(p)-Gaussian
// with gap gamma, Lambda strictly lower triangular Bernoulli(p)-Gaussian,
// noises with variances in [0.5, 1] from the given families (the paper
// uses Skewed for both).
func RandomDAG(r *rand.Rand, n, k int, p, gamma float64, kinds []NoiseKind) *DAG {
	a := BernoulliGaussian(r, n, k, p)
	EnsureGap(a, gamma)
	return &DAG{A: a, Lambda: StrictlyLower(r, k, p), Eta: RandomNoise(r, k, kinds), Eps: RandomNoise(r, n, kinds)}
}

// Dims returns the numbers of observed and hidden nodes.
func (m *DAG) Dims() (n, k int) { return m.A.Dims() }

// G returns (I - Lambda)^{-1}, by forward substitution (Lambda is
// strictly lower triangular).
func (m *DAG) G() *mat.Dense { return unitLowerInverse(m.Lambda) }

// unitLowerInverse returns (I - l)^{-1} for a strictly lower triangular
// l, by forward substitution.
func unitLowerInverse(l *mat.Dense) *mat.Dense {
	k, _ := l.Dims()
	g := mat.Identity(k)
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			// row i of G = e_i + sum_j Lambda_ij row j of G
			if v := l.At(i, j); v != 0 {
				gi, gj := g.RawRow(i), g.RawRow(j)
				for c := 0; c <= j; c++ {
					gi[c] += v * gj[c]
				}
			}
		}
	}
	return g
}

// Mixing returns B = A G, so that x = B eta + eps.
func (m *DAG) Mixing() *mat.Dense {
	var b mat.Dense
	b.Mul(m.A, m.G())
	return &b
}

// Sigma returns the population second moment E[x x^T] = B D2 B^T + E2,
// with D2 and E2 the diagonal matrices of the variances of eta and eps.
func (m *DAG) Sigma() *mat.Dense {
	return lowRankPlusDiag(m.Mixing(), variances(m.Eta), variances(m.Eps))
}

// Psi returns the population E[x x^T <zeta, x>] = B diag(mu3(eta) *
// B^T zeta) B^T + diag(zeta * mu3(eps)), where mu3 are the third moments
// of the noises.
func (m *DAG) Psi(zeta []float64) *mat.Dense {
	b := m.Mixing()
	n, k := b.Dims()
	if len(zeta) != n {
		panic(fmt.Sprintf("synth: DAG.Psi: zeta has %d elements, want %d", len(zeta), n))
	}
	bz := b.MulVecT(nil, zeta)
	w := make([]float64, k)
	for j := range w {
		w[j] = m.Eta[j].ThirdMoment() * bz[j]
	}
	e := make([]float64, n)
	for i := range e {
		e[i] = zeta[i] * m.Eps[i].ThirdMoment()
	}
	return lowRankPlusDiag(b, w, e)
}

// Samples returns count samples of x; sample i is drawn from a random
// stream seeded by (seed, i), so it is the same whichever block it is
// read in.
func (m *DAG) Samples(count int, seed uint64) moments.Samples {
	return newChain(count, seed, m.Eta, []*mat.Dense{m.Mixing()}, [][]Noise{m.Eps})
}

// Hierarchy is a hierarchical linear model (Example 1 of the topic-model
// paper): levels L1 (top) ... Lm (observed), with
//
//	x_{l+1} = A_l x_l + eps_{l+1}
//
// and the top level x_1 made of independent variables. A[l] is
// |L_{l+2}| x |L_{l+1}| (A[0] maps the top level to the second).
type Hierarchy struct {
	A     []*mat.Dense
	Noise [][]Noise // Noise[0]: the top level's variables; Noise[l]: eps of level l+1
}

// RandomHierarchy draws the model of Example 1 with the given level sizes
// from the top (e.g. 5, 30, 180): every A Bernoulli(p)-Gaussian with gap
// gamma, every variable and noise with variance in [0.5, 1] and a family
// drawn from kinds (the paper uses All). The paper does not say how the
// top level is distributed beyond independence; here it is drawn like
// the noises.
func RandomHierarchy(r *rand.Rand, sizes []int, p, gamma float64, kinds []NoiseKind) *Hierarchy {
	if len(sizes) < 2 {
		panic("synth: RandomHierarchy: need at least two levels")
	}
	h := &Hierarchy{Noise: [][]Noise{RandomNoise(r, sizes[0], kinds)}}
	for l := 1; l < len(sizes); l++ {
		a := BernoulliGaussian(r, sizes[l], sizes[l-1], p)
		EnsureGap(a, gamma)
		h.A = append(h.A, a)
		h.Noise = append(h.Noise, RandomNoise(r, sizes[l], kinds))
	}
	return h
}

// LevelSigma returns the population second moment of level l (0: the
// top): diag of the top variances, then S_{l+1} = A_l S_l A_l^T + diag of
// the noise variances.
func (h *Hierarchy) LevelSigma(l int) *mat.Dense {
	s := mat.Diag(variances(h.Noise[0]))
	for i := 0; i < l; i++ {
		var as, next mat.Dense
		as.Mul(h.A[i], s)
		next.MulBT(&as, h.A[i])
		next.Symmetrize()
		for j, nz := range h.Noise[i+1] {
			next.Set(j, j, next.At(j, j)+nz.Var)
		}
		s = &next
	}
	return s
}

// Sigma returns the population second moment of the observed level.
func (h *Hierarchy) Sigma() *mat.Dense { return h.LevelSigma(len(h.A)) }

// Mixing returns the product A_{m-1} ... A_1 A_0 mapping the top level to
// the observed one.
func (h *Hierarchy) Mixing() *mat.Dense {
	b := h.A[0]
	for _, a := range h.A[1:] {
		var next mat.Dense
		next.Mul(a, b)
		b = &next
	}
	return b
}

// Samples returns count samples of the observed level; sample i is drawn
// from a random stream seeded by (seed, i).
func (h *Hierarchy) Samples(count int, seed uint64) moments.Samples {
	return newChain(count, seed, h.Noise[0], h.A, h.Noise[1:])
}

// chain draws samples of a linear chain: a top level of independent
// variables, then level l+1 = A_l level l + noise_{l+1}; the last level is
// the sample. All draws of sample i (top first, then each level's noise)
// come from one stream seeded by (seed, i); the products run blockwise as
// matrix products, whose rows do not depend on the block.
type chain struct {
	count  int
	seed   uint64
	top    []Noise
	a      []*mat.Dense
	noise  [][]Noise
	widths []int // sizes of the levels below the top
}

func newChain(count int, seed uint64, top []Noise, a []*mat.Dense, noise [][]Noise) *chain {
	c := &chain{count: count, seed: seed, top: top, a: a, noise: noise}
	for l, al := range a {
		r, cols := al.Dims()
		prev := len(top)
		if l > 0 {
			prev = c.widths[l-1]
		}
		if cols != prev || len(noise[l]) != r {
			panic(fmt.Sprintf("synth: level %d: %dx%d matrix after %d variables with %d noises", l+1, r, cols, prev, len(noise[l])))
		}
		c.widths = append(c.widths, r)
	}
	return c
}

func (c *chain) NumSamples() int { return c.count }
func (c *chain) Dim() int        { return c.widths[len(c.widths)-1] }

func (c *chain) Block(lo, hi int, dst *mat.Dense) {
	rows, cols := dst.Dims()
	if lo < 0 || hi > c.count || rows != hi-lo || cols != c.Dim() {
		panic(fmt.Sprintf("synth: Samples.Block: rows %d..%d of %d into a %dx%d matrix", lo, hi, c.count, rows, cols))
	}
	// Draw every random value first, sample by sample.
	x := mat.Zeros(rows, len(c.top))
	noise := make([]*mat.Dense, len(c.a))
	for l, w := range c.widths {
		if l == len(c.widths)-1 {
			noise[l] = dst
		} else {
			noise[l] = mat.Zeros(rows, w)
		}
	}
	pcg := rand.NewPCG(0, 0)
	r := rand.New(pcg)
	for i := 0; i < rows; i++ {
		pcg.Seed(c.seed, uint64(lo+i))
		for j, nz := range c.top {
			x.Set(i, j, nz.Draw(r))
		}
		for l, ns := range c.noise {
			row := noise[l].RawRow(i)
			for j, nz := range ns {
				row[j] = nz.Draw(r)
			}
		}
	}
	// Then level by level: next = x A^T + noise.
	for l, a := range c.a {
		var ax mat.Dense
		ax.MulBT(x, a)
		noise[l].Add(noise[l], &ax)
		x = noise[l]
	}
}

func variances(ns []Noise) []float64 {
	v := make([]float64, len(ns))
	for i, nz := range ns {
		v[i] = nz.Var
	}
	return v
}

// lowRankPlusDiag returns B diag(w) B^T + diag(e), exactly symmetric.
func lowRankPlusDiag(b *mat.Dense, w, e []float64) *mat.Dense {
	n, k := b.Dims()
	bw := b.Clone()
	for i := 0; i < n; i++ {
		row := bw.RawRow(i)
		for j := 0; j < k; j++ {
			row[j] *= w[j]
		}
	}
	var s mat.Dense
	s.MulBT(bw, b)
	s.Symmetrize()
	for i := 0; i < n; i++ {
		s.Set(i, i, s.At(i, i)+e[i])
	}
	return &s
}
