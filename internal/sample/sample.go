// Package sample draws from the distributions that the generators of
// latent/synth and the random starts and samplers of the learners share:
// Gamma and Dirichlet variates, and discrete distributions, by inversion
// (Categorical, for one draw) or by Walker's alias method (Alias, for
// many draws from one distribution). Every function takes its generator
// explicitly, so that a seed fixes every bit of the result.
package sample

import (
	"math"
	"math/rand/v2"
)

// Gamma returns a draw from the Gamma distribution with the given shape
// (> 0, finite) and scale 1, by Marsaglia and Tsang's squeeze method:
// with d = shape - 1/3 and c = 1/sqrt(9d), draw x standard normal and
// v = (1 + c x)^3 until v > 0 and ln U < x^2/2 + d (1 - v + ln v), then
// return d v. For shape < 1 it draws Gamma(shape+1) and multiplies it by
// U^(1/shape). It panics on a shape that is not positive and finite.
func Gamma(r *rand.Rand, shape float64) float64 {
	if !(shape > 0) || math.IsInf(shape, 1) {
		panic("sample: Gamma: shape must be positive and finite")
	}
	boost := 1.0
	if shape < 1 {
		boost = math.Pow(r.Float64(), 1/shape)
		shape++
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		var x, v float64
		for {
			x = r.NormFloat64()
			v = 1 + c*x
			if v > 0 {
				break
			}
		}
		v = v * v * v
		u := r.Float64()
		// the first test is the cheap squeeze that accepts most draws
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return boost * d * v
		}
	}
}

// Dirichlet sets p to a draw from the Dirichlet distribution with
// parameters alpha (all > 0): independent Gamma(alpha_i) draws divided
// by their sum. If every Gamma draw underflows to zero (tiny alphas),
// all the mass goes to one coordinate, chosen with probabilities
// alpha/sum(alpha): the limit of the distribution as the alphas shrink
// together. It panics if p and alpha differ in length.
func Dirichlet(r *rand.Rand, alpha, p []float64) {
	if len(p) != len(alpha) {
		panic("sample: Dirichlet: len(p) != len(alpha)")
	}
	var s float64
	for i, a := range alpha {
		p[i] = Gamma(r, a)
		s += p[i]
	}
	if s > 0 {
		for i := range p {
			p[i] /= s
		}
		return
	}
	var a0 float64
	for _, a := range alpha {
		a0 += a
	}
	u := r.Float64() * a0
	j := len(alpha) - 1
	for i, a := range alpha {
		if u < a {
			j = i
			break
		}
		u -= a
	}
	clear(p)
	p[j] = 1
}

// Categorical returns an index drawn with probabilities p (non-negative,
// summing to 1), by inversion: the first i whose cumulative sum exceeds
// a uniform draw. When rounding leaves the draw above the total, it
// returns the last index of positive probability (0 if there is none).
// One draw costs O(len(p)); for many draws from one distribution use
// Alias.
func Categorical(r *rand.Rand, p []float64) int {
	u := r.Float64()
	for s, q := range p {
		u -= q
		if u < 0 {
			return s
		}
	}
	for s := len(p) - 1; s > 0; s-- {
		if p[s] > 0 {
			return s
		}
	}
	return 0
}

// Alias is Walker's alias table, in Vose's construction, for drawing
// from a discrete distribution over n outcomes in constant time: a draw
// picks a column i uniformly and returns i with probability prob[i],
// else alias[i]. The table is built so that every outcome receives
// exactly its share of the n unit columns.
type Alias struct {
	prob  []float64
	alias []int32
}

// NewAlias builds the table of the distribution proportional to w. It
// panics unless w is non-negative with a positive, finite sum.
func NewAlias(w []float64) *Alias {
	n := len(w)
	var s float64
	for _, v := range w {
		if v < 0 || math.IsNaN(v) {
			panic("sample: NewAlias: negative or NaN weight")
		}
		s += v
	}
	if !(s > 0) || math.IsInf(s, 0) {
		panic("sample: NewAlias: weights must have a positive, finite sum")
	}
	a := &Alias{prob: make([]float64, n), alias: make([]int32, n)}
	scaled := make([]float64, n)
	var small, large []int32
	for i, v := range w {
		scaled[i] = v * float64(n) / s
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	// pair an under-full column with an over-full outcome, which fills
	// the rest of the column and may itself become under-full
	for len(small) > 0 && len(large) > 0 {
		l, g := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[l], a.alias[l] = scaled[l], g
		scaled[g] -= 1 - scaled[l]
		if scaled[g] < 1 {
			large = large[:len(large)-1]
			small = append(small, g)
		}
	}
	for _, i := range large {
		a.prob[i], a.alias[i] = 1, i
	}
	for _, i := range small { // only rounding leaves any here
		a.prob[i], a.alias[i] = 1, i
	}
	return a
}

// Len returns the number of outcomes.
func (a *Alias) Len() int { return len(a.prob) }

// Draw returns an index with probability proportional to its weight.
func (a *Alias) Draw(r *rand.Rand) int {
	i := r.IntN(len(a.prob))
	if r.Float64() < a.prob[i] {
		return i
	}
	return int(a.alias[i])
}
