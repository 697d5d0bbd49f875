package synth

import (
	"math/rand/v2"

	"github.com/moments-go/moments/internal/sample"
)

// Gamma returns a draw from the Gamma distribution with the given shape
// (> 0, finite) and scale 1, by Marsaglia and Tsang's method (for
// shape < 1 it draws Gamma(shape+1) and multiplies by U^(1/shape)).
func Gamma(r *rand.Rand, shape float64) float64 { return sample.Gamma(r, shape) }

// Dirichlet sets p to a draw from the Dirichlet distribution with
// parameters alpha (all > 0), through normalised Gamma draws. If every
// Gamma draw underflows to zero (tiny alphas), the mass goes to one
// coordinate chosen with probabilities alpha/sum(alpha), the limit of the
// distribution.
func Dirichlet(r *rand.Rand, alpha, p []float64) { sample.Dirichlet(r, alpha, p) }

// Alias is Walker's alias table (in Vose's construction) for drawing
// from a discrete distribution in constant time; its Draw method returns
// an index with probability proportional to its weight.
type Alias = sample.Alias

// NewAlias builds the table of the distribution proportional to w (w
// non-negative with a positive sum).
func NewAlias(w []float64) *Alias { return sample.NewAlias(w) }
