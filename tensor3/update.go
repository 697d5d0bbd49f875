package tensor3

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/sym3"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// AddOuter adds a * v(x)v(x)v to t: T[i][j][l] += a*v[i]*v[j]*v[l]. It
// panics if len(v) is not the dimension of t.
func (t *Sym) AddOuter(a float64, v []float64) {
	checkVec("AddOuter", "v", v, t.d)
	if t.d == 0 {
		return
	}
	sym3.Rows(t.d, 1, a, v, t.d, nil, t.data)
}

// AddOuterRows adds a * sum_s w[s] * y_s(x)y_s(x)y_s to t, where y_s are
// the rows of y (n x d); a nil w means weights of 1. This is the hot loop
// of every third-moment estimate: a register-blocked kernel updates
// each stored value once per block of samples with products held in
// registers (a sixth of the work of the full outer products) on up to
// GOMAXPROCS goroutines, with a result that does not depend on their
// number. It panics if y does not have d columns or w has fewer than n
// values.
func (t *Sym) AddOuterRows(a float64, y *mat.Dense, w []float64) {
	n, d := y.Dims()
	if d != t.d && !(n == 0 && d == 0) {
		panic(fmt.Sprintf("tensor3: AddOuterRows: y is %dx%d, the tensor has dimension %d", n, d, t.d))
	}
	if w != nil && len(w) < n {
		panic(fmt.Sprintf("tensor3: AddOuterRows: %d weights for %d rows", len(w), n))
	}
	if n == 0 || t.d == 0 {
		return
	}
	sym3.Rows(t.d, n, a, y.RawData(), y.Stride(), w, t.data)
}

// AddSymOuter adds a times the symmetrisation of u(x)v(x)w to t: the
// average of the six tensors obtained by permuting the factors, so that
// AddSymOuter(a, v, v, v) is AddOuter(a, v). Entry-wise,
//
//	T[i][j][l] += a/6 * sum over the permutations (p, q, r) of (i, j, l) of u[p]*v[q]*w[r].
//
// It panics if a vector does not have the tensor's dimension.
func (t *Sym) AddSymOuter(a float64, u, v, w []float64) {
	d := t.d
	checkVec("AddSymOuter", "u", u, d)
	checkVec("AddSymOuter", "v", v, d)
	checkVec("AddSymOuter", "w", w, d)
	s := a / 6
	for j := 0; j < d; j++ {
		for i := 0; i <= j; i++ {
			row := t.row(i, j)
			kernels.Axpy(s*(u[i]*v[j]+u[j]*v[i]), w[j:], row)
			kernels.Axpy(s*(u[i]*w[j]+u[j]*w[i]), v[j:], row)
			kernels.Axpy(s*(v[i]*w[j]+v[j]*w[i]), u[j:], row)
		}
	}
}

// AddSymMatOuter adds a * (M(x)v + the two other placements of v) to t,
// for a symmetric d x d matrix M:
//
//	T[i][j][l] += a * (M[i][j]*v[l] + M[i][l]*v[j] + M[j][l]*v[i])
//
// which is 3a times the symmetrisation of M(x)v. It reads only the upper
// triangle of M (including the diagonal). It panics if M is not d x d
// or v does not have d elements.
func (t *Sym) AddSymMatOuter(a float64, m *mat.Dense, v []float64) {
	d := t.d
	if r, c := m.Dims(); r != d || c != d {
		panic(fmt.Sprintf("tensor3: AddSymMatOuter: M is %dx%d, the tensor has dimension %d", r, c, d))
	}
	checkVec("AddSymMatOuter", "v", v, d)
	if d == 0 {
		return
	}
	md, ld := m.RawData(), m.Stride()
	for j := 0; j < d; j++ {
		mj := md[j*ld+j : j*ld+d]
		for i := 0; i <= j; i++ {
			row := t.row(i, j)
			mi := md[i*ld+j : i*ld+d]
			kernels.Axpy(a*md[i*ld+j], v[j:], row)
			kernels.Axpy(a*v[j], mi, row)
			kernels.Axpy(a*v[i], mj, row)
		}
	}
}

// AddCountCorrection adds, for one document, the correction term of the
// whitened multi-view third moment of word counts (see the package
// documentation):
//
//	a * sum_t counts[t] * (w_i(x)w_i(x)y + w_i(x)y(x)w_i + y(x)w_i(x)w_i),   i = idx[t]
//
// where w_i is row i of the n x d matrix w (w_i = W^T e_i for a whitening
// W) and y is the document's whitened count vector. It forms
// M = sum_t counts[t] w_i w_i^T (O(nnz d^2)) and then runs
// AddSymMatOuter(a, M, y) (O(d^3/2)). For a whole corpus it is cheaper
// to sum u_i = sum_docs a_doc counts_{doc,i} y_doc per word first and
// call AddCrossRows once with the rows w_i and u_i. It panics if idx and
// counts differ in length, an index is out of range, or y does not have
// d elements.
func (t *Sym) AddCountCorrection(a float64, w *mat.Dense, idx []int, counts []float64, y []float64) {
	d := t.d
	n, c := w.Dims()
	if c != d && len(idx) > 0 {
		panic(fmt.Sprintf("tensor3: AddCountCorrection: w is %dx%d, the tensor has dimension %d", n, c, d))
	}
	if len(idx) != len(counts) {
		panic(fmt.Sprintf("tensor3: AddCountCorrection: %d indices and %d counts", len(idx), len(counts)))
	}
	checkVec("AddCountCorrection", "y", y, d)
	nnz := len(idx)
	if nnz == 0 || d == 0 {
		return
	}
	g := make([]float64, nnz*d)
	gs := make([]float64, nnz*d)
	for k, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("tensor3: AddCountCorrection: index %d out of range for %d rows", i, n))
		}
		row := w.RawRow(i)
		copy(g[k*d:(k+1)*d], row)
		for c, v := range row {
			gs[k*d+c] = counts[k] * v
		}
	}
	m := mat.Zeros(d, d)
	kernels.Gemm(true, false, d, d, nnz, 1, gs, d, g, d, 0, m.RawData(), d)
	t.AddSymMatOuter(a, m, y)
}

// crossChunk is the number of sample rows AddCrossRows expands at a time.
const crossChunk = 512

// AddCrossRows adds
//
//	a * sum_s w[s] * (x_s(x)x_s(x)u_s + x_s(x)u_s(x)x_s + u_s(x)x_s(x)x_s)
//
// to t, where x_s and u_s are the rows of x and u (n x d each) and a nil
// w means weights of 1. With x_s = w_i (a row of the whitening) and
// u_s = sum_docs a_doc counts_{doc,i} y_doc it adds the correction terms
// of a whole corpus at once (see AddCountCorrection).
//
// It runs the fast update of AddOuterRows on three rows per sample, by
// polarisation:
//
//	x(x)x(x)u + perms = ((x+bu)^(x)3 - (x-bu)^(x)3)/(2b) - b^2 u^(x)3
//
// with b = |x|/|u|, which balances the terms. The result is accurate to a
// few units of roundoff relative to |x_s|^2 |u_s| for each sample, not
// value by value. It panics if the shapes do not match.
func (t *Sym) AddCrossRows(a float64, x, u *mat.Dense, w []float64) {
	d := t.d
	n, c := x.Dims()
	if nu, cu := u.Dims(); nu != n || cu != c || (c != d && n > 0) {
		panic(fmt.Sprintf("tensor3: AddCrossRows: x is %dx%d and u is %dx%d, the tensor has dimension %d", n, c, nu, cu, d))
	}
	if w != nil && len(w) < n {
		panic(fmt.Sprintf("tensor3: AddCrossRows: %d weights for %d rows", len(w), n))
	}
	if n == 0 || d == 0 {
		return
	}
	rows := make([]float64, 3*min(n, crossChunk)*d)
	wts := make([]float64, 3*min(n, crossChunk))
	for s0 := 0; s0 < n; s0 += crossChunk {
		m := 0
		for s := s0; s < min(n, s0+crossChunk); s++ {
			xs, us := x.RawRow(s), u.RawRow(s)
			nx, nu := kernels.Nrm2(xs), kernels.Nrm2(us)
			ws := 1.0
			if w != nil {
				ws = w[s]
			}
			if nx == 0 || nu == 0 {
				continue
			}
			b := nx / nu
			if math.IsInf(b, 0) || b == 0 || math.IsNaN(b) {
				b = 1
			}
			p, q, r := rows[m*d:(m+1)*d], rows[(m+1)*d:(m+2)*d], rows[(m+2)*d:(m+3)*d]
			for k := range d {
				bu := b * us[k]
				p[k] = xs[k] + bu
				q[k] = xs[k] - bu
				r[k] = bu
			}
			wts[m], wts[m+1], wts[m+2] = ws/(2*b), -ws/(2*b), -ws/b
			m += 3
		}
		if m > 0 {
			sym3.Rows(d, m, a, rows, d, wts, t.data)
		}
	}
}
