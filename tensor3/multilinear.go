package tensor3

import (
	"fmt"
	"sync"
	"sync/atomic"

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
// The cost is about d^3 k + d^2 k^2 + 2 d k^3 flops, almost all of it in
// matrix products (kernels.Gemm, in parallel), and no intermediate holds
// more than d^2 k values. With T1[a][b][r] = sum_c src[a][b][c] W[c][r],
// symmetric in a and b, only the rows b >= a of T1 are computed: for a
// batch of consecutive a, the d x (d-a) matrices X_a[c][b-a] =
// src[a][b][c] are unpacked side by side (the symmetric slice
// src[a][a:][a:] and the stored block of group a) and multiplied by W^T
// in one product. Each is then contracted with W[b][q] into
// K_a[q][r] = sum_{b>=a} W[b][q] T1[a][b][r] (the term b = a halved), and
// with H = sum_a W[a] (x) K_a the result is
// t[p][q][r] = H[p][q][r] + H[q][p][r]. The result does not depend on the
// number of goroutines. It panics if W does not have d rows.
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

// multilinearCols bounds the columns of one batch of slices: the batch
// of a's whose slices go through one matrix product. It depends on
// nothing but the shape, so neither does the result.
const multilinearCols = 2048

func multilinear(out, src *Sym, wd []float64, ldw int) {
	d, k := src.d, out.d
	kk := k * k
	ksBuf := getScratch(d * kk)
	defer putScratch(ksBuf)
	ks := *ksBuf // K_a^T, one k x k block per a
	workers := kernels.Workers()
	// A batch has at most multilinearCols columns, or one slice of d.
	maxCols := min(max(d, multilinearCols), d*(d+1)/2)
	xBuf, rtBuf := getScratch(d*maxCols), getScratch(k*maxCols)
	defer putScratch(xBuf)
	defer putScratch(rtBuf)
	x, rt := *xBuf, *rtBuf
	off := make([]int, d+1)
	for a0 := 0; a0 < d; {
		// The batch a0 <= a < a1: X (d x cols) holds, side by side for
		// each a, the d x (d-a) matrix X_a[c][b-a] = src[a][b][c].
		a1, cols := a0, 0
		for a1 < d && (a1 == a0 || cols+d-a1 <= multilinearCols) {
			off[a1] = cols
			cols += d - a1
			a1++
		}
		parallelFor(workers, a0, a1, func(a int) { unpackSlice(x, cols, off[a], src, a) })
		// rt = W^T X: rt[r][off_a + b-a] = T1[a][b][r].
		kernels.Gemm(true, false, k, cols, d, 1, wd, ldw, x, cols, 0, rt, cols)
		parallelFor(workers, a0, a1, func(a int) {
			o := off[a]
			for r := 0; r < k; r++ {
				rt[r*cols+o] *= 0.5 // the term b = a
			}
			// K_a^T[r][q] = sum_{b>=a} T1[a][b][r] W[b][q].
			kernels.Gemm(false, false, k, k, d-a, 1, rt[o:], cols, wd[a*ldw:], ldw, 0, ks[a*kk:(a+1)*kk], k)
		})
		a0 = a1
	}
	// h[p][r*k+q] = sum_a W[a][p] K_a[q][r].
	hBuf := getScratch(k * kk)
	defer putScratch(hBuf)
	h := *hBuf
	kernels.Gemm(true, false, k, kk, d, 1, wd, ldw, ks, kk, 0, h, kk)
	for q := 0; q < k; q++ {
		for p := 0; p <= q; p++ {
			row := out.row(p, q)
			for c := range row {
				r := q + c
				row[c] = h[p*kk+r*k+q] + h[q*kk+r*k+p]
			}
		}
	}
}

// unpackSlice writes X_a[c][b-a] = src[a][b][c] (all c, b >= a) into
// columns off..off+d-a of x (row stride ld): rows c < a are rows of the
// stored block of group a, rows c >= a the symmetric slice
// src[a][a:][a:], copied from row a of each group b >= a and mirrored.
func unpackSlice(x []float64, ld, off int, src *Sym, a int) {
	d := src.d
	m := d - a
	blk := src.block(a)
	for c := 0; c < a; c++ {
		copy(x[c*ld+off:c*ld+off+m], blk[c*m:(c+1)*m])
	}
	for b := 0; b < m; b++ {
		copy(x[(a+b)*ld+off+b:(a+b)*ld+off+m], src.row(a, a+b))
	}
	mirrorUpper(x[a*ld+off:], ld, m)
}

// mirrorUpper copies the strict upper triangle of the m x m matrix s
// (row stride ld) to the lower one, in square blocks that stay in cache.
func mirrorUpper(s []float64, ld, m int) {
	const blk = 32
	for i0 := 0; i0 < m; i0 += blk {
		i1 := min(i0+blk, m)
		for j0 := i0; j0 < m; j0 += blk {
			j1 := min(j0+blk, m)
			for i := i0; i < i1; i++ {
				row := s[i*ld : i*ld+j1]
				for j := max(j0, i+1); j < j1; j++ {
					s[j*ld+i] = row[j]
				}
			}
		}
	}
}

// scratch recycles the large temporary arrays of Multilinear, which
// would otherwise be allocated (and zeroed) anew on every call.
var scratch sync.Pool

// getScratch returns a slice of n values with unspecified contents.
func getScratch(n int) *[]float64 {
	if p, ok := scratch.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float64, n)
	return &s
}

func putScratch(p *[]float64) { scratch.Put(p) }

// parallelFor runs f(i) for lo <= i < hi on up to workers goroutines,
// handing out the indices one at a time.
func parallelFor(workers, lo, hi int, f func(i int)) {
	workers = min(workers, hi-lo)
	if workers <= 1 {
		for i := lo; i < hi; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	next.Store(int64(lo))
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= hi {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
