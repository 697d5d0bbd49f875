package sym3

import (
	"context"
	"fmt"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/kernels"
)

// Packed storage of a symmetric d x d x d tensor T, as Rows and the
// tensor3 package use it: only the entries T[i][j][l] with i <= j <= l
// are stored, d(d+1)(d+2)/6 values, grouped by the middle index j. Group
// j is a dense (j+1) x (d-j) row-major block: row i (0 <= i <= j),
// column l-j (j <= l < d). So
//
//	index(i, j, l) = Base(d, j) + i*(d-j) + (l-j)   for i <= j <= l
//
// with Base(d, j) = sum over g < j of (g+1)(d-g). Every row of the
// block of group j has the same column range, which is what lets the
// update below run as register-blocked products.

// Len returns the number of values a packed symmetric d x d x d
// tensor holds, d(d+1)(d+2)/6. It panics if d is negative.
func Len(d int) int {
	if d < 0 {
		panic(fmt.Sprintf("sym3: Len: negative dimension %d", d))
	}
	return d * (d + 1) * (d + 2) / 6
}

// Base returns the index in the packed storage of the first value of
// group j, T[0][j][j]: sum over g < j of (g+1)(d-g). It panics unless
// 0 <= j <= d.
func Base(d, j int) int {
	if j < 0 || j > d {
		panic(fmt.Sprintf("sym3: Base: group %d out of range for dimension %d", j, d))
	}
	return d*j*(j+1)/2 - (j-1)*j*(j+1)/3
}

// Rows adds alpha * sum_s w[s] * y_s (x) y_s (x) y_s to the packed
// symmetric tensor t (see Len for the layout), where y_s, s < n, are
// the rows of the n x d matrix stored in y with row stride ldy. If w is
// nil every weight is 1; otherwise len(w) must be at least n.
//
// Each stored value of t is updated once per block of samples: for a
// block of S samples (S fixed by the implementation) and each group j,
// the block of t is updated by the product
//
//	t_j[i][l-j] += sum_{s in block} y_s[i] * (alpha*w[s]*y_s[j] * y_s[l])
//
// which does a sixth of the work of the full d^3 outer products. The
// work is split over goroutines by blocks of t, never by samples, so the
// result is bit-identical for any number of workers (see SetMaxWorkers).
// NaN and Inf propagate. Rows panics if a size is negative, the
// stride is too small, or a slice is too short.
func Rows(d, n int, alpha float64, y []float64, ldy int, w []float64, t []float64) {
	cur().Rows(d, n, alpha, y, ldy, w, t)
}

func (im *sym3Impl) Rows(d, n int, alpha float64, y []float64, ldy int, w []float64, t []float64) {
	if d < 0 || n < 0 {
		panic(fmt.Sprintf("sym3: Rows: negative size d=%d n=%d", d, n))
	}
	if ldy < max(d, 1) || n > 0 && d > 0 && len(y) < (n-1)*ldy+d {
		panic(fmt.Sprintf("sym3: Rows: Y is %dx%d with stride %d but has %d values", n, d, ldy, len(y)))
	}
	if w != nil && len(w) < n {
		panic(fmt.Sprintf("sym3: Rows: %d weights for %d rows", len(w), n))
	}
	if len(t) < Len(d) {
		panic(fmt.Sprintf("sym3: Rows: tensor of dimension %d needs %d values, have %d", d, Len(d), len(t)))
	}
	if d == 0 || n == 0 || alpha == 0 {
		return
	}
	// Each worker gets at least 2^21 flops, so that starting it costs
	// little next to its share.
	flops := float64(n) * float64(Len(d)) * 2
	workers := max(1, min(kernels.Workers(), int(flops/(1<<21))))
	sym3Run(im, sym3Block, workers, d, n, alpha, y, ldy, w, t)
}

// sym3Block is the number of samples one call of the micro-kernel sums
// before adding to the tensor. It is fixed (not tuned to the machine),
// so that the order of the sums, and with it the result, depends on the
// shape alone.
const sym3Block = 128

// sym3Impl is the update micro-kernel of one path and its tile: mr rows
// (values of i) by up to nv vectors of vl columns (values of l).
type sym3Impl struct {
	mr, vl, nv int
	// kernel computes, for r < mr and c < nc (mr <= the tile's rows, nc
	// <= nv*vl), the scalar loop of sym3KernelGeneric. It reads a[p*ld+r]
	// for every r below the tile's rows and b[p*ld+c] for c below
	// vl*ceil(nc/vl), whether stored or not.
	kernel func(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int)
}

// sym3Tile is one row tile of a group: rows i0 <= i < i0+mr of group j.
type sym3Tile struct {
	j, i0, mr int
}

// sym3Run is Rows on the micro-kernel im, with blocks of bs samples
// and at most workers goroutines. The tests call it directly with small
// blocks and several worker counts.
func sym3Run(im *sym3Impl, bs, workers int, d, n int, alpha float64, y []float64, ldy int, w []float64, t []float64) {
	mr, vl, chunk := im.mr, im.vl, im.nv*im.vl
	// The tiles and an estimate of their cost: vector FMAs per sample
	// plus a constant for each call of the micro-kernel.
	var tiles []sym3Tile
	var cost []float64
	total := 0.0
	for j := 0; j < d; j++ {
		cols := d - j
		calls := ceilDiv(cols, chunk)
		vecs := ceilDiv(cols, vl)
		for i0 := 0; i0 <= j; i0 += mr {
			rows := min(mr, j+1-i0)
			tiles = append(tiles, sym3Tile{j, i0, rows})
			// The assembly computes whole tiles, or half tiles when
			// few rows are left.
			c := float64(min(mr, roundUp(rows, 4))*vecs + 6*calls)
			cost = append(cost, c)
			total += c
		}
	}
	workers = max(1, min(workers, len(tiles)))
	// Every worker reads the samples straight from y. The micro-kernel
	// reads up to width values of a row; rows from which that would run
	// past the end of y are copied, with zero padding, into a scratch
	// block first.
	width := max(d+vl-1, roundUp(d, mr))
	safe := n // rows [0, safe) can be read in place
	if len(y) < (n-1)*ldy+width {
		safe = 0
		if len(y) >= width {
			safe = min(n, (len(y)-width)/ldy+1)
		}
	}
	// Static split of the tiles into contiguous ranges of equal cost.
	bounds := make([]int, workers+1)
	bounds[workers] = len(tiles)
	acc, q := 0.0, 1
	for i, c := range cost {
		for q < workers && acc >= total*float64(q)/float64(workers) {
			bounds[q] = i
			q++
		}
		acc += c
	}
	for ; q < workers; q++ {
		bounds[q] = len(tiles)
	}
	// par.For carries a panic of a worker back to this goroutine.
	_ = par.For(context.Background(), workers, workers, func(wk int) {
		mine := tiles[bounds[wk]:bounds[wk+1]]
		if len(mine) == 0 {
			return
		}
		wa := make([]float64, min(bs, n))
		var pad []float64
		for p0 := 0; p0 < n; p0 += bs {
			sc := min(bs, n-p0)
			src, ld := y[p0*ldy:], ldy
			if p0+sc > safe {
				ld = roundUp(width, 8)
				if pad == nil {
					pad = make([]float64, sc*ld)
				}
				for p := 0; p < sc; p++ {
					copy(pad[p*ld:p*ld+d], y[(p0+p)*ldy:(p0+p)*ldy+d])
				}
				src = pad
			}
			if w == nil {
				for p := range sc {
					wa[p] = alpha
				}
			} else {
				for p := range sc {
					wa[p] = alpha * w[p0+p]
				}
			}
			span := (sc - 1) * ld
			for _, tl := range mine {
				j, i0 := tl.j, tl.i0
				cols := d - j
				base := Base(d, j) + i0*cols
				a := src[i0 : span+i0+mr]
				zc := src[j : span+j+1]
				for c0 := 0; c0 < cols; c0 += chunk {
					nc := min(chunk, cols-c0)
					b := src[j+c0 : span+j+c0+roundUp(nc, vl)]
					dst := t[base+c0 : base+(tl.mr-1)*cols+c0+nc]
					im.kernel(sc, a, b, zc, ld, wa[:sc], dst, cols, tl.mr, nc)
				}
			}
		}
	})
}

// Generic micro-kernel: 2 x 4 register blocks (what the Go compiler keeps
// in registers, as for the generic GEMM), over a tile of up to 4 rows
// and 8 columns.
const (
	sym3GenericMR = 4
	sym3GenericNC = 8
)

var sym3Generic = sym3Impl{mr: sym3GenericMR, vl: 1, nv: sym3GenericNC, kernel: sym3KernelGeneric}

// sym3KernelGeneric computes, for r < mr and c < nc,
//
//	var t float64
//	for p := 0; p < k; p++ { t += a[p*ld+r] * ((wa[p] * zc[p*ld]) * b[p*ld+c]) }
//	dst[r*ldc+c] += t
//
// summing in order of p, one product at a time.
func sym3KernelGeneric(k int, a, b, zc []float64, ld int, wa []float64, dst []float64, ldc, mr, nc int) {
	if k == 0 {
		return
	}
	_ = zc[(k-1)*ld]
	wa = wa[:k]
	r := 0
	for ; r+2 <= mr; r += 2 {
		c := 0
		for ; c+4 <= nc; c += 4 {
			var t00, t01, t02, t03, t10, t11, t12, t13 float64
			for p, wp := range wa {
				o := p * ld
				z := wp * zc[o]
				bb := b[o+c : o+c+4]
				b0, b1, b2, b3 := z*bb[0], z*bb[1], z*bb[2], z*bb[3]
				aa := a[o+r : o+r+2]
				a0, a1 := aa[0], aa[1]
				t00 += a0 * b0
				t01 += a0 * b1
				t02 += a0 * b2
				t03 += a0 * b3
				t10 += a1 * b0
				t11 += a1 * b1
				t12 += a1 * b2
				t13 += a1 * b3
			}
			d0 := dst[r*ldc+c : r*ldc+c+4]
			d0[0] += t00
			d0[1] += t01
			d0[2] += t02
			d0[3] += t03
			d1 := dst[(r+1)*ldc+c : (r+1)*ldc+c+4]
			d1[0] += t10
			d1[1] += t11
			d1[2] += t12
			d1[3] += t13
		}
		for ; c < nc; c++ {
			var t0, t1 float64
			for p, wp := range wa {
				o := p * ld
				bc := (wp * zc[o]) * b[o+c]
				t0 += a[o+r] * bc
				t1 += a[o+r+1] * bc
			}
			dst[r*ldc+c] += t0
			dst[(r+1)*ldc+c] += t1
		}
	}
	for ; r < mr; r++ {
		for c := 0; c < nc; c++ {
			var t0 float64
			for p, wp := range wa {
				o := p * ld
				t0 += a[o+r] * ((wp * zc[o]) * b[o+c])
			}
			dst[r*ldc+c] += t0
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }

var table simd.Table[sym3Impl]

// cur returns the selected implementation. The package-level Rows runs
// on it; the method Rows of sym3Impl runs on one implementation, which is
// how the tests run every one.
func cur() *sym3Impl { return table.Get() }

func init() {
	table.Register(simd.Generic, &sym3Generic)
	registerArch()
}
