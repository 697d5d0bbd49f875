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
// from a discrete distribution in constant time: a draw picks one of
// its Len columns uniformly and returns the column's own index or its
// alias, with probabilities set so that every index comes out with its
// share of the weights.
type Alias struct{ t sample.Alias }

// NewAlias builds the table of the distribution proportional to w. It
// panics unless w is non-negative with a positive, finite sum.
func NewAlias(w []float64) *Alias { return &Alias{t: *sample.NewAlias(w)} }

// Draw returns an index i of the weights w the table was built from,
// with probability w[i]/sum(w), drawing from r.
func (a *Alias) Draw(r *rand.Rand) int { return a.t.Draw(r) }

// Len returns the number of outcomes, len(w).
func (a *Alias) Len() int { return a.t.Len() }
