package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// NoiseKind is a family of noise distributions.
type NoiseKind uint8

// The families. For a variance s2 = s^2 they are Exp(rate 1/s),
// Poisson(s2), (s/sqrt 2) chi2_1, N(0, s2), the uniform on [-s sqrt 3,
// s sqrt 3] and the Laplace of scale s/sqrt 2, always centred. The last
// two are symmetric (zero skewness) and non-Gaussian: excess kurtosis
// -1.2 and 3.
const (
	Exponential NoiseKind = iota
	Poisson
	ChiSquared
	Gaussian
	Uniform
	Laplace
)

var noiseNames = [...]string{"exponential", "poisson", "chi-squared", "gaussian", "uniform", "laplace"}

// String returns the family's name.
func (k NoiseKind) String() string {
	if int(k) < len(noiseNames) {
		return noiseNames[k]
	}
	return fmt.Sprintf("NoiseKind(%d)", k)
}

// Skewed are the three families with non-zero skewness (Example 2 of the
// paper); All adds the Gaussian (Example 1).
// Symmetric are the two symmetric non-Gaussian families, which third
// moments cannot tell apart and fourth moments can.
var (
	Skewed    = []NoiseKind{Exponential, Poisson, ChiSquared}
	All       = []NoiseKind{Exponential, Poisson, ChiSquared, Gaussian}
	Symmetric = []NoiseKind{Uniform, Laplace}
)

// Noise is a centred noise distribution: a family and a variance.
type Noise struct {
	Kind NoiseKind
	Var  float64
}

// Draw returns a draw with mean 0 and variance n.Var.
func (n Noise) Draw(r *rand.Rand) float64 {
	s := math.Sqrt(n.Var)
	switch n.Kind {
	case Exponential:
		return s*r.ExpFloat64() - s
	case Poisson:
		return float64(poisson(r, n.Var)) - n.Var
	case ChiSquared:
		z := r.NormFloat64()
		return s / math.Sqrt2 * (z*z - 1)
	case Gaussian:
		return s * r.NormFloat64()
	case Uniform:
		return s * math.Sqrt(3) * (2*r.Float64() - 1)
	case Laplace:
		e := s / math.Sqrt2 * r.ExpFloat64()
		if r.Uint64()&1 == 0 {
			return -e
		}
		return e
	}
	panic(fmt.Sprintf("synth: Noise.Draw: unknown kind %v", n.Kind))
}

// ThirdMoment returns E[e^3] of the centred distribution: 2 s^3 for the
// exponential, s^2 for the Poisson, 2 sqrt(2) s^3 for the scaled chi2_1
// and 0 for the Gaussian and the symmetric families.
func (n Noise) ThirdMoment() float64 {
	s := math.Sqrt(n.Var)
	switch n.Kind {
	case Exponential:
		return 2 * s * s * s
	case Poisson:
		return n.Var
	case ChiSquared:
		return 2 * math.Sqrt2 * s * s * s
	case Gaussian, Uniform, Laplace:
		return 0
	}
	panic(fmt.Sprintf("synth: Noise.ThirdMoment: unknown kind %v", n.Kind))
}

// RandomNoise returns count noises with variances uniform in [0.5, 1]
// and families drawn uniformly from kinds, as in the paper's examples.
func RandomNoise(r *rand.Rand, count int, kinds []NoiseKind) []Noise {
	out := make([]Noise, count)
	for i := range out {
		out[i] = Noise{Kind: kinds[r.IntN(len(kinds))], Var: 0.5 + 0.5*r.Float64()}
	}
	return out
}

// poisson draws from Poisson(mean) by Knuth's product of uniforms for
// small means, and by the sum of independent Poisson(<= 30) draws
// otherwise (exact, and fast enough for the means the models use).
func poisson(r *rand.Rand, mean float64) int {
	n := 0
	for mean > 30 {
		n += poisson(r, 30)
		mean -= 30
	}
	l := math.Exp(-mean)
	p := r.Float64()
	for p > l {
		n++
		p *= r.Float64()
	}
	return n
}
