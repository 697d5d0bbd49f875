package lq

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// ErrNotFinite is returned for input that holds NaN or an infinity.
var ErrNotFinite = errors.New("lq: matrix has NaN or infinite entries")

// ErrSingular is returned by the solvers of full-rank problems when the
// matrix is numerically rank deficient: a diagonal element of the
// triangular factor is at most max(m, n)*eps times the Frobenius norm of
// the matrix (eps = 2^-53). LeastSquares handles such matrices.
var ErrSingular = errors.New("lq: matrix is rank deficient")

// ErrRange is returned by the solvers, which leave dst as it was, when
// the solution (or, within a factor of about the matrix's dimensions,
// the arithmetic that forms it) exceeds the float64 range.
var ErrRange = errors.New("lq: the solution exceeds the float64 range")

// eps is the unit roundoff of float64.
const eps = 0x1p-53

// LQ is the LQ factorization A = L*Q of an m x n matrix A: with
// k = min(m, n), L is m x k lower trapezoidal and Q is k x n with
// orthonormal rows, the first k rows of an n x n orthogonal matrix
// Q_full = H_{k-1}...H_1 H_0 made of Householder reflectors that act on
// rows. It is the row-major twin of the QR factorization: the reflectors
// and their blocked (compact WY) updates run along contiguous rows.
type LQ struct {
	m, n int
	f    *house.Reflectors
	// exp is the power of two the matrix was scaled by before factoring
	// (see prepare): the stored L is 2^-exp times the true L.
	exp int
}

// Factorize computes the LQ factorization of a, which it does not modify.
// It returns ErrNotFinite if a holds NaN or an infinity.
func Factorize(a *mat.Dense) (*LQ, error) {
	if !a.IsFinite() {
		return nil, ErrNotFinite
	}
	m, n := a.Dims()
	w, e := prepare(a, false)
	return &LQ{m: m, n: n, f: house.Factor(m, n, w.RawData(), max(n, 1)), exp: e}, nil
}

// FactorizeInPlace is Factorize without the copy: it factors a in place, so
// that a is overwritten by the factored form and referenced by the
// result (and must not change while the result is in use). It saves the
// copy when a is scratch space.
func FactorizeInPlace(a *mat.Dense) (*LQ, error) {
	if !a.IsFinite() {
		return nil, ErrNotFinite
	}
	m, n := a.Dims()
	e := scaleInPlace(a)
	return &LQ{m: m, n: n, f: house.Factor(m, n, a.RawData(), max(a.Stride(), 1)), exp: e}, nil
}

// scaleInPlace scales a by 2^-e as prepare does and returns e.
func scaleInPlace(a *mat.Dense) int {
	r, c := a.Dims()
	if r == 0 || c == 0 {
		return 0
	}
	e := scaleExp(a.NormMax(), r, c)
	if e != 0 {
		a.ScalePow2(-e, a)
	}
	return e
}

// scaleExp returns the e by which prepare scales an r x c matrix of
// largest magnitude amax (by 2^-e): 0 when amax is 0 or between 2^-500
// and MaxSafe(r, c), otherwise the exponent that brings amax into
// [0.5, 1).
func scaleExp(amax float64, r, c int) int {
	if amax == 0 || (amax >= 0x1p-500 && amax <= MaxSafe(r, c)) {
		return 0
	}
	_, e := math.Frexp(amax)
	return e
}

// MaxSafe returns the largest magnitude of the entries of an r x c
// matrix that the factorizations take as they are,
// 2^(1018 - 2*bits.Len(max(r, c, 2))): the norms of its rows and columns,
// the Householder updates (sums of up to max(r, c) terms, each at most
// twice an entry) and the solves stay below 2^1023. A matrix with larger
// entries is scaled down by a power of two first, which flushes to zero
// the entries that are smaller than the largest by more than about
// 2^-1074. Callers that want the widest range of magnitudes (the Jacobi
// SVD of package svd) scale their matrix up to it.
func MaxSafe(r, c int) float64 {
	return math.Ldexp(1, 1018-2*bits.Len(uint(max(r, c, 2))))
}

// prepare returns a copy of a (of aᵀ if trans), scaled by 2^-e when its
// largest magnitude is below 2^-500 or above MaxSafe so that the dot
// products inside the factorization can neither overflow nor underflow; the triangular
// factor of the copy is then 2^-e times that of a, and the orthogonal
// factor is the same. Powers of two scale exactly (unless elements
// underflow).
func prepare(a *mat.Dense, trans bool) (*mat.Dense, int) {
	var w *mat.Dense
	if trans {
		w = a.T()
	} else {
		w = a.Clone()
	}
	r, c := w.Dims()
	if r == 0 || c == 0 {
		return w, 0
	}
	e := scaleExp(w.NormMax(), r, c)
	if e != 0 {
		w.ScalePow2(-e, w)
	}
	return w, e
}

// Dims returns the shape of the factored matrix.
func (f *LQ) Dims() (m, n int) { return f.m, f.n }

// L writes the m x min(m, n) lower trapezoidal factor into dst (which
// takes that shape if empty).
func (f *LQ) L(dst *mat.Dense) {
	extractL(dst, f.m, min(f.m, f.n), f.f)
	dst.ScalePow2(f.exp, dst)
}

// Q writes the min(m, n) x n factor, whose rows are orthonormal, into
// dst.
func (f *LQ) Q(dst *mat.Dense) { formQInto(dst, min(f.m, f.n), f.f) }

// QFull writes the n x n orthogonal matrix Q_full into dst; its first
// min(m, n) rows are Q and the others span the null space of A.
func (f *LQ) QFull(dst *mat.Dense) { formQInto(dst, f.n, f.f) }

// MulQ sets dst = Q_full*c for an n x r matrix c; dst may be c itself.
func (f *LQ) MulQ(dst, c *mat.Dense) { mulQ("MulQ", f.f, false, dst, c) }

// MulQT sets dst = Q_fullᵀ*c for an n x r matrix c; dst may be c itself.
func (f *LQ) MulQT(dst, c *mat.Dense) { mulQ("MulQT", f.f, true, dst, c) }

// Solve sets dst to the minimum-norm solution X of A*X = B for a wide or
// square A (m <= n) of full row rank: X = Qᵀ*L⁻¹*B, n x r for an m x r
// B. It returns ErrSingular if A is numerically rank deficient (see
// ErrSingular), ErrNotFinite if B holds NaN or an infinity, and
// ErrRange if X does not fit in float64. It panics if m > n or B does
// not have m rows.
func (f *LQ) Solve(dst, b *mat.Dense) error {
	if f.m > f.n {
		panic(fmt.Sprintf("lq: LQ.Solve: A is %dx%d; use QR for more rows than columns", f.m, f.n))
	}
	br, bc := b.Dims()
	if br != f.m {
		panic(fmt.Sprintf("lq: LQ.Solve: A is %dx%d but B is %dx%d", f.m, f.n, br, bc))
	}
	if !b.IsFinite() {
		return ErrNotFinite
	}
	if singular(f.f) {
		return ErrSingular
	}
	x := mat.Zeros(f.n, bc)
	if err := solveScaled(f.m, f.f.A, f.f.Lda, false, b, x, f.exp); err != nil {
		return err
	}
	f.f.MulLeft(true, bc, x.RawData(), max(bc, 1))
	if !x.IsFinite() {
		return ErrRange
	}
	dst.Copy(x)
	return nil
}

// QR is the QR factorization A = Q*R of an m x n matrix: with
// k = min(m, n), Q is m x k with orthonormal columns and R is k x n upper
// trapezoidal. It is computed as the LQ factorization of Aᵀ
// (Aᵀ = Rᵀ*Qᵀ), so the reflectors work on contiguous rows of Aᵀ.
type QR struct {
	lq LQ // of Aᵀ
}

// FactorizeQR computes the QR factorization of a, which it does not modify.
// It returns ErrNotFinite if a holds NaN or an infinity.
func FactorizeQR(a *mat.Dense) (*QR, error) {
	if !a.IsFinite() {
		return nil, ErrNotFinite
	}
	m, n := a.Dims()
	at, e := prepare(a, true)
	return &QR{lq: LQ{m: n, n: m, f: house.Factor(n, m, at.RawData(), max(m, 1)), exp: e}}, nil
}

// Dims returns the shape of the factored matrix.
func (f *QR) Dims() (m, n int) { return f.lq.n, f.lq.m }

// R writes the min(m, n) x n upper trapezoidal factor into dst.
func (f *QR) R(dst *mat.Dense) {
	var l mat.Dense
	f.lq.L(&l) // n x k
	dst.Copy(l.T())
}

// Q writes the m x min(m, n) factor, whose columns are orthonormal, into
// dst.
func (f *QR) Q(dst *mat.Dense) {
	var q mat.Dense
	f.lq.Q(&q) // k x m
	dst.Copy(q.T())
}

// QFull writes the m x m orthogonal matrix whose first min(m, n) columns
// are Q into dst.
func (f *QR) QFull(dst *mat.Dense) {
	var q mat.Dense
	f.lq.QFull(&q)
	dst.Copy(q.T())
}

// MulQT sets dst = Q_fullᵀ*c for an m x r matrix c, where Q_full is the
// m x m matrix of QFull; dst may be c itself.
func (f *QR) MulQT(dst, c *mat.Dense) { mulQ("MulQT", f.lq.f, false, dst, c) }

// MulQ sets dst = Q_full*c for an m x r matrix c; dst may be c itself.
func (f *QR) MulQ(dst, c *mat.Dense) { mulQ("MulQ", f.lq.f, true, dst, c) }

// Solve sets dst to the least-squares solution X that minimizes
// ||A*X - B||_F for a tall or square A (m >= n) of full column rank:
// X = R⁻¹*Qᵀ*B, n x r for an m x r B. It returns ErrSingular if A is
// numerically rank deficient (see ErrSingular), ErrNotFinite if B holds
// NaN or an infinity, and ErrRange if X does not fit in float64. It
// panics if m < n or B does not have m rows.
func (f *QR) Solve(dst, b *mat.Dense) error {
	m, n := f.Dims()
	if m < n {
		panic(fmt.Sprintf("lq: QR.Solve: A is %dx%d; use LQ for more columns than rows", m, n))
	}
	br, bc := b.Dims()
	if br != m {
		panic(fmt.Sprintf("lq: QR.Solve: A is %dx%d but B is %dx%d", m, n, br, bc))
	}
	if !b.IsFinite() {
		return ErrNotFinite
	}
	if singular(f.lq.f) {
		return ErrSingular
	}
	c := b.Clone()
	f.lq.f.MulLeft(false, bc, c.RawData(), max(bc, 1)) // Q_fullᵀ B
	x := mat.Zeros(n, bc)
	// R = Lᵀ: solve Lᵀ X = C.
	if err := solveScaled(n, f.lq.f.A, f.lq.f.Lda, true, c.Slice(0, n, 0, bc), x, f.lq.exp); err != nil {
		return err
	}
	if !x.IsFinite() {
		return ErrRange
	}
	dst.Copy(x)
	return nil
}

// extractL writes the first c columns of the lower trapezoid of the
// factored matrix (m rows) into dst, m x c.
func extractL(dst *mat.Dense, m, c int, f *house.Reflectors) {
	l := dst
	if !dst.IsEmpty() {
		l = mat.Zeros(m, c)
	} else {
		*dst = *mat.Zeros(m, c)
	}
	for i := 0; i < m && c > 0; i++ {
		row := l.RawRow(i)
		copy(row[:min(i+1, c)], f.A[i*f.Lda:i*f.Lda+min(i+1, c)])
	}
	if l != dst {
		dst.Copy(l)
	}
}

func formQInto(dst *mat.Dense, p int, f *house.Reflectors) {
	q := mat.Zeros(p, f.N)
	if p > 0 && f.N > 0 {
		f.FormQ(p, q.RawData(), f.N)
	}
	if dst.IsEmpty() {
		*dst = *q
		return
	}
	dst.Copy(q)
}

// mulQ sets dst = Q_full*c (trans false) or Q_fullᵀ*c for the
// reflectors f (n x n) and an n x r matrix c.
func mulQ(method string, f *house.Reflectors, trans bool, dst, c *mat.Dense) {
	cr, cc := c.Dims()
	if cr != f.N {
		panic(fmt.Sprintf("lq: %s: Q is %dx%d but C is %dx%d", method, f.N, f.N, cr, cc))
	}
	// dst = c (Copy handles any overlap), then the product in place.
	dst.Copy(c)
	if cc > 0 {
		f.MulLeft(trans, cc, dst.RawData(), dst.Stride())
	}
}

// singular reports whether the triangular factor of f has a diagonal
// element at most max(m, n)*eps*||A||_F in magnitude.
func singular(f *house.Reflectors) bool {
	k := min(f.M, f.N)
	// The norm of the row norms, which Nrm2 forms without overflow (a
	// sum of squares passes the range from norms of 2^512).
	norms := make([]float64, f.M)
	for i := range norms {
		lo, hi := i*f.Lda, i*f.Lda+min(i+1, k)
		if hi > lo {
			norms[i] = kernels.Nrm2(f.A[lo:hi])
		}
	}
	tol := float64(max(f.M, f.N)) * eps * kernels.Nrm2(norms)
	for i := 0; i < k; i++ {
		if !(math.Abs(f.A[i*f.Lda+i]) > tol) {
			return true
		}
	}
	return false
}

// solveLower solves L*X = B in place, B the first k rows of x on entry,
// for the k x k lower triangle L of the factored matrix a (row stride
// lda).
func solveLower(k int, a []float64, lda int, x *mat.Dense) error {
	for i := 0; i < k; i++ {
		d := a[i*lda+i]
		if d == 0 {
			return ErrSingular
		}
		xi := x.RawRow(i)
		for j := 0; j < i; j++ {
			if c := a[i*lda+j]; c != 0 {
				kernels.Axpy(-c, x.RawRow(j), xi)
			}
		}
		kernels.Scal(1/d, xi)
	}
	return nil
}

// solveUpperT solves Lᵀ*X = B in place for the k x k lower triangle L of
// the factored matrix a and the k x r matrix x.
func solveUpperT(k int, a []float64, lda int, x *mat.Dense) error {
	for i := k - 1; i >= 0; i-- {
		d := a[i*lda+i]
		if d == 0 {
			return ErrSingular
		}
		xi := x.RawRow(i)
		// (Lᵀ)[i][j] = L[j][i] for j > i.
		for j := i + 1; j < k; j++ {
			if c := a[j*lda+i]; c != 0 {
				kernels.Axpy(-c, x.RawRow(j), xi)
			}
		}
		kernels.Scal(1/d, xi)
	}
	return nil
}
