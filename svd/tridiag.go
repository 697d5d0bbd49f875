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
// in tql.go), and the back-transformation of the eigenvectors.

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
}

// reduceTridiag reduces the symmetric n x n matrix held in the upper
// triangle of a (row stride n; overwritten: the strict lower triangle is
// used as scratch and destroyed) to tridiagonal form.
//
// Step k takes the reflector H_k from row k right of its diagonal
// neighbour and updates the trailing matrix A22 (rows and columns k+1 on)
// by the rank-two update A22 - v*wᵀ - w*vᵀ with p = tau*A22*v and
// w = p - (tau/2)*(pᵀv)*v. Above order tridiagBlockMin, reduceBlocked
// does the first steps in panels; the rest is unblocked, the update of
// step k and the product A22'*v of step k+1 fused in one pass over the
// rows of the upper triangle, so that each step reads the trailing
// triangle once.
func reduceTridiag(a []float64, n int) *tridiag {
	t := &tridiag{n: n, a: a, d: make([]float64, n), e: make([]float64, n), tau: make([]float64, max(n, 1))}
	if n == 0 {
		return t
	}
	k0 := 0
	if n > tridiagBlockMin {
		k0 = t.reduceBlocked(tridiagBlockMin)
	}
	buf := make([]float64, 4*n)
	v := buf[:n]         // the current reflector, indexed like A's columns
	w := buf[n : 2*n]    // its update vector
	vn := buf[2*n : 3*n] // the next reflector
	p := buf[3*n : 4*n]  // A22'*vn, accumulated
	have := false        // whether v, w hold the previous step's update
	for k := k0; k+2 < n; k++ {
		// Rows k..n-1 of the trailing upper triangle: update row k with
		// the previous reflector (if any), build the reflector of row k,
		// then update the remaining rows and accumulate the product.
		rowk := a[k*n+k : k*n+n]
		if have {
			kernels.Axpy(-v[k], w[k:n], rowk)
			kernels.Axpy(-w[k], v[k:n], rowk)
		}
		t.d[k] = rowk[0]
		tau := house.House(rowk[1:])
		beta := rowk[1]
		t.e[k] = beta
		t.tau[k] = tau
		// vn: 1 at k+1, rowk[2:] after.
		vn[k+1] = 1
		copy(vn[k+2:n], rowk[2:])
		clear(p[k+1 : n])
		for i := k + 1; i < n; i++ {
			row := a[i*n+i : i*n+n]
			if have {
				kernels.Axpy(-v[i], w[i:n], row)
				kernels.Axpy(-w[i], v[i:n], row)
			}
			if tau != 0 {
				// Symmetric product from the upper triangle: row i
				// contributes row·vn[i:] to p[i] and vn[i]*row[1:] to
				// p[i+1:].
				p[i] += kernels.Dot(row, vn[i:n])
				kernels.Axpy(vn[i], row[1:], p[i+1:n])
			}
		}
		if tau == 0 {
			have = false
			continue
		}
		// w = tau*p - (tau²/2)(pᵀvn)*vn.
		kernels.Scal(tau, p[k+1:n])
		alpha := -0.5 * tau * kernels.Dot(p[k+1:n], vn[k+1:n])
		copy(w[k+1:n], p[k+1:n])
		kernels.Axpy(alpha, vn[k+1:n], w[k+1:n])
		copy(v[k+1:n], vn[k+1:n])
		have = true
	}
	// The last 2x2 block.
	k := max(n-2, 0)
	for i := k; i < n; i++ {
		row := a[i*n+i : i*n+n]
		if have {
			kernels.Axpy(-v[i], w[i:n], row)
			kernels.Axpy(-w[i], v[i:n], row)
		}
	}
	t.d[k] = a[k*n+k]
	if n > 1 {
		t.e[n-2] = a[(n-2)*n+n-1]
		t.d[n-1] = a[(n-1)*n+n-1]
		t.tau[n-2] = 0
	}
	t.e[n-1] = 0
	return t
}

// tridiagBlock is the panel width of the blocked reduction, and
// tridiagBlockMin the order of the trailing matrix below which the
// unblocked reduction finishes the job.
const (
	tridiagBlock    = 32
	tridiagBlockMin = 128
)

// reduceBlocked reduces the rows of t.a in panels of tridiagBlock while
// more than minRest rows remain after a panel (as LAPACK's dsytrd with
// dlatrd), and returns the first row left to the unblocked reduction.
//
// Within a panel the trailing matrix is not updated: step j updates row
// k = k0+j alone by the panel's earlier reflectors v_q and vectors w_q,
// forms v_j from it, and computes w_j from the product of the trailing
// matrix as it was at the panel's start, corrected by
// Σ_q v_q*(w_qᵀv_j) + w_q*(v_qᵀv_j). After the panel, the rank-2nb update
// A22 - V*Wᵀ - W*Vᵀ is done by matrix products, on the upper triangle in
// blocks of rows. V and W are kept as rows (nb x n, zero left of their
// support).
func (t *tridiag) reduceBlocked(minRest int) int {
	n, a := t.n, t.a
	const nb = tridiagBlock
	vt := make([]float64, nb*n)
	wt := make([]float64, nb*n)
	cv := make([]float64, nb)
	cw := make([]float64, nb)
	x := make([]float64, nb)
	k0 := 0
	for ; n-(k0+nb) > minRest; k0 += nb {
		for j := 0; j < nb; j++ {
			k := k0 + j
			row := a[k*n+k : k*n+n]
			if j > 0 {
				for q := 0; q < j; q++ {
					cv[q] = vt[q*n+k]
					cw[q] = wt[q*n+k]
				}
				kernels.Gemv(true, j, n-k, -1, wt[k:], n, cv[:j], 1, row)
				kernels.Gemv(true, j, n-k, -1, vt[k:], n, cw[:j], 1, row)
			}
			t.d[k] = row[0]
			tau := house.House(row[1:])
			beta := row[1]
			t.e[k] = beta
			t.tau[k] = tau
			vj := vt[j*n : (j+1)*n]
			clear(vj[:k+1])
			vj[k+1] = 1
			copy(vj[k+2:], row[2:])
			wj := wt[j*n : (j+1)*n]
			clear(wj)
			if tau == 0 {
				continue
			}
			// p = A22*v from the upper triangle of rows k+1 on.
			vv := vj[k+1:]
			p := wj[k+1:]
			for i := k + 1; i < n; i++ {
				r := a[i*n+i : i*n+n]
				p[i-k-1] += kernels.Dot(r, vj[i:])
				kernels.Axpy(vj[i], r[1:], wj[i+1:])
			}
			if j > 0 {
				m := n - k - 1
				kernels.Gemv(false, j, m, 1, wt[k+1:], n, vv, 0, x[:j])
				kernels.Gemv(true, j, m, -1, vt[k+1:], n, x[:j], 1, p)
				kernels.Gemv(false, j, m, 1, vt[k+1:], n, vv, 0, x[:j])
				kernels.Gemv(true, j, m, -1, wt[k+1:], n, x[:j], 1, p)
			}
			kernels.Scal(tau, p)
			alpha := -0.5 * tau * kernels.Dot(p, vv)
			kernels.Axpy(alpha, vv, p)
		}
		// A22 -= Vᵀ*W + Wᵀ*V on the upper triangle of rows r0 on, in
		// blocks of rows (the strict lower triangle is scratch).
		const rb = 64
		for r0 := k0 + nb; r0 < n; r0 += rb {
			mb := min(rb, n-r0)
			c := a[r0*n+r0:]
			kernels.Gemm(true, false, mb, n-r0, nb, -1, vt[r0:], n, wt[r0:], n, 1, c, n)
			kernels.Gemm(true, false, mb, n-r0, nb, -1, wt[r0:], n, vt[r0:], n, 1, c, n)
		}
	}
	return k0
}

// reflectors returns the reflectors in the form of package house, on
// the view of a that starts at column 1: reflector k's implicit 1 at
// column k+1 is the view's column k, its v_k[k+2:] the view's row k
// right of that. Its Q_full is H_{n-3}*...*H_0 = Qᵀ.
func (t *tridiag) reflectors() *house.Reflectors {
	n := t.n
	return &house.Reflectors{A: t.a[1:], Lda: n, M: n - 2, N: n - 1, Tau: t.tau[:n-2], Block: 64}
}

// applyRight overwrites the r x n row-major c (row stride ldc) with
// c*H_{n-3}*...*H_0 = c*Qᵀ (the reflectors are symmetric), which for
// c = Zᵀ gives (Q*Z)ᵀ, the reflectors applied in compact WY blocks (see
// package house). If ends is not nil, it is non-increasing and row i of
// c is zero from column ends[i] on; the rows that a block of reflectors
// leaves alone (zero from the block's first column on) are skipped.
func (t *tridiag) applyRight(r int, c []float64, ldc int, ends []int) {
	n := t.n
	if n <= 2 || r == 0 {
		return
	}
	var e []int // ends in the columns of the view c[1:]
	if ends != nil {
		e = make([]int, r)
		for i, v := range ends[:r] {
			e[i] = max(v-1, 0)
		}
	}
	t.reflectors().MulRightRows(true, r, c[1:], ldc, e)
}

// tqlMaxIter caps the QL iterations per eigenvalue (tql2 uses 30; two or
// three are usual).
const tqlMaxIter = 60

// eigTridiagonal is EigSym's EigTridiagonal method.
func eigTridiagonal(a *mat.Dense, o *EigOptions) (*Eigen, error) {
	n, _ := a.Dims()
	// The upper triangle, which is all the reduction reads.
	s := mat.Zeros(n, n)
	sd := s.RawData()
	for i := 0; i < n; i++ {
		row := a.RawRow(i)[i:]
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, ErrNotFinite
			}
		}
		copy(sd[i*n+i:(i+1)*n], row)
	}
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
	c := mat.Zeros(n, n)
	cd := c.RawData()
	at := make([]int, n) // at[p]: the row of c that holds row p of zt
	sorted := make([]int, n)
	for i, p := range rows {
		copy(cd[i*n:(i+1)*n], zd[p*n:(p+1)*n])
		at[p] = i
		sorted[i] = ends[p]
	}
	t.applyRight(n, cd, n, sorted)
	for i, p := range order {
		order[i] = at[p]
	}
	v := zt // reused: zt is no longer needed
	transposeRows(v.RawData(), cd, n, order)
	res.Vectors = v
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
