package svd

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// EigMethod selects the algorithm of EigSym.
type EigMethod int

const (
	// EigAuto, the default, uses EigJacobi below n = TridiagonalMin and
	// EigTridiagonal from there on.
	EigAuto EigMethod = iota
	// EigJacobi is the Jacobi method (see EigSym): slower at large n,
	// but its eigenvalues of positive semidefinite matrices have high
	// relative accuracy.
	EigJacobi
	// EigTridiagonal is Householder reduction to tridiagonal form and
	// divide and conquer (see EigSym): eigenvalues with absolute accuracy
	// of order eps*||A||, eigenvectors orthogonal to working precision
	// for every spectrum; much faster than EigJacobi at large n.
	EigTridiagonal
)

// TridiagonalMin is the order from which EigAuto uses EigTridiagonal.
const TridiagonalMin = 128

// EigOptions configures EigSym. The zero value is the default.
type EigOptions struct {
	// ValuesOnly skips the eigenvectors.
	ValuesOnly bool
	// Method selects the algorithm; the zero value is EigAuto. A value
	// other than the EigMethod constants is an error (ErrBadOption).
	Method EigMethod
	// MaxSweeps caps the Jacobi sweeps; 0 means 30; negative is an
	// error (ErrBadOption). It is not used by EigTridiagonal.
	MaxSweeps int
	// Tol is the Jacobi convergence threshold on cosines; 0 means
	// sqrt(n)*eps. It must be finite and in [0, 1) (ErrBadOption). It is
	// not used by EigTridiagonal.
	Tol float64
}

// Eigen is the eigendecomposition A = V*diag(Values)*Vᵀ of a symmetric
// matrix.
type Eigen struct {
	// Values holds the eigenvalues in decreasing order.
	Values []float64
	// Vectors is n x n and orthogonal; column i is the eigenvector of
	// Values[i]. Nil when only the values were requested.
	Vectors *mat.Dense
	// Sweeps is the number of one-sided Jacobi sweeps used (0 for
	// EigTridiagonal).
	Sweeps int
	// PSD reports that the Jacobi method found the matrix positive
	// semidefinite; its eigenvalues then have high relative accuracy
	// (see EigSym). EigTridiagonal does not test definiteness and always
	// leaves PSD false.
	PSD bool
}

// Truncate returns the first k eigenpairs (the k largest eigenvalues) as
// copies; e is not modified. It panics if k is negative or exceeds
// len(e.Values).
func (e *Eigen) Truncate(k int) *Eigen {
	if k < 0 || k > len(e.Values) {
		panic(fmt.Sprintf("svd: Eigen.Truncate: k = %d with %d eigenvalues", k, len(e.Values)))
	}
	t := &Eigen{Values: append([]float64(nil), e.Values[:k]...), Sweeps: e.Sweeps, PSD: e.PSD}
	if e.Vectors != nil {
		n, _ := e.Vectors.Dims()
		t.Vectors = e.Vectors.Slice(0, n, 0, k).Clone()
	}
	return t
}

// EigSym computes the eigenvalues and eigenvectors of the symmetric n x n
// matrix a, of which it reads the upper triangle only (and which it does
// not modify). The method is chosen by EigOptions.Method; by default
// (EigAuto) it is EigJacobi for n < TridiagonalMin and EigTridiagonal from
// there on.
//
// EigTridiagonal reduces A (scaled by a power of two) to a tridiagonal
// T = Qᵀ*A*Q by blocked Householder reflectors (as LAPACK's dsytrd),
// finds T = Z*Λ*Zᵀ by Cuppen's divide and conquer (as LAPACK's dstedc:
// deflation, and the eigenvectors of each rank-one update by the method
// of Gu and Eisenstat; blocks of at most 32, and the eigenvalues alone,
// by the implicit QL method with Wilkinson shifts, as dsteqr), and
// returns V = Q*Z, the reflectors applied in blocks as compact WY
// transformations. Its eigenvalues have absolute accuracy of order
// eps*||A|| and its eigenvectors are orthogonal to working precision
// whatever the spectrum, clusters and ± pairs included. With ValuesOnly
// the eigenvalues come from the QL method and may differ from those
// computed with the vectors by rounding.
//
// EigJacobi uses one-sided Jacobi methods:
//
//   - It first tries the Cholesky factorization with diagonal pivoting
//     Pᵀ*A*P = Rᵀ*R (as LAPACK's dpstrf, but stopped when every remaining
//     diagonal element is below n*eps times its original value, a test
//     relative to each row's scale). If it succeeds, A is positive
//     semidefinite, of rank r = the number of rows of R, and one-sided
//     Jacobi on the rows of R gives R = J*Σ*Wᵀ, so that
//     A = (P*W)*Σ²*(P*W)ᵀ: the eigenvectors are the normalized final rows
//     and no rotations need to be accumulated (Veselić and Hari). The
//     eigenvalues then come out with high relative accuracy when
//     A = D*H*D for a diagonal D and a well-conditioned H (Demmel and
//     Veselić), which matters for whitening; the n-r zero eigenvalues
//     get an orthonormal basis of the null space.
//   - Otherwise A is indefinite: the preconditioned Jacobi SVD of A (as
//     in Factorize) gives |λ| and an orthonormal V with A*V ≈ V*diag(±|λ|),
//     except that eigenvalues of equal magnitude and opposite sign mix;
//     the matrix Vᵀ*A*V is therefore diagonal up to such pairs (and
//     rounding), and a two-sided Jacobi sweep or two on it gives the
//     signed eigenvalues and rotates V into the eigenvectors. The
//     eigenvalues then have the usual absolute accuracy of order
//     eps*||A||, like those of LAPACK's dsyev.
//
// EigSym panics if a is not square. It returns an error wrapping
// ErrBadOption for an option out of range, ErrNotFinite for NaN or
// infinite entries (in the upper triangle) and a *ConvergenceError if the
// sweeps do not converge.
func EigSym(a *mat.Dense, opts *EigOptions) (*Eigen, error) {
	var o EigOptions
	if opts != nil {
		o = *opts
	}
	if err := checkJacobi("EigOptions", o.MaxSweeps, o.Tol); err != nil {
		return nil, err
	}
	if err := optcheck.Int(ErrBadOption, "EigOptions.Method", int(o.Method), int(EigAuto), int(EigTridiagonal)); err != nil {
		return nil, err
	}
	if o.MaxSweeps == 0 {
		o.MaxSweeps = 30
	}
	n, c := a.Dims()
	if n != c {
		panic(fmt.Sprintf("svd: EigSym: matrix is %dx%d, not square", n, c))
	}
	if o.Method == EigTridiagonal || (o.Method == EigAuto && n >= TridiagonalMin) {
		return eigTridiagonal(a, &o)
	}
	// Full symmetric copy from the upper triangle.
	s, ok := symmetricCopy(a, 0)
	if !ok {
		return nil, ErrNotFinite
	}
	res := &Eigen{Values: make([]float64, n), PSD: true}
	// Scale by an even power of two so that the largest magnitude is in
	// [0.5, 2): the factor's entries (square roots of A's) then leave room
	// for the dot products of the Jacobi sweeps.
	e, zero := scaleToUnit(s, true)
	if zero {
		if !o.ValuesOnly {
			res.Vectors = mat.Identity(n)
		}
		return res, nil
	}
	tol := o.Tol
	if tol <= 0 {
		tol = math.Sqrt(float64(n)) * eps
	}
	perm := make([]int, n)
	r, psd := pivotedCholesky(s, perm)
	if !psd {
		res.PSD = false
		s, _ = symmetricCopy(a, -e)
		if err := eigIndefinite(res, s, &o, tol); err != nil {
			return nil, err
		}
		for i := range res.Values {
			res.Values[i] = math.Ldexp(res.Values[i], e)
		}
		return res, nil
	}
	// X = the first r rows of R (r x n).
	x := s.Slice(0, r, 0, n)
	j := rowJacobi{r: r, c: n, x: x.RawData(), ldx: x.Stride(), tol: tol, maxSweeps: o.MaxSweeps}
	converged := j.run()
	res.Sweeps = j.sweeps
	if !converged {
		return nil, &ConvergenceError{Method: "one-sided Jacobi", Sweeps: j.sweeps, Off: math.Sqrt(j.maxCos2)}
	}
	for i := 0; i < r; i++ {
		res.Values[i] = math.Ldexp(j.nrm[i]*j.nrm[i], e)
	}
	if o.ValuesOnly {
		return res, nil
	}
	// The rows of Wᵀ: the normalized rows of X, completed to an
	// orthonormal basis of R^n for the zero eigenvalues beyond the rank.
	wt := x
	normalizeRows(x, j.nrm)
	if missing := r < n || slices.Contains(j.nrm, 0); missing {
		wt = mat.Zeros(n, n)
		wt.Slice(0, r, 0, n).Copy(x)
		have := make([]bool, n)
		for i := 0; i < r; i++ {
			have[i] = j.nrm[i] != 0
		}
		completeRows(wt, have)
	}
	// Vectors = P*W: element (perm[i], t) is W[i][t] = Wᵀ[t][i].
	v := mat.Zeros(n, n)
	wd, ld := wt.RawData(), wt.Stride()
	for i := 0; i < n; i++ {
		row := v.RawRow(perm[i])
		for t := range row {
			row[t] = wd[t*ld+i]
		}
	}
	res.Vectors = v
	return res, nil
}

// scaleToUnit scales a in place by 2^-e, exactly unless entries
// underflow, with e the exponent of its largest magnitude amax
// (amax = f*2^e, f in [0.5, 1)), rounded down to an even number when
// even is set, so that the largest magnitude ends up in [0.5, 1) (or
// [0.5, 2)). It returns e, or zero = true (a untouched) when a is empty
// or zero.
func scaleToUnit(a *mat.Dense, even bool) (e int, zero bool) {
	if r, c := a.Dims(); r == 0 || c == 0 {
		return 0, true
	}
	amax := a.NormMax()
	if amax == 0 {
		return 0, true
	}
	_, e = math.Frexp(amax)
	if even {
		e &^= 1
	}
	a.ScalePow2(-e, a)
	return e, false
}

// symmetricCopy returns the symmetric matrix whose upper triangle is that
// of a, times 2^e, and whether a's upper triangle is finite. The rows of
// the triangle are copied whole and tested at once (x*0 is 0 for finite
// x, NaN otherwise), and the lower triangle is filled by a transposition
// in tiles (writing it column by column crosses a cache line per element).
func symmetricCopy(a *mat.Dense, e int) (*mat.Dense, bool) {
	n, _ := a.Dims()
	s := mat.Zeros(n, n)
	sd := s.RawData()
	for i := 0; i < n; i++ {
		row := sd[i*n+i : (i+1)*n]
		copy(row, a.RawRow(i)[i:])
		var z float64
		for _, v := range row {
			z += v * 0
		}
		if z != 0 {
			return nil, false
		}
	}
	mirrorUpper(sd, n, n)
	if e != 0 {
		s.ScalePow2(e, s)
	}
	return s, true
}

// mirrorUpper copies the strict upper triangle of the m x m matrix a (row
// stride lda) to the lower one, in square tiles.
func mirrorUpper(a []float64, lda, m int) {
	const tile = 32
	mirrorBlocks(a, lda, m, tile)
	for i0 := 0; i0 < m; i0 += tile {
		i1 := min(i0+tile, m)
		for i := i0; i < i1; i++ {
			for j := i + 1; j < i1; j++ {
				a[j*lda+i] = a[i*lda+j]
			}
		}
	}
}

// eigIndefinite fills res for the symmetric, indefinite s (full storage,
// scaled): see EigSym.
func eigIndefinite(res *Eigen, s *mat.Dense, o *EigOptions, tol float64) error {
	n, _ := s.Dims()
	f, err := Factorize(s, &Options{Want: WantV, Method: MethodJacobi, MaxSweeps: o.MaxSweeps, Tol: tol})
	if err != nil {
		return err
	}
	res.Sweeps = f.Sweeps
	// Rows of vt are the right singular vectors; C = Vᵀ A V.
	vt := f.V.T()
	var av, cm mat.Dense
	av.MulBT(s, vt)
	cm.Mul(vt, &av)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			x := (cm.At(i, j) + cm.At(j, i)) / 2
			cm.Set(i, j, x)
			cm.Set(j, i, x)
		}
	}
	if err := symJacobi(&cm, vt, o.MaxSweeps); err != nil {
		return err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(p, q int) int { return cmp.Compare(cm.At(q, q), cm.At(p, p)) })
	for i, p := range order {
		res.Values[i] = cm.At(p, p)
	}
	if !o.ValuesOnly {
		v := mat.Zeros(n, n)
		for i, p := range order {
			v.SetCol(i, vt.RawRow(p))
		}
		res.Vectors = v
	}
	return nil
}

// symJacobi diagonalizes the symmetric n x n matrix c by the cyclic
// two-sided Jacobi method, applying each rotation to the rows of vt as
// well (so that the eigenvectors of the original c, when vt starts as the
// identity, are the rows of vt). An element c_pq is rotated away when it
// exceeds eps times the Frobenius norm of c. It is meant for matrices
// that are diagonal but for a few clusters.
func symJacobi(c, vt *mat.Dense, maxSweeps int) error {
	n, _ := c.Dims()
	tol := eps * c.NormFrob()
	cd, ldc := c.RawData(), c.Stride()
	var off float64
	for sweep := 0; sweep < maxSweeps; sweep++ {
		rotated := false
		off = 0
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				cpq := cd[p*ldc+q]
				if !(math.Abs(cpq) > tol) {
					continue
				}
				off = math.Max(off, math.Abs(cpq))
				rotated = true
				theta := (cd[q*ldc+q] - cd[p*ldc+p]) / (2 * cpq)
				var t float64
				if at := math.Abs(theta); at > 1e150 {
					t = 0.5 / theta
				} else {
					t = math.Copysign(1/(at+math.Sqrt(1+at*at)), theta)
				}
				cs := 1 / math.Sqrt(1+t*t)
				sn := t * cs
				// C = Jᵀ C J with J = [cs sn; -sn cs] in the (p, q) plane:
				// rows, then columns, then the exact 2x2 values.
				cpp, cqq := cd[p*ldc+p]-t*cpq, cd[q*ldc+q]+t*cpq
				kernels.Rot(cd[p*ldc:p*ldc+n], cd[q*ldc:q*ldc+n], cs, -sn)
				for i := 0; i < n; i++ {
					x, y := cd[i*ldc+p], cd[i*ldc+q]
					cd[i*ldc+p] = cs*x - sn*y
					cd[i*ldc+q] = sn*x + cs*y
				}
				cd[p*ldc+p], cd[q*ldc+q] = cpp, cqq
				cd[p*ldc+q], cd[q*ldc+p] = 0, 0
				kernels.Rot(vt.RawRow(p), vt.RawRow(q), cs, -sn)
			}
		}
		if !rotated {
			return nil
		}
	}
	return &ConvergenceError{Method: "Jacobi eigensolver", Sweeps: maxSweeps, Off: off / c.NormFrob()}
}

// pivotedCholesky computes, in the upper triangle of the symmetric n x n
// matrix a (full storage, overwritten), the factor R of Pᵀ*A*P = Rᵀ*R with
// diagonal pivoting. At each step the pivot is the largest remaining
// diagonal element among those that are not negligible relative to their
// original value (above n*eps*a_jj: smaller ones are rounding noise of a
// row that depends on the previous ones); the factorization stops at rank
// r when none is left. This relative test, unlike dpstrf's absolute one,
// keeps the tiny but significant pivots of graded matrices. Row i of R is
// row i of a, from column i on; everything below the diagonal and the
// rows from r on are zeroed. perm receives P: row i of Pᵀ*A*P is row
// perm[i] of A. psd is false if A is found not to be positive
// semidefinite (a remaining Schur complement that is not negligible).
func pivotedCholesky(a *mat.Dense, perm []int) (r int, psd bool) {
	n, _ := a.Dims()
	for i := range perm {
		perm[i] = i
	}
	buf := make([]float64, 3*n)
	d := buf[:n]       // the diagonal of the Schur complement
	d0 := buf[n : 2*n] // the original diagonal, permuted alike
	dmax := 0.0
	for i := range d {
		d[i] = a.At(i, i)
		d0[i] = d[i]
		dmax = math.Max(dmax, math.Abs(d[i]))
	}
	reltol := float64(n) * eps
	ad, lda := a.RawData(), a.Stride()
	col := buf[2*n:]
	psd = true
	r = n
	for i := 0; i < n; i++ {
		p := -1
		for t := i; t < n; t++ {
			if d[t] > reltol*d0[t] && (p < 0 || d[t] > d[p]) {
				p = t
			}
		}
		if p < 0 {
			r = i
			psd = negligibleSchur(a, i, float64(n)*eps*dmax)
			break
		}
		if p != i {
			swapSym(a, i, p)
			d[i], d[p] = d[p], d[i]
			d0[i], d0[p] = d0[p], d0[i]
			perm[i], perm[p] = perm[p], perm[i]
		}
		// Row i of R: (A[i, i:] - R[:i, i]ᵀ R[:i, i:]) / R[i][i], with
		// R[i][i] = sqrt(d[i]).
		rii := math.Sqrt(d[i])
		row := ad[i*lda+i : i*lda+n]
		if i > 0 {
			for t := 0; t < i; t++ {
				col[t] = ad[t*lda+i]
			}
			kernels.Gemv(true, i, n-i, -1, ad[i:], lda, col[:i], 1, row)
		}
		row[0] = rii
		kernels.Scal(1/rii, row[1:])
		for t := i + 1; t < n; t++ {
			d[t] -= row[t-i] * row[t-i]
		}
	}
	// Zero the strict lower triangle and the rows beyond the rank.
	for i := 0; i < n; i++ {
		rowi := ad[i*lda : i*lda+n]
		if i >= r {
			clear(rowi)
		} else {
			clear(rowi[:i])
		}
	}
	return r, psd
}

// negligibleSchur reports whether the Schur complement that remains after
// i steps of pivotedCholesky on a has no element beyond tol in magnitude:
// the matrix is then positive semidefinite to working accuracy.
func negligibleSchur(a *mat.Dense, i int, tol float64) bool {
	n, _ := a.Dims()
	m := n - i
	if m == 0 {
		return true
	}
	ad, lda := a.RawData(), a.Stride()
	// S = A[i:, i:] - R[:i, i:]ᵀ R[:i, i:], upper triangle read from a.
	sch := mat.Zeros(m, m)
	sd := sch.RawData()
	for t := 0; t < m; t++ {
		copy(sd[t*m+t:(t+1)*m], ad[(i+t)*lda+i+t:(i+t)*lda+n])
	}
	if i > 0 {
		kernels.Gemm(true, false, m, m, i, -1, ad[i:], lda, ad[i:], lda, 1, sd, m)
	}
	for t := 0; t < m; t++ {
		for u := t; u < m; u++ {
			if math.Abs(sd[t*m+u]) > tol {
				return false
			}
		}
	}
	return true
}

// swapSym swaps rows and columns i and p of the full symmetric matrix a.
func swapSym(a *mat.Dense, i, p int) {
	swapSlices(a.RawRow(i), a.RawRow(p))
	n, _ := a.Dims()
	ad, lda := a.RawData(), a.Stride()
	for t := 0; t < n; t++ {
		ad[t*lda+i], ad[t*lda+p] = ad[t*lda+p], ad[t*lda+i]
	}
}
