package simplex

import "math"

// luFactor is a sparse LU factorization of an m x m basis matrix B with
// Forrest–Tomlin updates.
//
// Pivots are named by their row: after factor, the basis column at
// position p is pivoted in row p, that is, factor permutes the basis so
// that positions and pivot rows coincide (it returns the permutation).
// Then B x = b is solved in place in row space by ftran (x[r] is the
// value of the basic variable at position r), and B^T z = e likewise by
// btran.
//
// The factorization is M B = U with M = R_t ... R_1 L^{-1}: L a product
// of column etas from the elimination, R_k the row etas of the updates,
// and U upper triangular in the order given by order (a list of pivot
// rows with -1 marking slots deleted by updates). U is held twice: by
// columns (for ftran) and by rows (for btran and the updates).
type luFactor struct {
	m int

	diag  []float64 // diag[r]: U's diagonal element of pivot r
	dinv  []float64 // 1/diag[r]
	order []int     // pivot rows in triangular order; -1: deleted slot
	opos  []int     // opos[r]: index of pivot r in order

	// L etas: eta e has pivot row lPiv[e]; its entries (row, multiplier)
	// are lIdx/lVal[lStart[e]:lStart[e+1]].
	lPiv   []int
	lStart []int
	lIdx   []int
	lVal   []float64
	// L by rows for btran: row i holds (pivot row of the eta, multiplier)
	// in ltIdx/ltVal[ltStart[i]:ltStart[i+1]]; lRowsRev lists the rows
	// with entries in reverse factorization order.
	ltStart  []int
	ltIdx    []int
	ltVal    []float64
	lRowsRev []int

	// R etas of the updates: x[rPiv[e]] -= sum rVal*x[rIdx] over
	// rStart[e] <= k < rStart[e+1].
	rPiv   []int
	rStart []int
	rIdx   []int
	rVal   []float64

	// U by columns: column r (pivot r) holds (row, value) for pivots
	// earlier in order.
	ucStart []int
	ucLen   []int
	ucIdx   []int
	ucVal   []float64
	// U by rows: row r holds (pivot row naming the column, value) for
	// pivots later in order; rows have spare capacity and move to the end
	// of the pool when they outgrow it.
	urStart []int
	urLen   []int
	urCap   []int
	urIdx   []int
	urVal   []float64

	// The spike of the last ftran with save set: M a_q in row space.
	spikeIdx []int
	spikeVal []float64
	spikeOK  bool
	zero     []float64 // all zeros: the missing third vector of ftran3

	updates int // updates since the last factor
	work    []float64
	work2   []float64

	// statistics
	factorNnz int // nonzeros of L and U right after factor

	fw factorWork
}

// luPivotTol is the threshold of threshold partial pivoting: a pivot must
// be at least this fraction of the largest element of its column in the
// active submatrix.
const luPivotTol = 0.1

// luAbsTol is the smallest magnitude accepted as a pivot.
const luAbsTol = 1e-11

// luDropTol: update entries smaller than this are dropped.
const luDropTol = 1e-14

// factorWork holds the scratch of factor between calls.
type factorWork struct {
	cStart, cLen, cCap []int
	cI                 []int
	cV                 []float64
	rStart, rLen, rCap []int
	rJ                 []int
	colActive          []bool
	rowActive          []bool
	pivRow, pivCol     []int
	pivVal             []float64
	uStart             []int // per pivot (in pivot order): its U row in uJ/uV
	uJ                 []int
	uV                 []float64
	mark               []int
	colQ, rowQ         []int
	// count buckets of the columns and rows for the Markowitz search
	// (kernel)
	colB, rowB countBuckets
	rowOfPos   []int
}

func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, n+n/4)
	}
	return s[:n]
}

func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/4)
	}
	return s[:n]
}

func growBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// factor computes the factorization of the m x m matrix whose column at
// position p is given by col(p). It returns rowOf, the pivot row given to
// each position (the caller renumbers its positions by it), and the
// positions it could not pivot (the matrix is singular): position p in
// that list was given pivot row rowOf[p] with a unit column, so the
// caller must replace the column at p by the unit vector e_{rowOf[p]}
// (the logical of that row).
func (f *luFactor) factor(m int, col func(p int) ([]int, []float64)) (rowOf []int, singular []int) {
	f.m = m
	w := &f.fw
	w.load(m, col)
	f.reset()
	f.singletons()
	// The kernel: Markowitz search with threshold partial pivoting.
	if len(w.pivRow) < m {
		f.kernel()
	}
	singular = f.pairLeftovers()
	w.uStart = append(w.uStart, len(w.uJ))
	f.build(singular)
	return w.rowOfPos, singular
}

// load sets the active matrix to the m x m matrix whose column at
// position p is given by col(p): the columns with their values (zeros
// left out), the rows with their patterns, every row and column active.
func (w *factorWork) load(m int, col func(p int) ([]int, []float64)) {
	// Active matrix: columns with values, rows with patterns.
	w.cStart = growInts(w.cStart, m)
	w.cLen = growInts(w.cLen, m)
	w.cCap = growInts(w.cCap, m)
	w.rStart = growInts(w.rStart, m)
	w.rLen = growInts(w.rLen, m)
	w.rCap = growInts(w.rCap, m)
	w.colActive = growBools(w.colActive, m)
	w.rowActive = growBools(w.rowActive, m)
	w.mark = growInts(w.mark, m)
	clear(w.rLen)
	nz := 0
	for p := 0; p < m; p++ {
		idx, _ := col(p)
		nz += len(idx)
		for _, i := range idx {
			w.rLen[i]++
		}
	}
	w.cI = growInts(w.cI, 0)
	w.cV = growFloats(w.cV, 0)
	if cap(w.cI) < 2*nz {
		w.cI = make([]int, 0, 2*nz+m)
		w.cV = make([]float64, 0, 2*nz+m)
	}
	for p := 0; p < m; p++ {
		idx, val := col(p)
		w.cStart[p] = len(w.cI)
		for k, i := range idx {
			if val[k] != 0 {
				w.cI = append(w.cI, i)
				w.cV = append(w.cV, val[k])
			} else {
				w.rLen[i]--
			}
		}
		w.cLen[p] = len(w.cI) - w.cStart[p]
		w.cCap[p] = w.cLen[p]
		w.colActive[p] = true
	}
	w.rJ = growInts(w.rJ, 0)
	if cap(w.rJ) < 2*nz {
		w.rJ = make([]int, 0, 2*nz+m)
	}
	off := 0
	for i := 0; i < m; i++ {
		w.rStart[i] = off
		w.rCap[i] = w.rLen[i]
		off += w.rLen[i]
		w.rLen[i] = 0
		w.rowActive[i] = true
	}
	w.rJ = w.rJ[:off]
	for p := 0; p < m; p++ {
		for k := w.cStart[p]; k < w.cStart[p]+w.cLen[p]; k++ {
			i := w.cI[k]
			w.rJ[w.rStart[i]+w.rLen[i]] = p
			w.rLen[i]++
		}
	}
	for i := range w.mark {
		w.mark[i] = -1
	}

}

// reset empties the pivot sequence, U and L.
func (f *luFactor) reset() {
	w := &f.fw
	w.pivRow = w.pivRow[:0]
	w.pivCol = w.pivCol[:0]
	w.pivVal = w.pivVal[:0]
	w.uStart = w.uStart[:0]
	w.uJ = w.uJ[:0]
	w.uV = w.uV[:0]
	f.lPiv = f.lPiv[:0]
	f.lStart = append(f.lStart[:0], 0)
	f.lIdx = f.lIdx[:0]
	f.lVal = f.lVal[:0]

}

// singletons pivots on the column singletons (no L, no fill) and the row
// singletons (no Schur update), interleaved until none is left.
func (f *luFactor) singletons() {
	w := &f.fw
	m := f.m
	w.colQ = w.colQ[:0]
	w.rowQ = w.rowQ[:0]
	for p := 0; p < m; p++ {
		if w.cLen[p] == 1 {
			w.colQ = append(w.colQ, p)
		}
	}
	for i := 0; i < m; i++ {
		if w.rLen[i] == 1 {
			w.rowQ = append(w.rowQ, i)
		}
	}
	for len(w.colQ) > 0 || len(w.rowQ) > 0 {
		if n := len(w.colQ); n > 0 {
			c := w.colQ[n-1]
			w.colQ = w.colQ[:n-1]
			if !w.colActive[c] || w.cLen[c] != 1 {
				continue
			}
			r, v := w.cI[w.cStart[c]], w.cV[w.cStart[c]]
			if math.Abs(v) <= luAbsTol {
				continue
			}
			f.pivotColSingleton(r, c, v)
			continue
		}
		n := len(w.rowQ)
		r := w.rowQ[n-1]
		w.rowQ = w.rowQ[:n-1]
		if !w.rowActive[r] || w.rLen[r] != 1 {
			continue
		}
		c := w.rJ[w.rStart[r]]
		v := w.valueAt(r, c)
		if math.Abs(v) <= luAbsTol {
			continue
		}
		f.pivotGeneral(r, c, false)
	}

}

// pairLeftovers sets w.rowOfPos, the pivot row of each position, and
// returns the positions left without a pivot: the matrix is singular.
// Each is paired with a row left over and given a unit pivot.
func (f *luFactor) pairLeftovers() (singular []int) {
	w := &f.fw
	m := f.m
	w.rowOfPos = growInts(w.rowOfPos, m)
	for p := range w.rowOfPos {
		w.rowOfPos[p] = -1
	}
	for k, c := range w.pivCol {
		w.rowOfPos[c] = w.pivRow[k]
	}
	if len(w.pivRow) < m {
		var rows []int
		for i := 0; i < m; i++ {
			if w.rowActive[i] {
				rows = append(rows, i)
			}
		}
		t := 0
		for p := 0; p < m; p++ {
			if w.colActive[p] {
				r := rows[t]
				t++
				singular = append(singular, p)
				w.rowOfPos[p] = r
				w.pivRow = append(w.pivRow, r)
				w.pivCol = append(w.pivCol, p)
				w.pivVal = append(w.pivVal, 1)
				w.uStart = append(w.uStart, len(w.uJ))
			}
		}
	}
	return singular
}

// valueAt returns the active element (r, c), searching column c.
func (w *factorWork) valueAt(r, c int) float64 {
	s := w.cStart[c]
	for k := s; k < s+w.cLen[c]; k++ {
		if w.cI[k] == r {
			return w.cV[k]
		}
	}
	return 0
}

// removeFromCol deletes the entry of row r from column c and returns its
// value.
func (w *factorWork) removeFromCol(r, c int) float64 {
	s := w.cStart[c]
	e := s + w.cLen[c] - 1
	for k := s; k <= e; k++ {
		if w.cI[k] == r {
			v := w.cV[k]
			w.cI[k], w.cV[k] = w.cI[e], w.cV[e]
			w.cLen[c]--
			return v
		}
	}
	return 0
}

// removeFromRow deletes column c from the pattern of row r.
func (w *factorWork) removeFromRow(r, c int) {
	s := w.rStart[r]
	e := s + w.rLen[r] - 1
	for k := s; k <= e; k++ {
		if w.rJ[k] == c {
			w.rJ[k] = w.rJ[e]
			w.rLen[r]--
			return
		}
	}
}

// pivotColSingleton pivots on (r, c), the only active entry of column c:
// row r's other entries go to U, no L, no fill.
func (f *luFactor) pivotColSingleton(r, c int, v float64) {
	w := &f.fw
	w.pivRow = append(w.pivRow, r)
	w.pivCol = append(w.pivCol, c)
	w.pivVal = append(w.pivVal, v)
	w.uStart = append(w.uStart, len(w.uJ))
	s := w.rStart[r]
	for k := s; k < s+w.rLen[r]; k++ {
		j := w.rJ[k]
		if j == c {
			continue
		}
		u := w.removeFromCol(r, j)
		w.uJ = append(w.uJ, j)
		w.uV = append(w.uV, u)
		if w.cLen[j] == 1 {
			w.colQ = append(w.colQ, j)
		}
	}
	w.cLen[c] = 0
	w.rLen[r] = 0
	w.colActive[c] = false
	w.rowActive[r] = false
}

// pivotGeneral pivots on (r, c): row r goes to U, column c (divided by
// the pivot) to L, and the active submatrix gets the Schur update. With
// buckets set it keeps the Markowitz count lists up to date; otherwise it
// queues new row singletons.
func (f *luFactor) pivotGeneral(r, c int, buckets bool) {
	w := &f.fw
	v := w.removeFromCol(r, c)
	w.pivRow = append(w.pivRow, r)
	w.pivCol = append(w.pivCol, c)
	w.pivVal = append(w.pivVal, v)
	w.uStart = append(w.uStart, len(w.uJ))
	if buckets {
		w.rowB.unlink(r)
		w.colB.unlink(c)
	}
	// L column: the rest of column c.
	cs, cl := w.cStart[c], w.cLen[c]
	lBeg := len(f.lIdx)
	for k := cs; k < cs+cl; k++ {
		f.lIdx = append(f.lIdx, w.cI[k])
		f.lVal = append(f.lVal, w.cV[k]/v)
	}
	lEnd := len(f.lIdx)
	if lEnd > lBeg {
		f.lPiv = append(f.lPiv, r)
		f.lStart = append(f.lStart, lEnd)
	}
	w.cLen[c] = 0
	w.colActive[c] = false
	w.rowActive[r] = false
	// Row r: U entries, and the Schur update of each of its columns.
	rs, rl := w.rStart[r], w.rLen[r]
	w.rLen[r] = 0
	for t := rs; t < rs+rl; t++ {
		j := w.rJ[t]
		if j == c {
			continue
		}
		u := w.removeFromCol(r, j)
		w.uJ = append(w.uJ, j)
		w.uV = append(w.uV, u)
		if lEnd > lBeg && u != 0 {
			f.schur(j, lBeg, lEnd, u)
		}
		if buckets {
			w.colB.relink(j, w.cLen[j])
		} else if w.cLen[j] == 1 {
			w.colQ = append(w.colQ, j)
		}
	}
	// Column c leaves the rows of L.
	for k := lBeg; k < lEnd; k++ {
		i := f.lIdx[k]
		w.removeFromRow(i, c)
		if buckets {
			w.rowB.relink(i, w.rLen[i])
		} else if w.rLen[i] == 1 {
			w.rowQ = append(w.rowQ, i)
		}
	}
}

// schur applies column j -= l * u, l = lVal[lBeg:lEnd] at rows lIdx.
func (f *luFactor) schur(j, lBeg, lEnd int, u float64) {
	w := &f.fw
	s := w.cStart[j]
	for k := s; k < s+w.cLen[j]; k++ {
		w.mark[w.cI[k]] = k
	}
	for k := lBeg; k < lEnd; k++ {
		i := f.lIdx[k]
		if p := w.mark[i]; p >= 0 {
			w.cV[p] -= f.lVal[k] * u
			continue
		}
		// Fill-in: column j and row i grow.
		if w.cLen[j] == w.cCap[j] {
			// Move column j to the end of the pool with room to grow.
			for t := s; t < s+w.cLen[j]; t++ {
				w.mark[w.cI[t]] = -1
			}
			ns := len(w.cI)
			nc := 2*w.cCap[j] + 4
			w.cI = append(w.cI, w.cI[s:s+w.cLen[j]]...)
			w.cV = append(w.cV, w.cV[s:s+w.cLen[j]]...)
			for t := 0; t < nc-w.cLen[j]; t++ {
				w.cI = append(w.cI, 0)
				w.cV = append(w.cV, 0)
			}
			w.cStart[j], w.cCap[j] = ns, nc
			s = ns
			for t := s; t < s+w.cLen[j]; t++ {
				w.mark[w.cI[t]] = t
			}
		}
		p := s + w.cLen[j]
		w.cI[p] = i
		w.cV[p] = -f.lVal[k] * u
		w.cLen[j]++
		w.mark[i] = p
		if w.rLen[i] == w.rCap[i] {
			ns := len(w.rJ)
			nc := 2*w.rCap[i] + 4
			w.rJ = append(w.rJ, w.rJ[w.rStart[i]:w.rStart[i]+w.rLen[i]]...)
			for t := 0; t < nc-w.rLen[i]; t++ {
				w.rJ = append(w.rJ, 0)
			}
			w.rStart[i], w.rCap[i] = ns, nc
		}
		w.rJ[w.rStart[i]+w.rLen[i]] = j
		w.rLen[i]++
	}
	for k := s; k < s+w.cLen[j]; k++ {
		w.mark[w.cI[k]] = -1
	}
}

// countBuckets holds lines (rows or columns of the kernel) in doubly
// linked lists by their number of entries: head[n] is the first line
// with n entries, next and prev link the lines, in[i] is the count under
// which line i is linked (-1: not linked).
type countBuckets struct {
	head, next, prev, in []int
}

// reset makes room for m lines of up to m entries, none linked.
func (b *countBuckets) reset(m int) {
	b.head = growInts(b.head, m+1)
	b.next = growInts(b.next, m)
	b.prev = growInts(b.prev, m)
	b.in = growInts(b.in, m)
	for i := range b.head {
		b.head[i] = -1
	}
	for i := range b.in {
		b.in[i] = -1
	}
}

// link puts line i, of n entries, at the head of bucket n.
func (b *countBuckets) link(i, n int) {
	b.in[i] = n
	b.prev[i] = -1
	b.next[i] = b.head[n]
	if h := b.head[n]; h >= 0 {
		b.prev[h] = i
	}
	b.head[n] = i
}

// unlink takes line i out of its bucket, if it is in one.
func (b *countBuckets) unlink(i int) {
	n := b.in[i]
	if n < 0 {
		return
	}
	if p := b.prev[i]; p >= 0 {
		b.next[p] = b.next[i]
	} else {
		b.head[n] = b.next[i]
	}
	if nx := b.next[i]; nx >= 0 {
		b.prev[nx] = b.prev[i]
	}
	b.in[i] = -1
}

// relink moves line i to the bucket of its current count n.
func (b *countBuckets) relink(i, n int) {
	b.unlink(i)
	b.link(i, n)
}

// kernel eliminates the active submatrix left after the singletons.
func (f *luFactor) kernel() {
	w := &f.fw
	m := f.m
	w.colB.reset(m)
	w.rowB.reset(m)
	for c := 0; c < m; c++ {
		if w.colActive[c] {
			w.colB.link(c, w.cLen[c])
		}
	}
	for r := 0; r < m; r++ {
		if w.rowActive[r] {
			w.rowB.link(r, w.rLen[r])
		}
	}
	for len(w.pivRow) < m {
		r, c := f.search()
		if r < 0 {
			return
		}
		f.pivotGeneral(r, c, true)
	}
}

// colMax returns the largest magnitude in active column c.
func (w *factorWork) colMax(c int) float64 {
	var mx float64
	s := w.cStart[c]
	for k := s; k < s+w.cLen[c]; k++ {
		if a := math.Abs(w.cV[k]); a > mx {
			mx = a
		}
	}
	return mx
}

// search returns a pivot of low Markowitz cost (r_i-1)(c_j-1) among
// those that pass the threshold test, looking at few columns and rows of
// the lowest counts (Zlatev's strategy); (-1, -1) if none is acceptable.
func (f *luFactor) search() (int, int) {
	w := &f.fw
	m := f.m
	const maxLines = 4
	bestR, bestC := -1, -1
	bestCost := math.MaxInt
	bestAbs := 0.0
	lines := 0
	for n := 1; n <= m; n++ {
		for c := w.colB.head[n]; c >= 0; c = w.colB.next[c] {
			cmax := w.colMax(c)
			thr := math.Max(luPivotTol*cmax, luAbsTol)
			s := w.cStart[c]
			for k := s; k < s+w.cLen[c]; k++ {
				a := math.Abs(w.cV[k])
				if a < thr {
					continue
				}
				i := w.cI[k]
				cost := (w.rLen[i] - 1) * (n - 1)
				if cost < bestCost || (cost == bestCost && a > bestAbs) {
					bestR, bestC, bestCost, bestAbs = i, c, cost, a
				}
			}
			lines++
			if bestR >= 0 && (bestCost <= (n-1)*(n-1) || lines >= maxLines) {
				return bestR, bestC
			}
		}
		for r := w.rowB.head[n]; r >= 0; r = w.rowB.next[r] {
			s := w.rStart[r]
			for t := s; t < s+w.rLen[r]; t++ {
				c := w.rJ[t]
				a := math.Abs(w.valueAt(r, c))
				if a < luAbsTol || a < luPivotTol*w.colMax(c) {
					continue
				}
				cost := (n - 1) * (w.cLen[c] - 1)
				if cost < bestCost || (cost == bestCost && a > bestAbs) {
					bestR, bestC, bestCost, bestAbs = r, c, cost, a
				}
			}
			lines++
			if bestR >= 0 && (bestCost <= n*(n-1) || lines >= maxLines) {
				return bestR, bestC
			}
		}
	}
	return bestR, bestC
}

// build turns the pivot sequence of factor into the solve structures.
// U entries in the columns listed in singular are dropped: those columns
// are replaced by unit columns.
func (f *luFactor) build(singular []int) {
	w := &f.fw
	m := f.m
	f.diag = growFloats(f.diag, m)
	f.order = growInts(f.order, m)
	f.opos = growInts(f.opos, m)
	drop := w.mark // reuse: mark[p] = -2 for dropped columns
	for _, p := range singular {
		drop[p] = -2
	}
	f.dinv = growFloats(f.dinv, m)
	for k, r := range w.pivRow {
		f.diag[r] = w.pivVal[k]
		f.dinv[r] = 1 / w.pivVal[k]
		f.order[k] = r
		f.opos[r] = k
	}
	// U rows with spare room for updates.
	f.urStart = growInts(f.urStart, m)
	f.urLen = growInts(f.urLen, m)
	f.urCap = growInts(f.urCap, m)
	f.ucStart = growInts(f.ucStart, m)
	f.ucLen = growInts(f.ucLen, m)
	const spare = 4
	total := 0
	for k := range w.pivRow {
		total += w.uStart[k+1] - w.uStart[k] + spare
	}
	f.urIdx = growInts(f.urIdx, total)
	f.urVal = growFloats(f.urVal, total)
	clear(f.ucLen)
	off := 0
	unz := 0
	for k, r := range w.pivRow {
		f.urStart[r] = off
		n := 0
		for t := w.uStart[k]; t < w.uStart[k+1]; t++ {
			p := w.uJ[t]
			if drop[p] == -2 || w.uV[t] == 0 {
				continue
			}
			j := w.rowOfPos[p]
			f.urIdx[off+n] = j
			f.urVal[off+n] = w.uV[t]
			f.ucLen[j]++
			n++
		}
		f.urLen[r] = n
		f.urCap[r] = n + spare
		off += n + spare
		unz += n
	}
	for _, p := range singular {
		drop[p] = -1
	}
	// U columns by transposition.
	f.ucIdx = growInts(f.ucIdx, unz)
	f.ucVal = growFloats(f.ucVal, unz)
	off = 0
	for r := 0; r < m; r++ {
		f.ucStart[r] = off
		off += f.ucLen[r]
		f.ucLen[r] = 0
	}
	for r := 0; r < m; r++ {
		s := f.urStart[r]
		for k := s; k < s+f.urLen[r]; k++ {
			j := f.urIdx[k]
			t := f.ucStart[j] + f.ucLen[j]
			f.ucIdx[t] = r
			f.ucVal[t] = f.urVal[k]
			f.ucLen[j]++
		}
	}
	// L by rows.
	f.ltStart = growInts(f.ltStart, m+1)
	clear(f.ltStart)
	lnz := len(f.lIdx)
	for _, i := range f.lIdx {
		f.ltStart[i+1]++
	}
	for i := 0; i < m; i++ {
		f.ltStart[i+1] += f.ltStart[i]
	}
	f.ltIdx = growInts(f.ltIdx, lnz)
	f.ltVal = growFloats(f.ltVal, lnz)
	fill := w.rStart // reuse as a cursor
	copy(fill, f.ltStart[:m])
	for e, r := range f.lPiv {
		for k := f.lStart[e]; k < f.lStart[e+1]; k++ {
			i := f.lIdx[k]
			f.ltIdx[fill[i]] = r
			f.ltVal[fill[i]] = f.lVal[k]
			fill[i]++
		}
	}
	f.lRowsRev = f.lRowsRev[:0]
	for k := m - 1; k >= 0; k-- {
		r := f.order[k]
		if f.ltStart[r+1] > f.ltStart[r] {
			f.lRowsRev = append(f.lRowsRev, r)
		}
	}
	f.rPiv = f.rPiv[:0]
	f.rStart = append(f.rStart[:0], 0)
	f.rIdx = f.rIdx[:0]
	f.rVal = f.rVal[:0]
	f.updates = 0
	f.spikeOK = false
	f.work = growFloats(f.work, m)
	clear(f.work)
	f.work2 = growFloats(f.work2, m)
	clear(f.work2)
	f.factorNnz = unz + lnz + m
}

// ftran solves B x = b in place: x holds b (row space) on entry and the
// solution (indexed by position = pivot row) on return. With save set
// the partial result M b is kept as the spike for the next update.
func (f *luFactor) ftran(x []float64, save bool) {
	lPiv, lStart, lIdx, lVal := f.lPiv, f.lStart, f.lIdx, f.lVal
	for e, r := range lPiv {
		t := x[r]
		if t == 0 {
			continue
		}
		idx := lIdx[lStart[e]:lStart[e+1]]
		val := lVal[lStart[e]:lStart[e+1]]
		for k, i := range idx {
			x[i] -= val[k] * t
		}
	}
	for e, r := range f.rPiv {
		idx := f.rIdx[f.rStart[e]:f.rStart[e+1]]
		val := f.rVal[f.rStart[e]:f.rStart[e+1]]
		var s float64
		for k, i := range idx {
			s += val[k] * x[i]
		}
		x[r] -= s
	}
	if save {
		f.spikeIdx = f.spikeIdx[:0]
		f.spikeVal = f.spikeVal[:0]
		for i, v := range x[:f.m] {
			if v != 0 {
				f.spikeIdx = append(f.spikeIdx, i)
				f.spikeVal = append(f.spikeVal, v)
			}
		}
		f.spikeOK = true
	}
	order, dinv := f.order, f.dinv
	ucStart, ucLen, ucIdx, ucVal := f.ucStart, f.ucLen, f.ucIdx, f.ucVal
	for k := len(order) - 1; k >= 0; k-- {
		r := order[k]
		if r < 0 {
			continue
		}
		t := x[r]
		if t == 0 {
			continue
		}
		t *= dinv[r]
		x[r] = t
		s := ucStart[r]
		idx := ucIdx[s : s+ucLen[r]]
		val := ucVal[s : s+ucLen[r]]
		for k, i := range idx {
			x[i] -= val[k] * t
		}
	}
}

// ftran3 is ftran for the three right-hand sides x (whose partial result
// is saved as the spike), y and z at once, sharing the passes over the
// factors; z may be nil.
func (f *luFactor) ftran3(x, y, z []float64) {
	if z == nil {
		f.zero = growFloats(f.zero, f.m)
		z = f.zero
	}
	x, y, z = x[:f.m], y[:f.m], z[:f.m]
	lStart, lIdx, lVal := f.lStart, f.lIdx, f.lVal
	for e, r := range f.lPiv {
		tx, ty, tz := x[r], y[r], z[r]
		if tx == 0 && ty == 0 && tz == 0 {
			continue
		}
		idx := lIdx[lStart[e]:lStart[e+1]]
		val := lVal[lStart[e]:lStart[e+1]]
		if tx != 0 {
			for k, i := range idx {
				x[i] -= val[k] * tx
			}
		}
		if ty != 0 {
			for k, i := range idx {
				y[i] -= val[k] * ty
			}
		}
		if tz != 0 {
			for k, i := range idx {
				z[i] -= val[k] * tz
			}
		}
	}
	for e, r := range f.rPiv {
		idx := f.rIdx[f.rStart[e]:f.rStart[e+1]]
		val := f.rVal[f.rStart[e]:f.rStart[e+1]]
		var sx, sy, sz float64
		for k, i := range idx {
			v := val[k]
			sx += v * x[i]
			sy += v * y[i]
			sz += v * z[i]
		}
		x[r] -= sx
		y[r] -= sy
		z[r] -= sz
	}
	f.spikeIdx = f.spikeIdx[:0]
	f.spikeVal = f.spikeVal[:0]
	for i, v := range x {
		if v != 0 {
			f.spikeIdx = append(f.spikeIdx, i)
			f.spikeVal = append(f.spikeVal, v)
		}
	}
	f.spikeOK = true
	order, dinv := f.order, f.dinv
	ucStart, ucLen, ucIdx, ucVal := f.ucStart, f.ucLen, f.ucIdx, f.ucVal
	for k := len(order) - 1; k >= 0; k-- {
		r := order[k]
		if r < 0 {
			continue
		}
		tx, ty, tz := x[r], y[r], z[r]
		if tx == 0 && ty == 0 && tz == 0 {
			continue
		}
		di := dinv[r]
		s := ucStart[r]
		idx := ucIdx[s : s+ucLen[r]]
		val := ucVal[s : s+ucLen[r]]
		if tx != 0 {
			tx *= di
			x[r] = tx
			for k, i := range idx {
				x[i] -= val[k] * tx
			}
		}
		if ty != 0 {
			ty *= di
			y[r] = ty
			for k, i := range idx {
				y[i] -= val[k] * ty
			}
		}
		if tz != 0 {
			tz *= di
			z[r] = tz
			for k, i := range idx {
				z[i] -= val[k] * tz
			}
		}
	}
}

// btran solves B^T z = e in place: z holds e (indexed by position) on
// entry and the solution (row space) on return.
func (f *luFactor) btran(z []float64) {
	order, dinv := f.order, f.dinv
	urStart, urLen, urIdx, urVal := f.urStart, f.urLen, f.urIdx, f.urVal
	for _, r := range order {
		if r < 0 {
			continue
		}
		t := z[r]
		if t == 0 {
			continue
		}
		t *= dinv[r]
		z[r] = t
		s := urStart[r]
		idx := urIdx[s : s+urLen[r]]
		val := urVal[s : s+urLen[r]]
		for k, j := range idx {
			z[j] -= val[k] * t
		}
	}
	for e := len(f.rPiv) - 1; e >= 0; e-- {
		t := z[f.rPiv[e]]
		if t == 0 {
			continue
		}
		idx := f.rIdx[f.rStart[e]:f.rStart[e+1]]
		val := f.rVal[f.rStart[e]:f.rStart[e+1]]
		for k, i := range idx {
			z[i] -= val[k] * t
		}
	}
	ltStart, ltIdx, ltVal := f.ltStart, f.ltIdx, f.ltVal
	for _, i := range f.lRowsRev {
		t := z[i]
		if t == 0 {
			continue
		}
		idx := ltIdx[ltStart[i]:ltStart[i+1]]
		val := ltVal[ltStart[i]:ltStart[i+1]]
		for k, r := range idx {
			z[r] -= val[k] * t
		}
	}
}

// removeURow deletes the entry naming column j from U row r.
func (f *luFactor) removeURow(r, j int) {
	s := f.urStart[r]
	e := s + f.urLen[r] - 1
	for k := s; k <= e; k++ {
		if f.urIdx[k] == j {
			f.urIdx[k], f.urVal[k] = f.urIdx[e], f.urVal[e]
			f.urLen[r]--
			return
		}
	}
}

// removeUCol deletes the entry of row i from U column j.
func (f *luFactor) removeUCol(j, i int) {
	s := f.ucStart[j]
	e := s + f.ucLen[j] - 1
	for k := s; k <= e; k++ {
		if f.ucIdx[k] == i {
			f.ucIdx[k], f.ucVal[k] = f.ucIdx[e], f.ucVal[e]
			f.ucLen[j]--
			return
		}
	}
}

// appendURow adds (j, v) to U row r, moving the row to the end of the
// pool if it is full.
func (f *luFactor) appendURow(r, j int, v float64) {
	if f.urLen[r] == f.urCap[r] {
		s, n := f.urStart[r], f.urLen[r]
		ns := len(f.urIdx)
		nc := 2*n + 4
		f.urIdx = append(f.urIdx, f.urIdx[s:s+n]...)
		f.urVal = append(f.urVal, f.urVal[s:s+n]...)
		for t := n; t < nc; t++ {
			f.urIdx = append(f.urIdx, 0)
			f.urVal = append(f.urVal, 0)
		}
		f.urStart[r], f.urCap[r] = ns, nc
	}
	t := f.urStart[r] + f.urLen[r]
	f.urIdx[t] = j
	f.urVal[t] = v
	f.urLen[r]++
}

// update replaces the column at position r by the column whose ftran
// (with save) came last, the Forrest–Tomlin way: the spike becomes the
// last column of U, row r is eliminated with a row eta. alpha is the
// r-th element of that column's ftran; the new diagonal must equal
// alpha times the old one, and update reports false (the caller must
// refactor) when they disagree or the new pivot is tiny.
func (f *luFactor) update(r int, alpha float64) bool {
	if !f.spikeOK {
		return false
	}
	f.spikeOK = false
	w := f.work
	// Multipliers that eliminate row r of U with the rows after it.
	s := f.urStart[r]
	for k := s; k < s+f.urLen[r]; k++ {
		w[f.urIdx[k]] = f.urVal[k]
	}
	etaBeg := len(f.rIdx)
	if f.urLen[r] > 0 {
		order := f.order
		for t := f.opos[r] + 1; t < len(order); t++ {
			j := order[t]
			if j < 0 {
				continue
			}
			wj := w[j]
			if wj == 0 {
				continue
			}
			w[j] = 0
			mult := wj / f.diag[j]
			f.rIdx = append(f.rIdx, j)
			f.rVal = append(f.rVal, mult)
			sj := f.urStart[j]
			idx := f.urIdx[sj : sj+f.urLen[j]]
			val := f.urVal[sj : sj+f.urLen[j]]
			for k, l := range idx {
				w[l] -= mult * val[k]
			}
		}
	}
	// The new diagonal: spike[r] - sum mult_j spike[j].
	sp := f.work2
	for k, i := range f.spikeIdx {
		sp[i] = f.spikeVal[k]
	}
	nd := sp[r]
	for k := etaBeg; k < len(f.rIdx); k++ {
		nd -= f.rVal[k] * sp[f.rIdx[k]]
	}
	for _, i := range f.spikeIdx {
		sp[i] = 0
	}
	expect := alpha * f.diag[r]
	if math.Abs(nd) < 1e-12 || math.Abs(nd-expect) > 1e-8*math.Max(1, math.Abs(expect)) {
		f.rIdx = f.rIdx[:etaBeg]
		f.rVal = f.rVal[:etaBeg]
		return false
	}
	if len(f.rIdx) > etaBeg {
		f.rPiv = append(f.rPiv, r)
		f.rStart = append(f.rStart, len(f.rIdx))
	}
	// Remove the old column r from the rows and row r from the columns.
	cs := f.ucStart[r]
	for k := cs; k < cs+f.ucLen[r]; k++ {
		f.removeURow(f.ucIdx[k], r)
	}
	for k := s; k < s+f.urLen[r]; k++ {
		f.removeUCol(f.urIdx[k], r)
	}
	f.urLen[r] = 0
	// The spike is the new column r, last in the order.
	f.ucStart[r] = len(f.ucIdx)
	n := 0
	for k, i := range f.spikeIdx {
		v := f.spikeVal[k]
		if i == r || math.Abs(v) <= luDropTol {
			continue
		}
		f.ucIdx = append(f.ucIdx, i)
		f.ucVal = append(f.ucVal, v)
		f.appendURow(i, r, v)
		n++
	}
	f.ucLen[r] = n
	f.diag[r] = nd
	f.dinv[r] = 1 / nd
	f.order[f.opos[r]] = -1
	f.opos[r] = len(f.order)
	f.order = append(f.order, r)
	f.updates++
	return true
}

// fill returns the number of stored nonzeros in L, R and U now.
func (f *luFactor) fill() int {
	return len(f.lIdx) + len(f.rIdx) + len(f.ucIdx)
}
