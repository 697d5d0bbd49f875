// Package house holds the Householder reflectors that act on the rows
// of row-major matrices, shared by packages lq and svd: the reflector of
// a row (House), its application to a block of rows or columns, the LQ
// factorization of a matrix into reflectors stored in place (Factor;
// FactorT also forms the T factor of a single block on the way), and
// products with the orthogonal matrix they form (MulLeftTop skips the
// scan for trailing zero rows that the caller knows of), applied in
// blocks of BlockSize reflectors as compact WY transformations.
//
// A reflector is H = I - tau*vᵀ*v for a row vector v with v[0] = 1; the
// LQ factorization of an m x n matrix stores reflector i in row i of the
// factored matrix, in columns i+1 to n-1 (the leading 1 is implicit), and
// L on and below the diagonal. The reflectors are applied in blocks of
// BlockSize as compact WY transformations I - Vᵀ*T*V, with V the
// ib x (n-i0) matrix of the block's reflectors and T upper triangular
// (Schreiber and Van Loan).
package house

import (
	"context"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/kernels"
)

const (
	eps    = 0x1p-53
	safmin = 0x1p-1022
)

// BlockSize is the number of reflectors in one compact WY block.
const BlockSize = 32

// House overwrites x with the reflector that maps it to a multiple of
// e_0 when applied from the right: x*H = (beta, 0, ..., 0). On return
// x[0] = beta and x[1:] holds v[1:]; the result is tau (0 when x[1:] is
// already zero, so that H = I).
func House(x []float64) float64 {
	tau, _ := HouseScale(x)
	return tau
}

// HouseScale is House, and also returns the factor r by which it scaled
// x[1:] (v[1:] = x[1:]*r, rounded once, r = 1/(alpha - beta)) when it
// took that plain path; r is 0 when tau is 0 or when x was rescaled
// first (entries near underflow or overflow), so that v[1:] is not
// x[1:]*r. A caller that knows products with x[1:] can then form those
// with v from them.
func HouseScale(x []float64) (tau, r float64) {
	if len(x) <= 1 {
		return 0, 0
	}
	alpha := x[0]
	xnorm := kernels.Nrm2(x[1:])
	if xnorm == 0 {
		return 0, 0
	}
	beta := -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	// If beta is tiny, v[1:] = x[1:]/(alpha-beta) could overflow: scale x
	// up by a power of two (exactly) until it is not, and beta back down.
	const small = safmin / eps
	knt := 0
	if math.Abs(beta) < small {
		const up = 1 / small
		for math.Abs(beta) < small && knt < 20 {
			knt++
			kernels.Scal(up, x[1:])
			beta *= up
			alpha *= up
		}
		xnorm = kernels.Nrm2(x[1:])
		beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	}
	// tau = (beta - alpha)/beta and v = x/(alpha - beta), written so that
	// neither overflows for entries near the top of the range (alpha and
	// beta have opposite signs, so there is no cancellation).
	tau = 1 - alpha/beta
	if math.Abs(beta) > 0x1p1000 {
		kernels.Scal(0x1p-600, x[1:])
		kernels.Scal(1/(alpha*0x1p-600-beta*0x1p-600), x[1:])
	} else {
		r = 1 / (alpha - beta)
		kernels.Scal(r, x[1:])
	}
	if knt > 0 {
		r = 0
	}
	for ; knt > 0; knt-- {
		beta *= small
	}
	x[0] = beta
	return tau, r
}

// ReflectRight applies H = I - tau*vᵀ*v from the right to the rows of
// the r x len(v) matrix c (row stride ldc): c_i -= tau*(c_i.v)*v, as a
// matrix-vector product w = c*v and a rank-one update (LAPACK's dlarf).
// v[0] must be 1; w is scratch of r elements.
func ReflectRight(tau float64, v []float64, r int, c []float64, ldc int, w []float64) {
	if tau == 0 || r == 0 {
		return
	}
	l := len(v)
	kernels.Gemv(false, r, l, 1, c, ldc, v, 0, w[:r])
	kernels.Ger(r, l, -tau, w[:r], v, c, ldc)
}

// ReflectLeft applies H = I - tau*vᵀ*v from the left to the len(v) x r
// matrix c: c -= tau*vᵀ*(v*c). v[0] must be 1; w is scratch of r
// elements.
func ReflectLeft(tau float64, v []float64, r int, c []float64, ldc int, w []float64) {
	if tau == 0 || r == 0 {
		return
	}
	l := len(v)
	kernels.Gemv(true, l, r, 1, c, ldc, v, 0, w[:r])
	kernels.Ger(l, r, -tau, v, w[:r], c, ldc)
}

// block is one compact WY block of reflectors: rows i0 to i0+ib-1 of the
// factored matrix, acting on columns i0 to n-1.
type block struct {
	i0, ib int
	// t is the ib x ib upper triangular factor, row-major.
	t []float64
}

// Reflectors is the factored form of Q: the matrix holding v_i in row i
// right of column i, the taus, and the T factors of the blocks.
type Reflectors struct {
	A    []float64 // factored matrix, row-major
	Lda  int
	M, N int // shape of the factored matrix
	Tau  []float64
	// Block is the number of reflectors in the compact WY blocks that
	// the products form (Factor forms its own, of BlockSize); 0 means
	// BlockSize, or one block of all of them when there are at most
	// UnblockedMax and the factorization formed none.
	Block int
	// BlockWork is the least work, k*r*N for k reflectors and r rows or
	// columns on the other side, at which a product runs blocked; 0
	// means 1<<19.
	BlockWork float64
	blocks    []block
	// mu guards the forming of blocks and of their T factors, which the
	// products do on first use, so that goroutines can share f.
	mu sync.Mutex
}

// Factorizations and products with at most UnblockedMax reflectors (or
// with few rows or columns on the other side) apply the reflectors one
// at a time; above that, blocks of BlockSize reflectors in compact WY
// form run on the matrix product. LAPACK's crossover for QR is similar
// (it factors unblocked below 128 columns).
const UnblockedMax = 64

// Factor computes the LQ factorization of the m x n matrix a (row
// stride lda) in place and returns the reflectors (which keep a
// reference to a). Panels of BlockSize rows are factored one reflector
// at a time; while more than UnblockedMax rows remain below a panel, the
// rest of the matrix is updated with the panel's compact WY form, in
// pieces of rows on up to kernels.Workers() goroutines, one of which
// factors the next panel as soon as its rows are updated. The bits do
// not depend on the number of workers.
func Factor(m, n int, a []float64, lda int) *Reflectors {
	return factor(m, n, a, lda, false)
}

// FactorT is Factor for a matrix whose products with Q will run blocked
// (see Reflectors.BlockWork): when it has at most UnblockedMax
// reflectors, which the products apply as one compact WY block, it
// forms that block's T along the way. The Gram matrix of the reflectors
// that T needs then comes from the matrix-vector product of each step,
// extended from the rows below the reflector to all the rows (the rows
// above hold the earlier reflectors), in place of a separate product of
// all the reflectors with themselves on the first use of the block. For
// a 50 x 1000 matrix that costs about half as much. Otherwise it is
// Factor.
func FactorT(m, n int, a []float64, lda int) *Reflectors {
	return factor(m, n, a, lda, true)
}

func factor(m, n int, a []float64, lda int, withT bool) *Reflectors {
	k := min(m, n)
	f := &Reflectors{A: a, Lda: lda, M: m, N: n, Tau: make([]float64, k)}
	if k == 0 {
		return f
	}
	w := make([]float64, m)
	blocked := k > UnblockedMax && m > UnblockedMax
	if withT && !blocked && k >= 2 {
		f.factorGram(w)
		return f
	}
	// panelEnd returns the row after the panel that starts at row i0:
	// i0+BlockSize, or k when the rest is factored unblocked (each
	// reflector then updates every row below it at once; in a panel,
	// only the panel's rows).
	panelEnd := func(i0 int) int {
		if last := min(i0+BlockSize, k); blocked && m-last > UnblockedMax {
			return last
		}
		return k
	}
	// panel factors the panel from row i0, one reflector at a time, and
	// returns panelEnd(i0).
	panel := func(i0 int) int {
		last := panelEnd(i0)
		for i := i0; i < last; i++ {
			row := a[i*lda+i : i*lda+n]
			f.Tau[i] = House(row)
			rows := last - i - 1
			if last == k {
				rows = m - i - 1
			}
			if f.Tau[i] != 0 && rows > 0 {
				beta := row[0]
				row[0] = 1
				ReflectRight(f.Tau[i], row, rows, a[(i+1)*lda+i:], lda, w)
				row[0] = beta
			}
		}
		return last
	}
	var vw []float64 // the block's V1, free again once its update is done
	i0, last := 0, panel(0)
	for last < k {
		ib := last - i0
		b := block{i0: i0, ib: ib, t: make([]float64, ib*ib)}
		v := f.loadV(b, vw)
		vw = v.v1
		formT(b, v, f.Tau[i0:last])
		f.blocks = append(f.blocks, b)
		// Trailing rows: C = C (I - Vᵀ T V), in pieces of rows. The
		// next panel's rows are the first of C: when that panel is
		// blocked (it changes only its own rows), the goroutine that
		// updates the first piece factors it next, while the others
		// update the rest (look-ahead): the same operations, and on one
		// goroutine in the same order. With the pieces, the
		// factorization of a 1000 x 2000 matrix took 61 ms on two
		// workers instead of 69, and 89 instead of 91 on one
		// (BenchmarkPieces, medians of 3 runs).
		ahead := panelEnd(last) < k
		next := k
		c := a[last*lda+i0:]
		inPieces(m-last, func(lo, hi int, g gemmFunc, buf *pieceBuf) {
			buf.w = grow(buf.w, 2*(hi-lo)*ib)
			applyRight(g, false, hi-lo, v, b.t, c[lo*lda:], lda, buf.w)
			if lo == 0 && ahead {
				next = panel(last)
			}
		})
		if !ahead {
			next = panel(last)
		}
		i0, last = last, next
	}
	return f
}

// factorGram is Factor's unblocked loop for FactorT: it factors all the
// rows and records the Gram matrix of the reflectors, then forms the T
// of the block of all of them. w is scratch of m elements.
func (f *Reflectors) factorGram(w []float64) {
	m, n, k, a, lda := f.M, f.N, len(f.Tau), f.A, f.Lda
	t := make([]float64, k*k)
	for i := 0; i < k; i++ {
		row := a[i*lda+i : i*lda+n]
		f.Tau[i] = House(row)
		if f.Tau[i] == 0 {
			continue // column i of T is zero
		}
		beta := row[0]
		row[0] = 1
		// w = A[:, i:] v_i over all the rows: w[:i] = V[0:i] v_iᵀ (row
		// j < i holds v_j's elements i on), w[i+1:] the products the
		// update of the rows below needs.
		kernels.Gemv(false, m, n-i, 1, a[i:], lda, row, 0, w)
		for j := 0; j < i; j++ {
			t[j*k+i] = w[j]
		}
		if i+1 < m {
			kernels.Ger(m-i-1, n-i, -f.Tau[i], w[i+1:], row, a[(i+1)*lda+i:], lda)
		}
		row[0] = beta
	}
	finishT(t, k, f.Tau)
	f.blocks = []block{{i0: 0, ib: k, t: t}}
}

// vblock is the V of a compact WY block, ib x l: its first ib columns
// V1 (unit upper triangular) copied out explicitly (ib x ib), the other
// l - ib columns V2 read in place from the factored matrix (stride ld),
// so that the products never copy the long part of the reflectors.
type vblock struct {
	ib, l int
	v1    []float64
	v2    []float64
	ld    int
}

// loadV returns the V of block b, V1 written into buf (grown if needed).
func (f *Reflectors) loadV(b block, buf []float64) vblock {
	ib := b.ib
	buf = grow(buf, ib*ib)
	for j := 0; j < ib; j++ {
		row := buf[j*ib : (j+1)*ib]
		clear(row[:j])
		row[j] = 1
		i := b.i0 + j
		copy(row[j+1:], f.A[i*f.Lda+i+1:i*f.Lda+b.i0+ib])
	}
	v := vblock{ib: ib, l: f.N - b.i0, v1: buf, ld: f.Lda}
	if v.l > ib {
		v.v2 = f.A[b.i0*f.Lda+b.i0+ib:]
	}
	return v
}

// formT computes the upper triangular T of the block whose reflectors are
// the rows of V: H_0 H_1 ... H_{ib-1} = I - V^T T V.
func formT(b block, v vblock, tau []float64) {
	ib, t := b.ib, b.t
	// The Gram matrix V Vᵀ = V1 V1ᵀ + V2 V2ᵀ into t's upper triangle by
	// two products, in place of ib²/2 dot products.
	kernels.Syrk(false, ib, ib, 1, v.v1, ib, 0, t, ib)
	if v.l > ib {
		kernels.Syrk(false, ib, v.l-ib, 1, v.v2, v.ld, 1, t, ib)
	}
	finishT(t, ib, tau)
}

// finishT turns the Gram matrix V Vᵀ of a block's reflectors, in the
// strictly upper triangle of the ib x ib t, into the block's T.
func finishT(t []float64, ib int, tau []float64) {
	col := make([]float64, ib)
	for i := 1; i < ib; i++ {
		clear(t[i*ib : i*ib+i])
	}
	for j := 0; j < ib; j++ {
		t[j*ib+j] = tau[j]
		if tau[j] == 0 {
			for i := 0; i < j; i++ {
				t[i*ib+j] = 0
			}
			continue
		}
		// t[0:j, j] = -tau_j * T[0:j,0:j] * (V[0:j] v_j^T): the column
		// copied out, then a dot product with each row of the upper
		// triangle (a sum down the column was bound by the latency of
		// its additions).
		u := col[:j]
		for i := range u {
			u[i] = -tau[j] * t[i*ib+j]
		}
		for i := 0; i < j; i++ {
			t[i*ib+j] = kernels.Dot(t[i*ib+i:i*ib+j], u[i:])
		}
	}
}

// applyRight sets C = C (I - V^T op(T) V) for the r x l matrix C (row
// stride ldc), where op(T) is T or, with trans, T^T. w is scratch of
// 2*r*ib elements.
func applyRight(g gemmFunc, trans bool, r int, v vblock, t []float64, c []float64, ldc int, w []float64) {
	// W = C V^T in the parts of V.
	ib, l := v.ib, v.l
	g(false, true, r, ib, ib, 1, c, ldc, v.v1, ib, 0, w, ib)
	if l > ib {
		g(false, true, r, ib, l-ib, 1, c[ib:], ldc, v.v2, v.ld, 1, w, ib)
	}
	updateRight(g, trans, r, v, t, c, ldc, w)
}

// applyRightIdentity is applyRight for an r x l matrix C whose first
// rows are rows off.. of the identity (row a has its one in column
// a+off), as many as there are below ib, and whose other rows are zero
// in columns 0..ib-1 (a block of FormQ, or a piece of its rows): W = C Vᵀ
// is then V1ᵀ on the first rows and C[:, ib:] V2ᵀ on the others.
func applyRightIdentity(g gemmFunc, trans bool, off, r int, v vblock, t []float64, c []float64, ldc int, w []float64) {
	ib, l := v.ib, v.l
	nid := min(max(ib-off, 0), r)
	for a := 0; a < nid; a++ {
		wa := w[a*ib : (a+1)*ib]
		for s := range wa {
			wa[s] = v.v1[s*ib+a+off]
		}
	}
	if r > nid {
		if l > ib {
			g(false, true, r-nid, ib, l-ib, 1, c[nid*ldc+ib:], ldc, v.v2, v.ld, 0, w[nid*ib:], ib)
		} else {
			clear(w[nid*ib : r*ib])
		}
	}
	updateRight(g, trans, r, v, t, c, ldc, w)
}

// updateRight finishes applyRight from W = C V^T in the first r*ib
// elements of w: W op(T) by one product into the second half of w (T's
// lower triangle is zero), in place of r*ib short dot products, then
// C -= W op(T) V in the parts of V.
func updateRight(g gemmFunc, trans bool, r int, v vblock, t []float64, c []float64, ldc int, w []float64) {
	ib, l := v.ib, v.l
	wt := w[r*ib : 2*r*ib]
	g(false, trans, r, ib, ib, 1, w, ib, t, ib, 0, wt, ib)
	g(false, false, r, ib, ib, -1, wt, ib, v.v1, ib, 1, c, ldc)
	if l > ib {
		g(false, false, r, l-ib, ib, -1, wt, ib, v.v2, v.ld, 1, c[ib:], ldc)
	}
}

// transposeV writes Vᵀ (l x ib) of v into vt[:l*ib] for applyLeft.
func transposeV(v vblock, vt []float64) {
	ib, l := v.ib, v.l
	vt = vt[:l*ib]
	for j := 0; j < ib; j++ {
		// Column j of Vᵀ's first ib rows from row j of V1: zero above
		// j, 1, then V1's row.
		for p := 0; p < j; p++ {
			vt[p*ib+j] = 0
		}
		vt[j*ib+j] = 1
		row := v.v1[j*ib : (j+1)*ib]
		for p := j + 1; p < ib; p++ {
			vt[p*ib+j] = row[p]
		}
	}
	if l > ib {
		// The rest, V2ᵀ, four rows of V2 at a time, so that each row
		// of Vᵀ takes four contiguous elements per write.
		n2 := l - ib
		v2t := vt[ib*ib:]
		j := 0
		for ; j+4 <= ib; j += 4 {
			s0 := v.v2[j*v.ld : j*v.ld+n2]
			s1 := v.v2[(j+1)*v.ld : (j+1)*v.ld+n2]
			s2 := v.v2[(j+2)*v.ld : (j+2)*v.ld+n2]
			s3 := v.v2[(j+3)*v.ld : (j+3)*v.ld+n2]
			for p, x := range s0 {
				d := v2t[p*ib+j : p*ib+j+4]
				d[0], d[1], d[2], d[3] = x, s1[p], s2[p], s3[p]
			}
		}
		for ; j < ib; j++ {
			for p, x := range v.v2[j*v.ld : j*v.ld+n2] {
				v2t[p*ib+j] = x
			}
		}
	}
}

// applyLeft sets C = (I - V^T op(T) V) C for the l x r matrix C (row
// stride ldc) whose rows from lt on are zero, with vt holding Vᵀ
// (transposeV). w is scratch of 2*ib*r elements.
//
// W = V C runs on Vᵀ copied out explicitly (l x ib) as (Vᵀ)ᵀ C, in
// column chunks of C narrow enough for the matrix product's no-pack
// path (kernels' Aᵀ B shape), so that C is read where it lies: the
// packed path copies all of C into a panel for every block, which at
// 1000 x 1000 was a fifth of the back-transformation of package svd.
func applyLeft(g gemmFunc, trans bool, lt, r int, v vblock, t []float64, c []float64, ldc int, w, vt []float64) {
	ib, l := v.ib, v.l
	// W = V C on the first lt rows of C.
	kk := min(l, lt)
	for j0 := 0; j0 < r; j0 += leftChunk {
		jn := min(leftChunk, r-j0)
		g(true, false, ib, jn, kk, 1, vt, ib, c[j0:], ldc, 0, w[j0:], r)
	}
	// op(T) W by one product into the second half of w (T's lower
	// triangle is zero), then C -= Vᵀ (op(T) W).
	tw := w[ib*r : 2*ib*r]
	g(trans, false, ib, r, ib, 1, t, ib, w, r, 0, tw, r)
	g(false, false, l, r, ib, -1, vt, ib, tw, r, 1, c, ldc)
}

// applyLeftPacked is applyLeft with W = V C on the packed path, V in its
// parts (V2 read in place): for a C whose part read is small against V
// (few columns, or few rows not zero), where copying Vᵀ out costs more
// than packing C. For a 1000 x 50 matrix's LQ reflectors (one block of
// 50, C with 50 rows not zero) applyLeft took the SVD from 1.2-1.4 to
// 1.4-1.5 ms.
func applyLeftPacked(g gemmFunc, trans bool, lt, r int, v vblock, t []float64, c []float64, ldc int, w []float64) {
	ib, l := v.ib, v.l
	g(false, false, ib, r, min(ib, lt), 1, v.v1, ib, c, ldc, 0, w, r)
	if lt > ib {
		g(false, false, ib, r, lt-ib, 1, v.v2, v.ld, c[ib*ldc:], ldc, 1, w, r)
	}
	// op(T) W by one product into the second half of w.
	tw := w[ib*r : 2*ib*r]
	g(trans, false, ib, r, ib, 1, t, ib, w, r, 0, tw, r)
	g(true, false, ib, r, ib, -1, v.v1, ib, tw, r, 1, c, ldc)
	if l > ib {
		g(true, false, l-ib, r, ib, -1, v.v2, v.ld, tw, r, 1, c[ib*ldc:], ldc)
	}
}

// leftChunk is the width of the column chunks of C in applyLeft's
// product W = V C: at most kernels' limit for its no-pack path (128),
// five of its AVX-512 tiles of 24. At 1000 x 1000, widths of 48 to 128
// timed the same within the noise.
const leftChunk = 120

// noPackLeftMin: mulLeft takes applyLeft (Vᵀ copied out, W = V C
// without packing C) when the part of C that W reads, min(lt, l) x r,
// is at least noPackLeftMin times V's l x ib elements, and
// applyLeftPacked otherwise. n x n back-transformations of package svd
// (r = n, blocks of 24 or 32) are far above it, a tall matrix's few
// LQ reflectors (1000 x 50: 50 x 50 read against 1000 x 50) far below.
const noPackLeftMin = 4

// Applying Q_full = H_{k-1} ... H_1 H_0 (n x n) and its transpose. With
// the blocks B_0, B_1, ... in order, Q_full^T = H_0 H_1 ... H_{k-1} =
// prod_b (I - V_b^T T_b V_b).

// useBlocks reports whether a product with r rows or columns on the
// other side should run blocked, and builds the blocks if so: when there
// are enough reflectors and enough columns to make the matrix products
// pay, and the work is large (long reflectors count as much as many).
func (f *Reflectors) useBlocks(r int) bool {
	k := len(f.Tau)
	least := f.BlockWork
	if least <= 0 {
		least = 1 << 19
	}
	if k < 16 || r <= 16 || float64(k)*float64(r)*float64(f.N) < least {
		return false
	}
	f.mu.Lock()
	f.buildBlocks()
	f.mu.Unlock()
	return true
}

// buildBlocks lists the compact WY blocks of all the reflectors, those
// the factorization did not form already; their T factors are formed by
// loadBlock, on first use. The caller holds f.mu.
func (f *Reflectors) buildBlocks() {
	k := len(f.Tau)
	next := 0
	if nb := len(f.blocks); nb > 0 {
		next = f.blocks[nb-1].i0 + f.blocks[nb-1].ib
	}
	nb := f.Block
	if nb <= 0 {
		nb = BlockSize
		if next == 0 && k <= UnblockedMax {
			// Few reflectors (of a tall and skinny factor): one block,
			// whose product is two GEMMs on all of C (the first of them
			// only on C's rows that are not zero: MulLeft).
			nb = k
		}
	}
	for i0 := next; i0 < k; i0 += nb {
		f.blocks = append(f.blocks, block{i0: i0, ib: min(nb, k-i0)})
	}
}

// loadBlock loads block s's reflectors (loadV, V1 into buf) and returns
// them with the block, whose T the first product to use it forms.
func (f *Reflectors) loadBlock(s int, buf []float64) (block, vblock) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.blocks[s]
	v := f.loadV(b, buf)
	if b.t == nil {
		b.t = make([]float64, b.ib*b.ib)
		formT(b, v, f.Tau[b.i0:b.i0+b.ib])
		f.blocks[s].t = b.t
	}
	return b, v
}

// vector copies reflector i into v[:n-i] as a full vector (v[0] = 1, then
// the factored matrix's row i right of the diagonal) and returns it. The
// products with Q work on such copies, so that they never write to the
// factored matrix and a factorization can be shared by goroutines.
func (f *Reflectors) vector(i int, v []float64) []float64 {
	v = v[:f.N-i]
	v[0] = 1
	copy(v[1:], f.A[i*f.Lda+i+1:i*f.Lda+f.N])
	return v
}

// MulRight sets C = C Q_full^T (trans false) or C = C Q_full (trans
// true) for the r x n matrix C (row stride ldc). Only columns i0..n-1 of
// C take part in block b. Blocked, it runs on pieces of C's rows on up
// to kernels.Workers() goroutines (MulLeft: of its columns; FormQ: of
// its rows), with bits that do not depend on the number of workers.
func (f *Reflectors) MulRight(trans bool, r int, c []float64, ldc int) {
	f.MulRightRows(trans, r, c, ldc, nil)
}

// MulRightRows is MulRight for a C whose row i is zero from column
// ends[i] on, ends non-increasing (nil: no such knowledge): a reflector
// acting on columns i0 on leaves the rows with ends <= i0 alone, so each
// reflector or block is applied only to the rows before them.
func (f *Reflectors) MulRightRows(trans bool, r int, c []float64, ldc int, ends []int) {
	f.mulRightSpan(trans, r, c, ldc, false, func(i0 int) (int, int) {
		if ends == nil {
			return 0, r
		}
		return 0, sort.Search(r, func(i int) bool { return ends[i] <= i0 })
	})
}

// mulRightSpan is MulRight applying the reflector or block that acts on
// columns i0 on to rows lo..hi-1 of C only, (lo, hi) = span(i0): the
// others are zero in those columns. With identity (FormQ, lo = i0) a
// block's rows are as applyRightIdentity takes them.
func (f *Reflectors) mulRightSpan(trans bool, r int, c []float64, ldc int, identity bool, span func(i0 int) (lo, hi int)) {
	if r == 0 {
		return
	}
	k := len(f.Tau)
	if !f.useBlocks(r) {
		// C Q_fullᵀ = C H_0 H_1 ... H_{k-1}; C Q_full the other way.
		buf := make([]float64, r+f.N)
		w, vb := buf[:r], buf[r:]
		for s := 0; s < k; s++ {
			i := s
			if trans {
				i = k - 1 - s
			}
			if lo, hi := span(i); hi > lo {
				ReflectRight(f.Tau[i], f.vector(i, vb), hi-lo, c[lo*ldc+i:], ldc, w)
			}
		}
		return
	}
	// The rows of C are independent: each piece of them takes all the
	// blocks in turn.
	nb := len(f.blocks)
	inPieces(r, func(plo, phi int, g gemmFunc, buf *pieceBuf) {
		for s := 0; s < nb; s++ {
			bi := s
			if trans {
				bi = nb - 1 - s
			}
			lo, hi := span(f.blocks[bi].i0)
			lo, hi = max(lo, plo), min(hi, phi)
			if hi <= lo {
				continue
			}
			b, v := f.loadBlock(bi, buf.v)
			buf.v = v.v1
			buf.w = grow(buf.w, 2*(hi-lo)*b.ib)
			cb := c[lo*ldc+b.i0:]
			if identity {
				// The block's own rows, from row i0 of C (span's lo
				// for FormQ), are those of the identity.
				applyRightIdentity(g, trans, lo-b.i0, hi-lo, v, b.t, cb, ldc, buf.w)
			} else {
				applyRight(g, trans, hi-lo, v, b.t, cb, ldc, buf.w)
			}
		}
	})
}

// MulLeft sets C = Q_full C (trans false) or C = Q_full^T C (trans true)
// for the n x r matrix C (row stride ldc). Trailing rows of C that are
// zero cost nothing until a reflector reaches them (C = [X; 0], the
// vectors of a smaller problem, is the case this serves); MulLeft finds
// them by a scan of C, which MulLeftTop saves.
func (f *Reflectors) MulLeft(trans bool, r int, c []float64, ldc int) {
	if r == 0 {
		return
	}
	f.mulLeft(trans, -1, r, c, ldc)
}

// MulLeftTop is MulLeft for a C whose rows from top on are known to be
// zero (top <= n; n means no such knowledge): the caller's knowledge
// replaces MulLeft's scan, which reads all of C.
func (f *Reflectors) MulLeftTop(trans bool, top, r int, c []float64, ldc int) {
	if r == 0 {
		return
	}
	if top < 0 || top > f.N {
		panic("house: MulLeftTop: top out of range")
	}
	f.mulLeft(trans, top, r, c, ldc)
}

// mulLeft is MulLeft with C's rows from top on zero; top < 0 means
// unknown (the blocked product then scans C for it).
func (f *Reflectors) mulLeft(trans bool, top, r int, c []float64, ldc int) {
	k := len(f.Tau)
	if !f.useBlocks(r) {
		// Q_full C applies H_0 first; Q_fullᵀ C applies H_{k-1} first.
		buf := make([]float64, r+f.N)
		w, vb := buf[:r], buf[r:]
		for s := 0; s < k; s++ {
			i := s
			if trans {
				i = k - 1 - s
			}
			if top >= 0 && i >= top {
				continue // H_i acts on zero rows only
			}
			ReflectLeft(f.Tau[i], f.vector(i, vb), r, c[i*ldc:], ldc, w)
			top = -1
		}
		return
	}
	if top < 0 {
		top = nonzeroRows(f.N, r, c, ldc)
	}
	// The blocks to apply, in order, each with the rows of C that its
	// product W = V C reads (C = [X; 0], vectors of a smaller problem
	// say, with X top rows: a block acting on rows that are all zero
	// leaves them so, and the first one to reach X reads only X's rows;
	// after it C is full) and, for applyLeft on a C of several pieces,
	// its Vᵀ, copied out once for all the pieces (on the workers, a
	// block each) where all the copies take no more memory than C;
	// otherwise each piece copies each block's in turn into one buffer.
	type leftBlock struct {
		b      block
		v      vblock
		lt     int
		vt     []float64
		packed bool
	}
	var todo []leftBlock
	nb := len(f.blocks)
	for s := 0; s < nb; s++ {
		// Q_full C applies H_0 first: blocks in order, each as
		// H_{i0+ib-1}...H_{i0} = I - V^T T^T V.
		bi := s
		if trans {
			bi = nb - 1 - s
		}
		if top <= f.blocks[bi].i0 {
			continue
		}
		b, v := f.loadBlock(bi, nil)
		lt := top - b.i0
		packed := float64(min(lt, v.l))*float64(r) < noPackLeftMin*float64(v.l)*float64(b.ib)
		todo = append(todo, leftBlock{b: b, v: v, lt: lt, packed: packed})
		top = f.N
	}
	if manyPieces(r) {
		vtAll := 0
		for _, lb := range todo {
			if !lb.packed {
				vtAll += lb.v.l * lb.b.ib
			}
		}
		if vtAll <= f.N*r {
			_ = par.For(context.Background(), len(todo), kernels.Workers(), func(i int) {
				if lb := &todo[i]; !lb.packed {
					lb.vt = make([]float64, lb.v.l*lb.b.ib)
					transposeV(lb.v, lb.vt)
				}
			})
		}
	}
	// The columns of C are independent: each piece of them takes all
	// the blocks in turn.
	inPieces(r, func(plo, phi int, g gemmFunc, buf *pieceBuf) {
		cw := phi - plo
		for _, lb := range todo {
			buf.w = grow(buf.w, 2*cw*lb.b.ib)
			cb := c[lb.b.i0*ldc+plo:]
			if lb.packed {
				applyLeftPacked(g, !trans, lb.lt, cw, lb.v, lb.b.t, cb, ldc, buf.w)
				continue
			}
			vt := lb.vt
			if vt == nil {
				buf.vt = grow(buf.vt, lb.v.l*lb.b.ib)
				vt = buf.vt
				transposeV(lb.v, vt)
			}
			applyLeft(g, !trans, lb.lt, cw, lb.v, lb.b.t, cb, ldc, buf.w, vt)
		}
	})
}

// gemmFunc is kernels.Gemm or kernels.GemmSerial: the blocked products
// run on the pieces of C (inPieces) with the second, each piece on one
// goroutine, and on a C of one piece with the first.
type gemmFunc func(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)

// pieceBuf is the scratch of the goroutine that runs a piece.
type pieceBuf struct{ v, w, vt []float64 }

// pieceSize is the number of rows (for products from the right, and the
// factorization's trailing update) or columns (from the left) of C in a
// piece of inPieces: four of the AVX-512 kernels' tiles of 24 columns,
// twelve of 8 rows. The blocks' reflectors are read once a piece, so a
// wide piece reads them less often; a narrow one balances the work
// better among goroutines. On two workers, 96 was as fast as 72 or
// faster (at 500 x 500 the product from the left took 3.8-4.0 ms
// against 4.1-4.2), and 144 was slower at 1000 x 2000 (FormQ 44 ms
// against 39-42), in a throwaway timing (fastest of 9 calls, twice).
const pieceSize = 96

// The look-ahead of factor factors the next panel (BlockSize rows) with
// the first piece of the trailing rows, so it must lie within it.
var _ [pieceSize - BlockSize]struct{}

// manyPieces reports whether inPieces cuts n rows or columns into
// several pieces.
func manyPieces(n int) bool { return n >= 2*pieceSize }

// inPieces calls f(lo, hi, g, buf) on the pieces [lo, hi) of n rows or
// columns: one piece of all n when n < 2*pieceSize, and otherwise
// pieces of pieceSize (the last one shorter). With at least as many
// pieces as kernels.Workers(), they run on that many goroutines, each
// with its own buf and g kernels.GemmSerial; with fewer (many cores, a
// thin C), one after the other with g kernels.Gemm, whose products
// share out their own work, so that no core idles that the products
// on all of C used. The pieces depend on n alone, and a piece makes
// the same calls whichever goroutine runs it (Gemm and GemmSerial give
// the same bits), so the results do not depend on the number of
// goroutines;
// they may differ in the last bits from products on the whole of C,
// which can take other paths of the matrix product. Blocked products
// of a large C cut this way scale with the cores without a barrier a
// block: on two workers, with Q of a 1000 x 1000 factorization, FormQ
// took 17 ms instead of 29 and MulLeft 25 instead of 48, where the
// blocks' products, of inner dimension BlockSize, gained little from a
// second worker; on one, 32 and 40 instead of 36 and 46
// (BenchmarkPieces, medians of 3 runs).
func inPieces(n int, f func(lo, hi int, g gemmFunc, buf *pieceBuf)) {
	if !manyPieces(n) {
		f(0, n, kernels.Gemm, &pieceBuf{})
		return
	}
	np := (n + pieceSize - 1) / pieceSize
	workers := kernels.Workers()
	if np < workers {
		var buf pieceBuf
		for i := 0; i < np; i++ {
			f(i*pieceSize, min((i+1)*pieceSize, n), kernels.Gemm, &buf)
		}
		return
	}
	var next atomic.Int64
	_ = par.For(context.Background(), workers, workers, func(int) {
		var buf pieceBuf
		for {
			i := int(next.Add(1)) - 1
			if i >= np {
				return
			}
			f(i*pieceSize, min((i+1)*pieceSize, n), kernels.GemmSerial, &buf)
		}
	})
}

// nonzeroRows returns the number of rows of the l x r matrix C (row
// stride ldc) up to its last row that is not zero (NaN counts as not
// zero).
func nonzeroRows(l, r int, c []float64, ldc int) int {
	for i := l - 1; i >= 0; i-- {
		for _, x := range c[i*ldc : i*ldc+r] {
			if x != 0 {
				return i + 1
			}
		}
	}
	return 0
}

// FormQ writes the first p rows of Q_full (p <= n) into the p x n matrix
// q (row stride ldq): q = [I_p 0] Q_full = [I_p 0] H_{k-1} ... H_0. Row
// i of [I_p 0] is zero from column i+1 on, and H_j acts on columns j on,
// so the reflector or block starting at column j changes rows j..p-1
// only, and only in columns j on (the other rows stay zero there). When
// a block starting at column i0 is applied, its own rows i0..i0+ib-1 are
// still rows of the identity, and the rows below are zero in its
// columns i0..i0+ib-1: the block's product W = C Vᵀ is V1ᵀ on its own
// rows and needs only V2 below (applyRightIdentity). As LAPACK's dorglq,
// it takes about half the work of MulRight on a full p x n matrix when
// n is much larger than p (two thirds when p = n).
func (f *Reflectors) FormQ(p int, q []float64, ldq int) {
	for i := 0; i < p; i++ {
		row := q[i*ldq : i*ldq+f.N]
		clear(row)
		row[i] = 1
	}
	f.mulRightSpan(true, p, q, ldq, true, func(i0 int) (int, int) { return min(i0, p), p })
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
