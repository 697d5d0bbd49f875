package svd

import (
	"cmp"
	"math"
	"slices"
	"unsafe"

	"github.com/moments-go/moments/internal/jacobi"
	"github.com/moments-go/moments/kernels"
)

// eps is the unit roundoff of float64.
const eps = 0x1p-53

// rowJacobi orthogonalizes the rows of the r x c matrix x (row stride
// ldx) by one-sided Jacobi rotations: on return x = Gᵀ*x0 has mutually
// orthogonal rows (to working accuracy), for an orthogonal G that is the
// product of the rotations and row swaps. If acc is not nil it is an
// r x na matrix (row stride lda) that receives the same transformations:
// acc = Gᵀ*acc0. The rows come out sorted by decreasing norm, and the
// norms are returned in nrm.
//
// A rotation is computed from the dot product of the two rows and their
// squared norms (kept up to date, recomputed where the update cancels and
// at every sweep) and applied to the rows themselves, so that the
// transformation is row-wise backward stable, which is what makes
// one-sided Jacobi relatively accurate (Demmel and Veselić); a pair is
// rotated only when the cosine of its angle exceeds tol (dgesvj's test).
// Rows too small or too large to square take a slower path that forms
// every quantity relative to the norms.
//
// The speed of a sweep is the speed of its steps, sets of disjoint pairs
// that a jacobi.Plan (or, for at most 32 rows with AVX-512,
// jacobi.SweepT) rotates together: their dot products first, then
// their rotations in the lanes of a vector, then the rows, so that the
// latency of the square roots and divisions is paid once per step rather
// than once per pair; with AVX-512 the dot products of the next step are
// formed while the rows are rotated, so that a rotated row is read once
// per step. The schedules and their plans are made once for each size
// (sweepOrder). Three orders:
//
//   - up to 32 rows with the AVX-512 kernels: the round-robin order on a
//     transposed copy of the rows (runSlots), a whole sweep per call;
//   - up to 32 rows otherwise: the round-robin order (r-1 steps of r/2
//     pairs; about 10% more sweeps than row-cyclic, but half the steps);
//   - more rows: de Rijk's row-cyclic order with the rows sorted by norm
//     at each sweep, executed as a wavefront over blocks of rows that
//     stay in L1 (scheduleBlockRow): the same rotations as the plain
//     loop, in steps of up to a block's rows. While the rows are far
//     from orthogonal, pairs nearly orthogonal relative to the worst
//     ones are skipped (see thresholdFrac).
type rowJacobi struct {
	r, c      int
	x         []float64
	ldx       int
	acc       []float64
	lda, na   int
	nrm       []float64
	tol       float64
	maxSweeps int
	// threshold enables the threshold strategy of the row-cyclic
	// sweeps (see thresholdFrac); rotTol is the threshold on the cosine
	// above which exec rotates a pair: tol, or larger early in those
	// sweeps.
	threshold bool
	rotTol    float64

	sweeps int
	// Statistics of the current sweep for the convergence test.
	rotated         int
	maxCos2, maxSin float64

	// sq holds the squared row norms, exact to rounding while they lie
	// in [sqLo, sqHi]; zero marks the rows found zero at the start of
	// the sweep (they stay zero: no rotation touches them).
	sq   []float64
	zero []bool
	// The sweep order, and the part of it that exec runs next; the
	// rotations of the pairs; the offsets and rotations for acc; scratch
	// rows.
	order   *schedule
	plan    *jacobi.Plan
	aoff    []int
	cs, acs []float64
	s1, s2  []float64
	keys    []float64
}

// Squared norms in [sqLo, sqHi] take the fast path: the 2x2 Gram matrix
// of a pair and the quantities derived from it can neither overflow nor
// underflow.
const (
	sqLo = jacobi.SqMin
	sqHi = jacobi.SqMax
)

// The threshold strategy of the row-cyclic sweeps (Rutishauser's, here
// on cosines): while the largest cosine of the previous sweep (in the
// first sweep, the largest so far) exceeds thresholdFrom, a pair is
// rotated only if its cosine exceeds thresholdFrac times that largest
// cosine, for more than thresholdRows rows. A rotation costs more than the dot product that decides it
// (it reads and writes both rows: about 60% of the time of a pair), and
// rotating pairs that are already nearly orthogonal, compared with the
// worst ones, does little for the convergence while the rows are far
// from orthogonal: on Gaussian and dlatms-style matrices of 100 to 300
// rows it leaves the number of sweeps unchanged or adds one (a cheap
// one) and skips about 40% of the rotations. The sweeps so thresholded never count as converged, so the last
// sweeps and the convergence test are those of tol. The rotations
// themselves are unchanged (row-wise backward stable); since fewer are
// made, the triangular solve for J in Factorize also fails less often.
// With fewer rows it does not pay on graded matrices (one sweep more),
// and their sweeps are left as they were. Factorize enables it (tuned on
// its triangular factors); the sweeps of EigSym, on a Cholesky factor,
// gain nothing from it.
const (
	thresholdFrac = 0.03
	thresholdFrom = 0.03
	thresholdRows = 64
)

// jacobiBlockRows returns the number of rows in a block: two blocks of
// rows of length c should fit in L1 (about 32 KiB), so that every pair
// between them is rotated in cache.
func jacobiBlockRows(c int) int {
	return min(max(2048/max(c, 1), 4), 32)
}

// run performs sweeps until convergence or until maxSweeps; it reports
// whether it converged.
func (j *rowJacobi) run() bool {
	r := j.r
	slab := make([]float64, 3*r)
	j.nrm, j.sq, j.keys = slab[:r:r], slab[r:2*r:2*r], slab[2*r:]
	if r == 0 {
		return true
	}
	j.zero = make([]bool, r)
	if r <= slotsMax && jacobi.SweepTFast() {
		if converged, done := j.runSlots(); done {
			return converged
		}
	}
	if j.c%8 != 0 {
		// Rows of a multiple of 8 elements (zero padded): the kernels
		// then never take their masked tails, which cost about 30% at
		// these sizes (stores that loads cannot forward from).
		return j.runPadded()
	}
	rr := j.roundRobin()
	j.order = sweepOrder(r, min(jacobiBlockRows(j.c), r), rr)
	prevCos := 1.0 // the largest cosine of the previous sweep
	for j.sweeps < j.maxSweeps {
		// Fresh norms each sweep: the updating formulas drift.
		for i := 0; i < r; i++ {
			j.setNorm(i)
		}
		j.rotated, j.maxCos2, j.maxSin = 0, 0, 0
		j.rotTol = j.tol
		thresholded := false
		if rr {
			if j.sweeps == 0 {
				// Sorted once: in this order, pivoting at every sweep
				// gains nothing.
				j.pivot(0, r)
			}
			j.plan = j.order.plans[0]
			j.exec()
		} else {
			// de Rijk's pivoting once per sweep: the rows sorted by
			// decreasing norm (pivoting at every block row, as dgesvj
			// does at every row, gives the same number of sweeps).
			j.sortRows()
			for _, j.plan = range j.order.plans {
				ref := prevCos
				if j.sweeps == 0 {
					ref = math.Sqrt(j.maxCos2)
				}
				j.rotTol = j.tol
				if j.threshold && r > thresholdRows && ref > thresholdFrom {
					j.rotTol = max(j.tol, thresholdFrac*ref)
					thresholded = true
				}
				j.exec()
			}
		}
		j.sweeps++
		// Converged when no pair needed a rotation, or when the largest
		// cosine is small and the rotations of the sweep were so small
		// that they can no longer change it (dgesvj's criterion: the
		// computed cosines of exactly orthogonal rows are rounding noise
		// that can exceed tol).
		fr := float64(r)
		maxCos := math.Sqrt(j.maxCos2)
		prevCos = maxCos
		if thresholded {
			// Pairs with cosines above tol may have been skipped.
			continue
		}
		if j.rotated == 0 || sweepConverged(fr, maxCos, j.maxSin, j.tol) {
			j.finish()
			return true
		}
	}
	j.finish()
	return false
}

// roundRobin reports whether the sweeps use the round-robin order rather
// than the row-cyclic one. Each step of a sweep is a set of disjoint
// pairs; what bounds the speed of small matrices is the latency of a
// step (dot products, then rotations, then rows), and the round-robin
// order has r-1 steps of r/2 pairs where the row-cyclic order, run as a
// wavefront, has about 2r steps of r/4 pairs on average. It needs about
// 10% more sweeps, which pays only for small matrices.
func (j *rowJacobi) roundRobin() bool { return j.r <= roundRobinMax }

// roundRobinMax is the largest number of rows swept in the round-robin
// order.
const roundRobinMax = 32

// runPadded runs the general sweeps on copies of x and acc whose rows are
// padded with zeros to a multiple of 8 elements, and copies the results
// back (the padding stays zero: rotations mix zeros with zeros).
func (j *rowJacobi) runPadded() bool {
	r, c := j.r, j.c
	cp := (c + 7) &^ 7
	xp := alignedFloats(r * cp)
	for i := 0; i < r; i++ {
		copy(xp[i*cp:i*cp+c], j.x[i*j.ldx:i*j.ldx+c])
	}
	p := *j
	p.x, p.c, p.ldx = xp, cp, cp
	var ap []float64
	if j.acc != nil {
		na := (j.na + 7) &^ 7
		ap = alignedFloats(r * na)
		for i := 0; i < r; i++ {
			copy(ap[i*na:i*na+j.na], j.acc[i*j.lda:i*j.lda+j.na])
		}
		p.acc, p.lda, p.na = ap, na, na
	}
	converged := p.run()
	for i := 0; i < r; i++ {
		copy(j.x[i*j.ldx:i*j.ldx+c], xp[i*cp:i*cp+c])
		if j.acc != nil {
			copy(j.acc[i*j.lda:i*j.lda+j.na], ap[i*p.na:i*p.na+j.na])
		}
	}
	j.nrm, j.sq, j.sweeps, j.rotated, j.maxCos2, j.maxSin = p.nrm, p.sq, p.sweeps, p.rotated, p.maxCos2, p.maxSin
	return converged
}

// alignedFloats returns a zeroed slice of n elements that starts on a
// 64-byte boundary: with rows of a multiple of 8 elements, every vector
// load and store of the kernels then stays within one cache line.
func alignedFloats(n int) []float64 {
	s := make([]float64, n+8)
	off := int((64-uintptr(unsafe.Pointer(unsafe.SliceData(s)))%64)%64) / 8
	return s[off : off+n : off+n]
}

// slotsMax is the largest number of rows that runSlots handles.
const slotsMax = 32

// runSlots runs the sweeps on a copy of the rows stored by slots (see
// jacobi.SweepT): the round-robin order, every step done on all
// its pairs at once in the lanes of a few vectors, which is what makes
// small matrices fast (their steps are too short for anything else to
// hide the latency of the square roots and divisions). The rows are
// sorted by decreasing norm once (de Rijk's pivoting at every sweep
// gains nothing in this order). It reports done = false, having changed
// nothing or (after a sweep that met a norm outside the kernel's range)
// having brought x and acc up to date, when the general sweeps must take
// over; the sweeps already made are counted in j.sweeps.
func (j *rowJacobi) runSlots() (converged, done bool) {
	r := j.r
	for i := 0; i < r; i++ {
		j.setNorm(i)
		if !(j.zero[i] || j.sq[i] >= sqLo && j.sq[i] <= sqHi) {
			return false, false
		}
	}
	j.pivot(0, r)
	m := (r + 1) / 2
	sl := 8 * ((m + 7) / 8) // slots a side
	ld := 2 * sl
	n, ntot := j.c, j.c
	if j.acc != nil {
		ntot += j.na
	}
	// Row i < m goes to slot A_i, row m+i to slot B_i.
	slot := func(i int) int {
		if i < m {
			return i
		}
		return sl + i - m
	}
	buf := alignedFloats((ntot + 1) * ld)
	t, sq := buf[:ntot*ld], buf[ntot*ld:]
	for i := 0; i < r; i++ {
		o := slot(i)
		for k, v := range j.row(i) {
			t[k*ld+o] = v
		}
		if j.acc != nil {
			for k, v := range j.acc[i*j.lda : i*j.lda+j.na] {
				t[(n+k)*ld+o] = v
			}
		}
		sq[o] = j.sq[i]
	}
	copyBack := func() {
		for i := 0; i < r; i++ {
			o := slot(i)
			row := j.row(i)
			for k := range row {
				row[k] = t[k*ld+o]
			}
			if j.acc != nil {
				a := j.acc[i*j.lda : i*j.lda+j.na]
				for k := range a {
					a[k] = t[(n+k)*ld+o]
				}
			}
		}
	}
	// underflowed reports whether a slot has a zero squared norm but is
	// not a zero row: its norm underflowed in the squaring (the kernel
	// takes it for a zero row and leaves it alone), a case for the
	// general sweeps.
	underflowed := func() bool {
		for o, v := range sq {
			if v != 0 || o%sl >= m {
				continue
			}
			for k := 0; k < n; k++ {
				if t[k*ld+o] != 0 {
					return true
				}
			}
		}
		return false
	}
	fr := float64(r)
	for j.sweeps < j.maxSweeps {
		rot, left, c2, sn := jacobi.SweepT(t, m, n, ntot, sq, j.tol)
		j.sweeps++
		if left > 0 || underflowed() {
			copyBack()
			return false, false
		}
		maxCos := math.Sqrt(c2)
		if rot == 0 || sweepConverged(fr, maxCos, sn, j.tol) {
			j.maxCos2 = c2
			copyBack()
			j.finish()
			return true, true
		}
		j.maxCos2 = c2
	}
	copyBack()
	j.finish()
	return false, true
}

// setNorm computes the norm of row i afresh.
func (j *rowJacobi) setNorm(i int) {
	v := kernels.Nrm2(j.row(i))
	j.nrm[i] = v
	j.sq[i] = v * v
	j.zero[i] = v == 0
}

func (j *rowJacobi) row(i int) []float64 { return j.x[i*j.ldx : i*j.ldx+j.c] }

// pivot moves the rows of largest norm among i0..r-1 into i0..i1-1 in
// decreasing order (de Rijk's pivoting, done per block of rows).
func (j *rowJacobi) pivot(i0, i1 int) {
	keys := j.keys[:j.r]
	for t := i0; t < j.r; t++ {
		keys[t] = j.key(t)
	}
	for p := i0; p < i1; p++ {
		q := p
		for t := p + 1; t < j.r; t++ {
			if keys[t] > keys[q] {
				q = t
			}
		}
		if q != p {
			j.swap(p, q)
			keys[p], keys[q] = keys[q], keys[p]
		}
	}
}

// sortRows sorts the rows (and those of acc) by decreasing norm, moving
// each row at most once.
func (j *rowJacobi) sortRows() {
	r := j.r
	keys := j.keys[:r]
	for t := range keys {
		keys[t] = j.key(t)
	}
	order := make([]int, r)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[b], keys[a]) })
	sorted := true
	for i, o := range order {
		if o != i {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	// Row order[i] goes to position i: follow the cycles of the
	// permutation with one spare row.
	dest := make([]int, r)
	for i, o := range order {
		dest[o] = i
	}
	tmp := make([]float64, j.c)
	var atmp []float64
	if j.acc != nil {
		atmp = make([]float64, j.na)
	}
	done := make([]bool, r)
	for s := 0; s < r; s++ {
		if done[s] || dest[s] == s {
			done[s] = true
			continue
		}
		copy(tmp, j.row(s))
		if atmp != nil {
			copy(atmp, j.acc[s*j.lda:s*j.lda+j.na])
		}
		nrm, sq, zero := j.nrm[s], j.sq[s], j.zero[s]
		for i := dest[s]; ; i = dest[i] {
			row := j.row(i)
			for k := range row {
				row[k], tmp[k] = tmp[k], row[k]
			}
			if atmp != nil {
				arow := j.acc[i*j.lda : i*j.lda+j.na]
				for k := range arow {
					arow[k], atmp[k] = atmp[k], arow[k]
				}
			}
			nrm, j.nrm[i] = j.nrm[i], nrm
			sq, j.sq[i] = j.sq[i], sq
			zero, j.zero[i] = j.zero[i], zero
			done[i] = true
			if i == s {
				break
			}
		}
	}
}

// key orders rows by norm for pivoting: the squared norm where it is
// exact, else the square of the norm (which may round to 0 or Inf, and
// then orders only approximately, which is harmless).
func (j *rowJacobi) key(p int) float64 {
	if v := j.sq[p]; v >= sqLo && v <= sqHi {
		return v
	}
	v := j.norm(p)
	return v * v
}

func (j *rowJacobi) swap(p, q int) {
	swapSlices(j.row(p), j.row(q))
	j.nrm[p], j.nrm[q] = j.nrm[q], j.nrm[p]
	j.sq[p], j.sq[q] = j.sq[q], j.sq[p]
	j.zero[p], j.zero[q] = j.zero[q], j.zero[p]
	if j.acc != nil {
		swapSlices(j.acc[p*j.lda:p*j.lda+j.na], j.acc[q*j.lda:q*j.lda+j.na])
	}
}

func swapSlices(a, b []float64) {
	for i := range a {
		a[i], b[i] = b[i], a[i]
	}
}

// exec rotates the pairs of the schedule with its plan, then
// those it leaves (extreme norms) with slowPair, and applies the
// rotations to acc in the same order.
func (j *rowJacobi) exec() {
	rows := j.plan.Rows()
	if len(rows) == 0 {
		return
	}
	if cap(j.cs) < len(rows) {
		j.cs = make([]float64, len(rows))
	}
	cs := j.cs[:len(rows)]
	rot, left, c2, s := j.plan.Steps(j.x, j.c, j.ldx, j.sq, j.rotTol, cs)
	j.rotated += rot
	j.maxCos2 = max(j.maxCos2, c2)
	j.maxSin = max(j.maxSin, s)
	if j.acc != nil && rot > 0 {
		aoff, acs := j.aoff[:0], j.acs[:0]
		for i := 0; i < len(rows); i += 2 {
			if cs[i+1] != 0 {
				aoff = append(aoff, rows[i]*j.lda, rows[i+1]*j.lda)
				acs = append(acs, cs[i], cs[i+1])
			}
		}
		jacobi.RotPairs(j.acc, j.na, aoff, acs)
		j.aoff, j.acs = aoff, acs
	}
	if left > 0 {
		for i := 0; i < len(rows); i += 2 {
			if cs[i] == 0 {
				j.slowPair(rows[i], rows[i+1])
			}
		}
	}
}

// norm returns the norm of row p, from sq when it is in the range where
// squares are exact to rounding, else recomputed.
func (j *rowJacobi) norm(p int) float64 {
	if v := j.sq[p]; v >= sqLo && v <= sqHi {
		return math.Sqrt(v)
	}
	return kernels.Nrm2(j.row(p))
}

// slowPair rotates rows p and q, one of which has a norm outside the
// fast range (or is zero), with every quantity formed relative to the
// norms.
func (j *rowJacobi) slowPair(p, q int) {
	if j.sq[p] == 0 && j.zero[p] || j.sq[q] == 0 && j.zero[q] {
		return
	}
	np, nq := j.norm(p), j.norm(q)
	if np == 0 || nq == 0 {
		return
	}
	xp, xq := j.row(p), j.row(q)
	j.nrm[p], j.nrm[q] = np, nq
	c, s, ok := j.rotateScaled(p, q, xp, xq, np, nq)
	j.sq[p], j.sq[q] = j.nrm[p]*j.nrm[p], j.nrm[q]*j.nrm[q]
	if ok && j.acc != nil {
		kernels.Rot(j.acc[p*j.lda:p*j.lda+j.na], j.acc[q*j.lda:q*j.lda+j.na], c, s)
	}
}

// rotateScaled is the rotation of a pair of rows of extreme or very
// different norms np and nq, with every quantity formed relative to the
// norms; it updates nrm.
func (j *rowJacobi) rotateScaled(p, q int, xp, xq []float64, np, nq float64) (c, s float64, ok bool) {
	cos := j.cosine(xp, xq, np, nq)
	ac := math.Abs(cos)
	if !(ac > j.tol) {
		return 0, 0, false
	}
	j.rotated++
	j.maxCos2 = math.Max(j.maxCos2, ac*ac)
	// When one row is smaller than the other by more than 2^-500, the
	// rotation angle is below 2^-500: the large row does not change and
	// the small one loses its component along the large one (a
	// Gram-Schmidt step, dgesvj's treatment of this case).
	const tiny = 0x1p-500
	if nq < tiny*np || np < tiny*nq {
		big, small, ns, nb := xp, xq, nq, np
		si := q
		if np < nq {
			big, small, ns, nb = xq, xp, np, nq
			si = p
		}
		// small -= cos (ns/nb) big, with big scaled by a power of two to
		// a norm in [0.5, 1) first: ns/nb alone underflows when the
		// norms are more than 2^1074 apart (Factorize's wide scaling).
		if j.s1 == nil {
			j.s1, j.s2 = make([]float64, j.c), make([]float64, j.c)
		}
		unit := j.s1[:len(big)]
		copy(unit, big)
		_, eb := math.Frexp(nb)
		scaleSlicePow2(unit, -eb)
		kernels.Axpy(-cos*(ns/math.Ldexp(nb, -eb)), unit, small)
		f := (1 - ac) * (1 + ac)
		j.nrm[si] = ns * math.Sqrt(math.Max(f, 0))
		if f < 0.01 {
			j.nrm[si] = kernels.Nrm2(small)
		}
		return 0, 0, false
	}
	// zeta = (nq² - np²)/(2g) = (nq/np - np/nq)/(2 cos).
	zeta := (nq/np - np/nq) / (2 * cos)
	var t float64
	if az := math.Abs(zeta); az > 1e150 {
		t = -0.5 / zeta
	} else {
		t = -math.Copysign(1/(az+math.Sqrt(1+az*az)), zeta)
	}
	c = 1 / math.Sqrt(1+t*t)
	s = t * c
	kernels.Rot(xp, xq, c, s)
	j.maxSin = math.Max(j.maxSin, math.Abs(s))
	fp := 1 + t*cos*(nq/np)
	fq := 1 - t*cos*(np/nq)
	j.nrm[p] = np * math.Sqrt(math.Max(fp, 0))
	j.nrm[q] = nq * math.Sqrt(math.Max(fq, 0))
	if fp < 0.01 {
		j.nrm[p] = kernels.Nrm2(xp)
	}
	if fq < 0.01 {
		j.nrm[q] = kernels.Nrm2(xq)
	}
	return c, s, true
}

// cosine returns x.y / (nx*ny) for rows of norms nx and ny, scaling the
// rows first when the dot product could under- or overflow.
func (j *rowJacobi) cosine(x, y []float64, nx, ny float64) float64 {
	const lo, hi = 0x1p-450, 0x1p450
	if nx > lo && nx < hi && ny > lo && ny < hi {
		return kernels.Dot(x, y) / nx / ny
	}
	if j.s1 == nil {
		j.s1, j.s2 = make([]float64, j.c), make([]float64, j.c)
	}
	sx, sy := j.s1, j.s2
	copy(sx, x)
	copy(sy, y)
	_, ex := math.Frexp(nx)
	_, ey := math.Frexp(ny)
	scaleSlicePow2(sx, -ex)
	scaleSlicePow2(sy, -ey)
	// The rows now have norms in [0.5, 1).
	return kernels.Dot(sx, sy) / math.Ldexp(nx, -ex) / math.Ldexp(ny, -ey)
}

// scaleSlicePow2 multiplies x by 2^e, in steps that keep the factor
// representable (exact unless elements underflow).
func scaleSlicePow2(x []float64, e int) {
	for e != 0 {
		s := min(max(e, -1000), 1000)
		kernels.Scal(math.Ldexp(1, s), x)
		e -= s
	}
}

// finish recomputes the norms from the final rows and sorts the rows
// (and those of acc) by decreasing norm.
func (j *rowJacobi) finish() {
	for i := 0; i < j.r; i++ {
		j.setNorm(i)
	}
	// Selection sort: r swaps at most, each O(c + na).
	for p := 0; p < j.r; p++ {
		q := p
		for t := p + 1; t < j.r; t++ {
			if j.nrm[t] > j.nrm[q] {
				q = t
			}
		}
		if q != p {
			j.swap(p, q)
		}
	}
}

// sweepConverged is the test at the end of a sweep of r rows whose largest
// cosine was maxCos and largest rotation sine maxSin: dgesvj's test (the
// cosines are below sqrt(r) tol and the rotations too small to change
// them), or stagnation at the rounding level: every rotation had a sine
// below tol, so it left the rows as they were to working precision, and
// the cosines, though above sqrt(r) tol, are rounding noise of dot
// products (below 4 r tol). Without the second case a pair whose computed
// cosine settles just above sqrt(r) tol is rotated by the same negligible
// angle in every sweep until MaxSweeps (found by fuzzing: the 2 x 2
// matrix [[-1.03125, 0.84375], [0, -1.3125]] settles at a cosine of
// 2.46e-16 with tol 1.57e-16).
func sweepConverged(r, maxCos, maxSin, tol float64) bool {
	if r*maxCos*maxSin >= tol {
		return false
	}
	return maxCos < math.Sqrt(r)*tol || maxSin < tol && maxCos < 4*r*tol
}
