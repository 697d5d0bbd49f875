package svd

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/mat"
)

// Rank returns the number of singular values larger than rcond*S[0];
// rcond <= 0 means max(m, n)*eps (eps = 2^-53), the usual numerical rank,
// and a NaN rcond keeps none.
func (s *SVD) Rank(rcond float64) int {
	if len(s.S) == 0 {
		return 0
	}
	if rcond <= 0 {
		rcond = float64(s.maxDim()) * eps
	}
	tol := rcond * s.S[0]
	r := 0
	for r < len(s.S) && s.S[r] > tol {
		r++
	}
	return r
}

func (s *SVD) maxDim() int {
	d := len(s.S)
	if s.U != nil {
		m, _ := s.U.Dims()
		d = max(d, m)
	}
	if s.V != nil {
		n, _ := s.V.Dims()
		d = max(d, n)
	}
	return d
}

// Truncate returns the k largest singular triples (copies; s is not
// modified). It panics if k is negative or exceeds len(s.S).
func (s *SVD) Truncate(k int) *SVD {
	if k < 0 || k > len(s.S) {
		panic(fmt.Sprintf("svd: Truncate: k = %d with %d singular values", k, len(s.S)))
	}
	t := &SVD{S: append([]float64(nil), s.S[:k]...), Sweeps: s.Sweeps}
	if s.U != nil {
		m, _ := s.U.Dims()
		t.U = s.U.Slice(0, m, 0, k).Clone()
	}
	if s.V != nil {
		n, _ := s.V.Dims()
		t.V = s.V.Slice(0, n, 0, k).Clone()
	}
	return t
}

// PseudoInverse sets dst to the n x m pseudo-inverse V*diag(1/S)*Uᵀ,
// keeping the Rank(rcond) largest singular values, and returns that
// rank. Where the plain product overflows (a singular value near or
// below 2^-1024), it is formed again with the singular values scaled by
// a power of two, so that it overflows only where the result itself
// lies outside the float64 range: then PseudoInverse returns ErrRange,
// with the rank and dst as it was. It returns ErrBadOption for a NaN
// rcond, and panics if U or V was not computed.
func (s *SVD) PseudoInverse(dst *mat.Dense, rcond float64) (int, error) {
	if s.U == nil || s.V == nil {
		panic("svd: PseudoInverse needs U and V")
	}
	return s.apply(dst, nil, rcond)
}

// Solve sets dst to the minimum-norm least-squares solution of A*X = B,
// V*diag(1/S)*Uᵀ*B with the Rank(rcond) largest singular values, and
// returns that rank. As PseudoInverse, where the plain product
// overflows it is formed again with the singular values and each column
// of B scaled by a power of two, and Solve returns ErrRange (with the
// rank, and dst as it was) only where X lies outside the float64
// range. It returns ErrNotFinite if B holds NaN or an infinity and
// ErrBadOption for a NaN rcond. B must have m rows; Solve panics
// otherwise or if U or V was not computed.
func (s *SVD) Solve(dst, b *mat.Dense, rcond float64) (int, error) {
	if s.U == nil || s.V == nil {
		panic("svd: Solve needs U and V")
	}
	m, _ := s.U.Dims()
	n, _ := s.V.Dims()
	br, bc := b.Dims()
	if br != m {
		panic(fmt.Sprintf("svd: Solve: A is %dx%d but B is %dx%d", m, n, br, bc))
	}
	if !b.IsFinite() {
		return 0, ErrNotFinite
	}
	return s.apply(dst, b, rcond)
}

// apply sets dst to V_r*diag(1/S_r)*U_rᵀ*B (B = I when b is nil), r =
// Rank(rcond), and returns r. It forms the plain product first, which is
// the result wherever it is finite. Where it is not (a reciprocal
// 1/S_j, a product with B or a sum overflowed), it forms the product
// again with every quantity scaled by a power of two (product): the
// result then overflows only where it lies outside the float64 range,
// and apply returns ErrRange with dst as it was.
func (s *SVD) apply(dst, b *mat.Dense, rcond float64) (int, error) {
	if math.IsNaN(rcond) {
		return 0, fmt.Errorf("%w: rcond = NaN", ErrBadOption)
	}
	r := s.Rank(rcond)
	x := s.product(b, r, false)
	if !x.IsFinite() {
		x = s.product(b, r, true)
		if !x.IsFinite() {
			return r, ErrRange
		}
	}
	dst.Copy(x)
	return r, nil
}

// product returns V_r*diag(1/S_r)*U_rᵀ*B (B = I when b is nil). With
// scaled, it scales the singular values by 2^-es, es the exponent of
// S_r's least value raised where needed to keep S_0*2^-es below 2^1020,
// and each column j of B by 2^-eb_j, eb_j the exponent of its largest
// magnitude. Then every factor is at most about 2 in magnitude (where
// es was raised, 2^es/S_0 may round to a subnormal number or zero, a
// change far below the rounding of the entries of 1/S_{r-1}'s size),
// and column j of the product, scaled back by 2^(eb_j-es), overflows
// only where it does not fit.
func (s *SVD) product(b *mat.Dense, r int, scaled bool) *mat.Dense {
	m, _ := s.U.Dims()
	n, _ := s.V.Dims()
	cols := m
	if b != nil {
		_, cols = b.Dims()
	}
	x := mat.Zeros(n, cols)
	if r == 0 || cols == 0 {
		return x
	}
	ur, vr := s.U.Slice(0, m, 0, r), s.V.Slice(0, n, 0, r)
	es := 0
	if scaled {
		_, es = math.Frexp(s.S[r-1])
		_, e0 := math.Frexp(s.S[0])
		es = max(es, e0-1020)
	}
	sv := make([]float64, r)
	for j := range sv {
		sv[j] = math.Ldexp(s.S[j], -es)
	}
	if b == nil {
		vs := vr.Clone()
		for i := 0; i < n; i++ {
			row := vs.RawRow(i)
			for j := range row {
				row[j] /= sv[j]
			}
		}
		x.MulBT(vs, ur)
		scaleExp2(x, -es, nil)
		return x
	}
	bs, eb := b, []int(nil)
	if scaled {
		// eb[j] is the exponent of column j's largest magnitude (0 for a
		// zero column); the column is scaled by 2^-eb[j].
		eb = make([]int, cols)
		bs = b.Clone()
		for j := range eb {
			mx := 0.0
			for i := 0; i < m; i++ {
				mx = math.Max(mx, math.Abs(bs.At(i, j)))
			}
			_, eb[j] = math.Frexp(mx)
			for i := 0; i < m; i++ {
				bs.Set(i, j, math.Ldexp(bs.At(i, j), -eb[j]))
			}
		}
	}
	var c mat.Dense
	c.MulAT(ur, bs) // r x cols
	for i := 0; i < r; i++ {
		row := c.RawRow(i)
		for j := range row {
			row[j] /= sv[i]
		}
	}
	x.Mul(vr, &c)
	scaleExp2(x, -es, eb)
	return x
}

// scaleExp2 multiplies every entry of a by 2^e, and those of column j by
// a further 2^col[j] when col is not nil.
func scaleExp2(a *mat.Dense, e int, col []int) {
	if e == 0 && col == nil {
		return
	}
	rows, _ := a.Dims()
	for i := 0; i < rows; i++ {
		row := a.RawRow(i)
		for j, v := range row {
			f := e
			if col != nil {
				f += col[j]
			}
			row[j] = math.Ldexp(v, f)
		}
	}
}

// PseudoInverse sets dst to the n x m Moore-Penrose pseudo-inverse of the
// m x n matrix a, from its singular value decomposition, treating the
// singular values at most rcond*S[0] as zero (rcond <= 0 means
// max(m, n)*eps); it returns the rank used. It returns the errors of
// Factorize, ErrRange (with the rank, and dst as it was) where the
// pseudo-inverse lies outside the float64 range, and ErrBadOption for a
// NaN rcond.
func PseudoInverse(dst, a *mat.Dense, rcond float64) (rank int, err error) {
	s, err := Factorize(a, nil)
	if err != nil {
		return 0, err
	}
	return s.PseudoInverse(dst, rcond)
}
