package svd

import (
	"context"
	"math"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// This file holds the bidiagonal path of Factorize (MethodBidiagonal), in
// the manner of LAPACK's dgesdd: Householder reduction of the wide matrix
// Z (A or Aᵀ) to bidiagonal form, the SVD of the bidiagonal matrix
// (bidiagSVD), and the reflectors applied to its singular vectors as
// compact WY blocks.
//
// Z is r x c, r <= c, row-major. Step j applies a row reflector H_j from
// the right, which zeroes row j right of the diagonal (d[j] is left on
// it), then a column reflector G_j from the left, which zeroes column j
// below the subdiagonal (e[j] is left on it):
//
//	G_{r-2}...G_0 * Z * H_0...H_{r-1} = [Lb 0],
//
// Lb lower bidiagonal with diagonal d and subdiagonal e. With
// Ql = G_0...G_{r-2} and Pr = H_0...H_{r-1}, Z = Ql*[Lb 0]*Prᵀ. The row
// reflector H_j = I - taup[j]*p*pᵀ is stored as in package lq: p[j] = 1
// implicit, p[j+1:] in row j right of the diagonal. The column reflector
// G_j = I - tauq[j]*q*qᵀ has q[j+1] = 1 implicit and q[j+2:] in column j
// below the subdiagonal.

// bidiagReduction is the reduction of an r x c matrix (r <= c) to lower bidiagonal
// form: d has r elements, e and tauq r-1 (empty for r = 0), taup r.
type bidiagReduction struct {
	r, c       int
	a          []float64 // the reflectors, r x c with row stride lda
	lda        int
	d, e       []float64
	taup, tauq []float64
	hook       *reduceHook
}

// reduceHook lets work that needs only the first steps' output start
// while the reduction goes on (bidiagPath.reduceSolve): before step at,
// with d[:at] and e[:at] final, the reduction calls start(d, e, run) on
// its goroutine, where run(f) starts f on another goroutine and returns
// a function that waits for it (par.Team.Go on the reduction's team,
// whose loops then run without that helper while f runs; par.Go in the
// unblocked part, which has no team, and on a team of one worker).
type reduceHook struct {
	at    int
	start func(d, e []float64, run func(f func()) (wait func()))
}

// step calls the hook's start before step j when it is due, with team
// the reduction's team (nil in the unblocked part).
func (b *bidiagReduction) step(j int, team *par.Team) {
	if b.hook == nil || j != b.hook.at {
		return
	}
	run := par.Go
	if team != nil && team.Workers() > 1 {
		run = team.Go
	}
	b.hook.start(b.d, b.e, run)
}

// Panel width of the blocked reduction, and the order of the trailing
// matrix below which the unblocked reduction finishes (LAPACK's dgebrd
// uses 32 and 128 too).
const (
	bidiagBlock    = 32
	bidiagBlockMin = 128
)

// reduceBidiag reduces the r x c matrix a (row stride lda, r <= c) in
// place to lower bidiagonal form, with hook (nil: none) called on the
// way. Above order bidiagBlockMin the
// reduction runs in panels of bidiagBlock steps as LAPACK's dlabrd does:
// within a panel the trailing matrix is not updated, each step updates
// only the row and the column it needs from the panel's earlier
// reflectors and the vectors x_s = taup*Z*p_s and y_s = tauq*Zᵀ*q_s, and
// after the panel the trailing matrix takes the rank-2nb update
// Z - X*Pᵀ - Q*Yᵀ as one matrix product. Half the work is the two
// matrix-vector products of each step with the trailing matrix.
//
// With two or more workers (kernels.Workers) the steps' loops run on a
// par.Team, whose helpers wait between loops, since each loop is a few
// microseconds long: the pass over the trailing matrix in pieces of
// rows (fusedPass, each goroutine on its own rows from step to step),
// and in the same pieces, before the pass, the corrections of the
// column and the storing of the step before's reflector, and after it
// the products of W's rows with the column (from which those with q_t
// follow), whose data so stay in the cache of the core that holds these
// rows; the trailing update runs in pieces of rows. The result has the
// same bits for any number of workers: the pieces of the pass and of
// the products with the column depend on the sizes alone, and the
// corrections and the trailing update compute every element by the same
// operations however the rows are cut.
func reduceBidiag(a []float64, r, c, lda int, hook *reduceHook) *bidiagReduction {
	if r > c {
		panic("svd: internal error: reduceBidiag needs r <= c")
	}
	b := &bidiagReduction{r: r, c: c, a: a, lda: lda, d: make([]float64, r), taup: make([]float64, r), hook: hook}
	if r > 0 {
		b.e = make([]float64, r-1)
		b.tauq = make([]float64, r-1)
	}
	k0 := 0
	if r > bidiagBlockMin {
		k0 = b.reduceBlocked(bidiagBlockMin)
	}
	b.reduceUnblocked(k0)
	return b
}

// reduceUnblocked finishes the reduction from step k0 with the trailing
// matrix (rows and columns k0 on) up to date, one reflector at a time.
func (b *bidiagReduction) reduceUnblocked(k0 int) {
	r, c, a, lda := b.r, b.c, b.a, b.lda
	w := make([]float64, c)
	col := make([]float64, r)
	for j := k0; j < r; j++ {
		b.step(j, nil)
		row := a[j*lda+j : j*lda+c]
		tp := house.House(row)
		b.d[j], b.taup[j] = row[0], tp
		if j+1 == r {
			break
		}
		m1 := r - j - 1
		if tp != 0 {
			row[0] = 1
			house.ReflectRight(tp, row, m1, a[(j+1)*lda+j:], lda, w)
			row[0] = b.d[j]
		}
		q := col[:m1]
		for i := range q {
			q[i] = a[(j+1+i)*lda+j]
		}
		tq := house.House(q)
		b.e[j], b.tauq[j] = q[0], tq
		for i, v := range q {
			a[(j+1+i)*lda+j] = v
		}
		if tq != 0 && j+1 < c {
			q[0] = 1
			house.ReflectLeft(tq, q, c-j-1, a[(j+1)*lda+j+1:], lda, w)
		}
	}
}

// reduceBlocked reduces the rows in panels of bidiagBlock while more than
// minRest rows remain after a panel, and returns the first step left to
// the unblocked reduction.
//
// Within the panel that starts at k0, step t (j = k0+t) works with the
// panel's matrices kept in two arrays: W (r x 2nb) holds X (columns
// 0..nb-1, x_s = taup_s*Z_s*p_s with Z_s the matrix before H_s) and Q
// (columns nb..2nb-1, the q_s), V (2nb x c) holds P (rows 0..nb-1, the
// p_s) and Y (rows nb..2nb-1, y_s = tauq_s*Z_s'ᵀ*q_s with Z_s' the matrix
// after H_s). The current matrix is Z0 - X*Pᵀ - Q*Yᵀ over the steps
// done, Z0 the stored matrix at the panel's start, whose rows and columns
// after j are not written until the panel's end.
func (b *bidiagReduction) reduceBlocked(minRest int) int {
	r, c, a, lda := b.r, b.c, b.a, b.lda
	const nb = bidiagBlock
	const ldw = 2 * nb
	wm := make([]float64, r*ldw)
	vm := make([]float64, ldw*c)
	// tmp holds x_t and, alternately from step to step, the column: the
	// reflector of a step is stored into W and the matrix by the next
	// step's pieces of rows (see prev), from the other copy.
	tmp := make([]float64, 3*r)
	small := make([]float64, 6*ldw)
	workers := 1
	if r*c >= parGemvMin {
		workers = kernels.Workers()
	}
	fz := &fusedPass{team: par.NewTeam(workers)}
	defer fz.team.Close()
	// The reflector G_j of the step before (prev.q, below its first
	// element, with prev.j and prev.t its step) that is still to be
	// stored as column nb+prev.t of W and in column prev.j of the matrix:
	// its first element (row prev.j+1) by the caller at the next step's
	// start, the others by the pieces of the next step's pass, each on
	// its rows, or after the panel's last step (no step reads it from
	// there before). Every step but a panel's first has one to store.
	var prev struct {
		j, t int
		beta float64
		q    []float64
	}
	store := func(k0, k1 int) { // rows prev.j+1+k for k in [k0, k1)
		for k := k0; k < k1; k++ {
			v := prev.q[k]
			wm[(prev.j+1+k)*ldw+nb+prev.t] = v
			a[(prev.j+1+k)*lda+prev.j] = v
		}
	}
	storeFirst := func() {
		wm[(prev.j+1)*ldw+nb+prev.t] = 1
		a[(prev.j+1)*lda+prev.j] = prev.beta
	}
	k0 := 0
	for ; r-(k0+nb) > minRest; k0 += nb {
		for t := 0; t < nb; t++ {
			j := k0 + t
			m1 := r - j - 1 // rows below j (> 0 in a panel)
			b.step(j, fz.team)
			if t > 0 {
				storeFirst()
			}
			// 1. Row j, columns j on: Z0 - X*Pᵀ - Q*Yᵀ.
			row := a[j*lda+j : j*lda+c]
			if t > 0 {
				kernels.Gemv(true, t, c-j, -1, vm[j:], c, wm[j*ldw:j*ldw+t], 1, row)
				kernels.Gemv(true, t, c-j, -1, vm[nb*c+j:], c, wm[j*ldw+nb:j*ldw+nb+t], 1, row)
			}
			// 2. H_j, and p_t as row t of V.
			tp := house.House(row)
			b.d[j], b.taup[j] = row[0], tp
			p := vm[t*c : (t+1)*c]
			clear(p[:j])
			p[j] = 1
			copy(p[j+1:], row[1:])
			// 3. x_t = tp*(Z0*p - X*(Pᵀp) - Q*(Yᵀp)) and column j after
			// H_j, Z0[:, j] - X*P[:, j]ᵀ - Q*Y[:, j]ᵀ, on rows j+1 on,
			// in one pass over Z0 (fusedPass) that also makes h, Z0ᵀ
			// times the column below j+1, for step 6. The pass's pieces
			// of rows first gather their part of the column and set
			// their part of the corrections (X and Q times the panel's
			// vectors) in xt and col.
			xt := tmp[:m1]
			col := tmp[(1+t%2)*r : (1+t%2)*r+m1]
			pp, yp, pj, yj := small[:t], small[ldw:ldw+t], small[2*ldw:2*ldw+t], small[3*ldw:3*ldw+t]
			if t > 0 {
				kernels.Gemv(false, t, c-j, 1, vm[j:], c, p[j:], 0, pp)
				kernels.Gemv(false, t, c-j, 1, vm[nb*c+j:], c, p[j:], 0, yp)
				for s := range pj {
					pj[s] = vm[s*c+j]
					yj[s] = vm[(nb+s)*c+j]
				}
			}
			corrections := func(r0, r1 int) {
				if t > 0 {
					// Row j+1+i is row prev.j+1+(i+1).
					store(r0+1, r1+1)
				}
				for i := r0; i < r1; i++ {
					col[i] = a[(j+1+i)*lda+j]
				}
				if t == 0 {
					clear(xt[r0:r1])
					return
				}
				x, q := wm[(j+1+r0)*ldw:], wm[(j+1+r0)*ldw+nb:]
				kernels.Gemv(false, r1-r0, t, 1, x, ldw, pp, 0, xt[r0:r1])
				kernels.Gemv(false, r1-r0, t, 1, q, ldw, yp, 1, xt[r0:r1])
				kernels.Gemv(false, r1-r0, t, -1, x, ldw, pj, 1, col[r0:r1])
				kernels.Gemv(false, r1-r0, t, -1, q, ldw, yj, 1, col[r0:r1])
			}
			// Each row's corrections take the same operations in a
			// piece of rows as in all of them (the matrix-vector
			// kernels' rows are independent): on one goroutine they
			// are made at once, the fewest kernel calls.
			pre := corrections
			if fz.team.Workers() == 1 {
				corrections(0, m1)
				pre = func(int, int) {}
			}
			split := splitRows(m1, c-j)
			// After the pass, each piece stores x_t as column t of W on
			// its rows and makes its part of W's rows below the first
			// times the column: (X, x_t)ᵀ col and Qᵀ col (see step 6).
			parts := fz.partBuf(split.pieces, 2*t+1)
			post := func(i, r0, r1 int) {
				for k := r0; k < r1; k++ {
					wm[(j+1+k)*ldw+t] = xt[k]
				}
				r0 = max(r0, 1)
				if r0 >= r1 {
					return
				}
				pw := parts[i*(2*t+1) : (i+1)*(2*t+1)]
				kernels.Gemv(true, r1-r0, t+1, 1, wm[(j+1+r0)*ldw:], ldw, col[r0:r1], 0, pw[:t+1])
				if t > 0 {
					kernels.Gemv(true, r1-r0, t, 1, wm[(j+1+r0)*ldw+nb:], ldw, col[r0:r1], 0, pw[t+1:])
				}
			}
			h := fz.run(split, a[(j+1)*lda+j:], lda, m1, c-j, p[j:], tp, xt, col, pre, post)
			// 5. G_j from the column (its first element alpha, the rest
			// x_rest), to be stored in column j, and q_t as column nb+t
			// of W (by the next step's pieces; see prev).
			q := col
			alpha := q[0]
			tq, scale := house.HouseScale(q)
			b.e[j], b.tauq[j] = q[0], tq
			q[0] = 1
			// 6. y_t = tq*(Z0ᵀq - P*(Xᵀq) - Y*(Qᵀq)) on columns j+1 on,
			// with Z0ᵀq = Z0[j+1, :] + h/(alpha-beta) (House's q is e_0
			// + x_rest/(alpha-beta)). When House scaled the column
			// plainly (q_rest = x_rest*scale), Xᵀq and Qᵀq are W's first
			// row plus scale times the pieces' products with x_rest,
			// made by the pass on the goroutines that hold these rows in
			// cache (a loop of pieces of its own cost a tenth of the
			// reduction at 500 x 500 on two workers); otherwise (a
			// column near underflow or overflow) a loop of pieces forms
			// them from q. q is stored by the next step's pieces either
			// way. Then y_t is made on this goroutine, which
			// reads it and the next row in the next step (a few
			// microseconds: shared out, y_t cost more at 500 x 500 than
			// it saved).
			var wx, wq []float64
			prev.j, prev.t, prev.beta, prev.q = j, t, b.e[j], q
			if tq == 0 {
				clear(vm[(nb+t)*c : (nb+t+1)*c])
				continue
			}
			if scale != 0 {
				wx, wq = sumParts(parts, split.pieces, 2*t+1, t)
				w0 := wm[(j+1)*ldw:]
				for s := range wx {
					wx[s] = w0[s] + scale*wx[s]
				}
				for s := range wq {
					wq[s] = w0[nb+s] + scale*wq[s]
				}
			} else {
				wx, wq = fz.rowProducts(split, t, func(i int, wx, wq []float64) {
					r0, r1 := split.rows(i)
					kernels.Gemv(true, r1-r0, t+1, 1, wm[(j+1+r0)*ldw:], ldw, q[r0:r1], 0, wx)
					if t > 0 {
						kernels.Gemv(true, r1-r0, t, 1, wm[(j+1+r0)*ldw+nb:], ldw, q[r0:r1], 0, wq)
					}
				})
			}
			yt := vm[(nb+t)*c : (nb+t+1)*c]
			clear(yt[:j+1])
			ys := yt[j+1:]
			if den := alpha - b.e[j]; math.Abs(den) > 0x1p-900 {
				copy(ys, a[(j+1)*lda+j+1:(j+1)*lda+c])
				kernels.Axpy(1/den, h, ys)
			} else {
				parGemv(fz.team, true, m1, c-j-1, a[(j+1)*lda+j+1:], lda, q, ys)
			}
			kernels.Gemv(true, t+1, c-j-1, -1, vm[j+1:], c, wx, 1, ys)
			if t > 0 {
				kernels.Gemv(true, t, c-j-1, -1, vm[nb*c+j+1:], c, wq, 1, ys)
			}
			kernels.Scal(tq, ys)
		}
		storeFirst()
		store(1, r-prev.j-1)
		// The trailing matrix: Z0 - [X Q]*[P; Y] on rows and columns k1 on.
		k1 := k0 + nb
		updateTrailing(fz.team, r-k1, c-k1, ldw, wm[k1*ldw:], ldw, vm[k1:], c, a[k1*lda+k1:], lda)
	}
	return k0
}

// trailRows is the least number of rows of C in a piece of
// updateTrailing, a multiple of every micro-kernel's rows (4, 6 and 8).
const trailRows = 48

// updateTrailing sets C = C - W*V for the m x n C (row stride ldc), W
// (m x k) and V (k x n). On a team of one it is one Gemm; on more, the
// rows of C are cut into one piece a worker, in multiples of trailRows
// rows, each one GemmSerial on the team: the product's packing of V is
// repeated in each piece, but the team's helpers need no waking, and
// keep their rows of C in cache from the steps before. (Two pieces a
// worker, which balance better, packed V twice as often: the updates
// took 2.05 ms against 1.9 at 500 x 500 on two workers.) The bits are
// Gemm's either way (each element of C takes the same operations),
// which TestBidiagonalWorkers checks.
func updateTrailing(team *par.Team, m, n, k int, w []float64, ldw int, v []float64, ldv int, c []float64, ldc int) {
	pieces := min(team.Workers(), m/trailRows)
	if team.Workers() < 2 || pieces < 2 {
		kernels.Gemm(false, false, m, n, k, -1, w, ldw, v, ldv, 1, c, ldc)
		return
	}
	per := (m/pieces + trailRows - 1) / trailRows * trailRows
	pieces = (m + per - 1) / per
	team.For(pieces, func(i int) {
		r0 := i * per
		rows := min(per, m-r0)
		kernels.GemmSerial(false, false, rows, n, k, -1, w[r0*ldw:], ldw, v, ldv, 1, c[r0*ldc:], ldc)
	})
}

// fusedPass makes the two matrix-vector products of a panel step in one
// pass over the trailing matrix (vec.GemvNTAt: both products of a few
// rows while they are in cache): the steps are bound by the memory
// traffic of these products, and the pass halves it.
type fusedPass struct {
	team  *par.Team // the goroutines the pieces run on
	h     []float64 // the second product, with a leading element
	parts []float64 // per-piece partial second products, likewise
	xc    []float64 // the pairs (x, col) of the rows, for GemvNTAt
	// rowParts holds the pieces' parts of Xᵀq and Qᵀq (rowProducts), or
	// of the products with the column (partBuf).
	rowParts []float64
}

// fusedPieces is the most pieces a pass is cut into (for the
// goroutines), and fusedChunk the least number of elements of a piece:
// with the helpers of a par.Team waiting, a piece of 16384 elements
// (several microseconds) is worth its share of a loop, while on one
// goroutine the pieces' partial sums cost little (8192 cost about 4% of
// the reduction at 300 x 300). Each piece costs its own corrections,
// products with the column and partial sum: 6 pieces (3 a worker on two,
// 2 on three) took the SVD at 500 x 500 on two workers 0.2 to 0.8 ms
// below 8 (of about 25; three runs of 41 rounds in random order), 4 and
// 12 to 16 in between, and the same on one worker and at 1000 x 1000.
const (
	fusedPieces = 6
	fusedChunk  = 1 << 14
)

// fusedSplit is a cut of m rows into pieces of per rows (the last one
// shorter), by the sizes alone.
type fusedSplit struct{ m, pieces, per int }

// splitRows cuts m >= 1 rows of n columns into at most fusedPieces
// pieces of at least about fusedChunk elements.
func splitRows(m, n int) fusedSplit {
	pieces := min(fusedPieces, m, max(1, m*n/fusedChunk))
	per := (m + pieces - 1) / pieces
	return fusedSplit{m: m, pieces: (m + per - 1) / per, per: per}
}

// rows returns the rows [r0, r1) of piece i.
func (s fusedSplit) rows(i int) (r0, r1 int) { return i * s.per, min((i+1)*s.per, s.m) }

// run computes, for the m x n matrix z (row stride ldz) and the n-vector
// p, with x (m elements) and col (m) holding corrections on entry:
//
//	x   = tp*(z*p - x),  col = col - x,
//	h   = z[1:, 1:]ᵀ * col[1:]  (n-1 elements),
//
// and returns h. The rows are cut by split (of m rows) into pieces that
// run on the goroutines of f.team, each with its own partial h, added up
// in order: the result does not depend on the number of goroutines.
// Each piece first calls pre(r0, r1) for its rows, which sets their
// corrections, and last post(i, r0, r1), with x and col final on them.
func (f *fusedPass) run(split fusedSplit, z []float64, ldz, m, n int, p []float64, tp float64, x, col []float64, pre func(r0, r1 int), post func(i, r0, r1 int)) []float64 {
	pieces := split.pieces
	if cap(f.h) < n {
		f.h = make([]float64, n)
	}
	if pieces > 1 && cap(f.parts) < pieces*n {
		f.parts = make([]float64, pieces*n)
	}
	if cap(f.xc) < 2*m {
		f.xc = make([]float64, 2*m)
	}
	lv := simd.Current()
	work := func(i int) {
		// hf[1:] is the piece's part of h; hf[0] takes column 0's
		// products, which h leaves out.
		hf := f.h[:n]
		if pieces > 1 {
			hf = f.parts[i*n : (i+1)*n]
		}
		clear(hf)
		r0, r1 := split.rows(i)
		pre(r0, r1)
		defer post(i, r0, r1)
		if r0 == 0 && r1 > 0 {
			// Row 0 takes no part in h.
			x[0] = tp * (kernels.Dot(z[:n], p) - x[0])
			col[0] -= x[0]
			r0 = 1
		}
		if r0 >= r1 {
			return
		}
		xc := f.xc[2*r0 : 2*r1]
		for r := r0; r < r1; r++ {
			xc[2*(r-r0)], xc[2*(r-r0)+1] = x[r], col[r]
		}
		vec.GemvNTAt(lv, r1-r0, n, tp, z[r0*ldz:], ldz, p, hf, xc)
		for r := r0; r < r1; r++ {
			x[r], col[r] = xc[2*(r-r0)], xc[2*(r-r0)+1]
		}
	}
	if pieces == 1 {
		work(0)
		return f.h[1:n]
	}
	f.team.For(pieces, work)
	h := f.h[1:n]
	copy(h, f.parts[1:n])
	for i := 1; i < pieces; i++ {
		kernels.Axpy(1, f.parts[i*n+1:(i+1)*n], h)
	}
	return h
}

// rowProducts runs part(i, wx, wq) for the pieces i of split on f.team,
// each with its own wx (t+1 elements) and wq (t), and returns their
// sums, added in piece order (so the same for any number of goroutines).
func (f *fusedPass) rowProducts(split fusedSplit, t int, part func(i int, wx, wq []float64)) (wx, wq []float64) {
	w := 2*t + 1
	ps := f.partBuf(split.pieces, w)
	f.team.For(split.pieces, func(i int) {
		pw := ps[i*w : (i+1)*w]
		part(i, pw[:t+1], pw[t+1:])
	})
	return sumParts(ps, split.pieces, w, t)
}

// partBuf returns room, cleared, for pieces parts of w elements each
// (the pieces' parts of Xᵀq and Qᵀq, or of the products with the column).
func (f *fusedPass) partBuf(pieces, w int) []float64 {
	if cap(f.rowParts) < pieces*w {
		f.rowParts = make([]float64, pieces*w)
	}
	ps := f.rowParts[:pieces*w]
	clear(ps)
	return ps
}

// sumParts adds the pieces' parts of ps (pieces of w = 2t+1 elements)
// into the first, in piece order, and returns its t+1 and t elements.
func sumParts(ps []float64, pieces, w, t int) (wx, wq []float64) {
	for i := 1; i < pieces; i++ {
		kernels.Axpy(1, ps[i*w:(i+1)*w], ps[:w])
	}
	return ps[:t+1], ps[t+1 : w]
}

// parGemvMin is the size (rows times columns) from which parGemv splits
// its product among goroutines, and parGemvChunk the least size of a
// piece.
const (
	parGemvMin   = 1 << 15
	parGemvChunk = 1 << 14
)

// parGemv sets y = A*x (trans false; y has m elements) or y = Aᵀ*x (trans
// true; y has n elements) for the m x n row-major A (row stride lda). A
// large product is cut into pieces of y (rows of A, or columns), a
// number of them that depends on the size alone and at multiples of 8,
// computed on the goroutines of team: every element of y is computed by
// the same operations whatever the number of goroutines.
func parGemv(team *par.Team, trans bool, m, n int, a []float64, lda int, x, y []float64) {
	size := m * n
	if team.Workers() < 2 || size < parGemvMin {
		kernels.Gemv(trans, m, n, 1, a, lda, x, 0, y)
		return
	}
	ny := m
	if trans {
		ny = n
	}
	pieces := min(size/parGemvChunk, 16, (ny+7)/8)
	step := ((ny+pieces-1)/pieces + 7) &^ 7
	pieces = (ny + step - 1) / step
	team.For(pieces, func(i int) {
		lo := i * step
		hi := min(lo+step, ny)
		if trans {
			kernels.Gemv(true, m, hi-lo, 1, a[lo:], lda, x, 0, y[lo:hi])
		} else {
			kernels.Gemv(false, hi-lo, n, 1, a[lo*lda:], lda, x, 0, y[lo:hi])
		}
	})
}

// rightReflectors returns the row reflectors H_0..H_{r-1} in the form of
// package house: its Q_full is Prᵀ.
func (b *bidiagReduction) rightReflectors() *house.Reflectors {
	return &house.Reflectors{A: b.a, Lda: b.lda, M: b.r, N: b.c, Tau: b.taup, BlockWork: backBlockWork, Block: backBlock(b.r)}
}

// leftReflectors returns the column reflectors G_0..G_{r-2}, copied into
// rows (reflector j in row j of an (r-1) x (r-1) matrix, its implicit 1
// at column j, which stands for row j+1 of Z), in the form of package
// house: its Q_full is Qlᵀ restricted to rows 1..r-1. Nil for r < 2.
// The rows are written into buf when it holds (r-1)^2 floats (only the
// parts right of the diagonal, all that package house reads), else into
// new memory.
func (b *bidiagReduction) leftReflectors(buf []float64) *house.Reflectors {
	n := b.r - 1
	if n < 1 {
		return nil
	}
	// qt[j][i] = Z[i+1][j] for i > j, in square tiles so that the rows
	// read and written stay in cache.
	qt := buf
	if len(qt) < n*n {
		qt = make([]float64, n*n)
	}
	const tile = 32
	for i0 := 0; i0 < n; i0 += tile {
		i1 := min(i0+tile, n)
		// The tiles left of the diagonal whole, then the diagonal one.
		transposeTile(qt, n, b.a[b.lda:], b.lda, i0, i1, 0, i0)
		for i := i0 + 1; i < i1; i++ {
			src := b.a[(i+1)*b.lda : (i+1)*b.lda+i]
			for j := i0; j < i; j++ {
				qt[j*n+i] = src[j]
			}
		}
	}
	return &house.Reflectors{A: qt, Lda: n, M: n, N: n, Tau: b.tauq, BlockWork: backBlockWork, Block: backBlock(b.r)}
}

// bidiagCrossover is the least min(m, n) at which MethodAuto uses the
// bidiagonal path. Measured on Gaussian m x n matrices (time of
// Factorize with U and V, one core, AVX-512, medians of 5 interleaved
// runs; 2026-11-25): at min(m, n) = 48 the Jacobi path took 1.04 to 1.29
// times as long as the bidiagonal one for every shape from square to 20
// times as tall or as wide, at 56 1.11 to 1.54 times, at 40 0.95 to 1.30
// times, at 32 0.90 to 1.09 times and at 24 0.85 to 0.99 times (the
// crossover was 64 when the bidiagonal solve was slower).
const bidiagCrossover = 48

// backBlockWork is the least work (reflectors times their length times
// the columns they act on) at which the back-transformation applies the
// reduction's reflectors in compact WY blocks rather than one at a time.
// Measured on Gaussian n x n matrices (CPU time, one core, both sides,
// medians under load): at n = 100 both take 0.27 to 0.30 ms; at 150 one
// at a time takes 0.92 to 1.00 ms against 0.76 to 0.91 blocked (blocks of
// 24), at 200 1.63 to 1.69 against 1.44 to 1.54. Package house's default
// (1<<19) would block from n = 81 on.
const backBlockWork = 2e6

// backBlock is the number of reflectors in a compact WY block of the
// back-transformation of an r x r bidiagonal reduction: 24 up to r = 400
// (at n = 150 to 300, 5 to 15% faster than package house's 32), house's
// default above (the same at n = 500 and 1000).
func backBlock(r int) int {
	if r <= 400 {
		return 24
	}
	return 0
}

// lqFirstRatio: the bidiagonal path factors Z = L*Q0 first when Z has
// more than lqFirstRatio times as many columns as rows (LAPACK's dgesdd
// does so from 11/6), so that the reduction works on the square L.
const lqFirstRatio = 1.6

// bidiagPath is the state of Factorize's bidiagonal path, in three
// stages (reduce, solve, back) that the benchmarks time one by one.
type bidiagPath struct {
	tall        bool
	r, c        int
	shift       int // Z is A (or Aᵀ) times 2^-shift
	left, right bool
	z           *mat.Dense
	f0          *house.Reflectors // Z = L*Q0 when Z is much wider; else nil
	b           *bidiagReduction
	ut, vt      []float64
	// slab is the pooled scratch (getScratch) that holds Z, L, ut, vt
	// and the divide and conquer's scratch, in that order.
	slab []float64
}

// lqFirst reports whether the path factors an r x c Z = L*Q0 first.
func lqFirst(r, c int) bool { return float64(c) > lqFirstRatio*float64(r) }

// slabSize is the number of floats of the slab of an r x c path.
func slabSize(r, c int) int {
	n := r*c + 6*r*r
	if lqFirst(r, c) {
		n += r * r
	}
	return n
}

// slabParts returns the parts of the slab of an r x c path: Z, L (r x r,
// when Z is factored first; else nil), ut, vt and the divide and
// conquer's scratch (4r², the most its merges use).
func slabParts(slab []float64, r, c int) (z, l, ut, vt, dc []float64) {
	z, slab = slab[:r*c:r*c], slab[r*c:]
	if lqFirst(r, c) {
		l, slab = slab[:r*r:r*r], slab[r*r:]
	}
	ut, slab = slab[:r*r:r*r], slab[r*r:]
	vt, slab = slab[:r*r:r*r], slab[r*r:]
	return z, l, ut, vt, slab[:4*r*r]
}

// newBidiagPath prepares the bidiagonal path for an m x n a that is not
// zero, amax its largest magnitude (finite, not zero): Z = A, or Aᵀ when
// A is tall, scaled by a power of two so that its largest magnitude is in
// [0.5, 1) (exact, unless entries underflow), as scaleToUnit scales it,
// copied and scaled chunk by chunk (a tall A is transposed first).
func newBidiagPath(a *mat.Dense, amax float64, wantU, wantV bool) *bidiagPath {
	m, n := a.Dims()
	p := &bidiagPath{tall: m > n, r: m, c: n}
	if p.tall {
		p.r, p.c = n, m
	}
	// Z and the scratch in one pooled slab (see scratchPool: fresh
	// memory costs its page faults at every call), not cleared: Z is
	// written whole here, the rest before use.
	r, c := p.r, p.c
	p.slab = getScratch(slabSize(r, c))
	zd, _, _, _, _ := slabParts(p.slab, r, c)
	_, p.shift = math.Frexp(amax)
	if p.tall {
		gatherRowsT(zd, a, nil)
	}
	bdRows(r, c, func(lo, hi int) {
		if !p.tall {
			for i := lo; i < hi; i++ {
				copy(zd[i*c:(i+1)*c], a.RawRow(i))
			}
		}
		chunk := mat.New(hi-lo, c, zd[lo*c:hi*c])
		chunk.ScalePow2(-p.shift, chunk)
	})
	p.z = mat.New(r, c, zd)
	p.left = (wantU && !p.tall) || (wantV && p.tall)
	p.right = (wantV && !p.tall) || (wantU && p.tall)
	return p
}

// reduce is the first stage: Z = L*Q0 first when Z is much wider than
// high, then the reduction of Z (or L) to bidiagonal form, with hook (nil:
// none) called on the way.
func (p *bidiagPath) reduce(hook *reduceHook) {
	r, c := p.r, p.c
	zd := p.z.RawData()
	w, lw := zd, c
	if lqFirst(r, c) {
		if p.right {
			// Q0 will be applied to the right vectors.
			p.f0 = house.FactorT(r, c, zd, c)
		} else {
			p.f0 = house.Factor(r, c, zd, c)
		}
		_, w, _, _, _ = slabParts(p.slab, r, c)
		clear(w)
		for i := 0; i < r; i++ {
			copy(w[i*r:i*r+i+1], zd[i*c:i*c+i+1])
		}
		lw = r
	}
	p.b = reduceBidiag(w, r, lw, lw, hook)
}

// solve is the second stage: the SVD of the bidiagonal matrix. It
// reports false if that did not converge. With vectors it is bdcVectors,
// unscaled and with no check for NaN: Z's entries are finite and below
// 1, so B's (its singular values) are below sqrt(r*c), far from overflow
// in their squares.
func (p *bidiagPath) solve() bool {
	r := p.r
	if !p.left && !p.right {
		return bidiagSVD(p.b.d, p.b.e, nil, nil, r)
	}
	// Both sides (the divide and conquer computes both).
	var dc []float64
	_, _, p.ut, p.vt, dc = slabParts(p.slab, r, p.c)
	return bdcVectors(p.b.d, p.b.e, p.ut, p.vt, r, dc)
}

// overlapMin is the least order of the bidiagonal matrix at which
// reduceSolve overlaps the reduction and the divide and conquer.
const overlapMin = 200

// reduceSolve is reduce and then solve, with the same bits. With vectors,
// two or more workers and r >= overlapMin it overlaps them: the first
// half of the divide and conquer (bdcSplit) needs the first (r-1)/2 steps
// of the reduction alone, so it starts on a helper of the reduction's
// team when they are done (on a goroutine of its own when that step is
// in the unblocked part, as below order about 290), while the reduction
// goes on with the others
// (its last steps, on a small trailing matrix, gain little from a
// second worker), and with all again once that half is solved; the
// second half and the merge follow the reduction. At 500 x 500 on two
// workers the whole SVD took about 1 ms less (26.3 to 25.3 ms, medians
// of 61 rounds in random order; the paired gains spread from 0 to 2 ms
// on a shared machine), at 200 x 200 2.5% less, at 1000 x 1000 the same.
func (p *bidiagPath) reduceSolve() bool {
	r := p.r
	if (!p.left && !p.right) || r < overlapMin || kernels.Workers() < 2 {
		p.reduce(nil)
		return p.solve()
	}
	var dc []float64
	_, _, p.ut, p.vt, dc = slabParts(p.slab, r, p.c)
	var (
		split *bdcSplit
		ok1   bool
		wait  func()
	)
	m1, _ := bdHalves(r)
	p.reduce(&reduceHook{at: m1, start: func(d, e []float64, run func(func()) func()) {
		split = newBDCSplit(d, e, p.ut, p.vt, r, dc)
		wait = run(func() { ok1 = split.first() })
	}})
	if split == nil {
		panic("svd: internal error: the reduction did not reach its hook")
	}
	ok2 := split.second()
	wait()
	if !ok1 || !ok2 {
		return false
	}
	split.finish()
	return true
}

// back is the third stage: the singular vectors of A from those of the
// bidiagonal matrix, and the result.
func (p *bidiagPath) back() *SVD {
	r, c := p.r, p.c
	res := &SVD{S: make([]float64, r)}
	for i, v := range p.b.d {
		res.S[i] = math.Ldexp(v, p.shift)
	}
	// The two sides are independent: on several goroutines they run at
	// once, so that their parts that are not matrix products overlap.
	var uz, vz *mat.Dense
	var sides []func()
	if p.left {
		sides = append(sides, func() {
			// U_Z = Ql*vtᵀ: vtᵀ, then Qlᵀ's reflectors on rows 1..r-1.
			uz = mat.Zeros(r, r)
			transposeCopy(uz.RawData(), p.vt, r)
			// vt is spent: the reflectors' rows go there.
			if ql := p.b.leftReflectors(p.vt); ql != nil {
				ql.MulLeft(true, r, uz.RawData()[r:], r)
			}
		})
	}
	if p.right {
		sides = append(sides, func() {
			// V_Z = Q0ᵀ*[Pr*[utᵀ; 0]; 0].
			vz = mat.Zeros(c, r)
			vd := vz.RawData()
			// Y = Pr*utᵀ (r x r): in V_Z's top rows, or with Z = L*Q0
			// first and Q0 in several blocks in the merges' scratch,
			// spent by now. There V_Z = Qᵀ*Y with Q the first r rows of
			// Q0 formed explicitly (FormQ takes half the work of
			// applying Q0ᵀ to [Y; 0]) and one matrix product (the other
			// half, at its speed), as LAPACK's dgesdd does: at 2000 x
			// 200 the whole SVD on one core went from 23.1 to 21.7 ms
			// (medians of interleaved runs), at 1000 x 80 from 2.8 to
			// 2.7. With one block (r up to house.UnblockedMax)
			// MulLeftTop's first product reads only Y's r rows, and
			// FormQ plus the product take twice its work: 1000 x 50 went
			// from 1.3-1.4 to 1.6-1.7 ms that way.
			formQ := p.f0 != nil && r > house.UnblockedMax
			y := vd
			if formQ {
				_, _, _, _, dc := slabParts(p.slab, r, c)
				y = dc[:r*r]
			}
			transposeCopy(y, p.ut, r)
			// Rows r on are zero (MulLeftTop saves the scan for them).
			p.b.rightReflectors().MulLeftTop(true, r, r, y, r)
			switch {
			case formQ:
				q := getScratch(r * c)
				p.f0.FormQ(r, q, c)
				kernels.Gemm(true, false, c, r, r, 1, q, c, y, r, 0, vd, r)
				putScratch(q)
			case p.f0 != nil:
				p.f0.MulLeftTop(true, r, r, vd, r)
			}
		})
	}
	_ = par.For(context.Background(), len(sides), kernels.Workers(), func(i int) { sides[i]() })
	if p.tall {
		res.U, res.V = vz, uz
	} else {
		res.U, res.V = uz, vz
	}
	return res
}

// factorizeBidiag is Factorize's bidiagonal path for a finite m x n a
// that is not zero.
func factorizeBidiag(a *mat.Dense, amax float64, wantU, wantV bool) (*SVD, error) {
	p := newBidiagPath(a, amax, wantU, wantV)
	if !p.reduceSolve() {
		return nil, &ConvergenceError{Method: "bidiagonal SVD"}
	}
	res := p.back()
	putScratch(p.slab)
	return res, nil
}

// transposeCopy sets the top n x n block of dst (row stride n) to the
// transpose of the n x n src, in tiles that stay in cache.
func transposeCopy(dst, src []float64, n int) {
	const tile = 32
	for i0 := 0; i0 < n; i0 += tile {
		for j0 := 0; j0 < n; j0 += tile {
			transposeTile(dst, n, src, n, i0, min(i0+tile, n), j0, min(j0+tile, n))
		}
	}
}

// transposeTile sets dst[j*ldd+i] = src[i*lds+j] for i0 <= i < i1 and
// j0 <= j < j1: four rows of src at a time, so that each row of dst
// takes four contiguous elements per write (twice the speed of one
// element at a time).
func transposeTile(dst []float64, ldd int, src []float64, lds int, i0, i1, j0, j1 int) {
	if j1 <= j0 {
		return
	}
	i := i0
	for ; i+4 <= i1; i += 4 {
		s0 := src[i*lds+j0 : i*lds+j1]
		s1 := src[(i+1)*lds+j0 : (i+1)*lds+j1]
		s2 := src[(i+2)*lds+j0 : (i+2)*lds+j1]
		s3 := src[(i+3)*lds+j0 : (i+3)*lds+j1]
		s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
		for j, x := range s0 {
			d := dst[(j0+j)*ldd+i : (j0+j)*ldd+i+4]
			d[0], d[1], d[2], d[3] = x, s1[j], s2[j], s3[j]
		}
	}
	for ; i < i1; i++ {
		for j := j0; j < j1; j++ {
			dst[j*ldd+i] = src[i*lds+j]
		}
	}
}
