package lq

import (
	"math"

	"github.com/moments-go/moments/internal/house"
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

// FactorizePivoted computes the row-pivoted LQ factorization of a, which it
// does not modify. It returns ErrNotFinite if a holds NaN or an infinity.
func FactorizePivoted(a *mat.Dense) (*PivotedLQ, error) {
	if !a.IsFinite() {
		return nil, ErrNotFinite
	}
	m, n := a.Dims()
	w, e := prepare(a, false)
	perm := make([]int, m)
	f := factorPivoted(m, n, w.RawData(), max(n, 1), perm)
	return &PivotedLQ{LQ: LQ{m: m, n: n, f: f, exp: e}, perm: perm}, nil
}

// FactorizePivotedInPlace is FactorizePivoted without the copy: a is
// overwritten by the factored form and referenced by the result (see
// FactorizeInPlace).
func FactorizePivotedInPlace(a *mat.Dense) (*PivotedLQ, error) {
	if !a.IsFinite() {
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

func diagRank(f *house.Reflectors, rcond float64) int {
	k := min(f.M, f.N)
	if k == 0 {
		return 0
	}
	if rcond <= 0 {
		rcond = float64(max(f.M, f.N)) * eps
	}
	tol := rcond * math.Abs(f.A[0])
	r := 0
	for r < k && math.Abs(f.A[r*f.Lda+r]) > tol {
		r++
	}
	return r
}

// Solve sets dst to the minimum-norm solution of A*X = B for a wide or
// square A of full row rank, as LQ.Solve does (with its errors),
// applying the row permutation to B first.
func (f *PivotedLQ) Solve(dst, b *mat.Dense) error {
	pb := mat.Zeros(b.Dims())
	for i, p := range f.perm {
		pb.SetRow(i, b.RawRow(p))
	}
	return f.LQ.Solve(dst, pb)
}

// factorPivoted computes the row-pivoted LQ factorization of the m x n
// matrix a (row stride lda) in place and sets perm; see PivotedLQ. Large
// matrices are factored in panels (pivotPanels) while enough rows
// remain, the rest one reflector at a time (pivotRows).
func factorPivoted(m, n int, a []float64, lda int, perm []int) *house.Reflectors {
	f := &house.Reflectors{A: a, Lda: lda, M: m, N: n, Tau: make([]float64, min(m, n))}
	p := newPivoting(f, perm)
	i := 0
	if min(m, n) > house.UnblockedMax && m > house.UnblockedMax {
		i = p.panels()
	}
	p.rows(i)
	return f
}

// newPivoting starts the row-pivoted factorization of f's matrix: perm
// the identity, the trailing norms those of the whole rows.
func newPivoting(f *house.Reflectors, perm []int) *pivoting {
	m := f.M
	for i := range perm {
		perm[i] = i
	}
	// vn1 holds the norms of the trailing parts of the rows, vn2 the
	// values they had when last computed from scratch: the downdating
	// formula loses accuracy as vn1 falls below vn2, and the norm is
	// recomputed before it loses too much (Drmač and Bujanović, LAWN 176).
	buf := make([]float64, 3*m)
	p := &pivoting{f: f, perm: perm, vn1: buf[:m], vn2: buf[m : 2*m], w: buf[2*m:]}
	for i := 0; i < m && f.N > 0; i++ {
		p.vn1[i] = kernels.Nrm2(f.A[i*f.Lda : i*f.Lda+f.N])
		p.vn2[i] = p.vn1[i]
	}
	return p
}

// pivoting is the state of a row-pivoted factorization.
type pivoting struct {
	f           *house.Reflectors
	perm        []int
	vn1, vn2, w []float64
}

// tol3z is the threshold of the norm downdates: a downdated norm is
// recomputed when the downdate has lost about half the digits.
var tol3z = math.Sqrt(eps)

// pick returns the row of largest trailing norm among i..m-1 and swaps
// it into position i (the first n elements of the rows, perm and the
// norms).
func (p *pivoting) pick(i int) int {
	f, vn1 := p.f, p.vn1
	q := i
	for j := i + 1; j < f.M; j++ {
		if vn1[j] > vn1[q] {
			q = j
		}
	}
	if q != i {
		swapRows(f.A[i*f.Lda:i*f.Lda+f.N], f.A[q*f.Lda:q*f.Lda+f.N])
		p.perm[i], p.perm[q] = p.perm[q], p.perm[i]
		vn1[i], vn1[q] = vn1[q], vn1[i]
		p.vn2[i], p.vn2[q] = p.vn2[q], p.vn2[i]
	}
	return q
}

func swapRows(x, y []float64) {
	for j := range x {
		x[j], y[j] = y[j], x[j]
	}
}

// downdate updates the trailing norm of row j after step i eliminated
// its element aji. It reports false when the norm must be recomputed
// from the row instead.
func (p *pivoting) downdate(j int, aji float64) bool {
	if p.vn1[j] == 0 {
		return true
	}
	t := math.Abs(aji) / p.vn1[j]
	t = math.Max(0, (1+t)*(1-t))
	r := p.vn1[j] / p.vn2[j]
	if t*r*r <= tol3z {
		return false
	}
	p.vn1[j] *= math.Sqrt(t)
	return true
}

// rows factors rows i..k-1 one reflector at a time, updating the
// trailing rows after each (Businger and Golub).
func (p *pivoting) rows(i int) {
	f := p.f
	m, n, a, lda := f.M, f.N, f.A, f.Lda
	for ; i < min(m, n); i++ {
		p.pick(i)
		row := a[i*lda+i : i*lda+n]
		tau := house.House(row)
		f.Tau[i] = tau
		if i+1 < m {
			beta := row[0]
			row[0] = 1
			house.ReflectRight(tau, row, m-i-1, a[(i+1)*lda+i:], lda, p.w)
			row[0] = beta
		}
		for j := i + 1; j < m; j++ {
			rj := a[j*lda+i : j*lda+n]
			if !p.downdate(j, rj[0]) {
				p.vn1[j] = kernels.Nrm2(rj[1:])
				p.vn2[j] = p.vn1[j]
			}
		}
	}
}

// pivotPanel is the number of reflectors in a panel of pivoting.panels
// (16 was 5% faster than 32 at 300 x 300 and as fast at 100 x 100).
const pivotPanel = 16

// panels factors the rows in panels of up to pivotPanel reflectors while
// more than house.UnblockedMax rows remain (LAPACK's dlaqps, for rows), and
// returns the first row it did not factor. Within a panel the trailing
// rows are not updated: their updates are kept as F*V (F holds one
// column per reflector of the panel, V the reflectors), and only what a
// step needs is formed from them: the pivot row, the products of the
// trailing rows with the new reflector (the one matrix-vector product
// with the trailing rows per step), and the elements the norm downdates
// need. The trailing rows are updated with one matrix product at the end
// of the panel. The panel ends early when a norm downdate cancels: that
// norm is recomputed from the updated row.
func (p *pivoting) panels() int {
	f := p.f
	m, n, a, lda := f.M, f.N, f.A, f.Lda
	k := min(m, n)
	const nb = pivotPanel
	fm := make([]float64, m*nb) // F, row j at fm[j*nb:]
	scratch := make([]float64, 2*nb+m+nb*n)
	y, vcol, col, vexp := scratch[:nb], scratch[nb:2*nb], scratch[2*nb:2*nb+m], scratch[2*nb+m:]
	var recompute []int
	i := 0
	for i < k && m-i > house.UnblockedMax {
		i0 := i
		nbp := min(nb, k-i0)
		recompute = recompute[:0]
		t := 0
		for t < nbp && len(recompute) == 0 {
			i = i0 + t
			q := p.pick(i)
			if q != i {
				swapRows(fm[i*nb:i*nb+t], fm[q*nb:q*nb+t])
			}
			// The pivot row, updated from column i0 on: columns i.. with
			// the stored reflectors, the triangle i0..i-1 explicitly.
			ri := a[i*lda : i*lda+n]
			fi := fm[i*nb : i*nb+t]
			if t > 0 {
				kernels.Gemv(true, t, n-i, -1, a[i0*lda+i:], lda, fi, 1, ri[i:])
				for c := i0; c < i; c++ {
					s := c - i0 // V[s][c] = 1, V[u][c] stored for u < s
					v := fi[s]
					for u := 0; u < s; u++ {
						v += fi[u] * a[(i0+u)*lda+c]
					}
					ri[c] -= v
				}
			}
			row := ri[i:]
			tau := house.House(row)
			f.Tau[i] = tau
			rt := m - i - 1 // trailing rows
			if rt > 0 {
				beta := row[0]
				row[0] = 1
				// F[j][t] = tau*(A_j·v - Σ_u F[j][u]*(V_u·v)) for the
				// trailing rows, A_j as the panel found them.
				w := col[:rt]
				kernels.Gemv(false, rt, n-i, 1, a[(i+1)*lda+i:], lda, row, 0, w)
				if t > 0 {
					kernels.Gemv(false, t, n-i, 1, a[i0*lda+i:], lda, row, 0, y[:t])
					kernels.Gemv(false, rt, t, -1, fm[(i+1)*nb:], nb, y[:t], 1, w)
				}
				row[0] = beta
				for j := 0; j < rt; j++ {
					fm[(i+1+j)*nb+t] = tau * w[j]
				}
				// The trailing rows' elements in column i after this step:
				// A[j][i] - Σ_u F[j][u]*V[u][i], V[t][i] = 1.
				for u := 0; u < t; u++ {
					vcol[u] = a[(i0+u)*lda+i]
				}
				vcol[t] = 1
				for j := 0; j < rt; j++ {
					w[j] = a[(i+1+j)*lda+i]
				}
				kernels.Gemv(false, rt, t+1, -1, fm[(i+1)*nb:], nb, vcol[:t+1], 1, w)
				for j := 0; j < rt; j++ {
					if !p.downdate(i+1+j, w[j]) {
						recompute = append(recompute, i+1+j)
					}
				}
			}
			t++
		}
		i = i0 + t
		// The trailing rows: A[i:, i0:] -= F[i:, :t] * V, V explicit.
		if rows := m - i; rows > 0 {
			l := n - i0
			v := vexp[:t*l]
			for u := 0; u < t; u++ {
				vr := v[u*l : (u+1)*l]
				clear(vr[:u])
				vr[u] = 1
				copy(vr[u+1:], a[(i0+u)*lda+i0+u+1:(i0+u)*lda+n])
			}
			kernels.Gemm(false, false, rows, l, t, -1, fm[i*nb:], nb, v, l, 1, a[i*lda+i0:], lda)
		}
		for _, j := range recompute {
			p.vn1[j] = kernels.Nrm2(a[j*lda+i : j*lda+n])
			p.vn2[j] = p.vn1[j]
		}
	}
	return i
}
