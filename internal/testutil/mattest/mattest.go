// Package mattest holds the test helpers that work on mat.Dense: the
// LAPACK-style orthogonality ratios, the asymmetry of a matrix, and
// Gaussian matrices. It is apart from package testutil because the tests
// of package mat cannot import a package that imports mat.
package mattest

import (
	"math/rand/v2"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/mat"
)

// OrthColsRatio returns ||I - QᵀQ||_1 / (m eps) for an m x p matrix q
// (0 when p is 0): at most a small constant for columns orthonormal to
// working accuracy.
func OrthColsRatio(q *mat.Dense) float64 {
	m, p := q.Dims()
	if p == 0 {
		return 0
	}
	var g mat.Dense
	g.GramCols(q)
	g.Sub(&g, mat.Identity(p))
	return testutil.Scaled(g.Norm1(), 1, m)
}

// OrthRowsRatio returns ||I - Q Qᵀ||_1 / (n eps) for a p x n matrix q
// (0 when p is 0).
func OrthRowsRatio(q *mat.Dense) float64 {
	p, n := q.Dims()
	if p == 0 {
		return 0
	}
	var g mat.Dense
	g.GramRows(q)
	g.Sub(&g, mat.Identity(p))
	return testutil.Scaled(g.Norm1(), 1, n)
}

// Asym returns ||A - Aᵀ||_1 for a square a: 0 exactly when a is
// symmetric.
func Asym(a *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, a.T())
	return d.Norm1()
}

// RandDense returns an r x c matrix of standard normal values drawn from
// rnd row by row.
func RandDense(rnd *rand.Rand, r, c int) *mat.Dense {
	return mat.New(r, c, testutil.Normals(rnd, r*c))
}
