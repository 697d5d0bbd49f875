// Package mattest holds the matrix comparisons that the tests of several
// packages assert. It is apart from package testutil because it imports
// mat, which the tests of mat's own dependencies cannot.
package mattest

import (
	"math"

	"github.com/moments-go/moments/mat"
)

// MaxRelErr returns max |truth - est| / max |truth| over the entries, the
// scaled residual of an estimate against the truth: the absolute
// difference when truth is all zero, +Inf when the shapes differ.
func MaxRelErr(truth, est *mat.Dense) float64 {
	r, c := truth.Dims()
	if re, ce := est.Dims(); re != r || ce != c {
		return math.Inf(1)
	}
	var d, s float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d = max(d, math.Abs(truth.At(i, j)-est.At(i, j)))
			s = max(s, math.Abs(truth.At(i, j)))
		}
	}
	if s == 0 {
		return d
	}
	return d / s
}
