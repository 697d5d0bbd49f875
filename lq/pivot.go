package lq

import (
	"math"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// PivotedLQ is the LQ factorization with row pivoting Pᵀ*A = L*Q of an
// m x n matrix A (Businger and Golub's column pivoting, applied to rows):
// at step i the remaining row of largest norm moves to position i, so
// that |L[0][0]| >= |L[1][1]| >= ... and the diagonal of L reveals the
// numerical rank. It is the row-major twin of QR with column pivoting
// (LAPACK's dgeqp3) and is what the Jacobi SVD uses as a preconditioner.
type PivotedLQ struct {
	LQ
	perm []int
}

// FactorPivoted computes the row-pivoted LQ factorization of a, which it
// does not modify. It returns ErrNotFinite if a holds NaN or an infinity.
func FactorPivoted(a *mat.Dense) (*PivotedLQ, error) {
	if !finite(a) {
		return nil, ErrNotFinite
	}
	m, n := a.Dims()
	w, e := prepare(a, false)
	perm := make([]int, m)
	f := factorPivoted(m, n, w.RawData(), max(n, 1), perm)
	return &PivotedLQ{LQ: LQ{m: m, n: n, f: f, exp: e}, perm: perm}, nil
}

// FactorPivotedInPlace is FactorPivoted without the copy: a is
// overwritten by the factored form and referenced by the result (see
// FactorInPlace).
func FactorPivotedInPlace(a *mat.Dense) (*PivotedLQ, error) {
	if !finite(a) {
		return nil, ErrNotFinite
	}
	m, n := a.Dims()
	e := scaleInPlace(a)
	perm := make([]int, m)
	f := factorPivoted(m, n, a.RawData(), max(a.Stride(), 1), perm)
	return &PivotedLQ{LQ: LQ{m: m, n: n, f: f, exp: e}, perm: perm}, nil
}

// Perm returns the row permutation: row i of L*Q is row Perm()[i] of A.
// The slice belongs to f.
func (f *PivotedLQ) Perm() []int { return f.perm }

// Rank returns the number of diagonal elements of L larger than
// rcond*|L[0][0]| in magnitude. rcond <= 0 means max(m, n)*eps, with eps
// = 2^-53. Since row pivoting orders the diagonal by decreasing
// magnitude (up to rounding), these are the leading ones.
func (f *PivotedLQ) Rank(rcond float64) int {
	return diagRank(f.f, rcond)
}

func diagRank(f *reflectors, rcond float64) int {
	k := min(f.m, f.n)
	if k == 0 {
		return 0
	}
	if rcond <= 0 {
		rcond = float64(max(f.m, f.n)) * eps
	}
	tol := rcond * math.Abs(f.a[0])
	r := 0
	for r < k && math.Abs(f.a[r*f.lda+r]) > tol {
		r++
	}
	return r
}

// Solve sets dst to the minimum-norm solution of A*X = B for a wide or
// square A of full row rank, as LQ.Solve does, applying the row
// permutation to B first.
func (f *PivotedLQ) Solve(dst, b *mat.Dense) error {
	pb := mat.Zeros(b.Dims())
	for i, p := range f.perm {
		pb.SetRow(i, b.RawRow(p))
	}
	return f.LQ.Solve(dst, pb)
}

// factorPivoted computes the row-pivoted LQ factorization of the m x n
// matrix a (row stride lda) in place and sets perm; see PivotedLQ.
func factorPivoted(m, n int, a []float64, lda int, perm []int) *reflectors {
	k := min(m, n)
	f := &reflectors{a: a, lda: lda, m: m, n: n, tau: make([]float64, k)}
	for i := range perm {
		perm[i] = i
	}
	// vn1 holds the norms of the trailing parts of the rows, vn2 the
	// values they had when last computed from scratch: the downdating
	// formula loses accuracy as vn1 falls below vn2, and the norm is
	// recomputed before it loses too much (Drmač and Bujanović, LAWN 176).
	buf := make([]float64, 3*m)
	vn1, vn2, w := buf[:m], buf[m:2*m], buf[2*m:]
	for i := 0; i < m && n > 0; i++ {
		vn1[i] = kernels.Nrm2(a[i*lda : i*lda+n])
		vn2[i] = vn1[i]
	}
	tol3z := math.Sqrt(eps)
	for i := 0; i < k; i++ {
		p := i
		for j := i + 1; j < m; j++ {
			if vn1[j] > vn1[p] {
				p = j
			}
		}
		if p != i {
			ri, rp := a[i*lda:i*lda+n], a[p*lda:p*lda+n]
			for j := range ri {
				ri[j], rp[j] = rp[j], ri[j]
			}
			perm[i], perm[p] = perm[p], perm[i]
			vn1[i], vn1[p] = vn1[p], vn1[i]
			vn2[i], vn2[p] = vn2[p], vn2[i]
		}
		row := a[i*lda+i : i*lda+n]
		tau := house(row)
		f.tau[i] = tau
		if i+1 < m {
			beta := row[0]
			row[0] = 1
			reflectRight(tau, row, m-i-1, a[(i+1)*lda+i:], lda, w)
			row[0] = beta
		}
		for j := i + 1; j < m; j++ {
			if vn1[j] == 0 {
				continue
			}
			rj := a[j*lda+i : j*lda+n]
			t := math.Abs(rj[0]) / vn1[j]
			t = math.Max(0, (1+t)*(1-t))
			r := vn1[j] / vn2[j]
			if t*r*r <= tol3z {
				vn1[j] = kernels.Nrm2(rj[1:])
				vn2[j] = vn1[j]
			} else {
				vn1[j] *= math.Sqrt(t)
			}
		}
	}
	return f
}
