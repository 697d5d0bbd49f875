package svd

import (
	"cmp"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// This file holds the tridiagonal path of EigSym: Householder reduction of
// a symmetric matrix to tridiagonal form, the eigendecomposition of the
// tridiagonal matrix (divide and conquer in dc.go, the implicit QL method
// in tql.go), and the back-transformation of the eigenvectors (in
// tridiag_back.go).

// tridiag holds the reduction A = Q*T*Qᵀ of a symmetric n x n matrix:
// T has diagonal d and off-diagonal e (e[i] couples d[i] and d[i+1]; e has
// n elements, the last zero), and Q = H_0*H_1*...*H_{n-3} with
// H_k = I - tau[k]*v_k*v_kᵀ, v_k zero up to position k, 1 at k+1, and
// v_k[k+2:] stored in row k of a, right of the diagonal and its neighbour.
type tridiag struct {
	n    int
	a    []float64 // n x n, row stride n: the reflectors
	d, e []float64
	tau  []float64
	// tl holds, for each panel of tridiagBlock reflectors from k0 on,
	// the transpose of the T of their compact WY form (see
	// compactWYLower), tridiagBlock x tridiagBlock from tl[k0*nb:].
	tl []float64
}

// reduceTridiag reduces the symmetric n x n matrix a (row stride n, both
// triangles stored; overwritten) to tridiagonal form, in panels of
// tridiagBlock steps as LAPACK's dsytrd with dlatrd.
//
// Step k takes the reflector H_k from row k right of its diagonal
// neighbour. Within a panel the trailing matrix is not updated: step j
// (k = k0+j) updates row k alone by the panel's earlier reflectors v_q
// and vectors w_q, forms v_j from it, and computes
// w_j = tau*p - (tau²/2)(pᵀv_j)*v_j from p = A22*v_j, the product with
// the trailing matrix as it was at the panel's start, corrected by
// Σ_q v_q*(w_qᵀv_j) + w_q*(v_qᵀv_j). The product (symv) reads the full
// square A22 while it is small enough to stay in the cache (one
// matrix-vector product over contiguous rows, several times faster than a
// symmetric product from one triangle row by row), and otherwise the
// upper triangle in blocks of rows. After the panel the rank-2nb update
// A22 - V*Wᵀ - W*Vᵀ is one matrix product per block of rows of the upper
// triangle, and the lower triangle (or the band of it that symv reads)
// is then copied from the upper one, so that A22 stays exactly
// symmetric. The panel also yields the T of its reflectors' compact WY
// form, for the back-transformation (applyRight).
func reduceTridiag(a []float64, n int) *tridiag {
	t := &tridiag{n: n, a: a, d: make([]float64, n), e: make([]float64, n), tau: make([]float64, max(n, 1))}
	if n == 0 {
		return t
	}
	const nb = tridiagBlock
	// The panel's v_q and w_q interleaved as rows 2q and 2q+1 (zero left
	// of their support), so that every sum Σ_q v_q*(...) + w_q*(...) is
	// one matrix-vector product over 2j rows; wv pairs them the other way
	// round (w_q, v_q) for the trailing update.
	vw := make([]float64, 2*nb*n)
	wv := make([]float64, 2*nb*n)
	c := make([]float64, 2*nb)
	x := make([]float64, 2*nb)
	g := make([]float64, nb*nb) // the panel's Gram matrix v_qᵀv_j
	nblk := (max(n-2, 0) + nb - 1) / nb
	t.tl = make([]float64, nblk*nb*nb)
	for k0 := 0; k0+2 < n; k0 += nb {
		jb := min(nb, n-2-k0)
		// Whether the lower triangle of the trailing matrix is valid
		// (see the copy after the update): symv then reads the square.
		full := n-k0 <= symvFull
		for j := 0; j < jb; j++ {
			k := k0 + j
			row := a[k*n+k : k*n+n]
			if j > 0 {
				// row -= Σ_q v_q[k]*w_q + w_q[k]*v_q.
				for q := 0; q < j; q++ {
					c[2*q] = vw[(2*q+1)*n+k]
					c[2*q+1] = vw[2*q*n+k]
				}
				kernels.Gemv(true, 2*j, n-k, -1, vw[k:], n, c[:2*j], 1, row)
			}
			t.d[k] = row[0]
			tau := house.House(row[1:])
			t.e[k] = row[1]
			t.tau[k] = tau
			vj := vw[2*j*n : (2*j+1)*n]
			clear(vj[:k+1])
			vj[k+1] = 1
			copy(vj[k+2:], row[2:])
			wj := vw[(2*j+1)*n : (2*j+2)*n]
			clear(wj[:k+1])
			vv := vj[k+1:]
			p := wj[k+1:]
			if tau == 0 {
				clear(p)
				continue
			}
			m := n - k - 1
			symv(m, a[(k+1)*n+k+1:], n, vv, p, full)
			if j > 0 {
				// x = (v_qᵀv_j, w_qᵀv_j)_q; p -= Σ_q v_q*(w_qᵀv_j) +
				// w_q*(v_qᵀv_j). The v_qᵀv_j are the Gram matrix of the
				// panel's reflectors, which gives the T of their compact
				// WY form.
				kernels.Gemv(false, 2*j, m, 1, vw[k+1:], n, vv, 0, x[:2*j])
				for q := 0; q < j; q++ {
					g[q*nb+j] = x[2*q]
					c[2*q], c[2*q+1] = x[2*q+1], x[2*q]
				}
				kernels.Gemv(true, 2*j, m, -1, vw[k+1:], n, c[:2*j], 1, p)
			}
			kernels.Scal(tau, p)
			alpha := -0.5 * tau * kernels.Dot(p, vv)
			kernels.Axpy(alpha, vv, p)
		}
		compactWYLower(jb, nb, g, t.tau[k0:k0+jb], t.tl[k0*nb:])
		r0 := k0 + jb
		m := n - r0
		// (w_q, v_q) on the trailing columns.
		for q := 0; q < jb; q++ {
			copy(wv[2*q*n+r0:(2*q+1)*n], vw[(2*q+1)*n+r0:(2*q+2)*n])
			copy(wv[(2*q+1)*n+r0:(2*q+2)*n], vw[2*q*n+r0:(2*q+1)*n])
		}
		// A22 -= Σ_q v_q*w_qᵀ + w_q*v_qᵀ on the upper triangle, in
		// blocks of rows (each with its full diagonal square), then the
		// lower triangle from the upper one.
		for i0 := r0; i0 < n; i0 += tridiagRows {
			mb := min(tridiagRows, n-i0)
			kernels.Gemm(true, false, mb, n-i0, 2*jb, -1, vw[i0:], n, wv[i0:], n, 1, a[i0*n+i0:], n)
		}
		if m <= symvFull {
			mirrorBlocks(a[r0*n+r0:], n, m, tridiagRows)
		} else {
			// The band that symv reads, and that the update's diagonal
			// squares read (they are updated whole, and are copied
			// from the upper triangle no more once the trailing matrix
			// gets small enough for mirrorBlocks).
			mirrorBand(a[r0*n+r0:], n, m, max(symvRows, tridiagRows))
		}
	}
	// The last 2x2 block, updated by the last panel.
	k := max(n-2, 0)
	t.d[k] = a[k*n+k]
	if n > 1 {
		t.e[n-2] = a[(n-2)*n+n-1]
		t.d[n-1] = a[(n-1)*n+n-1]
		t.tau[n-2] = 0
	}
	t.e[n-1] = 0
	return t
}

// tridiagBlock is the panel width of the reduction, and tridiagRows the
// height of the blocks of rows of its trailing update.
const (
	tridiagBlock = 32
	tridiagRows  = 48
)

// symvFull is the order up to which symv reads the full square (one
// matrix-vector product); above it, where the square no longer stays in
// the cache between steps, symv reads the upper triangle, in blocks of
// symvRows rows, which halves the memory traffic. The reduction then
// copies only a band of the upper triangle to the lower one, all that
// the diagonal squares of the blocks read (copying the whole triangle
// after every panel took a third of the reduction at order 2000, the
// matrix being too large for the cache).
const (
	symvFull = 400
	symvRows = 32
)

// symv sets p = A*v for the symmetric m x m matrix a (row stride lda).
// With full (both triangles stored) it is one matrix-vector product over
// the full square; otherwise (the upper triangle and the band of the
// lower one within symvRows-1 of the diagonal stored) block of rows
// i0..i1-1 gives its diagonal square's product and its part of the
// upper triangle right of that, R, gives R*v[i1:] to p[i0:i1] and
// Rᵀ*v[i0:i1] to p[i1:], the second product reading R from the cache.
func symv(m int, a []float64, lda int, v, p []float64, full bool) {
	if full {
		kernels.Gemv(false, m, m, 1, a, lda, v, 0, p)
		return
	}
	clear(p[:m])
	for i0 := 0; i0 < m; i0 += symvRows {
		i1 := min(i0+symvRows, m)
		mb := i1 - i0
		kernels.Gemv(false, mb, mb, 1, a[i0*lda+i0:], lda, v[i0:], 1, p[i0:])
		if i1 < m {
			r := a[i0*lda+i1:]
			kernels.Gemv(false, mb, m-i1, 1, r, lda, v[i1:], 1, p[i0:])
			kernels.Gemv(true, mb, m-i1, 1, r, lda, v[i0:], 1, p[i1:])
		}
	}
}

// mirrorBand copies the band of width w of the upper triangle of the
// m x m matrix a (row stride lda) to the lower one: a[j][i] = a[i][j]
// for i < j < i+w.
func mirrorBand(a []float64, lda, m, w int) {
	for i := 0; i < m; i++ {
		for j := i + 1; j < min(i+w, m); j++ {
			a[j*lda+i] = a[i*lda+j]
		}
	}
}

// mirrorBlocks copies the upper triangle of the m x m matrix a (row
// stride lda) to the lower one, except within the diagonal squares of the
// blocks of rb rows (which the caller has filled).
func mirrorBlocks(a []float64, lda, m, rb int) {
	const tile = 16
	for i0 := 0; i0 < m; i0 += rb {
		i1 := min(i0+rb, m)
		// Rows i0..i1-1, columns i1..m-1, into rows i1.., columns i0..i1-1.
		for c0 := i1; c0 < m; c0 += tile {
			c1 := min(c0+tile, m)
			for r := i0; r < i1; r++ {
				src := a[r*lda+c0 : r*lda+c1]
				for c, v := range src {
					a[(c0+c)*lda+r] = v
				}
			}
		}
	}
}

// tqlMaxIter caps the QL iterations per eigenvalue (tql2 uses 30; two or
// three are usual).
const tqlMaxIter = 60

// eigTridiagonal is EigSym's EigTridiagonal method.
func eigTridiagonal(a *mat.Dense, o *EigOptions) (*Eigen, error) {
	n, _ := a.Dims()
	// The symmetric matrix of the upper triangle: the reduction works on
	// both triangles.
	s, ok := symmetricCopy(a, 0)
	if !ok {
		return nil, ErrNotFinite
	}
	sd := s.RawData()
	res := &Eigen{Values: make([]float64, n)}
	// Scale by a power of two so that the largest magnitude is in
	// [0.5, 1): no norm of the reduction can overflow or underflow
	// harmfully, and the scaling is exact.
	e, zero := scaleToUnit(s, false)
	if zero {
		if !o.ValuesOnly {
			res.Vectors = mat.Identity(n)
		}
		return res, nil
	}
	t := reduceTridiag(s.RawData(), n)
	var zt *mat.Dense
	d := t.d
	var conv bool
	switch {
	case o.ValuesOnly:
		conv = tql(d, t.e, nil, 0, 0, tqlMaxIter)
	case n > dcLeaf:
		zt = mat.Zeros(n, n)
		conv = tridiagDC(d, t.e, zt.RawData(), n)
	default:
		zt = mat.Identity(n)
		conv = tql(d, t.e, zt.RawData(), n, n, tqlMaxIter)
	}
	if !conv {
		return nil, &ConvergenceError{Method: "tridiagonal QL", Sweeps: tqlMaxIter}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(p, q int) int { return cmp.Compare(d[q], d[p]) })
	for i, p := range order {
		res.Values[i] = math.Ldexp(d[p], e)
	}
	if o.ValuesOnly {
		return res, nil
	}
	// Rows of Vᵀ = Zᵀ*Q, then V with its columns in the order of the
	// values. The rows of Zᵀ are first sorted by where their trailing
	// zeros begin (deflated rows of divide and conquer, and the blocks of
	// a tridiagonal matrix that splits, end early): a reflector H_k
	// leaves a row alone that is zero from column k+1 on, so that each
	// block of reflectors is applied only to the rows it changes.
	zd := zt.RawData()
	ends := make([]int, n)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
		row := zd[i*n : (i+1)*n]
		e := n
		for e > 0 && row[e-1] == 0 {
			e--
		}
		ends[i] = e
	}
	slices.SortStableFunc(rows, func(p, q int) int { return cmp.Compare(ends[q], ends[p]) })
	at := make([]int, n) // at[p]: the row that holds row p of zt after sorting
	sorted := make([]int, n)
	for i, p := range rows {
		at[p] = i
		sorted[i] = ends[p]
	}
	permuteRows(zt, at)
	t.applyRight(n, zd, n, sorted)
	for i, p := range order {
		order[i] = at[p]
	}
	// The reduced matrix is no longer needed: it takes V.
	transposeRows(sd, zd, n, order)
	res.Vectors = s
	return res, nil
}

// transposeRows sets column c of the n x n dst to row order[c] of src
// (both row stride n), in tiles that stay in cache.
func transposeRows(dst, src []float64, n int, order []int) {
	const tile = 32
	for c0 := 0; c0 < n; c0 += tile {
		c1 := min(c0+tile, n)
		for r0 := 0; r0 < n; r0 += tile {
			r1 := min(r0+tile, n)
			for c := c0; c < c1; c++ {
				srow := src[order[c]*n : order[c]*n+n]
				for r := r0; r < r1; r++ {
					dst[r*n+c] = srow[r]
				}
			}
		}
	}
}
