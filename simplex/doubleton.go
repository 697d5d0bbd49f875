package simplex

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Doubleton equations: a row a x_j + b x_k = rhs with exactly two
// entries is removed together with x_k, which is substituted out:
//
//	x_k = (rhs - a x_j) / b.
//
// The bounds of x_k become bounds of x_j (intersected with its own), the
// cost c_k moves to x_j (c_j -= c_k a/b, the constant c_k rhs/b to the
// Offset), and every other row r with an entry in column k gets a_rj -=
// a_rk a/b and its limits shifted by -a_rk rhs/b. Postsolve recovers x_k
// from the equation and the row's dual from the reduced costs: y_i makes
// d_k zero (x_k basic), unless x_j sits at a bound that came from x_k's,
// in which case y_i makes d_j zero (x_j basic) and x_k is nonbasic at
// its bound with d_k = -(b/a) d_j of the right sign.

// dblPivotRatio: the substituted column's entry in the doubleton row
// must be at least this fraction of the other entry (else the other
// column is substituted), which bounds the multipliers a/b by 10.
const dblPivotRatio = 0.1

// dblDropTol: an entry a_rj that the substitution cancels to below this
// fraction of the terms that made it is removed.
const dblDropTol = 1e-12

// dblRec is one substitution, with what postsolve needs: column j's and
// column k's other entries and costs at the time, and where x_j's new
// bounds came from.
type dblRec struct {
	i, j, k      int // the row and the kept and the removed column (indices of orig)
	a, b, rhs    float64
	cj, ck       float64
	jRows, kRows []int // other rows of columns j and k then
	jVals, kVals []float64
	lk, uk       float64 // bounds of x_k
	lj, uj       float64 // x_j's own bounds then
	lo, up       float64 // x_j's bounds after the substitution
	loK, upK     bool    // ... taken from x_k's bounds (strictly tighter than x_j's own)
}

// dblPresolved is a problem whose doubleton equations have been
// substituted out.
type dblPresolved struct {
	orig    *Problem
	reduced *Problem
	colMap  []int // reduced column -> orig
	rowMap  []int // reduced row -> orig
	recs    []dblRec
	event   string
}

// presolveDoubletons substitutes out the doubleton equations of p
// (repeatedly: a substitution can make other rows doubletons). It
// returns nil when there are none, or when none can be substituted
// without making a column's bounds cross.
func presolveDoubletons(p *Problem) *dblPresolved {
	m, n := p.A.Rows, p.A.Cols
	rowLen := make([]int, m+1)
	for t, v := range p.A.Value {
		if v != 0 {
			rowLen[p.A.RowIndex[t]+1]++
		}
	}
	found := false
	for i := 0; i < m && !found; i++ {
		found = rowLen[i+1] == 2 && p.RowLower[i] == p.RowUpper[i] && !math.IsInf(p.RowLower[i], 0)
	}
	if !found {
		return nil
	}
	// Columns and rows as slices of two pools, each with no spare
	// capacity, so that a fill-in moves only its own column or row.
	nnz := len(p.A.RowIndex)
	rowPool := make([]int, nnz)
	valPool := make([]float64, nnz)
	colPool := make([]int, nnz)
	colRows := make([][]int, n)
	colVals := make([][]float64, n)
	rowCols := make([][]int, m)
	for i := 0; i < m; i++ {
		rowLen[i+1] += rowLen[i]
	}
	next := 0
	for j := 0; j < n; j++ {
		start := next
		for t := p.A.ColStart[j]; t < p.A.ColStart[j+1]; t++ {
			if v := p.A.Value[t]; v != 0 {
				i := p.A.RowIndex[t]
				rowPool[next], valPool[next] = i, v
				next++
				colPool[rowLen[i]] = j
				rowLen[i]++
			}
		}
		colRows[j] = rowPool[start:next:next]
		colVals[j] = valPool[start:next:next]
	}
	start := 0
	for i := 0; i < m; i++ {
		rowCols[i] = colPool[start:rowLen[i]:rowLen[i]]
		start = rowLen[i]
	}
	var queue []int
	for i := 0; i < m; i++ {
		if isDoubletonNow(i, rowCols, p.RowLower, p.RowUpper) {
			queue = append(queue, i)
		}
	}
	if len(queue) == 0 {
		return nil
	}
	lo := slices.Clone(p.ColLower)
	up := slices.Clone(p.ColUpper)
	rl := slices.Clone(p.RowLower)
	ru := slices.Clone(p.RowUpper)
	cost := slices.Clone(p.Obj)
	offset := p.Offset
	rowOut := make([]bool, m)
	colOut := make([]bool, n)
	skip := make([]bool, m) // doubletons whose substitution would cross bounds
	entry := func(j, i int) int {
		for t, r := range colRows[j] {
			if r == i {
				return t
			}
		}
		return -1
	}
	removeFromRow := func(i, j int) {
		cols := rowCols[i]
		for t, c := range cols {
			if c == j {
				cols[t] = cols[len(cols)-1]
				rowCols[i] = cols[:len(cols)-1]
				return
			}
		}
	}
	removeFromCol := func(j, t int) {
		last := len(colRows[j]) - 1
		colRows[j][t], colVals[j][t] = colRows[j][last], colVals[j][last]
		colRows[j], colVals[j] = colRows[j][:last], colVals[j][:last]
	}
	dp := &dblPresolved{orig: p}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if rowOut[i] || skip[i] || len(rowCols[i]) != 2 {
			continue
		}
		j, k := rowCols[i][0], rowCols[i][1]
		if len(colRows[j]) < len(colRows[k]) {
			j, k = k, j // substitute the shorter column
		}
		a, b := colVals[j][entry(j, i)], colVals[k][entry(k, i)]
		if math.Abs(b) < dblPivotRatio*math.Abs(a) {
			j, k, a, b = k, j, b, a
		}
		rhs := rl[i]
		// x_k in [lk, uk] as bounds of x_j = (rhs - b x_k)/a.
		at := func(xk float64) float64 {
			if math.IsInf(xk, 0) {
				if (b > 0) == (a > 0) {
					return -xk
				}
				return xk
			}
			return (rhs - b*xk) / a
		}
		dl, du := at(lo[k]), at(up[k])
		if dl > du {
			dl, du = du, dl
		}
		nl, nu := math.Max(lo[j], dl), math.Min(up[j], du)
		if nl > nu {
			skip[i] = true // crossing bounds: left to the simplex method
			continue
		}
		rec := dblRec{i: i, j: j, k: k, a: a, b: b, rhs: rhs, cj: cost[j], ck: cost[k],
			lk: lo[k], uk: up[k], lj: lo[j], uj: up[j], lo: nl, up: nu, loK: dl > lo[j], upK: du < up[j]}
		for t, r := range colRows[j] {
			if r != i {
				rec.jRows = append(rec.jRows, r)
				rec.jVals = append(rec.jVals, colVals[j][t])
			}
		}
		for t, r := range colRows[k] {
			if r != i {
				rec.kRows = append(rec.kRows, r)
				rec.kVals = append(rec.kVals, colVals[k][t])
			}
		}
		// Substitute x_k in its other rows.
		for t, r := range rec.kRows {
			akr := rec.kVals[t]
			shift := akr * rhs / b
			rl[r] -= shift
			ru[r] -= shift
			delta := -akr * a / b
			if e := entry(j, r); e >= 0 {
				old := colVals[j][e]
				v := old + delta
				if math.Abs(v) <= dblDropTol*math.Max(math.Abs(old), math.Abs(delta)) {
					removeFromCol(j, e)
					removeFromRow(r, j)
				} else {
					colVals[j][e] = v
				}
			} else {
				colRows[j] = append(colRows[j], r)
				colVals[j] = append(colVals[j], delta)
				rowCols[r] = append(rowCols[r], j)
			}
			removeFromRow(r, k)
		}
		for _, r := range rec.kRows {
			if !skip[r] && isDoubletonNow(r, rowCols, rl, ru) {
				queue = append(queue, r)
			}
		}
		offset += cost[k] * rhs / b
		cost[j] -= cost[k] * a / b
		cost[k] = 0
		lo[j], up[j] = nl, nu
		removeFromCol(j, entry(j, i))
		colRows[k], colVals[k] = nil, nil
		rowCols[i] = nil
		rowOut[i], colOut[k] = true, true
		dp.recs = append(dp.recs, rec)
	}
	if len(dp.recs) == 0 {
		return nil
	}
	nc, nr := n-len(dp.recs), m-len(dp.recs)
	q := &Problem{Name: p.Name, Offset: offset, Maximize: p.Maximize,
		Obj: make([]float64, 0, nc), ColLower: make([]float64, 0, nc), ColUpper: make([]float64, 0, nc),
		RowLower: make([]float64, 0, nr), RowUpper: make([]float64, 0, nr)}
	dp.colMap = make([]int, 0, nc)
	dp.rowMap = make([]int, 0, nr)
	newRow := make([]int, m)
	for i := 0; i < m; i++ {
		newRow[i] = -1
		if !rowOut[i] {
			newRow[i] = len(dp.rowMap)
			dp.rowMap = append(dp.rowMap, i)
			q.RowLower = append(q.RowLower, rl[i])
			q.RowUpper = append(q.RowUpper, ru[i])
		}
	}
	total := 0
	for j := 0; j < n; j++ {
		total += len(colRows[j])
	}
	q.A = Sparse{Rows: len(dp.rowMap), ColStart: append(make([]int, 0, nc+1), 0),
		RowIndex: make([]int, 0, total), Value: make([]float64, 0, total)}
	type ent struct {
		i int
		v float64
	}
	var col []ent
	for j := 0; j < n; j++ {
		if colOut[j] {
			continue
		}
		dp.colMap = append(dp.colMap, j)
		q.Obj = append(q.Obj, cost[j])
		q.ColLower = append(q.ColLower, lo[j])
		q.ColUpper = append(q.ColUpper, up[j])
		col = col[:0]
		for t, r := range colRows[j] {
			col = append(col, ent{newRow[r], colVals[j][t]})
		}
		slices.SortFunc(col, func(x, y ent) int { return x.i - y.i })
		for _, e := range col {
			q.A.RowIndex = append(q.A.RowIndex, e.i)
			q.A.Value = append(q.A.Value, e.v)
		}
		q.A.ColStart = append(q.A.ColStart, len(q.A.RowIndex))
	}
	q.A.Cols = len(dp.colMap)
	dp.reduced = q
	dp.event = fmt.Sprintf("presolve: %d doubleton equations substituted out", len(dp.recs))
	return dp
}

// statusOf is the status of column j, Basic when b is nil (no basis
// came back).
func (b *Basis) statusOf(j int) VarStatus {
	if b == nil {
		return Basic
	}
	return b.Cols[j]
}

// isDoubletonNow reports whether row r is an equality with two entries
// left.
func isDoubletonNow(r int, rowCols [][]int, rl, ru []float64) bool {
	return len(rowCols[r]) == 2 && rl[r] == ru[r] && !math.IsInf(rl[r], 0)
}

// solve solves the reduced problem with the options o (the presolve of
// Solve runs on it again: substitutions leave singleton rows and new
// doubletons) and maps the outcome back. An optimum that postsolve
// cannot make feasible for dp.orig (not expected) sends dp.orig to Solve
// without presolve.
func (dp *dblPresolved) solve(ctx context.Context, o *Options) (*Result, error) {
	r, err := Solve(ctx, dp.reduced, o)
	if r == nil {
		return nil, err
	}
	res := dp.postsolve(r)
	if res.Status == Optimal && !primalFeasible(dp.orig, res) {
		ro := *o
		ro.NoPresolve = true
		return Solve(ctx, dp.orig, &ro)
	}
	return res, err
}

// postsolve maps the result r of the reduced problem to dp.orig, undoing
// the substitutions last first.
func (dp *dblPresolved) postsolve(r *Result) *Result {
	p := dp.orig
	m, n := p.A.Rows, p.A.Cols
	res := &Result{Status: r.Status, Offset: p.Offset, Iterations: r.Iterations,
		Events: append([]string{dp.event}, r.Events...)}
	x := make([]float64, n)
	y := make([]float64, m)
	for t, j := range dp.colMap {
		x[j] = r.X[t]
	}
	for t, i := range dp.rowMap {
		y[i] = r.RowDuals[t]
	}
	var b *Basis
	if r.Basis != nil {
		b = &Basis{Cols: make([]VarStatus, n), Rows: make([]VarStatus, m)}
		for t, j := range dp.colMap {
			b.Cols[j] = r.Basis.Cols[t]
		}
		for t, i := range dp.rowMap {
			b.Rows[i] = r.Basis.Rows[t]
		}
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	var ray []float64
	if r.Ray != nil {
		ray = make([]float64, n)
		for t, j := range dp.colMap {
			ray[j] = r.Ray[t]
		}
	}
	for t := len(dp.recs) - 1; t >= 0; t-- {
		c := &dp.recs[t]
		x[c.k] = (c.rhs - c.a*x[c.j]) / c.b
		if ray != nil {
			ray[c.k] = -c.a / c.b * ray[c.j]
		}
		// dk0 and dj0: the reduced costs of x_k and x_j without row i's
		// term; the reduced problem's d_j is dj0 - (a/b) dk0.
		dk0, dj0 := c.ck, c.cj
		for s, i := range c.kRows {
			dk0 -= c.kVals[s] * y[i]
		}
		for s, i := range c.jRows {
			dj0 -= c.jVals[s] * y[i]
		}
		// Which of x_j and x_k is nonbasic? The reduced problem's
		// d_j = dj0 - (a/b) dk0 says at which of its bounds [lo, up]
		// x_j must sit; when that bound is x_j's own, x_k is basic
		// (d_k = 0) and x_j keeps d_j; when it came from x_k's bound,
		// x_j is basic (d_j = 0) and x_k sits at that bound with d_k =
		// -(b/a) d_j. The decision reads x_j's value and d_j's sign, not
		// the reduced problem's status: a later round may have fixed x_j
		// at x_k's bound (a singleton row, say) and reports it AtLower
		// whichever bound that was.
		atK := dblAtK(c, x[c.j], sign*(dj0-c.a/c.b*dk0), 1e-9*(1+math.Abs(dj0)+math.Abs(c.a/c.b*dk0)), b.statusOf(c.j))
		if atK {
			// d_j = 0 (x_j basic), d_k = -(b/a) d_j of the reduced
			// problem, x_k nonbasic at the bound that gave x_j's.
			y[c.i] = dj0 / c.a
			lo := math.Abs(x[c.k]-c.lk) <= math.Abs(x[c.k]-c.uk)
			if lo {
				x[c.k] = c.lk
			} else {
				x[c.k] = c.uk
			}
			if b != nil {
				b.Cols[c.j] = Basic
				b.Cols[c.k] = AtUpper
				if lo {
					b.Cols[c.k] = AtLower
				}
			}
		} else {
			// d_k = 0 (x_k basic), d_j as in the reduced problem; a
			// nonbasic x_j is labelled by the bound of its own that it
			// sits at (an inner round may have said AtLower for either).
			y[c.i] = dk0 / c.b
			if b != nil {
				b.Cols[c.k] = Basic
				if st := b.Cols[c.j]; st == AtLower || st == AtUpper {
					lo, up := nearBound(x[c.j], c.lj), nearBound(x[c.j], c.uj)
					if lo && !up {
						b.Cols[c.j] = AtLower
					} else if up && !lo {
						b.Cols[c.j] = AtUpper
					}
				}
			}
		}
		if b != nil {
			b.Rows[c.i] = AtLower
		}
	}
	res.X, res.RowDuals, res.Basis, res.Ray = x, y, b, ray
	res.RowActivity = p.A.MulVec(x)
	for j, c := range p.Obj {
		res.Objective += c * x[j]
	}
	aty := p.A.MulVecT(y)
	res.ReducedCosts = make([]float64, n)
	for j := range res.ReducedCosts {
		res.ReducedCosts[j] = p.Obj[j] - aty[j]
	}
	for _, v := range [][]float64{res.X, res.RowActivity, res.RowDuals, res.ReducedCosts} {
		for i := range v {
			v[i] += 0 // no negative zeros
		}
	}
	return res
}

// dblAtK decides, for substitution c whose kept column has value xj and
// reduced cost sd (times the objective's sign) in the reduced problem,
// whether x_j sits at a bound that x_k's bound gave (then x_k is the
// nonbasic one): when sd > tol, x_j is at its lower bound; when sd <
// -tol, at its upper; that bound is x_k's when it is not x_j's own, or
// x_j does not sit there (within 1e-9 relative). When |sd| <= tol either
// choice is dual feasible, and x_j's status st says whether it is
// nonbasic; it stays so only at a bound of its own.
func dblAtK(c *dblRec, xj, sd, tol float64, st VarStatus) bool {
	onOwn := func(lower bool) bool {
		if lower {
			return nearBound(xj, c.lj)
		}
		return nearBound(xj, c.uj)
	}
	switch {
	case sd > tol:
		return c.loK && !onOwn(true)
	case sd < -tol:
		return c.upK && !onOwn(false)
	case st == AtLower:
		return c.loK && !onOwn(true)
	case st == AtUpper:
		return c.upK && !onOwn(false)
	}
	return false
}
