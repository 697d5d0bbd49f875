package lq

import (
	"fmt"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/mat"
)

// LeastSquares sets dst to the minimum-norm least-squares solution X of
// A*X ≈ B: among the X that minimize ||A*X - B||_F, the one of least
// norm, for A of any shape and rank (m x n, B m x r, X n x r). It returns
// the numerical rank it used.
//
// The method is a complete orthogonal decomposition (as LAPACK's dgelsy):
// the row-pivoted LQ factorization of Aᵀ, truncated to the rank r (the
// diagonal elements of L larger than rcond*|L[0][0]|; rcond <= 0 means
// max(m, n)*eps), then the LQ factorization of the remaining r x n
// trapezoid (where a pivot deep in the subnormal range rounds to zero
// in it, which only an rcond that keeps rounding errors allows, the rank
// ends before it). It returns ErrNotFinite for NaN or infinite input, and
// ErrRange (with the rank, and dst as it was) if X does not fit in
// float64, and panics if B does not have m rows. For a rank decision
// based on singular values use svd.PseudoInverse.
func LeastSquares(dst, a, b *mat.Dense, rcond float64) (rank int, err error) {
	m, n := a.Dims()
	br, bc := b.Dims()
	if br != m {
		panic(fmt.Sprintf("lq: LeastSquares: A is %dx%d but B is %dx%d", m, n, br, bc))
	}
	if !a.IsFinite() || !b.IsFinite() {
		return 0, ErrNotFinite
	}
	c, err := newCOD(a, rcond)
	if err != nil {
		return 0, err
	}
	x := c.solve(b)
	if !x.IsFinite() {
		return c.rank, ErrRange
	}
	dst.Copy(x)
	return c.rank, nil
}

// PseudoInverse sets dst to the n x m Moore-Penrose pseudo-inverse of the
// m x n matrix a, computed as in LeastSquares with B = I, and returns the
// numerical rank it used. As LeastSquares, it returns ErrNotFinite for
// NaN or infinite input, and ErrRange (with the rank, and dst as it was)
// if the pseudo-inverse does not fit in float64.
func PseudoInverse(dst, a *mat.Dense, rcond float64) (rank int, err error) {
	m, _ := a.Dims()
	return LeastSquares(dst, a, mat.Identity(m), rcond)
}

// ColSpace returns an orthonormal basis of the column space of the m x n
// matrix a: an m x r matrix with orthonormal columns, r the numerical
// rank (as in PivotedLQ.Rank with rcond). It returns ErrNotFinite for NaN
// or infinite input.
func ColSpace(a *mat.Dense, rcond float64) (*mat.Dense, error) {
	f, err := FactorizePivoted(a.T())
	if err != nil {
		return nil, err
	}
	r := f.Rank(rcond)
	q := mat.Zeros(r, f.n)
	if r > 0 && f.n > 0 {
		f.f.FormQ(r, q.RawData(), f.n)
	}
	return q.T(), nil
}

// RowSpace returns an orthonormal basis of the row space of the m x n
// matrix a: an r x n matrix with orthonormal rows, r the numerical rank.
// It returns ErrNotFinite for NaN or infinite input.
func RowSpace(a *mat.Dense, rcond float64) (*mat.Dense, error) {
	f, err := FactorizePivoted(a)
	if err != nil {
		return nil, err
	}
	r := f.Rank(rcond)
	q := mat.Zeros(r, f.n)
	if r > 0 && f.n > 0 {
		f.f.FormQ(r, q.RawData(), f.n)
	}
	return q, nil
}

// cod is a complete orthogonal decomposition A = Q1ᵀ*T*Z*Pᵀ of an m x n
// matrix of rank r: Q1 the first r rows of the LQ factor of Pᵀ*Aᵀ
// (r x m), T r x r lower triangular, Z r x n with orthonormal rows.
type cod struct {
	m, n, rank int
	exp        int // A was scaled by 2^-exp (see prepare)
	perm       []int
	first      *house.Reflectors // of Pᵀ*Aᵀ (n x m)
	second     *house.Reflectors // of the r x n trapezoid
}

func newCOD(a *mat.Dense, rcond float64) (*cod, error) {
	m, n := a.Dims()
	at, exp := prepare(a, true) // n x m
	perm := make([]int, n)
	first := factorPivoted(n, m, at.RawData(), max(m, 1), perm)
	r := diagRank(first, rcond)
	// Pᵀ*Aᵀ = L*Q with L n x k: A*P = Qᵀ*Lᵀ; keep the first r columns of L
	// (r rows of Lᵀ): E = (L[:, :r])ᵀ, r x n, upper trapezoidal.
	e := mat.Zeros(r, n)
	for i := 0; i < r; i++ {
		row := e.RawRow(i)
		for j := i; j < n; j++ {
			row[j] = at.At(j, i)
		}
	}
	// E = T*Z.
	second := house.Factor(r, n, e.RawData(), max(n, 1))
	// T's diagonal has the magnitudes of L's leading r x r block up to
	// rounding, but a pivot deep in the subnormal range (which a tiny
	// rcond keeps: rcond*|L[0][0]| can underflow to 0) can round to
	// zero. The rank ends there: the first i rows of E factor into the
	// first i reflectors and T's leading i x i block, and the reflectors
	// after them leave the solution's zero rows as they are.
	for i := 0; i < r; i++ {
		if second.A[i*second.Lda+i] == 0 {
			r = i
			break
		}
	}
	return &cod{m: m, n: n, rank: r, exp: exp, perm: perm, first: first, second: second}, nil
}

// solve returns the minimum-norm least-squares solution of A*X = B.
func (c *cod) solve(b *mat.Dense) *mat.Dense {
	_, nrhs := b.Dims()
	r := c.rank
	x := mat.Zeros(c.n, nrhs)
	if r == 0 || nrhs == 0 {
		return x
	}
	// A*P*y = B with x = P*y: Q1ᵀ*T*Z*y = B. Least squares: T*Z*y =
	// Q1*B (the first r rows of Q_full*B), minimum norm: y = Zᵀ*T⁻¹*Q1*B.
	qb := b.Clone()
	c.first.MulLeft(false, nrhs, qb.RawData(), max(nrhs, 1))
	y := mat.Zeros(c.n, nrhs)
	if err := solveScaled(r, c.second.A, c.second.Lda, false, qb.Slice(0, r, 0, nrhs), y, c.exp); err != nil {
		// newCOD ends the rank at T's first zero diagonal element.
		panic("lq: internal error: zero pivot after the rank decision")
	}
	c.second.MulLeft(true, nrhs, y.RawData(), max(nrhs, 1))
	for i, p := range c.perm {
		x.SetRow(p, y.RawRow(i))
	}
	return x
}
