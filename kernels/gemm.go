package kernels

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
)

// gemmImpl is the GEMM building blocks of one implementation.
type gemmImpl struct {
	mr, nr int
	// kernel computes one mr x nr tile; see gemmKernelGeneric.
	kernel func(k int, a, b, c []float64, ldc int, add int)
	// packCopy, if not nil, is packCopyGeneric for w == ws, where w is mr
	// or nr (a whole number of vectors).
	packCopy func(kc, w int, alpha float64, src []float64, ld int, dst []float64)
	// packTrans, if not nil, packs transRows rows: it is
	// packTransGeneric(kc, transRows, ws, ...) for kc a multiple of
	// transRows.
	packTrans func(kc int, alpha float64, src []float64, ld int, dst []float64, ws int)
	transRows int
	// level is the implementation's, whose vector Scal scales C.
	level simd.Level
	// tsKernel, if not nil, is the no-pack micro-kernel (tsKernelGeneric
	// with tsMR x tsNR tiles) that gemmRun uses for the shapes useTS
	// picks; see gemm_ts.go.
	tsKernel   func(k int, a []float64, sai, sap int, b []float64, ldb int, c []float64, ldc int, alpha float64, add int, jw int)
	tsMR, tsNR int
	// tsWhole: tsKernel computes whole tiles only (jw = tsNR); the
	// driver overlaps the last columns, and needs n >= tsNR.
	tsWhole bool
	// tsNNMax bounds n and k of the A B shape on the no-pack path.
	tsNNMax int
	// tsKCMul multiplies KC for the slices of k of the Aᵀ B shape (0
	// means 1). Measured with BenchmarkGemmTS (n = 21416, l = 20..60):
	// with AVX-512, 4*KC (320 against 80 with a 32 KiB L1) ran 2-8%
	// faster than KC, and both faster than slices that fit A and B in
	// L1; with AVX2, KC (168) ran 0-50% faster than 2*KC or 4*KC.
	tsKCMul int
}

// packPanel packs a w x kc panel of an operand into dst, ws values per
// step of p (w <= ws, zero padded). If contiguous, the w values of one p
// are adjacent in src and successive p are ld apart; otherwise each of
// the w rows is contiguous along p and rows are ld apart.
func (g *gemmImpl) packPanel(contiguous bool, kc, w, ws int, alpha float64, src []float64, ld int, dst []float64) {
	if w != ws {
		if contiguous {
			packCopyGeneric(kc, w, ws, alpha, src, ld, dst)
		} else {
			packTransGeneric(kc, w, ws, alpha, src, ld, dst)
		}
		return
	}
	if contiguous {
		if g.packCopy != nil {
			g.packCopy(kc, w, alpha, src[:(kc-1)*ld+w], ld, dst[:kc*ws])
		} else {
			packCopyGeneric(kc, w, ws, alpha, src, ld, dst)
		}
		return
	}
	if g.packTrans == nil {
		packTransGeneric(kc, w, ws, alpha, src, ld, dst)
		return
	}
	r := g.transRows
	kf := kc / r * r
	if kf > 0 {
		for i := 0; i < w; i += r {
			g.packTrans(kf, alpha, src[i*ld:(i+r-1)*ld+kf], ld, dst[i:(kf-1)*ws+i+r], ws)
		}
	}
	if kf < kc {
		// The last kc-kf steps: rows stay ld apart, columns start at kf.
		for i := 0; i < w; i++ {
			s := src[i*ld+kf : i*ld+kc]
			for p, v := range s {
				dst[(kf+p)*ws+i] = alpha * v
			}
		}
	}
}

func (im *impl) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	checkGemm("Gemm", transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	im.gemmEntry(false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (im *impl) GemmSerial(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	checkGemm("GemmSerial", transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	gemmRun(&im.gemm, im.blocking, 1, false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (im *impl) Syrk(trans bool, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	checkGemm("Syrk", trans, !trans, n, n, k, a, lda, a, lda, c, ldc)
	im.gemmEntry(true, trans, !trans, n, n, k, alpha, a, lda, a, lda, beta, c, ldc)
}

func (im *impl) gemmEntry(upper, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	workers := workersFor(2 * float64(m) * float64(n) * float64(k))
	gemmRun(&im.gemm, im.blocking, workers, upper, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmRun is Gemm (or, with upper, Syrk) on the building blocks g with
// blocking bl and at most workers goroutines; the tests call it with
// small blockings to run every loop of the driver several times.
func gemmRun(g *gemmImpl, bl Blocking, workers int, upper, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	add := 1
	switch beta {
	case 0:
		add = 0
	case 1:
	default:
		for i := 0; i < m; i++ {
			vec.ScalAt(g.level, beta, c[i*ldc:i*ldc+n])
		}
	}
	switch {
	case k == 0 || alpha == 0:
		if add == 0 {
			for i := 0; i < m; i++ {
				clear(c[i*ldc : i*ldc+n])
			}
		}
	case m*n <= kSplitMaxMN && k >= 2*kSplit:
		gemmKSplit(g, bl, upper, transA, transB, m, n, k, alpha, a, lda, b, ldb, add, c, ldc, workers, kSplit)
	case g.useTS(transA, transB, m, n, k):
		if transA && m*n <= kSplitMaxMN && k >= 2*tsKSplit {
			// The no-pack path's rows of C are too few to share: its
			// workers take chunks of k instead (whatever their number).
			gemmKSplit(g, bl, upper, transA, transB, m, n, k, alpha, a, lda, b, ldb, add, c, ldc, workers, tsKSplit)
		} else {
			gemmTS(g, bl.KC, workers, upper, transA, m, n, k, alpha, a, lda, b, ldb, add, c, ldc)
		}
	default:
		gemmBlocked(g, bl, upper, transA, transB, m, n, k, alpha, a, lda, b, ldb, add, c, ldc, workers)
	}
	if upper {
		mirrorUpper(n, c, ldc)
	}
}

// mirrorUpper copies the strict upper triangle of the n x n matrix c to
// the lower one.
func mirrorUpper(n int, c []float64, ldc int) {
	for i := 1; i < n; i++ {
		row := c[i*ldc : i*ldc+i]
		for j := range row {
			row[j] = c[j*ldc+i]
		}
	}
}

// Products with a small C (at most kSplitMaxMN elements) and a long k
// (at least 2*kSplit) are cut along k into chunks of about kSplit, at
// most kSplitMaxChunks of them, so that they run in parallel. The chunks
// depend on nothing but the shape, which keeps results independent of
// the number of workers, and the scratch space stays under
// kSplitMaxChunks*kSplitMaxMN values (4.7 MB) however long k is.
const (
	kSplit          = 4096
	kSplitMaxMN     = 96 * 96
	kSplitMaxChunks = 64
)

// gemmKSplit multiplies each chunk of k (about split long) into a
// scratch C of its own (in parallel), and then adds the chunks to C in
// order.
func gemmKSplit(g *gemmImpl, bl Blocking, upper, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, add int, c []float64, ldc int, workers, split int) {
	chunks := min(ceilDiv(k, split), kSplitMaxChunks)
	chunkLen := ceilDiv(k, chunks)
	chunks = ceilDiv(k, chunkLen)
	scratch := getBuffer(chunks * m * n)
	defer putBuffer(scratch)
	ts := g.useTS(transA, transB, m, n, chunkLen) // the chunks take the no-pack path
	var next atomic.Int64
	parallel(min(workers, chunks), func(int) {
		for {
			q := int(next.Add(1)) - 1
			if q >= chunks {
				return
			}
			p0 := q * chunkLen
			kq := min(chunkLen, k-p0)
			aq, bq := a[p0:], b[p0:]
			if transA {
				aq = a[p0*lda:]
			}
			if !transB {
				bq = b[p0*ldb:]
			}
			if ts {
				gemmTS(g, bl.KC, 1, upper, transA, m, n, kq, alpha, aq, lda, bq, ldb, 0, scratch.buf[q*m*n:(q+1)*m*n], n)
			} else {
				gemmBlocked(g, bl, upper, transA, transB, m, n, kq, alpha, aq, lda, bq, ldb, 0, scratch.buf[q*m*n:(q+1)*m*n], n, 1)
			}
		}
	})
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		for j := range ci {
			s := scratch.buf[i*n+j]
			for q := 1; q < chunks; q++ {
				s += scratch.buf[q*m*n+i*n+j]
			}
			if add == 0 {
				ci[j] = s
			} else {
				ci[j] += s
			}
		}
	}
}

// gemmBlocked is the Goto/BLIS loop nest. A phase is one NC-wide block
// of columns and one KC-deep slice of k: its B panels are packed once,
// then its tasks (row blocks of at most MC rows, cut into column chunks
// when rows are too few for the workers) pack their A block and run the
// micro-kernel over every MR x NR tile.
//
// The workers start once per call and coordinate through counters, not
// barriers: in each phase they claim B panels to pack, wait until all are
// packed, and claim tasks once the previous phase's tasks are done
// (slices of k must reach a tile of C in order). B is double-buffered, so
// packing phase p overlaps the end of phase p-1. A worker that starts
// late or is descheduled holds up nobody but the tasks it has claimed;
// on a shared machine, where waking a thread can take tens of
// microseconds, this matters.
//
// Each element of C sees the same sequence of operations whatever the
// split, so neither the split nor the number of workers can change the
// result.
func gemmBlocked(g *gemmImpl, bl Blocking, upper, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, add0 int, c []float64, ldc int, workers int) {
	if workers <= 1 {
		gemmSerial(g, bl, upper, transA, transB, m, n, k, alpha, a, lda, b, ldb, add0, c, ldc)
		return
	}
	mr, nr := g.mr, g.nr
	kc := bl.KC
	nc := min(bl.NC, roundUp(n, nr))
	// Row blocks: at most MC rows, and at least as many blocks as workers
	// (a multiple of them, for balance) when there are rows enough.
	mc := min(bl.MC, roundUp(m, mr))
	rb := ceilDiv(m, mc)
	if workers > 1 {
		rb = min(roundUp(rb, workers), ceilDiv(m, mr))
		mc = roundUp(ceilDiv(m, rb), mr)
		rb = ceilDiv(m, mc)
	}
	nj, nk := ceilDiv(n, nc), ceilDiv(k, kc)
	phases := nj * nk
	nbuf := min(phases, 2)
	if workers == 1 {
		nbuf = 1
	}
	bbuf := getBuffer(nbuf * kc * nc)
	defer putBuffer(bbuf)
	sync := make([]phaseSync, phases)
	for ph := range sync {
		np := ceilDiv(min(nc, n-ph/nk*nc), nr)
		cb := 1
		if rb < workers {
			cb = min(np, ceilDiv(workers, rb))
		}
		sync[ph].cb, sync[ph].tasks = int32(cb), int32(rb*cb)
	}

	parallel(workers, func(w int) {
		abuf := getBuffer(kc * mc)
		defer putBuffer(abuf)
		ap := abuf.buf
		tile := make([]float64, mr*nr)
		for ph := 0; ph < phases; ph++ {
			jc, pc := ph/nk*nc, ph%nk*kc
			ncur, kcur := min(nc, n-jc), min(kc, k-pc)
			np := ceilDiv(ncur, nr)
			add := add0
			if pc > 0 {
				add = 1
			}
			s := &sync[ph]
			cb, tasks := int(s.cb), int(s.tasks)
			bp := bbuf.buf[ph%nbuf*kc*nc : (ph%nbuf+1)*kc*nc]
			if ph >= nbuf {
				prev := &sync[ph-nbuf]
				waitFor(&prev.taskDone, prev.tasks) // bp is free again
			}

			// Pack op(B)[pc:pc+kcur, jc:jc+ncur] into np panels.
			for {
				jp := int(s.packNext.Add(1)) - 1
				if jp >= np {
					break
				}
				g.packPanelB(transB, kcur, pc, jc+jp*nr, n, b, ldb, bp[jp*nr*kcur:(jp+1)*nr*kcur])
				s.packDone.Add(1)
			}
			waitFor(&s.packDone, int32(np))
			if ph > 0 {
				// The previous phase may still be adding its slice of k
				// to the same tiles of C; they must go in order.
				prev := &sync[ph-1]
				waitFor(&prev.taskDone, prev.tasks)
			}

			for {
				t := int(s.taskNext.Add(1)) - 1
				if t >= tasks {
					break
				}
				ib, jb := t/cb, t%cb
				ic := ib * mc
				mcur := min(mc, m-ic)
				jlo, jhi := jb*np/cb, (jb+1)*np/cb
				if !upper || ic < jc+jhi*nr { // else every tile lies below the diagonal
					g.packBlockA(transA, kcur, ic, mcur, m, pc, alpha, a, lda, ap)
					g.tiles(upper, kcur, ic, mcur, m, jc, jlo, jhi, n, ap, bp, add, c, ldc, tile)
				}
				s.taskDone.Add(1)
			}
		}
	})
}

// gemmSerial is gemmBlocked on the calling goroutine alone: the same
// blocking and the same sequence of operations for every element of C
// (so the same bits), without the phase counters, closures and
// per-worker buffers, and with one pooled buffer for everything. Small
// products, and the chunks of a split k, spend most of their time here.
func gemmSerial(g *gemmImpl, bl Blocking, upper, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, add0 int, c []float64, ldc int) {
	mr, nr := g.mr, g.nr
	kc := min(bl.KC, k) // the slices of k are those of KC: kcur = min(KC, k-pc)
	nc := min(bl.NC, roundUp(n, nr))
	mc := min(bl.MC, roundUp(m, mr))
	buf := getBuffer(kc*nc + kc*mc + mr*nr)
	defer putBuffer(buf)
	bp := buf.buf[:kc*nc]
	ap := buf.buf[kc*nc : kc*nc+kc*mc]
	tile := buf.buf[kc*nc+kc*mc : kc*nc+kc*mc+mr*nr]
	for jc := 0; jc < n; jc += nc {
		np := ceilDiv(min(nc, n-jc), nr)
		for pc := 0; pc < k; pc += bl.KC {
			kcur := min(bl.KC, k-pc)
			add := add0
			if pc > 0 {
				add = 1
			}
			for jp := 0; jp < np; jp++ {
				g.packPanelB(transB, kcur, pc, jc+jp*nr, n, b, ldb, bp[jp*nr*kcur:(jp+1)*nr*kcur])
			}
			for ic := 0; ic < m; ic += mc {
				if upper && ic >= jc+np*nr {
					break // this block and the ones below lie under the diagonal
				}
				mcur := min(mc, m-ic)
				g.packBlockA(transA, kcur, ic, mcur, m, pc, alpha, a, lda, ap)
				g.tiles(upper, kcur, ic, mcur, m, jc, 0, np, n, ap, bp, add, c, ldc, tile)
			}
		}
	}
}

// packPanelB packs op(B)[pc:pc+kcur, j:j+nr] (zero padded past column n)
// into dst.
func (g *gemmImpl) packPanelB(transB bool, kcur, pc, j, n int, b []float64, ldb int, dst []float64) {
	if transB {
		g.packPanel(false, kcur, min(g.nr, n-j), g.nr, 1, b[j*ldb+pc:], ldb, dst)
	} else {
		g.packPanel(true, kcur, min(g.nr, n-j), g.nr, 1, b[pc*ldb+j:], ldb, dst)
	}
}

// phaseSync holds the counters of one phase of gemmBlocked.
type phaseSync struct {
	packNext, packDone atomic.Int32 // B panels claimed, packed
	taskNext, taskDone atomic.Int32 // tasks claimed, finished
	cb, tasks          int32        // column chunks per row block, tasks
	_                  [40]byte     // keep phases on separate cache lines
}

// waitFor spins until c reaches n, yielding the processor between looks
// once the wait is more than momentary.
func waitFor(c *atomic.Int32, n int32) {
	for i := 0; c.Load() < n; i++ {
		if i >= 16 {
			runtime.Gosched()
		}
	}
}

// packBlockA packs alpha*op(A)[ic:ic+mcur, pc:pc+kcur] into ap as
// micro-panels of mr rows.
func (g *gemmImpl) packBlockA(transA bool, kcur, ic, mcur, m, pc int, alpha float64, a []float64, lda int, ap []float64) {
	mr := g.mr
	for ip := 0; ip < ceilDiv(mcur, mr); ip++ {
		i := ic + ip*mr
		dst := ap[ip*mr*kcur : (ip+1)*mr*kcur]
		if transA {
			g.packPanel(true, kcur, min(mr, m-i), mr, alpha, a[pc*lda+i:], lda, dst)
		} else {
			g.packPanel(false, kcur, min(mr, m-i), mr, alpha, a[i*lda+pc:], lda, dst)
		}
	}
}

// tiles runs the micro-kernel over the tiles of rows ic..ic+mcur and B
// panels jlo..jhi of the block starting at column jc. Edge tiles go
// through a scratch tile, so the kernel never writes outside C. With
// upper, tiles entirely below the diagonal are skipped.
func (g *gemmImpl) tiles(upper bool, kcur, ic, mcur, m, jc, jlo, jhi, n int, ap, bp []float64, add int, c []float64, ldc int, tile []float64) {
	mr, nr := g.mr, g.nr
	nmp := ceilDiv(mcur, mr)
	for jp := jlo; jp < jhi; jp++ {
		j := jc + jp*nr
		jw := min(nr, n-j)
		bpan := bp[jp*nr*kcur : (jp+1)*nr*kcur]
		for ip := 0; ip < nmp; ip++ {
			i := ic + ip*mr
			if upper && i >= j+jw {
				break // this tile and the ones below it
			}
			iw := min(mr, m-i)
			apan := ap[ip*mr*kcur : (ip+1)*mr*kcur]
			if iw == mr && jw == nr {
				g.kernel(kcur, apan, bpan, c[i*ldc+j:(i+mr-1)*ldc+j+nr], ldc, add)
				continue
			}
			g.kernel(kcur, apan, bpan, tile, nr, 0)
			storeTile(iw, jw, nr, tile, c[i*ldc+j:], ldc, add)
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }

func checkGemm(name string, transA, transB bool, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("kernels: %s: negative size m=%d n=%d k=%d", name, m, n, k))
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	checkMatrix(name, "A", ar, ac, a, lda)
	checkMatrix(name, "B", br, bc, b, ldb)
	checkMatrix(name, "C", m, n, c, ldc)
}

func checkMatrix(name, which string, r, cols int, s []float64, ld int) {
	if ld < max(cols, 1) {
		panic(fmt.Sprintf("kernels: %s: stride of %s is %d, less than its %d columns", name, which, ld, cols))
	}
	if r > 0 && cols > 0 && len(s) < (r-1)*ld+cols {
		panic(fmt.Sprintf("kernels: %s: %s is %dx%d with stride %d but has only %d elements", name, which, r, cols, ld, len(s)))
	}
}
