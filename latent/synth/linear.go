package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/mat"
)

// BernoulliGaussian returns a rows x cols matrix whose entries are
// non-zero with probability p, with standard normal values.
func BernoulliGaussian(r *rand.Rand, rows, cols int, p float64) *mat.Dense {
	a := mat.Zeros(rows, cols)
	for i := 0; i < rows; i++ {
		row := a.RawRow(i)
		for j := range row {
			if r.Float64() < p {
				row[j] = r.NormFloat64()
			}
		}
	}
	return a
}

// StrictlyLower returns a k x k strictly lower-triangular
// Bernoulli-Gaussian matrix: entries below the diagonal non-zero with
// probability p, standard normal values.
func StrictlyLower(r *rand.Rand, k int, p float64) *mat.Dense {
	l := mat.Zeros(k, k)
	for i := 1; i < k; i++ {
		for j := 0; j < i; j++ {
			if r.Float64() < p {
				l.Set(i, j, r.NormFloat64())
			}
		}
	}
	return l
}

// EnsureGap enforces the gap gamma (0 < gamma < 1) in every row of a: if
// the largest absolute entry a1 and the second a2 have |a2|/|a1| > 1 -
// gamma, |a1| becomes |a2|/(1-gamma), keeping its sign.
// Rows with fewer than two non-zeros already have a gap.
func EnsureGap(a *mat.Dense, gamma float64) {
	if !(gamma > 0 && gamma < 1) {
		panic(fmt.Sprintf("synth: EnsureGap: gamma %v outside (0, 1)", gamma))
	}
	rows, _ := a.Dims()
	for i := 0; i < rows; i++ {
		row := a.RawRow(i)
		first, second := -1, -1
		for j, v := range row {
			switch {
			case first < 0 || math.Abs(v) > math.Abs(row[first]):
				first, second = j, first
			case second < 0 || math.Abs(v) > math.Abs(row[second]):
				second = j
			}
		}
		if second < 0 || row[second] == 0 {
			continue
		}
		a2 := math.Abs(row[second])
		if a2/math.Abs(row[first]) > 1-gamma {
			row[first] = math.Copysign(a2/(1-gamma), row[first])
		}
	}
}
