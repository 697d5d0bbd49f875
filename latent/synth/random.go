package synth

import (
	"math"
	"math/rand/v2"
)

// Gamma returns a draw from the Gamma distribution with the given shape
// (> 0) and scale 1, by Marsaglia and Tsang's method (for shape < 1 it
// draws Gamma(shape+1) and multiplies by U^(1/shape)).
func Gamma(r *rand.Rand, shape float64) float64 {
	if !(shape > 0) || math.IsInf(shape, 1) {
		panic("synth: Gamma: shape must be positive and finite")
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
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return boost * d * v
		}
	}
}

// Dirichlet sets p to a draw from the Dirichlet distribution with
// parameters alpha (all > 0), through normalised Gamma draws. If every
// Gamma draw underflows to zero (tiny alphas), the mass goes to one
// coordinate chosen with probabilities alpha/sum(alpha), the limit of the
// distribution.
func Dirichlet(r *rand.Rand, alpha, p []float64) {
	if len(p) != len(alpha) {
		panic("synth: Dirichlet: len(p) != len(alpha)")
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

// Alias is Walker's alias table (in Vose's construction) for drawing
// from a discrete distribution in constant time.
type Alias struct {
	prob  []float64
	alias []int32
}

// NewAlias builds the table of the distribution proportional to w (w
// non-negative with a positive sum).
func NewAlias(w []float64) *Alias {
	n := len(w)
	var s float64
	for _, v := range w {
		if v < 0 || math.IsNaN(v) {
			panic("synth: NewAlias: negative or NaN weight")
		}
		s += v
	}
	if !(s > 0) || math.IsInf(s, 0) {
		panic("synth: NewAlias: weights must have a positive, finite sum")
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

// Draw returns an index with probability proportional to its weight.
func (a *Alias) Draw(r *rand.Rand) int {
	i := r.IntN(len(a.prob))
	if r.Float64() < a.prob[i] {
		return i
	}
	return int(a.alias[i])
}
