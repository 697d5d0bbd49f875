package simplex

import (
	"context"
	"fmt"
	"math"
)

// presolveTol is the relative margin by which presolve must see a row or
// a bound violated before it declares the problem infeasible; closer
// cases are left to the simplex method and its tolerances.
const presolveTol = 1e-6

// presolveForceTol is the relative distance within which an activity
// bound counts as reaching a row limit (a forcing row).
const presolveForceTol = 1e-9

// forcedRow is a forcing row: at its upper limit (upper) with every
// column of cols at the bound that gives the least activity, or at its
// lower limit with every column at the bound that gives the most.
type forcedRow struct {
	row   int
	upper bool
	cols  []int
}

// maxPresolvePasses bounds the passes of presolve over the rows.
const maxPresolvePasses = 20

// presolved is a problem reduced by presolve and what postsolve needs to
// map a solution of the reduced problem back.
type presolved struct {
	orig    *Problem
	reduced *Problem
	colMap  []int // reduced column -> original
	rowMap  []int // reduced row -> original
	colOut  []bool
	rowOut  []bool
	xOut    []float64 // values of the removed columns
	// lbRow[j] (ubRow[j]) is the singleton row that gave column j its
	// working lower (upper) bound, -1 for the column's own bound.
	lbRow, ubRow []int
	// forcing lists the forcing rows in the order found.
	forcing    []forcedRow
	infeasible string // why the problem is infeasible ("" if not seen)
	events     []string
}

// presolve reduces p: it drops the fixed columns (moving their terms into
// the row limits) and the columns without entries (at their best bound),
// turns rows with one entry into bounds of its column, drops empty rows
// and rows that the bounds of their columns make redundant, and detects
// infeasibility that the row activity ranges show. It returns nil when
// nothing is reduced.
func presolve(p *Problem) *presolved {
	m, n := p.A.Rows, p.A.Cols
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	ps := &presolved{orig: p, colOut: make([]bool, n), rowOut: make([]bool, m), xOut: make([]float64, n),
		lbRow: make([]int, n), ubRow: make([]int, n)}
	lo := append([]float64(nil), p.ColLower...)
	up := append([]float64(nil), p.ColUpper...)
	rl := append([]float64(nil), p.RowLower...)
	ru := append([]float64(nil), p.RowUpper...)
	for j := range ps.lbRow {
		ps.lbRow[j], ps.ubRow[j] = -1, -1
	}
	// Rows by index: the entries (column, value) of each row.
	rowStart := make([]int, m+1)
	for k := 0; k < len(p.A.RowIndex); k++ {
		if p.A.Value[k] != 0 {
			rowStart[p.A.RowIndex[k]+1]++
		}
	}
	for i := 0; i < m; i++ {
		rowStart[i+1] += rowStart[i]
	}
	rowCol := make([]int, rowStart[m])
	rowVal := make([]float64, rowStart[m])
	next := append([]int(nil), rowStart[:m]...)
	colCnt := make([]int, n)
	for j := 0; j < n; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			if v := p.A.Value[k]; v != 0 {
				i := p.A.RowIndex[k]
				rowCol[next[i]] = j
				rowVal[next[i]] = v
				next[i]++
				colCnt[j]++
			}
		}
	}
	rowCnt := make([]int, m)
	for i := 0; i < m; i++ {
		rowCnt[i] = rowStart[i+1] - rowStart[i]
	}
	removedCols, removedRows := 0, 0
	// Fixed columns and columns without entries (in the original
	// problem: so that no later row dual changes their reduced cost).
	for j := 0; j < n; j++ {
		l, u := lo[j], up[j]
		var v float64
		switch c := sign * p.Obj[j]; {
		case l == u:
			v = l
		case colCnt[j] > 0:
			continue
		case c > 0 && !math.IsInf(l, 0):
			v = l
		case c < 0 && !math.IsInf(u, 0):
			v = u
		case c == 0:
			v = math.Max(l, math.Min(u, 0))
		default:
			continue // unbounded if feasible: the simplex method says so
		}
		ps.colOut[j], ps.xOut[j] = true, v
		removedCols++
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			if a := p.A.Value[k]; a != 0 {
				i := p.A.RowIndex[k]
				rl[i] -= a * v
				ru[i] -= a * v
				rowCnt[i]--
			}
		}
	}
	if removedCols > 0 {
		ps.events = append(ps.events, fmt.Sprintf("presolve: %d fixed or empty columns removed", removedCols))
	}
	violated := func(lo, up, scale float64) bool {
		return lo-up > presolveTol*(1+scale)
	}
	singletons, redundant := 0, 0
	for pass := 0; pass < maxPresolvePasses; pass++ {
		changed := false
		for i := 0; i < m; i++ {
			if ps.rowOut[i] {
				continue
			}
			switch rowCnt[i] {
			case 0:
				if violated(rl[i], 0, math.Abs(rl[i])) || violated(0, ru[i], math.Abs(ru[i])) {
					ps.infeasible = fmt.Sprintf("row %d has no variables left and limits [%g, %g]", i, rl[i], ru[i])
					return ps
				}
				ps.rowOut[i] = true
				removedRows++
				changed = true
				continue
			case 1:
				var j int
				var a float64
				for k := rowStart[i]; k < rowStart[i+1]; k++ {
					if !ps.colOut[rowCol[k]] {
						j, a = rowCol[k], rowVal[k]
					}
				}
				bl, bu := rl[i]/a, ru[i]/a
				if a < 0 {
					bl, bu = bu, bl
				}
				if bl > lo[j] {
					lo[j], ps.lbRow[j] = bl, i
				}
				if bu < up[j] {
					up[j], ps.ubRow[j] = bu, i
				}
				if lo[j] > up[j] {
					if violated(lo[j], up[j], math.Max(math.Abs(lo[j]), math.Abs(up[j]))) {
						ps.infeasible = fmt.Sprintf("the rows with the single variable %d ask for it in [%g, %g]", j, lo[j], up[j])
						return ps
					}
					// Within the tolerance: one point.
					mid := lo[j] + (up[j]-lo[j])/2
					lo[j], up[j] = mid, mid
				}
				ps.rowOut[i] = true
				colCnt[j]--
				removedRows++
				singletons++
				changed = true
				continue
			}
			// Activity range from the bounds of the row's columns.
			// (amin sums only -Inf and finite terms, amax +Inf and
			// finite ones; smin and smax are their magnitudes.)
			var amin, amax, smin, smax float64
			for k := rowStart[i]; k < rowStart[i+1]; k++ {
				j := rowCol[k]
				if ps.colOut[j] {
					continue
				}
				a := rowVal[k]
				l, u := lo[j], up[j]
				if a < 0 {
					l, u = u, l
				}
				amin += a * l
				amax += a * u
				smin += math.Abs(a * l)
				smax += math.Abs(a * u)
			}
			if violated(amin, ru[i], math.Abs(ru[i])+smin) || violated(rl[i], amax, math.Abs(rl[i])+smax) {
				ps.infeasible = fmt.Sprintf("row %d: the bounds of its variables give activities in [%g, %g], outside its limits [%g, %g]",
					i, amin, amax, rl[i], ru[i])
				return ps
			}
			if amin >= rl[i] && amax <= ru[i] {
				ps.rowOut[i] = true
				for k := rowStart[i]; k < rowStart[i+1]; k++ {
					if !ps.colOut[rowCol[k]] {
						colCnt[rowCol[k]]--
					}
				}
				removedRows++
				redundant++
				changed = true
				continue
			}
			// A forcing row: its limit is reached only with every
			// column at the bound that pushes the activity that way.
			// (Within presolveForceTol on either side: further beyond
			// the limit, up to the infeasibility margin, is left to
			// the simplex method.)
			atUp := !math.IsInf(amin, 0) && !math.IsInf(ru[i], 0) &&
				math.Abs(amin-ru[i]) <= presolveForceTol*(1+math.Abs(ru[i])+smin)
			atLo := !atUp && !math.IsInf(amax, 0) && !math.IsInf(rl[i], 0) &&
				math.Abs(amax-rl[i]) <= presolveForceTol*(1+math.Abs(rl[i])+smax)
			if !atUp && !atLo {
				continue
			}
			own := true // the bounds used are the columns' own, not singleton rows'
			for k := rowStart[i]; k < rowStart[i+1] && own; k++ {
				if j := rowCol[k]; !ps.colOut[j] {
					if (rowVal[k] > 0) == atUp {
						own = ps.lbRow[j] < 0
					} else {
						own = ps.ubRow[j] < 0
					}
				}
			}
			if !own {
				continue
			}
			f := forcedRow{row: i, upper: atUp}
			for k := rowStart[i]; k < rowStart[i+1]; k++ {
				j := rowCol[k]
				if ps.colOut[j] {
					continue
				}
				v := lo[j]
				if (rowVal[k] > 0) != atUp {
					v = up[j]
				}
				ps.colOut[j], ps.xOut[j] = true, v
				f.cols = append(f.cols, j)
				for t := p.A.ColStart[j]; t < p.A.ColStart[j+1]; t++ {
					if a := p.A.Value[t]; a != 0 {
						r := p.A.RowIndex[t]
						rl[r] -= a * v
						ru[r] -= a * v
						rowCnt[r]--
					}
				}
			}
			ps.forcing = append(ps.forcing, f)
			ps.rowOut[i] = true
			removedRows++
			removedCols += len(f.cols)
			changed = true
		}
		if !changed {
			break
		}
	}
	if singletons > 0 || redundant > 0 || len(ps.forcing) > 0 {
		forced := 0
		for _, f := range ps.forcing {
			forced += len(f.cols)
		}
		ps.events = append(ps.events, fmt.Sprintf("presolve: %d singleton rows made bounds, %d redundant rows, %d forcing rows (%d columns fixed) and %d empty rows removed",
			singletons, redundant, len(ps.forcing), forced, removedRows-singletons-redundant-len(ps.forcing)))
	}
	if removedCols == 0 && removedRows == 0 {
		return nil
	}
	// The reduced problem.
	q := &Problem{Name: p.Name, Offset: p.Offset, Maximize: p.Maximize,
		Obj: make([]float64, 0, n-removedCols), ColLower: make([]float64, 0, n-removedCols),
		ColUpper: make([]float64, 0, n-removedCols), RowLower: make([]float64, 0, m-removedRows),
		RowUpper: make([]float64, 0, m-removedRows)}
	ps.colMap = make([]int, 0, n-removedCols)
	ps.rowMap = make([]int, 0, m-removedRows)
	newRow := make([]int, m)
	for i := 0; i < m; i++ {
		newRow[i] = -1
		if !ps.rowOut[i] {
			newRow[i] = len(ps.rowMap)
			ps.rowMap = append(ps.rowMap, i)
			q.RowLower = append(q.RowLower, rl[i])
			q.RowUpper = append(q.RowUpper, ru[i])
		}
	}
	q.A = Sparse{Rows: len(ps.rowMap), ColStart: append(make([]int, 0, n-removedCols+1), 0),
		RowIndex: make([]int, 0, len(p.A.RowIndex)), Value: make([]float64, 0, len(p.A.RowIndex))}
	for j := 0; j < n; j++ {
		if ps.colOut[j] {
			continue
		}
		ps.colMap = append(ps.colMap, j)
		q.Obj = append(q.Obj, p.Obj[j])
		q.ColLower = append(q.ColLower, lo[j])
		q.ColUpper = append(q.ColUpper, up[j])
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			if i := newRow[p.A.RowIndex[k]]; i >= 0 && p.A.Value[k] != 0 {
				q.A.RowIndex = append(q.A.RowIndex, i)
				q.A.Value = append(q.A.Value, p.A.Value[k])
			}
		}
		q.A.ColStart = append(q.A.ColStart, len(q.A.RowIndex))
	}
	q.A.Cols = len(ps.colMap)
	ps.reduced = q
	return ps
}

// solve solves the reduced problem with the options o (presolve off)
// and maps the outcome back; an infeasibility seen by presolve is the
// answer at once. An optimum that postsolve cannot make feasible for the
// original problem (not expected) sends the original problem to Solve
// without presolve.
func (ps *presolved) solve(ctx context.Context, o *Options) (*Result, error) {
	if ps.infeasible != "" {
		return ps.infeasibleResult(), ErrInfeasible
	}
	ro := *o
	ro.NoPresolve = true
	var r *Result
	var err error
	if dp := presolveDoubletons(ps.reduced); dp != nil {
		r, err = dp.solve(ctx, o)
	} else {
		r, err = Solve(ctx, ps.reduced, &ro)
	}
	if r == nil {
		return nil, err
	}
	res := ps.postsolve(r)
	if res.Status == Optimal && !primalFeasible(ps.orig, res) {
		return Solve(ctx, ps.orig, &ro)
	}
	return res, err
}

// infeasibleResult is the Result for a problem that presolve found
// infeasible: x at the bounds nearest zero, zero duals, a slack basis.
func (ps *presolved) infeasibleResult() *Result {
	p := ps.orig
	m, n := p.A.Rows, p.A.Cols
	res := &Result{Status: Infeasible, Offset: p.Offset, X: make([]float64, n), RowDuals: make([]float64, m),
		ReducedCosts: append([]float64(nil), p.Obj...),
		Basis:        &Basis{Cols: make([]VarStatus, n), Rows: make([]VarStatus, m)}}
	for j := 0; j < n; j++ {
		l, u := p.ColLower[j], p.ColUpper[j]
		res.X[j] = math.Max(l, math.Min(u, 0))
		res.Basis.Cols[j] = boundStatus(res.X[j], l, u)
	}
	res.RowActivity = p.A.MulVec(res.X)
	for j, c := range p.Obj {
		res.Objective += c * res.X[j]
	}
	res.Events = append(append([]string(nil), ps.events...), "presolve: infeasible: "+ps.infeasible)
	return res
}

// nearBound reports whether x sits at the finite bound bnd, within
// 1e-9 relative (postsolve's test of which bound holds a nonbasic
// column: values computed by a later substitution may differ from the
// bound in the last bits).
func nearBound(x, bnd float64) bool {
	return !math.IsInf(bnd, 0) && math.Abs(x-bnd) <= 1e-9*(1+math.Abs(bnd))
}

// boundStatus is the nonbasic status of a value v in [l, u].
func boundStatus(v, l, u float64) VarStatus {
	switch {
	case v == l && !math.IsInf(l, 0):
		return AtLower
	case v == u && !math.IsInf(u, 0):
		return AtUpper
	}
	return AtZero
}

// postsolve maps the result r of the reduced problem to the original one:
// the removed columns take their values, the removed rows their duals
// (zero, but for a singleton row whose bound holds its column at the
// optimum: that row takes the column's reduced cost over its entry, and
// the column becomes basic in its place), and the activities and
// reduced costs are recomputed from the original data.
func (ps *presolved) postsolve(r *Result) *Result {
	p, q := ps.orig, ps.reduced
	m, n := p.A.Rows, p.A.Cols
	res := &Result{Status: r.Status, Offset: p.Offset, Iterations: r.Iterations,
		Events: append(append([]string(nil), ps.events...), r.Events...)}
	res.X = append([]float64(nil), ps.xOut...)
	for k, j := range ps.colMap {
		res.X[j] = r.X[k]
	}
	res.RowDuals = make([]float64, m)
	for k, i := range ps.rowMap {
		res.RowDuals[i] = r.RowDuals[k]
	}
	b := &Basis{Cols: make([]VarStatus, n), Rows: make([]VarStatus, m)}
	for j := 0; j < n; j++ {
		if ps.colOut[j] {
			b.Cols[j] = boundStatus(res.X[j], p.ColLower[j], p.ColUpper[j])
			if p.ColLower[j] == p.ColUpper[j] {
				b.Cols[j] = AtLower
			}
		}
	}
	for k, j := range ps.colMap {
		b.Cols[j] = r.Basis.Cols[k]
	}
	for i := 0; i < m; i++ {
		b.Rows[i] = Basic
	}
	for k, i := range ps.rowMap {
		b.Rows[i] = r.Basis.Rows[k]
	}
	// Move the reduced cost of a column held by a singleton row's bound
	// to that row.
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	aty := p.A.MulVecT(res.RowDuals)
	for k, j := range ps.colMap {
		st := r.Basis.Cols[k]
		if st != AtLower && st != AtUpper {
			continue
		}
		d := p.Obj[j] - aty[j]
		// Which bound of the reduced problem holds it: read from its
		// value, since an inner round (a column its rows fixed, say)
		// may report AtLower at either; at both (fixed), the side the
		// reduced cost pushes.
		nearLo, nearUp := nearBound(res.X[j], q.ColLower[k]), nearBound(res.X[j], q.ColUpper[k])
		var atLower bool
		switch {
		case nearLo && nearUp:
			atLower = sign*d >= 0
		case nearLo:
			atLower = true
		case nearUp:
			atLower = false
		default:
			continue // at neither bound: nothing to move
		}
		row := ps.ubRow[j]
		if atLower {
			row = ps.lbRow[j]
		}
		if row < 0 {
			// At a bound of its own.
			if atLower {
				b.Cols[j] = AtLower
			} else {
				b.Cols[j] = AtUpper
			}
			continue
		}
		// The column sits at the bound its singleton row gave: the row
		// takes its reduced cost (and its place among the nonbasic
		// variables, at the limit that gave the bound), so that the
		// basis is one of the original problem.
		a := p.A.At(row, j)
		res.RowDuals[row] = d / a
		b.Cols[j] = Basic
		if (a > 0) == atLower {
			b.Rows[row] = AtLower
		} else {
			b.Rows[row] = AtUpper
		}
	}
	ps.forcingDuals(res.RowDuals, b, sign)
	res.Basis = b
	res.RowActivity = p.A.MulVec(res.X)
	for j, c := range p.Obj {
		res.Objective += c * res.X[j]
	}
	aty = p.A.MulVecT(res.RowDuals)
	res.ReducedCosts = make([]float64, n)
	for j := 0; j < n; j++ {
		res.ReducedCosts[j] = p.Obj[j] - aty[j]
	}
	if r.Ray != nil {
		res.Ray = make([]float64, n)
		for k, j := range ps.colMap {
			res.Ray[j] = r.Ray[k]
		}
	}
	for _, v := range [][]float64{res.X, res.RowActivity, res.RowDuals, res.ReducedCosts} {
		for i := range v {
			v[i] += 0 // no negative zeros
		}
	}
	return res
}

// forcingDuals gives the forcing rows their duals, last found first: the
// dual of a row at its upper limit (lower, with sign -1 when
// maximising) is the largest value <= 0 (smallest >= 0; any value for an
// equality) that leaves every column of the row with a reduced cost of
// the sign its bound needs. The column that limits it becomes basic and
// the row nonbasic at its limit; when none does, the dual is 0 and the
// row basic.
func (ps *presolved) forcingDuals(y []float64, b *Basis, sign float64) {
	p := ps.orig
	for t := len(ps.forcing) - 1; t >= 0; t-- {
		f := ps.forcing[t]
		i := f.row
		eq := p.RowLower[i] == p.RowUpper[i]
		// In the minimisation's signs (yy = sign*y): at the upper limit
		// yy <= min_j D_j/a_ij, at the lower yy >= max_j D_j/a_ij, with
		// D_j = c_j - sum_{r != i} a_rj y_r.
		best := 0.0
		if eq {
			best = math.Inf(1)
			if !f.upper {
				best = math.Inf(-1)
			}
		}
		limit := -1
		for _, j := range f.cols {
			if p.ColLower[j] == p.ColUpper[j] {
				continue // any reduced cost will do
			}
			d := p.Obj[j]
			var aij float64
			for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
				r := p.A.RowIndex[k]
				if r == i {
					aij = p.A.Value[k]
					continue
				}
				d -= p.A.Value[k] * y[r]
			}
			if aij == 0 {
				continue
			}
			ratio := sign * d / aij
			if f.upper && ratio < best || !f.upper && ratio > best {
				best, limit = ratio, j
			}
		}
		if limit < 0 {
			y[i] = 0
			b.Rows[i] = Basic
			continue
		}
		y[i] = sign * best
		b.Cols[limit] = Basic
		if f.upper {
			b.Rows[i] = AtUpper
		} else {
			b.Rows[i] = AtLower
		}
	}
}
