package svd

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/internal/jacobi"
	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
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
	// WantNone computes the singular values only. On the bidiagonal
	// path they come from dqds rather than the divide and conquer, so
	// they may differ from those computed with vectors by a few units
	// of eps*S[0] (both are within that of the exact values).
	WantNone
)

// Method selects the algorithm of Factorize.
type Method int

const (
	// MethodAuto, the default, uses MethodJacobi when min(m, n) is below
	// BidiagonalMin and MethodBidiagonal from there on.
	MethodAuto Method = iota
	// MethodJacobi is the preconditioned one-sided Jacobi SVD (see
	// Factorize): singular values with high relative accuracy for
	// matrices that are well conditioned up to a scaling of their rows
	// or columns (graded matrices, say).
	MethodJacobi
	// MethodBidiagonal is Householder bidiagonalization and the SVD of
	// the bidiagonal matrix, as LAPACK's dgesdd (see Factorize):
	// singular values with absolute accuracy of order eps*S[0], faster
	// than MethodJacobi on large matrices.
	MethodBidiagonal
)

// BidiagonalMin is the least min(m, n) at which MethodAuto uses
// MethodBidiagonal.
const BidiagonalMin = bidiagCrossover

// Options configures Factorize. The zero value is the default.
type Options struct {
	// Want selects the singular vectors to compute; the zero value
	// computes both.
	Want Want
	// Method selects the algorithm; the zero value is MethodAuto. A
	// value other than the Method constants is an error (ErrBadOption).
	Method Method
	// MaxSweeps caps the Jacobi sweeps (MethodJacobi only); 0 means 30 (as LAPACK's
	// dgesvj). Preconditioned matrices typically need 4 to 8. A negative
	// value is an error (ErrBadOption).
	MaxSweeps int
	// Tol is the convergence threshold of MethodJacobi on the cosine of
	// the angle between two rows of the preconditioned factor; 0 means sqrt(p)*eps with
	// p = min(m, n) and eps = 2^-53. Larger values trade accuracy for
	// speed. It must be finite and in [0, 1), or Factorize returns an
	// error wrapping ErrBadOption.
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
	// Sweeps is the number of Jacobi sweeps used (0 for
	// MethodBidiagonal).
	Sweeps int
}

// Factorize computes the thin singular value decomposition of a (which it
// does not modify) by the method of Options.Method: by default
// (MethodAuto) MethodJacobi while min(m, n) < BidiagonalMin and
// MethodBidiagonal from there on.
//
// MethodBidiagonal, in the manner of LAPACK's dgesdd: Z = A, or Aᵀ when
// A is tall (p x q, p <= q), scaled by a power of two; Z = L*Q0 by an LQ
// factorization when q > 1.6p; Householder reduction of Z (or L) to a
// lower bidiagonal matrix Ql*Lb*Prᵀ, blocked as LAPACK's dgebrd; the SVD
// Lb = W*Σ*Jᵀ of the bidiagonal matrix; then U_Z = Ql*W and
// V_Z = Q0ᵀ*Pr*J with the reflectors applied as compact WY blocks. Its
// singular values have absolute accuracy of order eps*||A||.
//
// MethodJacobi is one-sided Jacobi with QR preconditioning, in the manner
// of LAPACK's dgejsv (Drmač and Veselić):
//
//  1. Z = A, or Aᵀ when A is tall, so that Z is p x q with p <= q, scaled
//     by a power of two and with its columns sorted by decreasing
//     magnitude; the row-pivoted LQ factorization Pᵀ*Z = L1*Q1 (QR with
//     column pivoting of Zᵀ; for q > 2p an unpivoted LQ first, so that
//     the pivoting works on a p x p triangle) reduces the problem to the
//     lower triangle L1 and sorts its rows by decreasing norm;
//  2. one-sided Jacobi on the rows of an upper triangle X0 gives
//     X0 = J*Σ*Wᵀ, the final rows being Σ*Wᵀ. When the right singular
//     vectors of Z are not wanted, X0 = L1ᵀ: L1 = W*Σ*Jᵀ, so the left
//     ones are P*W, the normalized final rows. When they are wanted,
//     X0 = R from the QR factorization L1 = Q2*R (dgejsv's second
//     preconditioner, which makes the rows of X0 graded as the
//     triangular solve below needs): L1 = Q2*J*Σ*Wᵀ, the right vectors
//     are Q1ᵀ*[W; 0] and the left ones P*Q2*J;
//  3. J comes from the triangular solve X0ᵀ*J = W*Σ rather than from
//     accumulating the rotations (as in dgejsv), accepted after checking
//     that it is orthogonal to working accuracy, otherwise the sweeps are
//     repeated with the rotations accumulated. Matrices of at most 32
//     rows (with the AVX-512 kernels) accumulate the rotations from the
//     start instead, on X0 = L1ᵀ (then J is G, and the right vectors are
//     Q1ᵀ*[J; 0]): there it costs less than the second factorization and
//     the solve.
//
// With MethodJacobi, singular values are computed to high relative
// accuracy whenever the matrix is a well-conditioned matrix times a
// diagonal scaling of its columns (or rows), however badly scaled (for example graded), within
// the range of magnitudes described in the package documentation (Range),
// and to the usual absolute accuracy eps*||A|| otherwise. Values alone, or with
// the left vectors of Z only, skip the second factorization, so their
// values can differ from those of the full factorization in the last
// bits.
//
// Factorize keeps its largest scratch buffer (up to 64 MiB; that of a
// 1069 x 1069 matrix) for later calls, in a sync.Pool, which the garbage
// collector empties when the buffers go unused; calls running at once
// on several goroutines may each leave one there.
//
// Factorize returns an error wrapping ErrBadOption for an option out of
// range, ErrNotFinite if a holds NaN or an infinity, and a
// *ConvergenceError (errors.Is(err, ErrNoConvergence)) if the sweeps (or
// the SVD of the bidiagonal matrix) do not converge.
func Factorize(a *mat.Dense, opts *Options) (*SVD, error) {
	o, err := resolveOptions(opts)
	if err != nil {
		return nil, err
	}
	m, n := a.Dims()
	if o.Method == MethodBidiagonal || (o.Method == MethodAuto && min(m, n) >= BidiagonalMin) {
		amax := a.NormMax() // NaN if a holds one, else +Inf if an infinity
		if math.IsNaN(amax) || math.IsInf(amax, 0) {
			return nil, ErrNotFinite
		}
		wantU, wantV := o.Want == WantUV || o.Want == WantU, o.Want == WantUV || o.Want == WantV
		if min(m, n) == 0 || amax == 0 {
			return identitySVD(m, n, wantU, wantV), nil
		}
		return factorizeBidiag(a, amax, wantU, wantV)
	}
	return factorizeJacobi(a, &o)
}

// factorizeJacobi is Factorize's Jacobi path, for options checked by
// resolveOptions.
func factorizeJacobi(a *mat.Dense, opts *Options) (*SVD, error) {
	o := *opts
	m, n := a.Dims()
	wantU := o.Want == WantUV || o.Want == WantU
	wantV := o.Want == WantUV || o.Want == WantV
	k := min(m, n)
	var (
		z      *mat.Dense
		cperm  []int
		shift  int
		tall   bool
		finite bool
	)
	if k > 0 && m > n {
		z, cperm, shift, finite = prepareTall(a)
	} else {
		z, cperm, shift, tall, finite = prepareWide(a)
	}
	if !finite {
		return nil, ErrNotFinite
	}
	if z == nil {
		return identitySVD(m, n, wantU, wantV), nil
	}
	tall = tall || m > n
	if o.Tol <= 0 {
		o.Tol = math.Sqrt(float64(k)) * eps
	}
	f := &jacobiSVD{k: k, z: z, tol: o.Tol, maxSweeps: o.MaxSweeps,
		// Which singular vectors of Z are wanted: left (U_Z, k x k) and
		// right (V_Z, q x k).
		left:  (wantU && !tall) || (wantV && tall),
		right: (wantV && !tall) || (wantU && tall),
	}
	if err := f.precondition(); err != nil {
		return nil, err
	}
	if err := f.sweep(); err != nil {
		return nil, err
	}
	res := &SVD{S: make([]float64, k), Sweeps: f.sweeps}
	for i, v := range f.j.nrm {
		res.S[i] = math.Ldexp(v, -shift)
	}
	uz, vz := f.vectors(cperm)
	// Z (the reflectors of the factorizations) is spent.
	putScratch(z.RawData())
	if tall {
		res.U, res.V = vz, uz
	} else {
		res.U, res.V = uz, vz
	}
	return res, nil
}

// resolveOptions checks opts and returns them with the defaults filled
// in (all but Tol, which depends on the shape).
func resolveOptions(opts *Options) (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := checkJacobi("Options", o.MaxSweeps, o.Tol); err != nil {
		return o, err
	}
	if o.Want < WantUV || o.Want > WantNone {
		return o, optcheck.Int(ErrBadOption, "Options.Want", int(o.Want), int(WantUV), int(WantNone))
	}
	if err := optcheck.Int(ErrBadOption, "Options.Method", int(o.Method), int(MethodAuto), int(MethodBidiagonal)); err != nil {
		return o, err
	}
	if o.MaxSweeps == 0 {
		o.MaxSweeps = 30
	}
	return o, nil
}

// identitySVD is the factorization of an empty or zero m x n matrix:
// zero singular values, and any orthonormal vectors will do.
func identitySVD(m, n int, wantU, wantV bool) *SVD {
	k := min(m, n)
	res := &SVD{S: make([]float64, k)}
	if wantU {
		res.U = mat.Zeros(m, k)
		for i := 0; i < k; i++ {
			res.U.Set(i, i, 1)
		}
	}
	if wantV {
		res.V = mat.Zeros(n, k)
		for i := 0; i < k; i++ {
			res.V.Set(i, i, 1)
		}
	}
	return res
}

// scaling returns the power of two 2^shift by which Factorize scales A
// and whether Z is Aᵀ (tall), for an m x n A of largest magnitude amax
// (and rowMax, colMax by row and column).
//
// The scale is exact, unless entries underflow, and brings the largest
// magnitude into [0.5, 1): dot products of rows cannot overflow, and the
// smallest entries keep as many bits as possible. When some row or
// column of A is so much smaller than the largest entry that it would
// end up below the flush threshold of flushTinyRows (2^-1000), the scale
// is raised instead, up to the largest that the factorizations and
// sweeps survive (see wideShift).
func scaling(m, n int, amax float64, rowMax, colMax []float64) (shift int, tall bool) {
	tall = m > n
	_, e := math.Frexp(amax)
	wide := wideShift(amax, rowMax, colMax, max(m, n))
	shift = -e + wide
	if wide > 0 && m == n && spread(colMax) > spread(rowMax) {
		// Z = Aᵀ, so that the wider range is across the rows of Z: a
		// Householder vector of the LQ factorization, normalized to a
		// leading 1, cannot hold components of a row more than 2^1074
		// apart, but rows of any magnitudes factor accurately.
		tall = true
	}
	return shift, tall
}

// jacobiSVD holds the steps of Factorize on the scaled, sorted p x q
// matrix Z (p = k <= q), whose columns are sorted by decreasing
// magnitude (prepareZ): Householder LQ (QR of Zᵀ) is then column-wise
// (row-wise for Zᵀ) backward stable, which keeps graded columns accurate
// (Cox and Higham; dgejsv's row pivoting).
type jacobiSVD struct {
	k           int
	z           *mat.Dense
	tol         float64
	maxSweeps   int
	left, right bool // which singular vectors of Z are wanted

	zp     *mat.Dense        // the matrix that f1 factors: Z or L0
	f0     *house.Reflectors // Z = L0 Q0 when Z is much wider; else nil
	f1     *lq.PivotedLQ     // Pᵀ zp = L1 Q1
	l1     mat.Dense         // L1, then transposed
	f2     *lq.LQ            // L1 = Q2 R (as L1ᵀ = Rᵀ Q2ᵀ); nil without the second factorization
	x      mat.Dense         // X0, then the final rows Σ Wᵀ, then Wᵀ (a value: a pointer to f.l1 here would move f to the heap)
	x0     *mat.Dense        // a copy of X0 for the solve for J
	acc    *mat.Dense        // the accumulated rotations, when they are
	vz     *mat.Dense        // V_Z, whose top k x k block holds acc
	jm     *mat.Dense        // J, k x k
	j      rowJacobi         // the sweeps
	sweeps int               // all the sweeps made

	accumulate bool // the rotations accumulate from the start
}

// precondition is step 1: Pᵀ Z = L1 Q1. For a much wider Z, first
// Z = L0 Q0 (no pivoting) and then Pᵀ L0 = L1 Q1', so that the pivoted
// factorization, which runs at the speed of matrix-vector products,
// works on a k x k triangle: Q1 = Q1' Q0.
func (f *jacobiSVD) precondition() error {
	f.zp = f.z
	var err error
	if _, q := f.z.Dims(); q > 2*f.k {
		// Z is finite and scaled below lq.MaxSafe (scaling), so the
		// reflectors of package house factor it as package lq would,
		// without lq's checks and scaling, each a pass over Z.
		k := f.k
		zd := f.z.RawData()
		if f.right {
			// Q0 will be applied to the right vectors.
			f.f0 = house.FactorT(k, q, zd, q)
		} else {
			f.f0 = house.Factor(k, q, zd, q)
		}
		l0 := mat.Zeros(k, k)
		for i := 0; i < k; i++ {
			copy(l0.RawRow(i)[:i+1], zd[i*q:i*q+i+1])
		}
		f.zp = l0
	}
	if f.f1, err = lq.FactorizePivotedInPlace(f.zp); err != nil {
		return err
	}
	f.f1.L(&f.l1)
	return nil
}

// sweep is steps 2 and 3: Jacobi on the rows of X0 (see Factorize for
// the choice of X0), then J.
func (f *jacobiSVD) sweep() error {
	k := f.k
	// Small matrices with both sides wanted accumulate the rotations
	// (on the slot layout of the small Jacobi kernel they cost less than
	// the second factorization, the triangular solve and the product with Q2).
	f.accumulate = f.left && f.right && k <= slotsMax && jacobi.SweepTFast()
	if f.right && !f.accumulate {
		// L1 = Q2 R: X0 = R, from the LQ factorization L1ᵀ = Rᵀ Q2ᵀ
		// computed in place (the QR factorization of L1 without the
		// copies).
		transposeSquare(&f.l1)
		var err error
		if f.f2, err = lq.FactorizeInPlace(&f.l1); err != nil {
			return err
		}
		f.f2.L(&f.x)
		transposeSquare(&f.x)
	} else {
		transposeSquare(&f.l1) // k x k
		f.x = f.l1             // shares L1's storage; l1 is not used again
	}
	flushTinyRows(&f.x)
	if f.right && f.left && !f.accumulate {
		f.x0 = f.x.Clone()
	}
	f.j = rowJacobi{r: k, c: k, x: f.x.RawData(), ldx: f.x.Stride(), tol: f.tol, maxSweeps: f.maxSweeps, threshold: true}
	if f.accumulate {
		// The rotations accumulate in the top k x k block of V_Z, which
		// then holds Gᵀ (see below).
		_, q := f.z.Dims()
		f.vz = mat.Zeros(q, k)
		for i := 0; i < k; i++ {
			f.vz.Set(i, i, 1)
		}
		f.acc = f.vz.Slice(0, k, 0, k)
		f.j.acc, f.j.lda, f.j.na = f.acc.RawData(), f.acc.Stride(), k
	}
	converged := f.j.run()
	f.sweeps = f.j.sweeps
	if !converged {
		return &ConvergenceError{Method: "one-sided Jacobi", Sweeps: f.j.sweeps, Off: math.Sqrt(f.j.maxCos2)}
	}
	switch {
	case f.accumulate:
		// X_final = Gᵀ X0 with acc = Gᵀ: X0 = G Σ Wᵀ, J = G, in place.
		transposeSquare(f.acc)
		f.jm = f.acc
	case f.right && f.left:
		// 3. X0ᵀ J = W Σ = X_finalᵀ; X0ᵀ = Rᵀ is lower triangular.
		f.jm = solveJ(f.x0, &f.x, f.j.nrm)
		if f.jm == nil {
			return f.resweep()
		}
	}
	return nil
}

// resweep sweeps again from X0 with the rotations accumulated, when the
// J of the triangular solve is not orthogonal to working accuracy (X0
// extracted again: solveJ may have overwritten x0).
func (f *jacobiSVD) resweep() error {
	k := f.k
	f.f2.L(&f.x)
	transposeSquare(&f.x)
	flushTinyRows(&f.x)
	f.acc = mat.Identity(k)
	f.j = rowJacobi{r: k, c: k, x: f.x.RawData(), ldx: f.x.Stride(), tol: f.tol, maxSweeps: f.maxSweeps,
		acc: f.acc.RawData(), lda: f.acc.Stride(), na: k, threshold: true}
	converged := f.j.run()
	f.sweeps += f.j.sweeps
	if !converged {
		return &ConvergenceError{Method: "one-sided Jacobi", Sweeps: f.j.sweeps, Off: math.Sqrt(f.j.maxCos2)}
	}
	f.jm = f.acc.T()
	return nil
}

// vectors returns the wanted singular vectors of Z, U_Z (k x k) and V_Z
// (q x k; its rows in the order of the columns of A before prepareZ
// sorted them by cperm), nil for those not wanted.
func (f *jacobiSVD) vectors(cperm []int) (uz, vz *mat.Dense) {
	if !f.left && !f.right {
		return nil, nil
	}
	// Wᵀ: the normalized rows of X (in place; J has been computed).
	k := f.k
	normalizeRows(&f.x, f.j.nrm)
	if slices.Contains(f.j.nrm, 0) {
		have := make([]bool, k)
		for i := range have {
			have[i] = f.j.nrm[i] != 0
		}
		completeRows(&f.x, have)
	}
	if f.left {
		uz = f.leftVectors()
	}
	if f.right {
		vz = f.rightVectors(cperm)
	}
	return uz, vz
}

// leftVectors returns U_Z: without the second factorization, U_Z = P W;
// with it, U_Z = P Q2 J (L1 = Q2 R = Q2 J Σ Wᵀ). Row perm[i] of U_Z is
// row i of W or of Q2 J.
func (f *jacobiSVD) leftVectors() *mat.Dense {
	if f.f2 != nil {
		f.f2.MulQT(f.jm, f.jm) // Q2 J
		permuteRows(f.jm, f.f1.Perm())
		return f.jm
	}
	uz := mat.Zeros(f.k, f.k)
	wd, ld := f.x.RawData(), f.x.Stride()
	for i, p := range f.f1.Perm() {
		row := uz.RawRow(p)
		for c := range row {
			row[c] = wd[c*ld+i]
		}
	}
	return uz
}

// rightVectors returns V_Z = Q1_fullᵀ [W; 0] with the second
// factorization (Pᵀ Z = Q2 J Σ Wᵀ Q1), Q1_fullᵀ [J; 0] without it, and
// Q0_fullᵀ on top of either; then unsorts its rows by cperm.
func (f *jacobiSVD) rightVectors(cperm []int) *mat.Dense {
	k := f.k
	_, q := f.z.Dims()
	v := f.vz
	if v == nil {
		v = mat.Zeros(q, k)
	}
	vd := v.RawData()
	if f.f2 != nil {
		wd, ld := f.x.RawData(), f.x.Stride()
		for i := 0; i < k; i++ {
			row := vd[i*k : (i+1)*k]
			for c := range row {
				row[c] = wd[c*ld+i]
			}
		}
	} else if f.jm != f.acc {
		// Without the second factorization, Pᵀ Z = L1 Q1 = W Σ Jᵀ Q1.
		v.Slice(0, k, 0, k).Copy(f.jm)
	}
	_, q1 := f.zp.Dims()
	f.f1.MulQT(v.Slice(0, q1, 0, k), v.Slice(0, q1, 0, k))
	if f.f0 != nil {
		// Q0_fullᵀ [X; 0]: rows k on are zero.
		f.f0.MulLeftTop(true, k, k, vd, k)
	}
	if cperm != nil {
		// Z = Z_sorted Πᵀ: row cperm[i] of V_Z is row i of V_sorted.
		permuteRows(v, cperm)
	}
	return v
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

// solveLower solves X0ᵀ*J = B for rows i0..i1-1 of J (k columns, stored
// in jd with stride k, B there on entry), given rows 0..i0-1 of J: X0 is
// the upper triangle xd (stride lx). It halves the rows recursively, so
// that all but the leaves' work (blocks of at most 16 rows) is matrix
// products.
func solveLower(xd []float64, lx int, jd []float64, k, i0, i1 int) {
	if n := i1 - i0; n > 16 {
		h := i0 + (n/2+7)&^7
		solveLower(xd, lx, jd, k, i0, h)
		// J[h:i1] -= X0[i0:h, h:i1]ᵀ J[i0:h]
		kernels.Gemm(true, false, i1-h, k, h-i0, -1, xd[i0*lx+h:], lx, jd[i0*k:], k, 1, jd[h*k:], k)
		solveLower(xd, lx, jd, k, h, i1)
		return
	}
	var col [16]float64
	for i := i0; i < i1; i++ {
		ji := jd[i*k : (i+1)*k]
		if i > i0 {
			// J[i] -= X0[i0:i, i]ᵀ J[i0:i]
			c := col[:i-i0]
			for p := range c {
				c[p] = xd[(i0+p)*lx+i]
			}
			kernels.Gemv(true, i-i0, k, -1, jd[i0*k:], k, c, 1, ji)
		}
		kernels.Scal(1/xd[i*lx+i], ji)
	}
}

// solveOrthTol is the bound on ||JᵀJ - I||_1 under which solveJ accepts J:
// c*k*eps with c = sqrt(k) between 10 and 50, which keeps LAPACK's test
// ratio for the orthogonality of U, ||UᵀU - I||_1/(k eps), below 10 for
// k <= 100 and below LAPACK's threshold of 50 always. The c grows with k
// because the rounding errors of the solve, sums of k terms, do: on
// Gaussian matrices the ratio of J is 4-7 at k = 100 and 7-13 at k = 300
// (30 matrices each), and LAPACK's dgejsv, which solves for V the same
// way and does not check, leaves ratios of 3-10 in V at k = 300 and 4-6
// at k = 1000. With c fixed at 10, a fifth of the 300 x 300 Gaussian
// matrices failed the check and repeated their sweeps with the rotations
// accumulated, which doubles the time, for no better accuracy.
func solveOrthTol(k int) float64 {
	c := min(max(10, math.Sqrt(float64(k))), 50)
	return c * float64(k) * eps
}

// solveJ returns J = X0⁻ᵀ*X_finalᵀ for X0 = J*Σ*Wᵀ (x0 the upper
// triangle X0, which it may overwrite, x the rows after the sweeps, Σ*Wᵀ,
// of norms sigma), with its columns scaled to unit norm, or nil if J is
// not orthogonal to working accuracy (||JᵀJ - I||_1 > solveOrthTol(k)) or
// cannot be computed (a zero singular value or diagonal element). This
// is how LAPACK's dgejsv avoids accumulating the rotations: the
// triangular solve is accurate when X0 is well conditioned up to a
// scaling of its rows, which the pivoted QR preconditioning makes the
// common case, and the check catches the others.
func solveJ(x0, x *mat.Dense, sigma []float64) *mat.Dense {
	k, _ := x0.Dims()
	for i := 0; i < k; i++ {
		if sigma[i] == 0 || x0.At(i, i) == 0 {
			return nil
		}
	}
	// X0ᵀ is lower triangular, (X0ᵀ)[i][p] = X0[p][i]; the right-hand side
	// is X_finalᵀ = W Σ.
	jm := x.T()
	xd, lx := x0.RawData(), x0.Stride()
	jd := jm.RawData()
	solveLower(xd, lx, jd, k, 0, k)
	// Unit columns (the norms carry most of the error), then the check.
	// The columns of J have norms near 1: plain sums of squares are
	// accurate.
	// x0 is no longer needed: it holds JᵀJ when it is compact.
	var g []float64
	if lx == k {
		g = xd[:k*k]
		clear(g[:k])
	} else {
		g = make([]float64, k*k)
	}
	cn := g[:k]
	for i := 0; i < k; i++ {
		for c, v := range jd[i*k : (i+1)*k] {
			cn[c] += v * v
		}
	}
	for c := range cn {
		if !(cn[c] > 0) {
			return nil
		}
		cn[c] = 1 / math.Sqrt(cn[c])
	}
	for i := 0; i < k; i++ {
		row := jd[i*k : (i+1)*k]
		for c := range row {
			row[c] *= cn[c]
		}
	}
	kernels.Syrk(true, k, k, 1, jd, k, 0, g, k)
	var n1 float64 // ||JᵀJ - I||_1
	for c := 0; c < k; c++ {
		var s float64
		for r := 0; r < k; r++ {
			v := g[r*k+c]
			if r == c {
				v--
			}
			s += math.Abs(v)
		}
		n1 = math.Max(n1, s)
	}
	if !(n1 <= solveOrthTol(k)) {
		return nil
	}
	return jm
}

// normalizeRows divides each row of x by its norm (nrm); rows of norm
// zero are set to zero. The rows are first scaled by a power of two near
// their norms (exactly), so that tiny and huge rows normalize accurately.
func normalizeRows(x *mat.Dense, nrm []float64) {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		row := x.RawRow(i)
		if nrm[i] == 0 {
			clear(row)
			continue
		}
		if nrm[i] < 0x1p-500 || nrm[i] > 0x1p500 {
			_, e := math.Frexp(nrm[i])
			scaleSlicePow2(row, -e)
			kernels.Scal(1/kernels.Nrm2(row), row)
			continue
		}
		kernels.Scal(1/nrm[i], row)
	}
}

// completeRows fills the rows i of w with !have[i] so that the rows of w
// are orthonormal, given that the rows with have[i] are. Each new row is
// the unit vector e_k whose component orthogonal to the rows present is
// largest (the squared norms of those components add up to the number
// of rows missing, so the largest is at least 1/c), orthogonalized twice
// against them by modified Gram-Schmidt and normalized.
func completeRows(w *mat.Dense, have []bool) {
	_, c := w.Dims()
	res := make([]float64, c) // 1 - sum over the rows present of w[t][k]²
	for k := range res {
		res[k] = 1
	}
	for t := range have {
		if have[t] {
			for k, v := range w.RawRow(t) {
				res[k] -= v * v
			}
		}
	}
	v := make([]float64, c)
	for i := range have {
		if have[i] {
			continue
		}
		best := 0
		for k := range res {
			if res[k] > res[best] {
				best = k
			}
		}
		clear(v)
		v[best] = 1
		for pass := 0; pass < 2; pass++ {
			for t := range have {
				if have[t] {
					rt := w.RawRow(t)
					kernels.Axpy(-kernels.Dot(rt, v), rt, v)
				}
			}
		}
		nv := kernels.Nrm2(v)
		if !(nv > 0.5/math.Sqrt(float64(c))) {
			panic(fmt.Sprintf("svd: internal error: cannot complete row %d of an orthonormal basis", i))
		}
		kernels.Scal(1/nv, v)
		copy(w.RawRow(i), v)
		have[i] = true
		for k, x := range v {
			res[k] -= x * x
		}
	}
}

// prepareWide returns Z (see prepareZ), the permutation of its columns
// and the exponent of its scaling for an A that is not tall (m <= n),
// and whether A is finite; Z is nil when A is zero or empty.
func prepareWide(a *mat.Dense) (z *mat.Dense, cperm []int, shift int, tall, finite bool) {
	m, n := a.Dims()
	if !a.IsFinite() {
		return nil, nil, 0, false, false
	}
	amax := 0.0
	var rowMax, colMax []float64
	if min(m, n) > 0 {
		rowMax, colMax, amax = maxima(a)
	}
	if amax == 0 {
		return nil, nil, 0, false, true
	}
	shift, tall = scaling(m, n, amax, rowMax, colMax)
	big := colMax
	if tall {
		big = rowMax
	}
	z, cperm = prepareZ(a, tall, shift, big)
	return z, cperm, shift, tall, true
}

// prepareTall is prepareWide for a tall A (m > n > 0), where Z = Aᵀ: the
// same Z, in passes that suit A's short rows. The row maxima of A (a
// kernel on each row) check that A is finite and give the order of Z's
// columns; Z is gathered from A's rows in that order, unscaled, four
// rows at a time (a scatter into Z's columns in place of the gather
// misses the cache at every element); A's column maxima are then the
// row maxima of Z (the kernel again, where an element-wise pass over
// A's short rows is several times slower), and last Z is scaled.
func prepareTall(a *mat.Dense) (z *mat.Dense, cperm []int, shift int, finite bool) {
	m, n := a.Dims()
	lv := simd.Current()
	rowMax := make([]float64, m)
	amax := 0.0
	for i := range rowMax {
		v := vec.MaxAbsAt(lv, a.RawRow(i))
		if !(v <= math.MaxFloat64) {
			return nil, nil, 0, false // NaN or an infinity
		}
		rowMax[i] = v
		amax = max(amax, v)
	}
	if amax == 0 {
		return nil, nil, 0, true
	}
	cperm = sortedOrder(rowMax)
	z = mat.New(n, m, getScratch(n*m)) // gatherRowsT writes every element
	gatherRowsT(z.RawData(), a, cperm)
	colMax := make([]float64, n)
	for j := range colMax {
		colMax[j] = vec.MaxAbsAt(lv, z.RawRow(j))
	}
	shift, _ = scaling(m, n, amax, rowMax, colMax)
	scaleZ(z, shift)
	return z, cperm, shift, true
}

// sortedOrder returns the permutation that sorts big (finite, not
// negative) by decreasing value, ties in index order (the order of a
// stable sort), or nil when big is sorted already: element i of the
// sorted order is big[perm[i]].
func sortedOrder(big []float64) []int {
	sorted := true
	for j := 1; j < len(big); j++ {
		if big[j] > big[j-1] {
			sorted = false
			break
		}
	}
	if sorted {
		return nil
	}
	if len(big) >= radixMin {
		return radixOrder(big)
	}
	type col struct {
		big float64
		j   int
	}
	cols := make([]col, len(big))
	for j := range cols {
		cols[j] = col{big[j], j}
	}
	// Plain comparisons: the values are finite, which cmp.Compare's
	// handling of NaN does not need to check (a third of the sort).
	slices.SortFunc(cols, func(a, b col) int {
		switch {
		case a.big > b.big:
			return -1
		case a.big < b.big:
			return 1
		}
		return a.j - b.j
	})
	perm := make([]int, len(big))
	for j := range perm {
		perm[j] = cols[j].j
	}
	return perm
}

// radixMin is the least length that sortedOrder sorts by radixOrder (a
// fixed cost of 256 counters a pass, against about log2(n) comparisons an
// element: at 1000 rows the comparison sort took 45 us, 4% of a 1000 x 50
// SVD).
const radixMin = 128

// radixOrder is sortedOrder's sort for long inputs: a least significant
// digit radix sort of the bits of the values, which order as the values
// do for finite values that are not negative, complemented for a
// decreasing order, a byte at a time (the bytes that all the values
// share are skipped). It is stable, so ties stay in index order.
func radixOrder(big []float64) []int {
	n := len(big)
	buf := make([]uint64, 2*n)
	keys, tmpKeys := buf[:n], buf[n:]
	perm, tmpPerm := make([]int, n), make([]int, n)
	for j, v := range big {
		keys[j] = ^math.Float64bits(v)
		perm[j] = j
	}
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for _, k := range keys {
			count[byte(k>>shift)]++
		}
		if count[byte(keys[0]>>shift)] == n {
			continue // every key has this byte
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for i, k := range keys {
			d := byte(k >> shift)
			p := count[d]
			count[d]++
			tmpKeys[p] = k
			tmpPerm[p] = perm[i]
		}
		keys, tmpKeys = tmpKeys, keys
		perm, tmpPerm = tmpPerm, perm
	}
	return perm
}

// gatherRowsT sets zd (n x m, row stride m) to Aᵀ with its columns in
// the order perm: column i is row perm[i] of the m x n A (row i when
// perm is nil). Four rows of A at a time
// in tiles of 64 of its columns, so that each row of the result takes
// four contiguous elements per write and the rows written stay in cache.
func gatherRowsT(zd []float64, a *mat.Dense, perm []int) {
	m, n := a.Dims()
	zd = zd[:n*m]
	src := func(i int) []float64 {
		if perm == nil {
			return a.RawRow(i)
		}
		return a.RawRow(perm[i])
	}
	const tile = 64
	for j0 := 0; j0 < n; j0 += tile {
		j1 := min(j0+tile, n)
		i := 0
		for ; i+4 <= m; i += 4 {
			s0 := src(i)[j0:j1]
			s1 := src(i + 1)[j0:j1]
			s2 := src(i + 2)[j0:j1]
			s3 := src(i + 3)[j0:j1]
			s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
			for j, x := range s0 {
				d := zd[(j0+j)*m+i : (j0+j)*m+i+4]
				d[0], d[1], d[2], d[3] = x, s1[j], s2[j], s3[j]
			}
		}
		for ; i < m; i++ {
			s := src(i)
			for j := j0; j < j1; j++ {
				zd[j*m+i] = s[j]
			}
		}
	}
}

// scaleZ multiplies z by 2^e (exact unless entries underflow or
// overflow).
func scaleZ(z *mat.Dense, e int) {
	if e == 0 {
		return
	}
	if e >= -1022 && e <= 1023 {
		kernels.Scal(math.Ldexp(1, e), z.RawData())
		return
	}
	z.ScalePow2(e, z)
}

// prepareZ returns Z = A (or Aᵀ if trans) times 2^e with its columns
// sorted by decreasing largest magnitude (a stable sort; big[j] is the
// largest magnitude in column j of Z), in one pass over A, and the
// permutation (nil if the columns are in order already): column i of Z
// is column perm[i] of the scaled A (or Aᵀ). Scaling by a power of two
// is exact unless entries underflow or overflow.
func prepareZ(a *mat.Dense, trans bool, e int, big []float64) (*mat.Dense, []int) {
	m, n := a.Dims()
	r, c := m, n
	if trans {
		r, c = n, m
	}
	perm := sortedOrder(big)
	z := mat.New(r, c, getScratch(r*c)) // every element is written below
	zd := z.RawData()
	scale := math.Ldexp(1, max(e, -1022))
	exact := e >= -1022 && e <= 1023
	if !trans {
		for i := 0; i < m; i++ {
			src, dst := a.RawRow(i), zd[i*c:(i+1)*c]
			if perm == nil {
				copy(dst, src)
			} else {
				for j, pj := range perm {
					dst[j] = src[pj]
				}
			}
		}
	} else {
		// Z[j][i'] = A[i][j] with i' the position of row i of A.
		pos := make([]int, m)
		for i := range pos {
			pos[i] = i
		}
		for i, pi := range perm {
			pos[pi] = i
		}
		// Blocks of 32 rows of A, so that the columns of Z written
		// stay in cache.
		for i0 := 0; i0 < m; i0 += 32 {
			i1 := min(i0+32, m)
			for j0 := 0; j0 < n; j0 += 32 {
				j1 := min(j0+32, n)
				for i := i0; i < i1; i++ {
					pi := pos[i]
					for j, v := range a.RawRow(i)[j0:j1] {
						zd[(j0+j)*c+pi] = v
					}
				}
			}
		}
	}
	if exact {
		if e != 0 {
			kernels.Scal(scale, zd)
		}
	} else {
		z.ScalePow2(e, z)
	}
	return z, perm
}

// scratchPool holds Factorize's largest scratch buffers (Z of the Jacobi
// path, the slab of the bidiagonal path) for later calls (*[]float64).
// A matrix of a few hundred kilobytes that is freed and allocated again
// at every call often comes back from the operating system, and
// faulting its pages in cost as much as the LQ factorization of a
// 1000 x 50 matrix; a buffer kept here stays mapped.
var scratchPool sync.Pool

// scratchPoolMax is the largest buffer that scratchPool keeps: 8M floats
// (64 MiB), the slab of the bidiagonal path of a 1069 x 1069 matrix. At
// 1000 x 1000 faulting in a fresh slab (56 MB) took 28 ms of 300.
const scratchPoolMax = 1 << 23

// getScratch returns n floats from scratchPool, or new ones; they are
// not cleared.
func getScratch(n int) []float64 {
	if p, ok := scratchPool.Get().(*[]float64); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]float64, n)
}

// putScratch gives s back to scratchPool, unless it holds more than
// scratchPoolMax floats (for larger matrices the page faults are a
// smaller part of the time, 4% at 2000 x 2000, and the pool would keep
// hundreds of megabytes); the caller must not use it again.
func putScratch(s []float64) {
	if cap(s) == 0 || cap(s) > scratchPoolMax {
		return
	}
	s = s[:0]
	scratchPool.Put(&s)
}

// transposeSquare transposes the square matrix a in place.
func transposeSquare(a *mat.Dense) {
	n, _ := a.Dims()
	d, ld := a.RawData(), a.Stride()
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d[i*ld+j], d[j*ld+i] = d[j*ld+i], d[i*ld+j]
		}
	}
}

// permuteRows moves row i of a to row perm[i], in place: along each
// cycle of the permutation, each row is copied once into the row it
// belongs in (which takes the row that belongs there from the inverse
// permutation), with one spare row for the first.
func permuteRows(a *mat.Dense, perm []int) {
	r, c := a.Dims()
	inv := make([]int, r)
	for i, p := range perm {
		inv[p] = i
	}
	done := make([]bool, r)
	tmp := make([]float64, c)
	for s := range perm {
		if done[s] || perm[s] == s {
			continue
		}
		// Row s goes to perm[s]; row pos takes row inv[pos].
		copy(tmp, a.RawRow(s))
		pos := s
		for {
			done[pos] = true
			src := inv[pos]
			if src == s {
				copy(a.RawRow(pos), tmp)
				break
			}
			copy(a.RawRow(pos), a.RawRow(src))
			pos = src
		}
	}
}

// maxima returns the largest magnitude of every row and of every column
// of a, and of a (a is finite).
func maxima(a *mat.Dense) (rowMax, colMax []float64, amax float64) {
	r, c := a.Dims()
	rowMax, colMax = make([]float64, r), make([]float64, c)
	for i := 0; i < r; i++ {
		row := a.RawRow(i)
		if c > 0 {
			rowMax[i] = math.Abs(row[kernels.Iamax(row)])
		}
		if rowMax[i] > amax {
			amax = rowMax[i]
		}
		for j, v := range row {
			if v = math.Abs(v); v > colMax[j] {
				colMax[j] = v
			}
		}
	}
	return rowMax, colMax, amax
}

// Range of the scaling of Z. Factorize scales A so that its largest
// magnitude is about 1, unless some row or column of A has its largest
// magnitude below wideFrom times that of A: the rows of the triangle
// that such rows or columns give would then fall near the flush
// threshold of flushTinyRows (2^-1000) or underflow. wideShift then
// raises the scale by 2^b, with b the least that brings the smallest
// row or column maximum to wideTarget, but at most wideMax(size): the
// largest scale at which the norms of the rows (up to sqrt(n) times the
// largest entry), the Householder updates and the sums of the triangular
// solve (up to n times more) stay below 2^1023.
const (
	wideFrom   = 0x1p-950
	wideTarget = -990 // exponent
)

// spread returns the ratio of the largest to the smallest non-zero value
// of s, in powers of two.
func spread(s []float64) int {
	lo, hi := math.Inf(1), 0.0
	for _, v := range s {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 {
		return 0
	}
	_, a := math.Frexp(hi)
	_, b := math.Frexp(lo)
	return a - b
}

// wideMax returns the largest extra scaling exponent for matrices whose
// larger dimension is size: the largest magnitude that the LQ
// factorizations take without scaling it down (lq.MaxSafe), with one bit
// to spare for the rounding of the largest magnitude up to a power of two.
func wideMax(size int) int {
	_, e := math.Frexp(lq.MaxSafe(size, size))
	return e - 2
}

// wideShift returns the exponent b by which Factorize raises the scale
// of Z for a matrix whose row and column maxima span a range too wide for
// the default scale (0 for the others), see wideFrom.
func wideShift(amax float64, rowMax, colMax []float64, size int) int {
	least := math.Inf(1)
	for _, s := range [][]float64{rowMax, colMax} {
		for _, v := range s {
			if v > 0 && v < least {
				least = v
			}
		}
	}
	if !(least < wideFrom*amax) {
		return 0
	}
	_, e := math.Frexp(amax)
	_, f := math.Frexp(least)
	return min(max(e-f+wideTarget, 0), wideMax(size))
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
