package svd

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
	"github.com/moments-go/moments/kernels"
)

// bdLeaf is the largest bidiagonal block that divide and conquer solves
// by the QR method (bdQR).
const bdLeaf = 25

// The two halves of a block of at least bdParMin rows are solved on two
// goroutines (smaller ones are not worth a goroutine), down to the
// leaves: the merges below the top one then run two at a time, each
// with its products on all the workers. At 500 x 500 this raised the
// divide and conquer's speed-up on two cores over one from 1.1x to about
// 1.6x (the top two levels had run their halves one after the other;
// timed on Go benchmarks of bidiagSVD). The
// secular equations of merges of at least bdParMin poles are solved in
// parallel.
const bdParMin = 48

// bidiagSVD computes the singular value decomposition of the n x n upper
// bidiagonal matrix B with diagonal d[0:n] and superdiagonal e[0:n-1]
// (e is destroyed). On return d holds the singular values in descending
// order, and row i of ut and of vt (n x n, row stride n, overwritten) the
// left and right singular vectors u_i and v_i of d[i], so that
// B = Σ d[i] u_i v_iᵀ. When ut and vt are both nil only the values are
// computed, in O(n²), by dqds (bdValues); when either is wanted both
// are computed (the other in scratch) by divide and conquer, as LAPACK's
// dbdsdc: B is split at a middle row, the two halves are solved
// recursively (blocks of at most bdLeaf rows by bdQR), and the halves are
// merged through the secular equation 1 + Σ z_j²/(d_j² - σ²) = 0 with
// deflation, and the singular vectors of Gu and Eisenstat, which are
// orthogonal to working precision however close the values
// (bdcWork.merge). It returns false if B is not finite or some QR block
// does not converge.
//
// Besides ut and vt (allocated here, n² floats, for a side passed as
// nil), the vectors take at most 4n² floats of scratch, held by the top
// merge (two K x K matrices, the kept vectors and their products); the
// values alone take 6n. With two or more workers (kernels.Workers) the
// halves of blocks of at least bdParMin rows run on two goroutines,
// the secular equations of large merges in parallel, and the large
// products use GEMM's workers; the top merge, which runs alone, has its
// loops and products on a par.Team (mergeLoops). The result has the
// same bits for any number of workers.
func bidiagSVD(d, e []float64, ut, vt []float64, n int) bool {
	if n == 0 {
		return true
	}
	d = d[:n]
	e = e[:n-1]
	bnorm := bdMaxAbs(d, e)
	if math.IsNaN(bnorm) || math.IsInf(bnorm, 0) {
		return false
	}
	vectors := ut != nil || vt != nil
	if vectors {
		if ut == nil {
			ut = make([]float64, n*n)
		}
		if vt == nil {
			vt = make([]float64, n*n)
		}
	}
	if bnorm == 0 {
		if vectors {
			clear(ut[:n*n])
			clear(vt[:n*n])
			for i := 0; i < n; i++ {
				ut[i*n+i] = 1
				vt[i*n+i] = 1
			}
		}
		return true
	}
	// Scale by a power of two to ||B||_max in [1/2, 1): exact, and no
	// overflow in the squares of the secular equation.
	ex := scaleToHalf(d, e, bnorm)
	if !vectors {
		if !bdValues(d, e) {
			return false
		}
		slices.SortFunc(d, func(a, b float64) int { return cmp.Compare(b, a) })
	} else if !bdcVectors(d, e, ut, vt, n, nil) {
		return false
	}
	for i := range d {
		d[i] = math.Ldexp(d[i], ex)
	}
	return true
}

// bdcVectors is the divide and conquer of bidiagSVD with both sides
// wanted, without its scaling: for a B whose largest entry is at most
// 2^500 (no overflow in the squares of a block's leaves and merges, which
// scale themselves by their own largest entries), with the same bits as
// bidiagSVD, whose scaling by a power of two only carries through, but
// for entries that underflow. ut and vt are cleared here; buf is nil or
// 4n² floats of scratch.
func bdcVectors(d, e []float64, ut, vt []float64, n int, buf []float64) bool {
	bdRows(n, 2*n, func(lo, hi int) {
		clear(ut[lo*n : hi*n])
		clear(vt[lo*n : hi*n])
	})
	w := bdcWork{n: n, d: d, e: e, ut: ut, vt: vt, buf: buf, aloneN: n}
	if !w.solve(0, n, 0) {
		return false
	}
	bdcSort(d, ut, vt, n)
	return true
}

// bdcSort sorts the singular values d in descending order, and the rows
// of ut and vt (n x n) with them.
func bdcSort(d, ut, vt []float64, n int) {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(p, q int) int { return cmp.Compare(d[q], d[p]) })
	sorted := make([]float64, n)
	for i, p := range perm {
		sorted[i] = d[p]
	}
	copy(d, sorted)
	// The two sides on two goroutines (in place, each pass over its
	// matrix once: a copy and a gather on all the workers, side after
	// side, took 0.41 ms at n = 500 on two, against 0.3 on one).
	_ = par.For(context.Background(), 2, kernels.Workers(), func(i int) {
		permuteRowsSquare([2][]float64{ut, vt}[i], n, perm)
	})
}

// bdcSplit is bdcVectors in parts, so that the first half of B can be
// solved while its later rows are still being made (bidiagPath's
// reduceSolve): first needs d and e below m1 alone, second the rest, and
// finish merges them. The parts compute what bdcVectors computes, bit
// for bit, in any order of first and second, at once or not.
type bdcSplit struct {
	w, w1  *bdcWork
	m1, m2 int
	full   []float64 // w's scratch, restored for the merge
}

// newBDCSplit prepares the parts for an n x n B, n > bdLeaf (so that
// bdcVectors would split it too), with buf 4n² floats of scratch or nil.
func newBDCSplit(d, e []float64, ut, vt []float64, n int, buf []float64) *bdcSplit {
	if n <= bdLeaf {
		panic("svd: internal error: newBDCSplit of a leaf")
	}
	s := &bdcSplit{w: &bdcWork{n: n, d: d, e: e, ut: ut, vt: vt, buf: buf}}
	s.m1, s.m2 = bdHalves(n)
	s.w1, s.full = s.w.splitScratch(s.m1, s.m2, 0)
	s.w1.serial = true
	return s
}

// first clears the rows of ut and vt of the first half (and of the
// middle row) and solves the first half, rows 0..m1-1 of B with column
// m1, on the calling goroutine alone. It reads d and e below m1 alone,
// and writes no others.
func (s *bdcSplit) first() bool {
	n := s.w.n
	clear(s.w.ut[:(s.m1+1)*n])
	clear(s.w.vt[:(s.m1+1)*n])
	return s.w1.solve(0, s.m1, 1)
}

// second clears the other rows of ut and vt and solves the second half,
// rows m1+1 on. Its merge runs its loops on a team, as the top merge
// does; if first still runs then (bidiagPath.reduceSolve does not wait
// for it, which at 500 x 500 ends about when the reduction does), the two
// share the workers, which costs time, not bits.
func (s *bdcSplit) second() bool {
	n := s.w.n
	clear(s.w.ut[(s.m1+1)*n : n*n])
	clear(s.w.vt[(s.m1+1)*n : n*n])
	s.w.aloneLo, s.w.aloneN = s.m1+1, s.m2
	return s.w.solve(s.m1+1, s.m2, 0)
}

// finish merges the solved halves and sorts the result, as bdcVectors
// ends; both halves must have succeeded.
func (s *bdcSplit) finish() {
	s.w.buf = s.full
	s.w.aloneLo, s.w.aloneN = 0, s.w.n
	s.w.merge(0, s.m1, s.m2, 0)
	bdcSort(s.w.d, s.w.ut, s.w.vt, s.w.n)
}

// bdValues computes the singular values of the bidiagonal (d, e[0:n-1]),
// scaled to ||B||_max < 1, into d (unsorted) by dqds (dqdsValues), or by
// the QR method (bdQR) when some d_i is zero or its square would
// underflow, or when dqds does not converge.
func bdValues(d, e []float64) bool {
	for _, x := range d {
		if math.Abs(x) < 0x1p-500 {
			return bdQR(d, e, nil, 0, 0, nil, 0, 0)
		}
	}
	d0, e0 := slices.Clone(d), slices.Clone(e)
	if dqdsValues(d, e) {
		return true
	}
	copy(d, d0)
	copy(e, e0)
	return bdQR(d, e, nil, 0, 0, nil, 0, 0)
}

// permuteRowsSquare reorders the n rows of the n x n matrix x (row stride
// n) so that row i of the result is row perm[i] of the input, following
// the cycles of perm with one row of scratch.
func permuteRowsSquare(x []float64, n int, perm []int) {
	done := make([]bool, n)
	tmp := make([]float64, n)
	for i := 0; i < n; i++ {
		if done[i] || perm[i] == i {
			done[i] = true
			continue
		}
		copy(tmp, x[i*n:(i+1)*n])
		j := i
		for {
			done[j] = true
			p := perm[j]
			if p == i {
				copy(x[j*n:(j+1)*n], tmp)
				break
			}
			copy(x[j*n:(j+1)*n], x[p*n:(p+1)*n])
			j = p
		}
	}
}

// bdRows runs f on chunks [lo, hi) of rows 0..rows-1 of width floats, on
// all the workers (kernels.Workers) when there are at least 2^16 floats
// in all: for copies and clears, whose results do not depend on the
// split, and which would otherwise be the serial part of large merges.
func bdRows(rows, width int, f func(lo, hi int)) { bdRowsOn(kernels.Workers(), rows, width, f) }

// bdRowsOn is bdRows on at most workers goroutines.
func bdRowsOn(workers, rows, width int, f func(lo, hi int)) {
	if workers < 2 || rows < 2 || rows*width < 1<<16 {
		f(0, rows)
		return
	}
	chunks := min(rows, 4*workers)
	_ = par.For(context.Background(), chunks, workers, func(c int) {
		f(c*rows/chunks, (c+1)*rows/chunks)
	})
}

// bdcWork is the state of one bidiagonal divide and conquer: B (d, e),
// the vectors (ut, vt: n x n, row stride n, rows the singular vectors)
// and the merges' scratch, reused from merge to merge (each goroutine's
// a disjoint part of the block's it works under; see splitScratch).
type bdcWork struct {
	n      int
	d, e   []float64
	ut, vt []float64
	buf    []float64
	// serial keeps w's loops and products on the calling goroutine,
	// whatever kernels.Workers says: for a half solved while other work
	// takes the other workers (bdcSplit.first).
	serial bool
	// aloneLo and aloneN name the block (its first row and its rows;
	// aloneN 0 for none) whose merge runs with nothing else running, so
	// that its loops take a team: the whole B (bdcVectors,
	// bdcSplit.finish), or the second half (bdcSplit.second).
	aloneLo, aloneN int
}

// workers is the number of goroutines w's loops and products may use.
func (w *bdcWork) workers() int {
	if w.serial {
		return 1
	}
	return kernels.Workers()
}

// scratch returns k floats of scratch, not cleared.
func (w *bdcWork) scratch(k int) []float64 {
	if cap(w.buf) < k {
		w.buf = make([]float64, k)
	}
	return w.buf[:k]
}

// solve computes the singular value decomposition of the m x (m+sqre)
// block of B whose first row and column are lo (sqre is 0 or 1: the
// block has one more column than rows when sqre is 1, its last column
// holding e[lo+m-1]). On return d[lo:lo+m] holds its singular values
// (nonnegative, unsorted), rows lo..lo+m-1 of ut and of vt their left and
// right singular vectors (supported in columns lo..lo+m-1 of ut and
// lo..lo+m-1+sqre of vt), and when sqre is 1 row lo+m of vt the right
// null vector of the block. ut and vt are zero in the block on input.
func (w *bdcWork) solve(lo, m, sqre int) bool {
	if m <= bdLeaf {
		return w.leaf(lo, m, sqre)
	}
	// Rows lo..lo+m1-1 (with one more column), the middle row lo+m1 and
	// rows lo+m1+1..lo+m-1 (with sqre more columns).
	m1, m2 := bdHalves(m)
	var ok [2]bool
	if m >= bdParMin && w.workers() > 1 {
		w1, buf := w.splitScratch(m1, m2, sqre)
		_ = par.For(context.Background(), 2, 2, func(i int) {
			if i == 0 {
				ok[0] = w1.solve(lo, m1, 1)
			} else {
				ok[1] = w.solve(lo+m1+1, m2, sqre)
			}
		})
		w.buf = buf
	} else {
		half := func(i int) {
			if i == 0 {
				ok[0] = w.solve(lo, m1, 1)
			} else {
				ok[1] = w.solve(lo+m1+1, m2, sqre)
			}
		}
		half(0)
		half(1)
	}
	if !ok[0] || !ok[1] {
		return false
	}
	w.merge(lo, m1, m2, sqre)
	return true
}

// bdHalves returns the rows of the halves of a block of m rows: the
// first m1 rows (with one more column), the middle row m1, and the m2
// rows after it.
func bdHalves(m int) (m1, m2 int) {
	m1 = (m - 1) / 2
	return m1, m - 1 - m1
}

// splitScratch prepares the halves of a block (m1 + 1 + m2 rows, sqre) to
// be solved at once: it returns a bdcWork for the first half whose
// scratch is the part of w's that the second half's subtree leaves alone
// (a block's subtree takes at most bdScratch floats), so that the whole
// tree takes no more than its top merge, narrows w's scratch to the
// rest, and returns the whole, to be restored into w.buf for the merge.
func (w *bdcWork) splitScratch(m1, m2, sqre int) (w1 *bdcWork, buf []float64) {
	n2 := bdScratch(m2, sqre)
	buf = w.scratch(max(n2+bdScratch(m1, 1), bdScratch(m1+1+m2, sqre)))
	w1 = &bdcWork{n: w.n, d: w.d, e: w.e, ut: w.ut, vt: w.vt, buf: buf[n2:len(buf):len(buf)]}
	w.buf = buf[:n2:n2]
	return w1, buf
}

// bdScratch is the most scratch (floats) that solve takes for a block of
// m rows (and m+sqre columns) and its whole subtree: what its merge takes
// at most (2K² + 2K(m+sqre), K <= m the kept poles), which is more than
// its halves' together.
func bdScratch(m, sqre int) int { return 2*m*m + 2*m*(m+sqre) }

// leaf solves a block by bdQR. With sqre = 1 the extra column is first
// rotated into the null space: rotations from the right of columns
// m-1..0 with column m move its one nonzero entry up and out, which
// leaves an m x m bidiagonal block and a zero column.
func (w *bdcWork) leaf(lo, m, sqre int) bool {
	n := w.n
	for i := lo; i < lo+m; i++ {
		w.ut[i*n+i] = 1
	}
	for i := lo; i < lo+m+sqre; i++ {
		w.vt[i*n+i] = 1
	}
	d := w.d[lo : lo+m]
	e := make([]float64, m)
	copy(e, w.e[lo:lo+m-1+sqre])
	// The QR method's shifts and thresholds are made for a block of
	// about the scale of the whole matrix (bidiagSVD scales that to 1):
	// a leaf of tiny entries (a block of 2^-1000 in a matrix of norm 1)
	// ran out of sweeps in the subnormal range. The leaf is scaled by a
	// power of two to a largest entry in [1/2, 1) and its values back
	// (exact, but for values that underflow on the way back); its
	// vectors do not change with the scale.
	ex := scaleToHalf(d, e, bdMaxAbs(d, e))
	ut := w.ut[lo*n+lo:]
	vt := w.vt[lo*n+lo:]
	cols := m + sqre
	vrow := func(i int) []float64 { return vt[i*n : i*n+cols] }
	if sqre == 1 {
		f := e[m-1]
		e[m-1] = 0
		for j := m - 1; j >= 0 && f != 0; j-- {
			c, s, r := givens(d[j], f)
			d[j] = r
			if j > 0 {
				f = -s * e[j-1]
				e[j-1] *= c
			}
			rotShort(vrow(j), vrow(m), c, s)
		}
	}
	ok := bdQR(d, e, ut, n, m, vt, n, cols)
	for i := range d {
		d[i] = math.Ldexp(d[i], ex)
	}
	return ok
}

// bdMaxAbs returns the largest magnitude of the entries of d and e, NaN
// if one is NaN.
func bdMaxAbs(d, e []float64) float64 {
	var m float64
	for _, x := range d {
		m = math.Max(m, math.Abs(x))
	}
	for _, x := range e {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// scaleToHalf scales d and e by 2^-ex, with ex the exponent that brings
// bmax, their largest magnitude, into [1/2, 1), and returns ex (0 when
// bmax is 0): exact, but for entries that underflow.
func scaleToHalf(d, e []float64, bmax float64) int {
	if bmax == 0 {
		return 0
	}
	_, ex := math.Frexp(bmax)
	for i := range d {
		d[i] = math.Ldexp(d[i], -ex)
	}
	for i := range e {
		e[i] = math.Ldexp(e[i], -ex)
	}
	return ex
}

// Column types of the merge: a vector supported in the first half, in
// the second, in both (after a deflating rotation), and the middle row's
// left vector.
const (
	bdFirst  = 1
	bdSecond = 2
	bdBoth   = 3
	bdMiddle = 4
)

// merge combines the solved halves of the block of solve(lo, m1+1+m2,
// sqre). With B1 = U1 [S1 0] V1ᵀ (m1 x (m1+1)) and B2 = U2 [S2 0] V2ᵀ
// (m2 x (m2+sqre)), the block is diag(U1, 1, U2) M diag(V1, V2)ᵀ where M
// is zero but for S1 and S2 on its diagonal and the middle row
// z = (alpha*(last row of V1), beta*(first row of V2)), alpha and beta the
// middle row's entries of B. In the coordinates of the middle row (the
// pole 0, the null vector of V1) and of the singular vectors of the
// halves (the poles S1, S2), MᵀM = diag(0, S1², S2²) + z zᵀ, whose
// eigenvalues σ² solve the secular equation; the singular vectors of M
// are v ∝ (z_j/(d_j² - σ²))_j and u ∝ (-1, (d_j z_j/(d_j² - σ²))_j),
// here with Gu and Eisenstat's ẑ recomputed from the roots in place of z.
//
// Before that, deflation removes the poles whose z_j is negligible (their
// vectors stay) and, of two poles closer than the tolerance, one by a
// rotation of both vectors that zeroes its z_j; with sqre = 1 the null
// vector of V2 is rotated into the one of V1 and becomes the block's
// null vector (row lo+m of vt). The new vectors are the products of the
// small singular vector matrices of M with the old ones, done by GEMM
// on the parts that are not zero (vectors ordered by type).
func (w *bdcWork) merge(lo, m1, m2, sqre int) {
	n := w.n
	N := m1 + 1 + m2 // rows of the block
	NV := N + sqre   // columns
	mid := m1
	alpha, beta := w.d[lo+mid], w.e[lo+mid]
	urow := func(p int) []float64 { return w.ut[(lo+p)*n+lo : (lo+p)*n+lo+N] }
	vrow := func(p int) []float64 { return w.vt[(lo+p)*n+lo : (lo+p)*n+lo+NV] }
	urow(mid)[mid] = 1
	dd := make([]float64, N)
	z := make([]float64, N)
	orgnrm := math.Max(math.Abs(alpha), math.Abs(beta))
	for p := 0; p < N; p++ {
		switch {
		case p < mid:
			dd[p] = w.d[lo+p]
			z[p] = alpha * vrow(p)[mid]
		case p == mid:
			z[p] = alpha * vrow(p)[mid]
		default:
			dd[p] = w.d[lo+p]
			z[p] = beta * vrow(p)[mid+1]
		}
		orgnrm = math.Max(orgnrm, dd[p])
	}
	var zx float64
	if sqre == 1 {
		zx = beta * vrow(N)[mid+1]
	}
	w.d[lo+mid] = 0
	if orgnrm == 0 {
		return
	}
	for p := range dd {
		dd[p] /= orgnrm
		z[p] /= orgnrm
	}
	zx /= orgnrm
	maskU := make([]uint8, N)
	maskV := make([]uint8, N)
	for p := range maskU {
		switch {
		case p < mid:
			maskU[p], maskV[p] = bdFirst, bdFirst
		case p == mid:
			maskU[p], maskV[p] = bdMiddle, bdFirst
		default:
			maskU[p], maskV[p] = bdSecond, bdSecond
		}
	}
	if zx != 0 {
		c, s, r := givens(z[mid], zx)
		kernels.Rot(vrow(mid), vrow(N), c, s)
		z[mid] = r
		maskV[mid] = bdBoth
	}
	var dmax float64
	for _, x := range dd {
		dmax = math.Max(dmax, x)
	}
	tol := 8 * eps * math.Max(dmax, math.Max(math.Abs(alpha), math.Abs(beta))/orgnrm)
	// Deflation, in ascending order of the poles other than the middle.
	perm := make([]int, 0, N-1)
	for p := 0; p < N; p++ {
		if p != mid {
			perm = append(perm, p)
		}
	}
	slices.SortFunc(perm, func(p, q int) int { return cmp.Compare(dd[p], dd[q]) })
	keep := make([]int, 1, N) // kept poles, the middle first
	keep[0] = mid
	defl := make([]int, 0, N)
	pj := -1
	for _, j := range perm {
		if math.Abs(z[j]) <= tol {
			defl = append(defl, j)
			continue
		}
		if pj < 0 {
			pj = j
			continue
		}
		// A rotation of the pair (j, pj) from both sides that zeroes
		// z[pj] leaves the off-diagonal entry c*s*(dd[j] - dd[pj]).
		t := dd[j] - dd[pj]
		c, s, r := givens(z[j], z[pj])
		if math.Abs(t) <= tol || math.Abs(t*c*s) <= tol {
			z[j], z[pj] = r, 0
			kernels.Rot(urow(j), urow(pj), c, s)
			kernels.Rot(vrow(j), vrow(pj), c, s)
			mu, mv := maskU[j]|maskU[pj], maskV[j]|maskV[pj]
			maskU[j], maskU[pj] = mu, mu
			maskV[j], maskV[pj] = mv, mv
			c2, s2 := c*c, s*s
			dj := dd[j]*c2 + dd[pj]*s2
			dd[pj] = dd[j]*s2 + dd[pj]*c2
			dd[j] = dj
			defl = append(defl, pj)
			pj = j
			continue
		}
		keep = append(keep, pj)
		pj = j
	}
	if pj >= 0 {
		keep = append(keep, pj)
	}
	// Keep the middle pole apart from zero's neighbours: its z at least
	// tol, the smallest other pole at least tol/2 (as LAPACK's dlasd2).
	if math.Abs(z[mid]) <= tol {
		z[mid] = math.Copysign(tol, z[mid])
	}
	K := len(keep)
	if K > 1 && dd[keep[1]] <= tol/2 {
		dd[keep[1]] = tol / 2
	}
	// The secular equation on the kept poles.
	kd := make([]float64, K)
	kz := make([]float64, K)
	for k, p := range keep {
		kd[k], kz[k] = dd[p], z[p]
	}
	wcol := max(N, NV)
	buf := w.scratch(2*K*K + 2*K*wcol)
	uS, vS := buf[:K*K], buf[K*K:2*K*K]
	// A merge on all the workers with nothing else running (the top
	// one, see aloneLo) runs its loops on a team (see mergeLoops).
	var team *par.Team
	if lo == w.aloneLo && N == w.aloneN && K >= bdParMin && w.workers() > 1 {
		team = par.NewTeam(w.workers())
		defer team.Close()
	}
	sig, posU, posV, k1u, k3u, k1v, k3v := bdSecular(team, w.workers(), kd, kz, keep, maskU, maskV, uS, vS)
	// The kept rows, in type order, are the right factors of the
	// products (of each, only the part the products read is copied); the
	// new vector i goes to the row of keep[i], and the deflated rows stay
	// where they are.
	sel := buf[2*K*K : 2*K*K+K*wcol]
	out := buf[2*K*K+K*wcol:]
	rows, products := mergeLoops(team, w.workers(), K)
	keepU := make([]int, K)
	keepV := make([]int, K)
	for k, p := range keep {
		keepU[posU[k]] = p
		keepV[posV[k]] = p
	}
	// Left vectors.
	rows(K, N, func(q0, q1 int) {
		for q := q0; q < q1; q++ {
			p := keepU[q]
			src, dst := urow(p), sel[q*N:(q+1)*N]
			switch maskU[p] {
			case bdFirst:
				copy(dst[:mid], src[:mid])
			case bdSecond:
				copy(dst[mid+1:], src[mid+1:])
			case bdBoth:
				copy(dst, src)
			}
		}
	})
	products(N, func(gemm gemmFunc, i0, i1 int) {
		bdProduct(gemm, i1-i0, m1, k1u+k3u, uS[i0*K:], K, sel, N, out[i0*N:], N)
		bdProduct(gemm, i1-i0, m2, K-1-k1u, uS[i0*K+k1u:], K, from(sel, k1u*N+mid+1), N, out[i0*N+mid+1:], N)
	}, func(i0, i1 int) {
		for i := i0; i < i1; i++ {
			row := out[i*N : (i+1)*N]
			row[mid] = uS[i*K+K-1]
			copy(urow(keep[i]), row)
		}
	})
	// Right vectors.
	rows(K, NV, func(q0, q1 int) {
		for q := q0; q < q1; q++ {
			p := keepV[q]
			src, dst := vrow(p), sel[q*NV:(q+1)*NV]
			switch maskV[p] {
			case bdFirst:
				copy(dst[:mid+1], src[:mid+1])
			case bdSecond:
				copy(dst[mid+1:], src[mid+1:])
			case bdBoth:
				copy(dst, src)
			}
		}
	})
	products(NV, func(gemm gemmFunc, i0, i1 int) {
		bdProduct(gemm, i1-i0, m1+1, k1v+k3v, vS[i0*K:], K, sel, NV, out[i0*NV:], NV)
		bdProduct(gemm, i1-i0, NV-m1-1, K-k1v, vS[i0*K+k1v:], K, from(sel, k1v*NV+mid+1), NV, out[i0*NV+mid+1:], NV)
	}, func(i0, i1 int) {
		for i := i0; i < i1; i++ {
			copy(vrow(keep[i]), out[i*NV:(i+1)*NV])
		}
	})
	for _, p := range defl {
		w.d[lo+p] = dd[p] * orgnrm
	}
	for i, p := range keep {
		w.d[lo+p] = sig[i] * orgnrm
	}
}

// from returns s[off:], or nil when off is past the end (for the
// operands of an empty product).
func from(s []float64, off int) []float64 {
	if off >= len(s) {
		return nil
	}
	return s[off:]
}

// gemmFunc is kernels.Gemm or kernels.GemmSerial.
type gemmFunc func(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)

// mergeLoops returns the loops of a merge of K kept poles: rows runs f
// on chunks of rows 0..K-1 of width floats (copies), and products runs,
// on pieces of rows 0..K-1, prod (GEMMs by the gemm it is given, on
// those rows of their result) and then after (which reads these rows of
// the result) on each piece. Without a team they are bdRowsOn and whole
// GEMMs with their own workers, up to workers (kernels.GemmSerial for
// one). On a team the pieces are one a worker,
// in multiples of trailRows rows, each GEMM on its goroutine alone
// (kernels.GemmSerial), so that a merge's products and copies take two
// waits on the team's helpers rather than goroutines started by every
// GEMM and copy: at 500 x 500 the bidiagonal solve on two workers went
// from 1.54x to 1.71x faster than on one. The bits are the same either
// way, as updateTrailing's.
func mergeLoops(team *par.Team, workers, K int) (rows func(K, width int, f func(lo, hi int)), products func(width int, prod func(gemm gemmFunc, i0, i1 int), after func(i0, i1 int))) {
	if team == nil {
		gemm := kernels.Gemm
		if workers < 2 {
			gemm = kernels.GemmSerial
		}
		rows = func(K, width int, f func(lo, hi int)) { bdRowsOn(workers, K, width, f) }
		return rows, func(width int, prod func(gemmFunc, int, int), after func(int, int)) {
			prod(gemm, 0, K)
			rows(K, width, after)
		}
	}
	chunks := min(K, 4*team.Workers())
	rows = func(K, _ int, f func(lo, hi int)) {
		team.For(chunks, func(c int) { f(c*K/chunks, (c+1)*K/chunks) })
	}
	// At most one piece a worker, each of at least trailRows rows (a
	// team has K >= bdParMin = trailRows, so there is at least one).
	pieces := max(1, min(team.Workers(), K/trailRows))
	per := (K/pieces + trailRows - 1) / trailRows * trailRows
	pieces = (K + per - 1) / per
	products = func(_ int, prod func(gemmFunc, int, int), after func(int, int)) {
		team.For(pieces, func(i int) {
			i0, i1 := i*per, min((i+1)*per, K)
			prod(kernels.GemmSerial, i0, i1)
			after(i0, i1)
		})
	}
	return rows, products
}

// bdProduct sets the m x n matrix c (row stride ldc) to a*b, a m x k
// (stride lda) and b k x n (stride ldb), by gemm; zero when k is 0.
func bdProduct(gemm gemmFunc, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := 0; i < m; i++ {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	gemm(false, false, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}

// bdSecular solves the merge's secular equation for the K kept poles d
// (ascending, d[0] = 0 the middle pole, gaps at least tol) with weights
// z (none zero), and returns the singular values sig (ascending) and sets
// the singular vectors of M as rows of uS and vS (K x K): component k of u_i
// in column posU[k] and of v_i in column posV[k], the columns in type
// order (first half, both, second half; for uS the middle last), with
// k1u, k3u (k1v, k3v) the numbers of the first two types. Its loops
// run on team when it is not nil, else (from bdParMin poles) on up to
// maxWorkers goroutines of their own.
func bdSecular(team *par.Team, maxWorkers int, d, z []float64, keep []int, maskU, maskV []uint8, uS, vS []float64) (sig []float64, posU, posV []int, k1u, k3u, k1v, k3v int) {
	K := len(d)
	posU = make([]int, K)
	posV = make([]int, K)
	q := 0
	for _, want := range []uint8{bdFirst, bdBoth, bdSecond, bdMiddle} {
		for k, p := range keep {
			if maskU[p] == want {
				posU[k] = q
				q++
				switch want {
				case bdFirst:
					k1u++
				case bdBoth:
					k3u++
				}
			}
		}
	}
	q = 0
	for _, want := range []uint8{bdFirst, bdBoth, bdSecond} {
		for k, p := range keep {
			if maskV[p] == want {
				posV[k] = q
				q++
				switch want {
				case bdFirst:
					k1v++
				case bdBoth:
					k3v++
				}
			}
		}
	}
	rz2 := make([]float64, K)
	for j := range rz2 {
		rz2[j] = z[j] * z[j]
	}
	// The poles of the secular equation are d_j²; their differences are
	// formed as (d_j - d_o)(d_j + d_o), accurate to a few ulps.
	gaps := func(o int, dst []float64) ([]float64, float64) {
		for j := range dst {
			dst[j] = (d[j] - d[o]) * (d[j] + d[o])
		}
		return dst, 0
	}
	orig := make([]int, K)
	tau := make([]float64, K) // σ_i = d[orig[i]] + tau[i]
	sig = make([]float64, K)
	workers := 1
	if K >= bdParMin {
		workers = maxWorkers
	}
	chunks := min(K, 4*workers)
	chunk := func(c int) (int, int) { return c * K / chunks, (c + 1) * K / chunks }
	loop := func(f func(c int)) { _ = par.For(context.Background(), chunks, workers, f) }
	if team != nil {
		loop = func(f func(c int)) { team.For(chunks, f) }
	}
	loop(func(c int) {
		g := make([]float64, K)
		i0, i1 := chunk(c)
		for i := i0; i < i1; i++ {
			o, om := secularRootGaps(rz2, i, gaps, g)
			do := d[o]
			s := math.Sqrt(do*do + om)
			orig[i] = o
			tau[i] = om / (do + s)
			sig[i] = do + tau[i]
		}
	})
	// diff(i, j) = σ_i² - d_j², accurately.
	// σ_i² - d_j² = ((do_i - d_j) + tau_i)((do_i + d_j) + tau_i), accurately,
	// with do_i = d[orig[i]]; written out in the loops below (a closure
	// call per element cost a fifth of the merge at n = 500).
	do := make([]float64, K)
	for i, o := range orig {
		do[i] = d[o]
	}
	zh := make([]float64, K)
	lv := simd.Current()
	loop(func(c int) {
		num := make([]float64, K)
		den := make([]float64, K)
		j0, j1 := chunk(c)
		for j := j0; j < j1; j++ {
			dj := d[j]
			last := ((do[K-1] - dj) + tau[K-1]) * ((do[K-1] + dj) + tau[K-1])
			// The ratios on the current level's kernel, as in
			// secularVectors: a product above 2^-900 had no partial
			// product near underflow; otherwise zhatProduct takes them.
			q := vec.ZhatAt(lv, true, do[:j], tau[:j], d[:j], dj) * vec.ZhatAt(lv, true, do[j:K-1], tau[j:K-1], d[j+1:], dj)
			v := last * q
			if !(q > 0x1p-900) {
				for i := 0; i < j; i++ {
					num[i] = ((do[i] - dj) + tau[i]) * ((do[i] + dj) + tau[i])
					den[i] = (d[i] - dj) * (d[i] + dj)
				}
				for i := j + 1; i < K; i++ {
					num[i] = ((do[i-1] - dj) + tau[i-1]) * ((do[i-1] + dj) + tau[i-1])
					den[i] = (d[i] - dj) * (d[i] + dj)
				}
				v = zhatProduct(j, last, num, den)
			}
			zh[j] = math.Copysign(math.Sqrt(math.Abs(v)), z[j])
		}
	})
	loop(func(c int) {
		tv := make([]float64, K)
		tu := make([]float64, K)
		i0, i1 := chunk(c)
		for i := i0; i < i1; i++ {
			ur := uS[i*K : (i+1)*K]
			vr := vS[i*K : (i+1)*K]
			doi, ti := do[i], tau[i]
			// v_j = -ẑ_j/(σ_i² - d_j²), u_j = d_j v_j (u_0 = -1, d_0 = 0),
			// with -(σ_i² - d_j²) formed as ((d_j - do_i) - tau_i)((d_j +
			// do_i) + tau_i), the negation of diff's product, on the
			// current level's kernel (one vector division per element in
			// the assembly, the reciprocals two at a time, y/(xy) and x/(xy),
			// in the generic loop), into tv and tu, then moved to their
			// columns. u_0 = 0 adds nothing to the norm; its -1 adds 1.
			nv, nu := vec.SecularVec2At(lv, zh, d, doi, ti, tv, tu)
			nu++
			for j, p := range posV {
				vr[p] = tv[j]
			}
			for j, p := range posU {
				ur[p] = tu[j]
			}
			ur[posU[0]] = -1
			kernels.Scal(1/math.Sqrt(nu), ur)
			kernels.Scal(1/math.Sqrt(nv), vr)
		}
	})
	return sig, posU, posV, k1u, k3u, k1v, k3v
}
