package svd

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
)

// Want selects the singular vectors that Factorize computes.
type Want int

const (
	// WantUV computes U and V (the default).
	WantUV Want = iota
	// WantU computes U only.
	WantU
	// WantV computes V only.
	WantV
	// WantNone computes the singular values only.
	WantNone
)

// Options configures Factorize. The zero value is the default.
type Options struct {
	// Want selects the singular vectors to compute; the zero value
	// computes both.
	Want Want
	// MaxSweeps caps the Jacobi sweeps; 0 means 30 (as LAPACK's
	// dgesvj). Preconditioned matrices typically need 4 to 8.
	MaxSweeps int
	// Tol is the convergence threshold on the cosine of the angle between
	// two rows of the preconditioned factor; 0 means sqrt(p)*eps with
	// p = min(m, n) and eps = 2^-53. Larger values trade accuracy for
	// speed.
	Tol float64
}

// SVD is a thin singular value decomposition A = U*diag(S)*Vᵀ of an
// m x n matrix, p = min(m, n).
type SVD struct {
	// S holds the p singular values in decreasing order.
	S []float64
	// U is m x p with orthonormal columns, the left singular vectors;
	// nil if not requested.
	U *mat.Dense
	// V is n x p with orthonormal columns, the right singular vectors;
	// nil if not requested.
	V *mat.Dense
	// Sweeps is the number of Jacobi sweeps used.
	Sweeps int
}

// Factorize computes the thin singular value decomposition of a (which it
// does not modify) by one-sided Jacobi with QR preconditioning, in the
// manner of LAPACK's dgejsv (Drmač and Veselić):
//
//  1. Z = A, or Aᵀ when A is tall, so that Z is p x q with p <= q, scaled
//     by a power of two and with its columns sorted by decreasing
//     magnitude; the row-pivoted LQ factorization Pᵀ*Z = L1*Q1 (QR with
//     column pivoting of Zᵀ; for q > 2p an unpivoted LQ first, so that
//     the pivoting works on a p x p triangle) reduces the problem to the
//     triangle L1 and sorts its rows by decreasing norm;
//  2. the LQ factorization L1ᵀ = L2*Q2 (the second preconditioner), after
//     which X0 = L2ᵀ is much closer to having orthogonal rows;
//  3. one-sided Jacobi on the rows of X0 gives X0 = J*Σ*Wᵀ: the rows of
//     Wᵀ are the normalized final rows, and J = X0⁻ᵀ*W*Σ comes from a
//     triangular solve rather than from accumulating the rotations (as
//     in dgejsv), accepted after checking that it is orthogonal to
//     working accuracy; otherwise the sweeps are repeated with the
//     rotations accumulated (with one matrix product per block of
//     rotations);
//  4. Z = (P*Q2ᵀ*J) * Σ * (Wᵀ*Q1).
//
// Singular values are computed to high relative accuracy whenever the
// matrix is a well-conditioned matrix times a diagonal scaling of its
// columns (or rows), however badly scaled (for example graded), and to
// the usual absolute accuracy eps*||A|| otherwise. Vectors cost little
// on top of the values: the Jacobi sweeps, which are the bulk of the
// work, are the same.
//
// Factorize returns ErrNotFinite if a holds NaN or an infinity, and a
// *ConvergenceError (errors.Is(err, ErrNoConvergence)) if the sweeps do
// not converge within the cap.
func Factorize(a *mat.Dense, opts *Options) (*SVD, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxSweeps <= 0 {
		o.MaxSweeps = 30
	}
	m, n := a.Dims()
	if !finite(a) {
		return nil, ErrNotFinite
	}
	wantU := o.Want == WantUV || o.Want == WantU
	wantV := o.Want == WantUV || o.Want == WantV
	p := min(m, n)
	res := &SVD{S: make([]float64, p)}
	amax := 0.0
	if p > 0 {
		amax = a.NormMax()
	}
	if amax == 0 {
		// Empty or zero: any orthonormal vectors will do.
		if wantU {
			res.U = mat.Zeros(m, p)
			for i := 0; i < p; i++ {
				res.U.Set(i, i, 1)
			}
		}
		if wantV {
			res.V = mat.Zeros(n, p)
			for i := 0; i < p; i++ {
				res.V.Set(i, i, 1)
			}
		}
		return res, nil
	}
	tall := m > n
	var z *mat.Dense
	if tall {
		z = a.T()
	} else {
		z = a.Clone()
	}
	// Scale by a power of two (exactly, unless entries below 2^-1022
	// times the largest underflow) so that the largest magnitude is in
	// [0.5, 1): dot products of rows cannot overflow, and the smallest
	// entries keep as many bits as possible.
	_, e := math.Frexp(amax)
	scalePow2(z, -e)
	// Sort the columns of Z by decreasing magnitude: Householder LQ (QR
	// of Zᵀ) is then column-wise (row-wise for Zᵀ) backward stable,
	// which keeps graded columns accurate (Cox and Higham; dgejsv's row
	// pivoting).
	z, cperm := sortColumns(z)
	k := p
	if o.Tol <= 0 {
		o.Tol = math.Sqrt(float64(k)) * eps
	}

	// 1. Pᵀ Z = L1 Q1. For a much wider Z, first Z = L0 Q0 (blocked,
	// no pivoting) and then Pᵀ L0 = L1 Q1', so that the pivoted
	// factorization, which runs at the speed of matrix-vector products,
	// works on a k x k triangle: Q1 = Q1' Q0.
	zp := z
	var f0 *lq.LQ
	var err error
	if _, q := z.Dims(); q > 2*k {
		if f0, err = lq.Factor(z); err != nil {
			return nil, err
		}
		l0 := &mat.Dense{}
		f0.L(l0)
		zp = l0
	}
	f1, err := lq.FactorPivoted(zp)
	if err != nil {
		return nil, err
	}
	var l1 mat.Dense
	f1.L(&l1)
	// 2. L1ᵀ = L2 Q2, X = L2ᵀ.
	f2, err := lq.Factor(l1.T())
	if err != nil {
		return nil, err
	}
	var l2 mat.Dense
	f2.L(&l2)
	x := l2.T()
	flushTinyRows(x)

	needAcc := (wantU && !tall) || (wantV && tall)
	needW := (wantV && !tall) || (wantU && tall) || needAcc
	var x0 *mat.Dense
	if needAcc {
		x0 = x.Clone()
	}
	j := rowJacobi{r: k, c: k, x: x.RawData(), ldx: x.Stride(), tol: o.Tol, maxSweeps: o.MaxSweeps}
	converged := j.run()
	res.Sweeps = j.sweeps
	if !converged {
		return nil, &ConvergenceError{Method: "one-sided Jacobi", Sweeps: j.sweeps, Off: j.maxCos}
	}
	var wt *mat.Dense
	if needW {
		wt = normalizedRows(x, j.nrm)
	}
	var qj *mat.Dense // Q2ᵀ J, k x k
	if needAcc {
		// X0 = J Σ Wᵀ: J = X0⁻ᵀ W Σ by a triangular solve, accepted if it
		// is orthogonal to working accuracy; otherwise sweep again from X0
		// with the rotations accumulated.
		jm := leftVectors(x0, wt, j.nrm)
		if jm == nil {
			x.Copy(x0)
			var acc mat.Dense
			f2.Q(&acc)
			j = rowJacobi{r: k, c: k, x: x.RawData(), ldx: x.Stride(), tol: o.Tol, maxSweeps: o.MaxSweeps,
				acc: acc.RawData(), lda: acc.Stride(), na: k}
			converged := j.run()
			res.Sweeps += j.sweeps
			if !converged {
				return nil, &ConvergenceError{Method: "one-sided Jacobi", Sweeps: j.sweeps, Off: j.maxCos}
			}
			wt = normalizedRows(x, j.nrm)
			qj = acc.T() // (Jᵀ Q2)ᵀ
		} else {
			qj = &mat.Dense{}
			f2.MulQT(qj, jm)
		}
	}
	for i, v := range j.nrm {
		res.S[i] = math.Ldexp(v, e)
	}

	var uz, vz *mat.Dense
	if needAcc {
		// U_Z = P Q2ᵀ J: row perm[i] of U_Z is row i of Q2ᵀ J.
		uz = mat.Zeros(k, k)
		for i, p := range f1.Perm() {
			uz.SetRow(p, qj.RawRow(i))
		}
	}
	if (wantV && !tall) || (wantU && tall) {
		// V_Z = Q1_fullᵀ [W; 0], W = (normalized rows of X)ᵀ.
		_, q := zp.Dims()
		c := mat.Zeros(q, k)
		c.Slice(0, k, 0, k).Copy(wt.T())
		vz = &mat.Dense{}
		f1.MulQT(vz, c)
		if f0 != nil {
			_, q = z.Dims()
			c = mat.Zeros(q, k)
			c.Slice(0, k, 0, k).Copy(vz)
			vz = &mat.Dense{}
			f0.MulQT(vz, c)
		}
		if cperm != nil {
			// Z = Z_sorted Πᵀ: row cperm[i] of V_Z is row i of V_sorted.
			v := mat.Zeros(q, k)
			for i, ci := range cperm {
				v.SetRow(ci, vz.RawRow(i))
			}
			vz = v
		}
	}
	if tall {
		res.U, res.V = vz, uz
	} else {
		res.U, res.V = uz, vz
	}
	return res, nil
}

// Values returns the singular values of a in decreasing order; see
// Factorize for the method and the errors.
func Values(a *mat.Dense) ([]float64, error) {
	s, err := Factorize(a, &Options{Want: WantNone})
	if err != nil {
		return nil, err
	}
	return s.S, nil
}

// leftVectors returns J = X0⁻ᵀ*W*Σ for the upper triangular k x k X0 =
// J*Σ*Wᵀ, given wt = Wᵀ and the singular values sigma, or nil if J is not
// orthogonal to working accuracy (||JᵀJ - I||_1 > 30*k*eps) or cannot be
// computed (a zero singular value or diagonal element). This is how
// LAPACK's dgejsv avoids accumulating the rotations: the triangular
// solve is accurate when X0 is well conditioned up to a scaling of its
// rows, which the QR preconditioning makes the common case, and the
// check catches the others. The solve is blocked, with the updates done
// by kernels.Gemm.
func leftVectors(x0, wt *mat.Dense, sigma []float64) *mat.Dense {
	k, _ := x0.Dims()
	for i := 0; i < k; i++ {
		if sigma[i] == 0 || x0.At(i, i) == 0 {
			return nil
		}
	}
	l := x0.T() // lower triangular
	jm := wt.T()
	for i := 0; i < k; i++ {
		row := jm.RawRow(i)
		for c := range row {
			row[c] *= sigma[c]
		}
	}
	// Solve L J = W Σ by block rows.
	const nb = 64
	ld, jd := l.RawData(), jm.RawData()
	for i0 := 0; i0 < k; i0 += nb {
		i1 := min(i0+nb, k)
		if i0 > 0 {
			kernels.Gemm(false, false, i1-i0, k, i0, -1, ld[i0*k:], k, jd, k, 1, jd[i0*k:], k)
		}
		for i := i0; i < i1; i++ {
			ji := jd[i*k : (i+1)*k]
			for p := i0; p < i; p++ {
				if c := ld[i*k+p]; c != 0 {
					kernels.Axpy(-c, jd[p*k:(p+1)*k], ji)
				}
			}
			kernels.Scal(1/ld[i*k+i], ji)
		}
	}
	var g mat.Dense
	g.GramCols(jm)
	g.Sub(&g, mat.Identity(k))
	if !(g.Norm1() <= 30*float64(k)*eps) {
		return nil
	}
	return jm
}

// normalizedRows returns x with each row divided by its norm (nrm); rows
// of norm zero are replaced by an orthonormal completion of the others.
func normalizedRows(x *mat.Dense, nrm []float64) *mat.Dense {
	r, c := x.Dims()
	w := x.Clone()
	have := make([]bool, r)
	missing := false
	for i := 0; i < r; i++ {
		if nrm[i] == 0 {
			clear(w.RawRow(i))
			missing = true
			continue
		}
		row := w.RawRow(i)
		_, e := math.Frexp(nrm[i])
		scaleSlicePow2(row, -e)
		kernels.Scal(1/kernels.Nrm2(row), row)
		have[i] = true
	}
	if missing {
		completeRows(w, have)
	}
	_ = c
	return w
}

// completeRows fills the rows i of w with !have[i] so that the rows of w
// are orthonormal, given that the rows with have[i] are: each new row is
// a unit vector orthogonalized (twice, by modified Gram-Schmidt) against
// the rows present.
func completeRows(w *mat.Dense, have []bool) {
	_, c := w.Dims()
	next := 0
	v := make([]float64, c)
	for i := range have {
		if have[i] {
			continue
		}
		for ; next < c; next++ {
			clear(v)
			v[next] = 1
			for pass := 0; pass < 2; pass++ {
				for t := range have {
					if have[t] {
						rt := w.RawRow(t)
						kernels.Axpy(-kernels.Dot(rt, v), rt, v)
					}
				}
			}
			if nv := kernels.Nrm2(v); nv > 0.5 {
				kernels.Scal(1/nv, v)
				copy(w.RawRow(i), v)
				have[i] = true
				next++
				break
			}
		}
		if !have[i] {
			panic(fmt.Sprintf("svd: internal error: cannot complete row %d of an orthonormal basis", i))
		}
	}
}

// sortColumns returns z with its columns sorted by decreasing largest
// magnitude (a stable sort) and the permutation, or z and nil if the
// columns are already sorted. Column i of the result is column perm[i]
// of z.
func sortColumns(z *mat.Dense) (*mat.Dense, []int) {
	r, c := z.Dims()
	big := make([]float64, c)
	for i := 0; i < r; i++ {
		for j, v := range z.RawRow(i) {
			big[j] = math.Max(big[j], math.Abs(v))
		}
	}
	perm := make([]int, c)
	for j := range perm {
		perm[j] = j
	}
	sorted := true
	for j := 1; j < c; j++ {
		if big[j] > big[j-1] {
			sorted = false
			break
		}
	}
	if sorted {
		return z, nil
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(big[b], big[a]) })
	s := mat.Zeros(r, c)
	for i := 0; i < r; i++ {
		src, dst := z.RawRow(i), s.RawRow(i)
		for j, pj := range perm {
			dst[j] = src[pj]
		}
	}
	return s, perm
}

// flushTinyRows sets to zero the rows of x whose norm is below 2^-1000
// (x comes from a matrix scaled to largest magnitude about 1): such rows
// are made of subnormal numbers, which carry too few bits for the Jacobi
// rotations to make them orthogonal to working accuracy, and setting
// them to zero is a perturbation far below eps*||A|| (LAPACK's dgejsv
// removes the underflowed part of its triangular factor likewise).
func flushTinyRows(x *mat.Dense) {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		row := x.RawRow(i)
		if kernels.Nrm2(row) < 0x1p-1000 {
			clear(row)
		}
	}
}

// scalePow2 multiplies a by 2^e, exactly unless elements underflow.
func scalePow2(a *mat.Dense, e int) {
	for e != 0 {
		s := min(max(e, -1000), 1000)
		a.Scale(math.Ldexp(1, s), a)
		e -= s
	}
}

// finite reports whether every element of a is finite.
func finite(a *mat.Dense) bool {
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		for _, v := range a.RawRow(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
