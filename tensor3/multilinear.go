package tensor3

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/moments-go/moments/internal/carry"
	"github.com/moments-go/moments/internal/sym3"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// Multilinear sets t = src(W, W, W), the symmetric k x k x k tensor
//
//	t[p][q][r] = sum_{a,b,c} src[a][b][c] * W[a][p] * W[b][q] * W[c][r]
//
// for W d x k (d the dimension of src). t must be empty or of dimension
// k; it may be src itself when k = d.
//
// The cost is about d^3 k / 3 + d^2 k^2 + 2 d k^3 flops, almost all of
// it in matrix products (kernels.Gemm) that read the packed storage
// directly, and no intermediate holds more than d k^2 values. Each
// stored value src[i][j][l], i <= j <= l, stands for its m distinct
// permutations (m = 6, 3 or 1), so with c = m/6
//
//	t = Sym(G),  G[p][q][r] = sum_{i<=j<=l} c T[i][j][l] W[i][p] W[j][q] W[l][r]
//
// where Sym(G)[p][q][r] sums G over the 6 orderings of (p, q, r). Group
// j of the storage is the (j+1) x (d-j) matrix T[i][j][l], so for each j
// (in parallel) one product gives P_j[i][r] = sum_l c T[i][j][l] W[l][r]
// and a second Q_j = W[:j+1]^T P_j; a last product sums
// G[p][q][r] = sum_j W[j][q] Q_j[p][r]. The weights c are 1 and 1/2,
// exact in floating point: the terms i = j = l (c = 1/6) are left out of
// G and added to t as the rank-one updates sum_j T[j][j][j] W_j (x) W_j
// (x) W_j. The result does not depend on the number of goroutines. It
// panics if W does not have d rows.
func (t *Sym) Multilinear(src *Sym, w *mat.Dense) {
	d := src.d
	rows, k := w.Dims()
	if rows != d && !(rows == 0 && k == 0) {
		panic(fmt.Sprintf("tensor3: Multilinear: W is %dx%d, the tensor has dimension %d", rows, k, d))
	}
	out := New(k, nil)
	if k > 0 && d > 0 {
		multilinear(out, src, w.RawData(), w.Stride())
	}
	t.reuseAs("Multilinear", k)
	copy(t.data, out.data)
}

func multilinear(out, src *Sym, wd []float64, ldw int) {
	d, k := src.d, out.d
	kk := k * k
	qsBuf := scratch.get(d * kk)
	defer scratch.put(qsBuf)
	qs := *qsBuf // Q_j^T, one k x k block per j
	parallelFor(kernels.Workers(), 0, d, func(j int) {
		m := d - j // columns l = j..d-1 of group j
		ld := j + 1
		buf := groupScratch.get(m*k + k*ld + k)
		defer groupScratch.put(buf)
		wj, pt, col := (*buf)[:m*k], (*buf)[m*k:m*k+k*ld], (*buf)[m*k+k*ld:]
		// wj = W[j:], its first row (l = j) halved.
		for c := 0; c < m; c++ {
			copy(wj[c*k:(c+1)*k], wd[(j+c)*ldw:(j+c)*ldw+k])
		}
		kernels.Scal(0.5, wj[:k])
		// P_j^T[r][i] = sum_l c T[i][j][l] W[l][r]: rows i < j straight from
		// the block, c = 1/2 at l = j; row i = j has c = 1/2 for l > j
		// and leaves out l = j (the Gemv).
		blk := src.block(j)
		if j > 0 {
			kernels.Gemm(true, true, k, j, m, 1, wj, k, blk, m, 0, pt, ld)
		}
		clear(col)
		if m > 1 {
			kernels.Gemv(true, m-1, k, 0.5, wd[(j+1)*ldw:], ldw, blk[j*m+1:(j+1)*m], 0, col)
		}
		for r := 0; r < k; r++ {
			pt[r*ld+j] = col[r]
		}
		// Q_j^T[r][p] = sum_{i<=j} P_j^T[r][i] W[i][p].
		kernels.Gemm(false, false, k, k, ld, 1, pt, ld, wd, ldw, 0, qs[j*kk:(j+1)*kk], k)
	})
	// h[q][r*k+p] = sum_j W[j][q] Q_j^T[r][p] = G[p][q][r].
	hBuf := scratch.get(k * kk)
	defer scratch.put(hBuf)
	h := *hBuf
	kernels.Gemm(true, false, k, kk, d, 1, wd, ldw, qs, kk, 0, h, kk)
	// The diagonal terms, then Sym(G) on top.
	diag := make([]float64, d)
	for j := range diag {
		diag[j] = src.row(j, j)[0]
	}
	sym3.Rows(k, d, 1, wd, ldw, diag, out.data)
	g := func(p, q, r int) float64 { return h[q*kk+r*k+p] }
	for q := 0; q < k; q++ {
		for p := 0; p <= q; p++ {
			row := out.row(p, q)
			for c := range row {
				r := q + c
				row[c] += g(p, q, r) + g(q, p, r) + g(p, r, q) + g(r, p, q) + g(q, r, p) + g(r, q, p)
			}
		}
	}
}

// scratchPool recycles temporary arrays of Multilinear, which would
// otherwise be allocated (and zeroed) anew on every call. Arrays of
// different sizes go to different pools, so that a small request does
// not take (and drop) a large array.
type scratchPool struct{ sync.Pool }

var (
	scratch      scratchPool // the d k^2 and k^3 arrays of a call
	groupScratch scratchPool // the per-group arrays, about d k values
)

// get returns a slice of n values with unspecified contents.
func (s *scratchPool) get(n int) *[]float64 {
	if p, ok := s.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]float64, n)
	return &b
}

func (s *scratchPool) put(p *[]float64) { s.Put(p) }

// parallelFor runs f(i) for lo <= i < hi on up to workers goroutines,
// handing out the indices one at a time. A panic in f stops the other
// goroutines before their next index and is carried back: once all have
// returned, parallelFor panics on the caller's goroutine with a
// *carry.Panic that holds the original value and the stack of the
// goroutine that panicked.
func parallelFor(workers, lo, hi int, f func(i int)) {
	workers = min(workers, hi-lo)
	if workers <= 1 {
		for i := lo; i < hi; i++ {
			f(i)
		}
		return
	}
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		caught carry.Catcher
	)
	next.Store(int64(lo))
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			defer caught.Catch(nil)
			for !caught.Failed() {
				i := int(next.Add(1)) - 1
				if i >= hi {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	caught.Repanic()
}
