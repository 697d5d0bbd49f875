package svd

import (
	"math"

	"github.com/moments-go/moments/kernels"
)

// bdQRMaxIter bounds the work of bdQR: at most bdQRMaxIter*n² rotations
// (counted per sweep as the length of the block swept), as LAPACK's
// dbdsqr does.
const bdQRMaxIter = 6

// bdQR computes the singular value decomposition of the n x n upper
// bidiagonal matrix B with diagonal d (n = len(d)) and superdiagonal
// e[0:n-1] by the implicit QR method of Golub and Kahan: sweeps that chase
// a bulge down the active block with Givens rotations from the right and
// from the left, shifted by the smaller singular value of the trailing
// 2x2 block (no shift when that would not matter: Demmel and Kahan's
// zero-shift sweep), and blocks split where e or d becomes negligible. A
// zero diagonal entry is chased out with rotations from one side, which
// splits the block. On return d holds the singular values, nonnegative
// and unsorted, and e is destroyed.
//
// ut, when not nil, holds n rows (row stride ldu, the first ucols entries
// used) to which the left rotations are applied, and vt likewise for the
// right ones: with ut = I and vt = I on input, row i of ut and of vt are
// the left and right singular vectors of d[i] (B = Σ d_i u_i v_iᵀ). The
// cost without vectors is O(n²).
//
// An element of e is negligible when it is below eps times the sum of
// its two diagonal neighbours, or below eps*||B||_max; an element of d
// below eps*||B||_max is set to zero. So the singular values have
// absolute errors of a small multiple of n*eps*||B||. It returns false if
// the sweeps exceed their budget.
func bdQR(d, e []float64, ut []float64, ldu, ucols int, vt []float64, ldv, vcols int) bool {
	n := len(d)
	if n == 0 {
		return true
	}
	e = e[:n-1]
	var bnorm float64
	for i := range d {
		bnorm = math.Max(bnorm, math.Abs(d[i]))
	}
	for i := range e {
		bnorm = math.Max(bnorm, math.Abs(e[i]))
	}
	urow := func(i int) []float64 { return ut[i*ldu : i*ldu+ucols] }
	vrow := func(i int) []float64 { return vt[i*ldv : i*ldv+vcols] }
	floor := eps * bnorm
	budget := bdQRMaxIter * n * n
	work := 0
	m := n - 1
	for m > 0 {
		// The active block [l, m]: e[l..m-1] not negligible.
		l := m
		for l > 0 {
			x := math.Abs(e[l-1])
			if x <= floor || x <= eps*(math.Abs(d[l-1])+math.Abs(d[l])) {
				e[l-1] = 0
				break
			}
			l--
		}
		if l == m {
			m--
			continue
		}
		// A negligible diagonal entry splits the block once its row (or,
		// at the bottom, its column) is rotated away.
		zero := -1
		for i := l; i <= m; i++ {
			if math.Abs(d[i]) <= floor {
				d[i] = 0
				zero = i
				break
			}
		}
		if zero >= 0 {
			if zero < m {
				bdChaseRow(d, e, zero, m, ut, urow)
			} else {
				bdChaseCol(d, e, l, m, vt, vrow)
			}
			continue
		}
		work += m - l
		if work > budget {
			return false
		}
		shift := bdMinSV2(d[m-1], e[m-1], d[m])
		if sll := math.Abs(d[l]); (shift/sll)*(shift/sll) < eps {
			shift = 0
		}
		bdSweep(d, e, l, m, shift, ut, urow, vt, vrow)
	}
	for i := range d {
		if d[i] < 0 {
			d[i] = -d[i]
			if vt != nil {
				kernels.Scal(-1, vrow(i))
			}
		}
	}
	return true
}

// rotShort sets x, y = c*x + s*y, c*y - s*x (as kernels.Rot), by a plain
// loop for the short rows of the divide and conquer's leaves, where the
// kernel's dispatch costs more than the arithmetic.
func rotShort(x, y []float64, c, s float64) {
	if len(x) > 32 {
		kernels.Rot(x, y, c, s)
		return
	}
	y = y[:len(x)]
	for i, xi := range x {
		yi := y[i]
		x[i] = c*xi + s*yi
		y[i] = c*yi - s*xi
	}
}

// givens returns c, s and r = hypot(f, g) with c*f + s*g = r and
// -s*f + c*g = 0. It takes the square root of f² + g² directly when
// neither square can overflow or underflow (math.Hypot, several times
// slower, otherwise).
func givens(f, g float64) (c, s, r float64) {
	if g == 0 {
		return 1, 0, f
	}
	af, ag := math.Abs(f), math.Abs(g)
	if big, small := max(af, ag), min(af, ag); big < 0x1p500 && small > 0x1p-500 {
		r = math.Sqrt(f*f + g*g)
	} else {
		r = math.Hypot(f, g)
	}
	if r < 0x1p-1000 {
		return f / r, g / r, r // 1/r could overflow
	}
	inv := 1 / r // one division for both
	return f * inv, g * inv, r
}

// bdSweep runs one implicit QR sweep with the given shift on the block
// [l, m] of (d, e).
func bdSweep(d, e []float64, l, m int, shift float64, ut []float64, urow func(int) []float64, vt []float64, vrow func(int) []float64) {
	// First column of BᵀB - shift²*I, scaled by 1/d[l].
	f := d[l]
	if shift != 0 {
		f = (math.Abs(d[l]) - shift) * (math.Copysign(1, d[l]) + shift/d[l])
	}
	g := e[l]
	for i := l; i < m; i++ {
		// From the right, on columns i and i+1.
		c, s, r := givens(f, g)
		if i > l {
			e[i-1] = r
		}
		f = c*d[i] + s*e[i]
		e[i] = c*e[i] - s*d[i]
		g = s * d[i+1]
		d[i+1] *= c
		if vt != nil {
			rotShort(vrow(i), vrow(i+1), c, s)
		}
		// From the left, on rows i and i+1.
		c, s, r = givens(f, g)
		d[i] = r
		f = c*e[i] + s*d[i+1]
		d[i+1] = c*d[i+1] - s*e[i]
		if i < m-1 {
			g = s * e[i+1]
			e[i+1] *= c
		}
		if ut != nil {
			rotShort(urow(i), urow(i+1), c, s)
		}
	}
	e[m-1] = f
}

// bdChaseRow zeroes row i of the block ending at m, whose diagonal entry
// d[i] is zero, with rotations from the left of rows i and j = i+1..m:
// each moves the row's one nonzero entry one column to the right, the
// last one removes it.
func bdChaseRow(d, e []float64, i, m int, ut []float64, urow func(int) []float64) {
	f := e[i]
	e[i] = 0
	for j := i + 1; j <= m && f != 0; j++ {
		c, s, r := givens(d[j], f)
		d[j] = r
		if j < m {
			f = -s * e[j]
			e[j] *= c
		}
		if ut != nil {
			rotShort(urow(j), urow(i), c, s)
		}
	}
}

// bdChaseCol zeroes column m of the block [l, m], whose diagonal entry
// d[m] is zero, with rotations from the right of columns j = m-1..l and
// m: each moves the column's one nonzero entry one row up, the last one
// removes it.
func bdChaseCol(d, e []float64, l, m int, vt []float64, vrow func(int) []float64) {
	f := e[m-1]
	e[m-1] = 0
	for j := m - 1; j >= l && f != 0; j-- {
		c, s, r := givens(d[j], f)
		d[j] = r
		if j > l {
			f = -s * e[j-1]
			e[j-1] *= c
		}
		if vt != nil {
			rotShort(vrow(j), vrow(m), c, s)
		}
	}
}

// bdMinSV2 returns the smaller singular value of the upper triangular
// matrix [f g; 0 h], as |f*h| / (the larger one).
func bdMinSV2(f, g, h float64) float64 {
	fa, ga, ha := math.Abs(f), math.Abs(g), math.Abs(h)
	lo, hi := math.Min(fa, ha), math.Max(fa, ha)
	if lo == 0 {
		return 0
	}
	big := (math.Hypot(fa+ha, ga) + math.Hypot(fa-ha, ga)) / 2
	return lo * (hi / big)
}
