package svd

import (
	"math"

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
// Rotations follow the de Rijk row-cyclic order, grouped into blocks of
// rows so that the rows of a pair of blocks stay in cache while every
// pair between them is rotated; the rotations of a block pair are
// applied to acc one by one when they are few, otherwise gathered into
// a small orthogonal matrix and applied with one matrix product. (A
// round-robin schedule of the block pairs would let them run in
// parallel, but it needs one or two more sweeps than this order: 12
// against 10 on Gaussian 512 x 512 and 1024 x 1024 matrices.) Each rotation is computed from the cosine of the angle
// between the two rows (their dot product over their norms) and applied
// with kernels.Rot, so the transformation of x is row-wise backward
// stable, which is what makes one-sided Jacobi relatively accurate
// (Demmel and Veselić).
type rowJacobi struct {
	r, c      int
	x         []float64
	ldx       int
	acc       []float64
	lda, na   int
	nrm       []float64
	tol       float64
	maxSweeps int

	sweeps int
	// Statistics of the current sweep for the convergence test.
	rotated        int
	maxCos, maxSin float64

	// Scratch: the rotations of the current block pair, its
	// transformation, acc rows gathered for the product, scaled copies
	// for dot products of tiny rows.
	rots           []rotation
	g, gat, s1, s2 []float64
}

// jacobiBlockRows returns the number of rows in a block: two blocks of
// rows of length c should fit in about 1 MiB (L2 on current x86 CPUs; on
// smaller caches the rows stream from L3, which costs little next to
// the rotations), with at most 64 rows so that the block pair's
// transformation stays small.
func jacobiBlockRows(c int) int {
	return min(max(65536/max(c, 1), 8), 64)
}

// run performs sweeps until convergence or until maxSweeps; it reports
// whether it converged.
func (j *rowJacobi) run() bool {
	r := j.r
	j.nrm = make([]float64, r)
	if r == 0 {
		return true
	}
	bs := jacobiBlockRows(j.c)
	j.s1 = make([]float64, j.c)
	j.s2 = make([]float64, j.c)
	if j.acc != nil {
		j.g = make([]float64, 4*bs*bs)
		j.gat = make([]float64, 2*bs*j.na)
	}
	for j.sweeps = 0; j.sweeps < j.maxSweeps; {
		// Fresh norms each sweep: the updating formulas drift.
		for i := 0; i < r; i++ {
			j.nrm[i] = kernels.Nrm2(j.row(i))
		}
		j.rotated, j.maxCos, j.maxSin = 0, 0, 0
		for i0 := 0; i0 < r; i0 += bs {
			i1 := min(i0+bs, r)
			j.pivot(i0, i1)
			j.blockPair(i0, i1, i0, i1)
			for j0 := i1; j0 < r; j0 += bs {
				j.blockPair(i0, i1, j0, min(j0+bs, r))
			}
		}
		j.sweeps++
		// Converged when no pair needed a rotation, or when the largest
		// cosine is small and the rotations of the sweep were so small
		// that they can no longer change it (dgesvj's criterion: the
		// computed cosines of exactly orthogonal rows are rounding noise
		// that can exceed tol).
		fr := float64(r)
		if j.rotated == 0 || (j.maxCos < math.Sqrt(fr)*j.tol && fr*j.maxCos*j.maxSin < j.tol) {
			j.finish()
			return true
		}
	}
	j.finish()
	return false
}

func (j *rowJacobi) row(i int) []float64 { return j.x[i*j.ldx : i*j.ldx+j.c] }

// pivot moves the rows of largest norm among i0..r-1 into i0..i1-1 in
// decreasing order (de Rijk's pivoting, done per block).
func (j *rowJacobi) pivot(i0, i1 int) {
	for p := i0; p < i1; p++ {
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

func (j *rowJacobi) swap(p, q int) {
	swapSlices(j.row(p), j.row(q))
	j.nrm[p], j.nrm[q] = j.nrm[q], j.nrm[p]
	if j.acc != nil {
		swapSlices(j.acc[p*j.lda:p*j.lda+j.na], j.acc[q*j.lda:q*j.lda+j.na])
	}
}

func swapSlices(a, b []float64) {
	for i := range a {
		a[i], b[i] = b[i], a[i]
	}
}

// blockPair rotates every pair (p, q) with p in [i0, i1), q in [j0, j1)
// and p < q; the two ranges are either equal or disjoint.
func (j *rowJacobi) blockPair(i0, i1, j0, j1 int) {
	diag := i0 == j0
	j.rots = j.rots[:0]
	for p := i0; p < i1; p++ {
		qs := j0
		if diag {
			qs = p + 1
		}
		for q := qs; q < j1; q++ {
			if c, s, ok := j.rotate(p, q); ok && j.acc != nil {
				j.rots = append(j.rots, rotation{p, q, c, s})
			}
		}
	}
	if len(j.rots) > 0 {
		j.accumulate(i0, i1, j0, j1, diag)
	}
}

// rotation is one plane rotation applied to rows p and q.
type rotation struct {
	p, q int
	c, s float64
}

// accumulate applies the rotations of a block pair to acc: one by one
// when they are few, otherwise gathered into the block pair's orthogonal
// matrix G and applied with one matrix product per block (about 2*nl²
// flops per column of acc against 6 per rotation, and the product runs
// at about twice the speed of the rotations).
func (j *rowJacobi) accumulate(i0, i1, j0, j1 int, diag bool) {
	na, lda := j.na, j.lda
	ni := i1 - i0
	nl := ni
	if !diag {
		nl += j1 - j0
	}
	if 6*len(j.rots) < nl*nl {
		for _, r := range j.rots {
			kernels.Rot(j.acc[r.p*lda:r.p*lda+na], j.acc[r.q*lda:r.q*lda+na], r.c, r.s)
		}
		return
	}
	// local maps a row index to its index in the block pair.
	local := func(p int) int {
		if p < i1 {
			return p - i0
		}
		return ni + p - j0
	}
	g := j.g[:nl*nl]
	clear(g)
	for i := 0; i < nl; i++ {
		g[i*nl+i] = 1
	}
	for _, r := range j.rots {
		lp, lq := local(r.p), local(r.q)
		kernels.Rot(g[lp*nl:(lp+1)*nl], g[lq*nl:(lq+1)*nl], r.c, r.s)
	}
	// acc[rows of the pair] = G * acc[rows of the pair].
	gat := j.gat[:nl*na]
	for l := 0; l < nl; l++ {
		p := i0 + l
		if l >= ni {
			p = j0 + l - ni
		}
		copy(gat[l*na:(l+1)*na], j.acc[p*lda:p*lda+na])
	}
	kernels.Gemm(false, false, ni, na, nl, 1, g, nl, gat, na, 0, j.acc[i0*lda:], lda)
	if !diag {
		kernels.Gemm(false, false, nl-ni, na, nl, 1, g[ni*nl:], nl, gat, na, 0, j.acc[j0*lda:], lda)
	}
}

// rotate makes rows p and q orthogonal if the cosine of their angle
// exceeds tol. It returns the rotation (c, s) applied to the pair as
// kernels.Rot(x_p, x_q, c, s) and whether one was applied; a
// transformation too close to the identity to matter for acc (when one
// row is negligible next to the other) reports false.
func (j *rowJacobi) rotate(p, q int) (c, s float64, ok bool) {
	np, nq := j.nrm[p], j.nrm[q]
	if np == 0 || nq == 0 {
		return 0, 0, false
	}
	xp, xq := j.row(p), j.row(q)
	// In the common case both norms are moderate and not too different:
	// the 2x2 Gram matrix [a g; g b] can be formed without over- or
	// underflow.
	const lo, hi = 0x1p-400, 0x1p400
	if np > lo && np < hi && nq > lo && nq < hi && np < 0x1p200*nq && nq < 0x1p200*np {
		g := kernels.Dot(xp, xq)
		cos := g / (np * nq)
		ac := cos
		if ac < 0 {
			ac = -ac
		}
		if !(ac > j.tol) {
			return 0, 0, false
		}
		j.rotated++
		if ac > j.maxCos {
			j.maxCos = ac
		}
		a, b := np*np, nq*nq
		// The rotation [c s; -s c] on (x_p, x_q) that zeroes g, with the
		// smaller angle: t = s/c solves t² - 2*zeta*t - 1 = 0 for
		// zeta = (b - a)/(2g).
		zeta := (b - a) / (2 * g)
		az := zeta
		if az < 0 {
			az = -az
		}
		var t float64
		if az > 1e150 {
			t = 0.5 / az
		} else {
			t = 1 / (az + math.Sqrt(1+az*az))
		}
		if zeta > 0 {
			t = -t
		}
		c = 1 / math.Sqrt(1+t*t)
		s = t * c
		kernels.Rot(xp, xq, c, s)
		if as := t * c; as > j.maxSin || -as > j.maxSin {
			j.maxSin = math.Abs(as)
		}
		// New squared norms a + t*g and b - t*g; a norm that lost most
		// of its value is recomputed (cancellation).
		tg := t * g
		if a1 := a + tg; a1 > 0.01*a {
			j.nrm[p] = math.Sqrt(a1)
		} else {
			j.nrm[p] = kernels.Nrm2(xp)
		}
		if b1 := b - tg; b1 > 0.01*b {
			j.nrm[q] = math.Sqrt(b1)
		} else {
			j.nrm[q] = kernels.Nrm2(xq)
		}
		return c, s, true
	}
	return j.rotateScaled(p, q, xp, xq, np, nq)
}

// rotateScaled is rotate for rows of extreme or very different norms,
// with every quantity formed relative to the norms.
func (j *rowJacobi) rotateScaled(p, q int, xp, xq []float64, np, nq float64) (c, s float64, ok bool) {
	cos := j.cosine(xp, xq, np, nq)
	ac := math.Abs(cos)
	if !(ac > j.tol) {
		return 0, 0, false
	}
	j.rotated++
	j.maxCos = math.Max(j.maxCos, ac)
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
		kernels.Axpy(-cos*(ns/nb), big, small)
		f := (1 - ac) * (1 + ac)
		j.nrm[si] = ns * math.Sqrt(math.Max(f, 0))
		if f < 0.01 {
			j.nrm[si] = kernels.Nrm2(small)
		}
		return 0, 0, false
	}
	// As in rotate, with zeta = (nq² - np²)/(2g) = (nq/np - np/nq)/(2 cos).
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
		j.nrm[i] = kernels.Nrm2(j.row(i))
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
