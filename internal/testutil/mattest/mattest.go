// Package mattest holds the test helpers that work on mat.Dense: the
// LAPACK-style orthogonality ratios, the asymmetry of a matrix, Gaussian
// matrices and the scaled error of an estimate against a truth. It is
// apart from package testutil because the tests of package mat cannot
// import a package that imports mat.
package mattest

import (
	"math"
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
// (0 when p is 0): OrthColsRatio of qᵀ.
func OrthRowsRatio(q *mat.Dense) float64 { return OrthColsRatio(q.T()) }

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

// FactorResidual returns the 1-norms of 2^-e*(A - U*diag(s)*Vᵀ) and of
// 2^-e*A, the numerator and the norm of the LAPACK residual ratio of a
// decomposition, computed in copies scaled by 2^-e (exactly, unless
// entries underflow) so that a matrix near the overflow threshold gives
// finite norms. u is m x k, v n x k and s has k elements.
func FactorResidual(a, u *mat.Dense, s []float64, v *mat.Dense, e int) (resid, norm float64) {
	us := u.Clone()
	m, _ := us.Dims()
	for i := 0; i < m; i++ {
		row := us.RawRow(i)
		for j := range row {
			row[j] *= math.Ldexp(s[j], -e)
		}
	}
	var r, as mat.Dense
	r.MulBT(us, v)
	as.ScalePow2(-e, a)
	r.Sub(&r, &as)
	return r.Norm1(), as.Norm1()
}

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
