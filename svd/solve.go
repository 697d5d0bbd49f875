package svd

import (
	"fmt"

	"github.com/moments-go/moments/mat"
)

// Rank returns the number of singular values larger than rcond*S[0];
// rcond <= 0 means max(m, n)*eps (eps = 2^-53), the usual numerical rank.
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
// rank. It panics if U or V was not computed.
func (s *SVD) PseudoInverse(dst *mat.Dense, rcond float64) int {
	if s.U == nil || s.V == nil {
		panic("svd: PseudoInverse needs U and V")
	}
	r := s.Rank(rcond)
	m, _ := s.U.Dims()
	n, _ := s.V.Dims()
	vs := s.V.Slice(0, n, 0, r).Clone()
	for i := 0; i < n; i++ {
		row := vs.RawRow(i)
		for j := range row {
			row[j] /= s.S[j]
		}
	}
	var x mat.Dense
	x.MulBT(vs, s.U.Slice(0, m, 0, r))
	if x.IsEmpty() {
		x = *mat.Zeros(n, m)
	}
	dst.Copy(&x)
	return r
}

// Solve sets dst to the minimum-norm least-squares solution of A*X = B,
// V*diag(1/S)*Uᵀ*B with the Rank(rcond) largest singular values, and
// returns that rank. B must have m rows; Solve panics otherwise or if U
// or V was not computed.
func (s *SVD) Solve(dst, b *mat.Dense, rcond float64) int {
	if s.U == nil || s.V == nil {
		panic("svd: Solve needs U and V")
	}
	m, _ := s.U.Dims()
	n, _ := s.V.Dims()
	br, bc := b.Dims()
	if br != m {
		panic(fmt.Sprintf("svd: Solve: A is %dx%d but B is %dx%d", m, n, br, bc))
	}
	r := s.Rank(rcond)
	var c mat.Dense
	c.MulAT(s.U.Slice(0, m, 0, r), b) // r x bc
	for i := 0; i < r; i++ {
		row := c.RawRow(i)
		for j := range row {
			row[j] /= s.S[i]
		}
	}
	x := mat.Zeros(n, bc)
	if r > 0 && bc > 0 {
		x.Mul(s.V.Slice(0, n, 0, r), &c)
	}
	dst.Copy(x)
	return r
}

// PseudoInverse sets dst to the n x m Moore-Penrose pseudo-inverse of the
// m x n matrix a, from its singular value decomposition, treating the
// singular values at most rcond*S[0] as zero (rcond <= 0 means
// max(m, n)*eps); it returns the rank used. It returns the errors of
// Factorize.
func PseudoInverse(dst, a *mat.Dense, rcond float64) (rank int, err error) {
	s, err := Factorize(a, nil)
	if err != nil {
		return 0, err
	}
	return s.PseudoInverse(dst, rcond), nil
}
