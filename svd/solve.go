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
// rank. The product is formed with the singular values and the result
// scaled by powers of two, so that it overflows only where the result
// itself lies outside the float64 range (singular values near or below
// 2^-1024): then it returns ErrRange, with the rank and dst as it was.
// It returns ErrBadOption for a NaN rcond, and panics if U or V was not
// computed.
func (s *SVD) PseudoInverse(dst *mat.Dense, rcond float64) (int, error) {
	if s.U == nil || s.V == nil {
		panic("svd: PseudoInverse needs U and V")
	}
	return s.apply(dst, nil, rcond)
}

// Solve sets dst to the minimum-norm least-squares solution of A*X = B,
// V*diag(1/S)*Uᵀ*B with the Rank(rcond) largest singular values, and
// returns that rank. As PseudoInverse it scales by powers of two and
// returns ErrRange (with the rank, and dst as it was) only where X lies
// outside the float64 range; it returns ErrNotFinite if B holds NaN or
// an infinity and ErrBadOption for a NaN rcond. B must have m rows;
// Solve panics otherwise or if U or V was not computed.
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
// Rank(rcond), and returns r. With S_r's least value 2^es*f (f in
// [0.5, 1)) and B's largest magnitude below 2^eb, it forms
// Y = V_r*diag(2^es/S_r)*U_rᵀ*(2^-eb*B), whose factors are all at most
// 2 in magnitude (a larger singular value's 2^es/S_j may underflow to
// zero, a change below the rounding of the result), and then
// X = 2^(eb-es)*Y.
// Scaling by a power of two is exact in the normal range, so the result
// is the plain product's bit for bit wherever that one neither overflows
// nor underflows.
func (s *SVD) apply(dst, b *mat.Dense, rcond float64) (int, error) {
	if math.IsNaN(rcond) {
		return 0, fmt.Errorf("%w: rcond = NaN", ErrBadOption)
	}
	m, _ := s.U.Dims()
	n, _ := s.V.Dims()
	r := s.Rank(rcond)
	ur, vr := s.U.Slice(0, m, 0, r), s.V.Slice(0, n, 0, r)
	es := 0
	if r > 0 {
		_, es = math.Frexp(s.S[r-1])
	}
	var x mat.Dense
	eb := 0
	if b == nil {
		vs := vr.Clone()
		for i := 0; i < n; i++ {
			row := vs.RawRow(i)
			for j := range row {
				row[j] /= math.Ldexp(s.S[j], -es)
			}
		}
		if r > 0 && m > 0 {
			x.MulBT(vs, ur)
		}
	} else {
		_, bc := b.Dims()
		if mx := b.NormMax(); mx != 0 {
			_, eb = math.Frexp(mx)
		}
		bs := b
		if eb != 0 {
			bs = b.Clone()
			scaleExp2(bs, -eb)
		}
		var c mat.Dense
		if r > 0 && bc > 0 {
			c.MulAT(ur, bs) // r x bc
			for i := 0; i < r; i++ {
				row := c.RawRow(i)
				d := math.Ldexp(s.S[i], -es)
				for j := range row {
					row[j] /= d
				}
			}
			x.Mul(vr, &c)
		}
	}
	if x.IsEmpty() { // rank 0, or no columns
		cols := m
		if b != nil {
			_, cols = b.Dims()
		}
		x = *mat.Zeros(n, cols)
	}
	scaleExp2(&x, eb-es)
	if !x.IsFinite() {
		return r, ErrRange
	}
	dst.Copy(&x)
	return r, nil
}

// scaleExp2 multiplies every entry of a by 2^e.
func scaleExp2(a *mat.Dense, e int) {
	if e == 0 {
		return
	}
	rows, _ := a.Dims()
	for i := 0; i < rows; i++ {
		row := a.RawRow(i)
		for j, v := range row {
			row[j] = math.Ldexp(v, e)
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
	if math.IsNaN(rcond) {
		return 0, fmt.Errorf("%w: rcond = NaN", ErrBadOption)
	}
	s, err := Factorize(a, nil)
	if err != nil {
		return 0, err
	}
	return s.PseudoInverse(dst, rcond)
}
