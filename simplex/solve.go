package simplex

import (
	"context"
	"fmt"
	"math"
)

// Method selects the simplex algorithm of Solve.
type Method int

const (
	// Dual (the zero value): the dual simplex method, with a dual phase 1
	// on an auxiliary problem when the start is not dual feasible and a
	// primal clean-up when removing the cost perturbation leaves dual
	// infeasibilities; problems found dual infeasible go to the primal
	// method, which tells an unbounded problem from an infeasible one.
	Dual Method = iota
	// Primal: the primal simplex method (composite phase 1, devex
	// pricing, Harris' ratio test, a random relaxation of the bounds
	// against degeneracy that the dual method removes at the end).
	Primal
)

// String returns "dual" or "primal" (or "Method(k)" for an unknown value).
func (m Method) String() string {
	switch m {
	case Dual:
		return "dual"
	case Primal:
		return "primal"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Options are the options of Solve. The zero value (or a nil *Options)
// gives the defaults stated for each field.
type Options struct {
	// MaxIter bounds the simplex iterations (0: 50000 + 20(m+n)).
	MaxIter int
	// Method is the algorithm (default Dual).
	Method Method
	// Basis, if not nil, is the starting basis (warm start), for example
	// Result.Basis of a solve of a similar problem. Without it Solve
	// starts from the slack basis (all rows basic).
	Basis *Basis
	// NoScaling turns off the scaling of rows and columns.
	NoScaling bool
	// NoPerturbation turns off the random perturbations of the methods
	// (of the costs in the dual method, of the bounds in the primal one)
	// that fight stalling on degenerate problems.
	NoPerturbation bool
	// NoPresolve turns off the presolve (see the package documentation),
	// which is also skipped when Basis is set.
	NoPresolve bool
	// PrimalTol is the bound violation allowed in the scaled problem
	// (0: 1e-7), tightened for the variables whose scaling would let
	// their violation in the original units exceed PrimalTol (1 + |bound|).
	PrimalTol float64
	// DualTol is the reduced-cost violation allowed in the scaled problem
	// (0: 1e-7), tightened likewise against DualTol (1 + |c_j|) in the
	// original units.
	DualTol float64
	// RefactorInterval is the number of basis updates between two
	// factorizations (0: 100).
	RefactorInterval int
	// Seed seeds the cost perturbation (the same seed gives the same
	// iterations).
	Seed uint64
	// Progress, if not nil, is called every 100 iterations with the
	// method at work ("primal" or "dual"), the iterations done so far
	// (all phases) and the cap MaxIter; it has the shape of the
	// learners' progress callbacks (moments.Progress).
	Progress func(stage string, done, total int)
}

// Result is the outcome of Solve.
type Result struct {
	Status Status
	// X holds the values of the variables (for Infeasible, Unbounded and
	// the limits: those of the last basis).
	X []float64
	// RowActivity holds A x.
	RowActivity []float64
	// Objective is c^T x, without the Offset of the Problem.
	Objective float64
	// Offset repeats Problem.Offset: the full objective is Objective +
	// Offset.
	Offset float64
	// RowDuals holds y, the multipliers of the rows, and ReducedCosts
	// d = c - A^T y. At a minimum, a row at its lower limit has y_i >= 0,
	// one at its upper limit y_i <= 0, one strictly between y_i = 0; a
	// variable at its lower bound has d_j >= 0, at its upper bound d_j <=
	// 0, strictly between d_j = 0. (Signs flip when maximising.)
	RowDuals     []float64
	ReducedCosts []float64
	// Iterations counts simplex iterations of all phases.
	Iterations int
	// Basis is the final basis, usable as Options.Basis.
	Basis *Basis
	// Ray, for Unbounded, is a direction r with A r within the row
	// limits' recession cone, bounds respected, and c^T r < 0 (> 0 when
	// maximising); nil otherwise.
	Ray []float64
	// Events lists, in order, what the solver did beyond plain pivoting
	// (a singular basis repaired, the cost perturbation removed, the
	// smallest-index rule against cycling, the phase that decided
	// infeasibility...): at most 64 from the solver, after the lines of
	// the presolve (those starting "presolve: ", at most three for each
	// of its rounds; the indices in them are those of the problem that
	// round worked on). What to read when a solve is slow or surprising.
	Events []string
}

// Solve solves the linear program p. It returns a Result for any valid
// problem and an error that is nil exactly when the status is Optimal: a
// sentinel (ErrInfeasible, ErrUnbounded, ErrIterationLimit, ErrNumerical)
// or, when ctx ends, an error wrapping ctx.Err(). An invalid problem
// gives a nil Result and an *InputError (matching ErrInvalid), an
// option out of range (a NaN, infinite or negative tolerance, a negative
// count, an unknown Method) a nil Result and an error wrapping
// ErrBadOption.
//
// Solve does not modify p. It is deterministic: the same problem and
// options give the same iterations and the same result. ctx must not be
// nil (Solve panics with a message if it is); it is checked every few
// iterations.
func Solve(ctx context.Context, p *Problem, opts *Options) (*Result, error) {
	if ctx == nil {
		panic("simplex: Solve: nil context")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := checkOptions(&o); err != nil {
		return nil, err
	}
	if o.Basis != nil {
		if len(o.Basis.Cols) != p.A.Cols || len(o.Basis.Rows) != p.A.Rows {
			return nil, invalid("Options.Basis", -1, "has %d column and %d row statuses for a %dx%d problem",
				len(o.Basis.Cols), len(o.Basis.Rows), p.A.Rows, p.A.Cols)
		}
	}
	if !o.NoPresolve && o.Basis == nil {
		if ps := presolve(p); ps != nil {
			return ps.solve(ctx, &o)
		}
		if dp := presolveDoubletons(p); dp != nil {
			return dp.solve(ctx, &o)
		}
	}
	s := newSolver(ctx, p, &o)
	st := s.run()
	res := s.result(p, st)
	if st == Optimal && !primalFeasible(p, res) {
		st, res.Status = Numerical, Numerical
	}
	if st == Numerical && !o.NoScaling && o.Basis == nil {
		// Scaling can do harm on data with extreme entries; the
		// unscaled problem is the fallback.
		o.NoScaling = true
		return Solve(ctx, p, &o)
	}
	if st == Numerical {
		return res, fmt.Errorf("%w: no optimum that satisfies the unscaled constraints", ErrNumerical)
	}
	switch st {
	case Optimal:
		return res, nil
	case Canceled:
		return res, fmt.Errorf("simplex: solve stopped: %w", ctx.Err())
	}
	return res, st.Err()
}

// feasTol is the relative violation of a bound or constraint, in the
// original data, above which primalFeasible rejects a claimed optimum.
const feasTol = 1e-6

// primalFeasible checks res.X against the column bounds and res.RowActivity
// against the row bounds of p, each violation relative to 1 + the bound's
// magnitude + the sum of the magnitudes of the row's terms (so that
// cancellation in large terms is allowed for). A solve on scaled data can
// meet a scaling that makes its tolerances meaningless (extreme entries);
// this keeps it from reporting such a point as optimal.
func primalFeasible(p *Problem, res *Result) bool {
	viol := func(v, lo, up, size float64) bool {
		t := feasTol * (1 + size)
		return v < lo-t*(1+math.Abs(lo)) && !math.IsInf(lo, -1) || v > up+t*(1+math.Abs(up)) && !math.IsInf(up, 1)
	}
	for j, v := range res.X {
		if viol(v, p.ColLower[j], p.ColUpper[j], 0) {
			return false
		}
	}
	size := make([]float64, p.A.Rows)
	for j := 0; j < p.A.Cols; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			size[p.A.RowIndex[k]] += math.Abs(p.A.Value[k] * res.X[j])
		}
	}
	for i, v := range res.RowActivity {
		if viol(v, p.RowLower[i], p.RowUpper[i], size[i]) {
			return false
		}
	}
	return true
}

// lpData is the problem in the form the solver works on: scaled, with a
// logical variable per row. Variables 0..n-1 are the structural ones,
// n+i the logical of row i, whose column is e_i: A x + x_{n+i} = 0, so
// x_{n+i} = -a_i^T x with bounds [-RowUpper_i, -RowLower_i].
type lpData struct {
	m, n     int
	aStart   []int // scaled A by columns
	aIdx     []int
	aVal     []float64
	arStart  []int // scaled A by rows
	arIdx    []int
	arVal    []float64
	cost0    []float64 // n+m scaled costs (minimisation)
	lo0, up0 []float64 // n+m scaled bounds
	colScale []float64
	rowScale []float64
	unitIdx  []int     // unitIdx[i] = i
	ones     []float64 // all ones
}

func newLPData(p *Problem, noScaling bool) *lpData {
	m, n := p.A.Rows, p.A.Cols
	d := &lpData{m: m, n: n}
	// Copy A without explicit zeros.
	d.aStart = make([]int, n+1)
	for j := 0; j < n; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			if v := p.A.Value[k]; v != 0 {
				d.aIdx = append(d.aIdx, p.A.RowIndex[k])
				d.aVal = append(d.aVal, v)
			}
		}
		d.aStart[j+1] = len(d.aIdx)
	}
	if noScaling {
		d.rowScale = make([]float64, m)
		d.colScale = make([]float64, n)
		for i := range d.rowScale {
			d.rowScale[i] = 1
		}
		for j := range d.colScale {
			d.colScale[j] = 1
		}
	} else {
		d.rowScale, d.colScale = scaleFactors(m, n, d.aStart, d.aIdx, d.aVal)
	}
	for j := 0; j < n; j++ {
		for k := d.aStart[j]; k < d.aStart[j+1]; k++ {
			d.aVal[k] *= d.rowScale[d.aIdx[k]] * d.colScale[j]
		}
	}
	// Row-wise copy.
	d.arStart = make([]int, m+1)
	for _, i := range d.aIdx {
		d.arStart[i+1]++
	}
	for i := 0; i < m; i++ {
		d.arStart[i+1] += d.arStart[i]
	}
	d.arIdx = make([]int, len(d.aIdx))
	d.arVal = make([]float64, len(d.aIdx))
	next := append([]int(nil), d.arStart[:m]...)
	for j := 0; j < n; j++ {
		for k := d.aStart[j]; k < d.aStart[j+1]; k++ {
			i := d.aIdx[k]
			d.arIdx[next[i]] = j
			d.arVal[next[i]] = d.aVal[k]
			next[i]++
		}
	}
	nt := n + m
	d.cost0 = make([]float64, nt)
	d.lo0 = make([]float64, nt)
	d.up0 = make([]float64, nt)
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	for j := 0; j < n; j++ {
		cs := d.colScale[j]
		d.cost0[j] = sign * p.Obj[j] * cs
		d.lo0[j] = p.ColLower[j] / cs
		d.up0[j] = p.ColUpper[j] / cs
	}
	for i := 0; i < m; i++ {
		rs := d.rowScale[i]
		d.lo0[n+i] = -p.RowUpper[i] * rs
		d.up0[n+i] = -p.RowLower[i] * rs
	}
	d.unitIdx = make([]int, m)
	d.ones = make([]float64, m)
	for i := range d.unitIdx {
		d.unitIdx[i] = i
		d.ones[i] = 1
	}
	return d
}

// column returns the scaled column of variable j.
func (d *lpData) column(j int) ([]int, []float64) {
	if j < d.n {
		return d.aIdx[d.aStart[j]:d.aStart[j+1]], d.aVal[d.aStart[j]:d.aStart[j+1]]
	}
	i := j - d.n
	return d.unitIdx[i : i+1], d.ones[i : i+1]
}

// result builds the Result in the terms of the original problem.
func (s *solver) result(p *Problem, st Status) *Result {
	m, n := s.m, s.n
	res := &Result{Status: st, Offset: p.Offset, Iterations: s.iter, Events: s.events}
	res.X = make([]float64, n)
	xs := s.values()
	for j := 0; j < n; j++ {
		v := xs[j] * s.colScale[j]
		// Snap nonbasic variables to their exact bounds.
		if s.pos[j] < 0 {
			switch {
			case xs[j] == s.lo0[j]:
				v = p.ColLower[j]
			case xs[j] == s.up0[j]:
				v = p.ColUpper[j]
			}
		}
		res.X[j] = v
	}
	res.RowActivity = p.A.MulVec(res.X)
	for j, c := range p.Obj {
		res.Objective += c * res.X[j]
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	y := s.duals()
	res.RowDuals = make([]float64, m)
	for i := 0; i < m; i++ {
		res.RowDuals[i] = sign * y[i] * s.rowScale[i]
	}
	// d = c - A^T y in the original data.
	aty := p.A.MulVecT(res.RowDuals)
	res.ReducedCosts = make([]float64, n)
	for j := 0; j < n; j++ {
		res.ReducedCosts[j] = p.Obj[j] - aty[j]
	}
	for _, v := range [][]float64{res.X, res.RowActivity, res.RowDuals, res.ReducedCosts} {
		for i := range v {
			v[i] += 0 // no negative zeros
		}
	}
	res.Basis = s.basis()
	if st == Unbounded && s.ray != nil {
		res.Ray = make([]float64, n)
		for j := 0; j < n; j++ {
			res.Ray[j] = s.ray[j] * s.colScale[j]
		}
	}
	return res
}

// values returns the current values of all n+m variables (scaled).
func (s *solver) values() []float64 {
	x := append([]float64(nil), s.x...)
	for r, j := range s.head {
		x[j] = s.xB[r]
	}
	return x
}

// basis returns the current basis in the terms of Basis.
func (s *solver) basis() *Basis {
	b := &Basis{Cols: make([]VarStatus, s.n), Rows: make([]VarStatus, s.m)}
	for j := 0; j < s.n+s.m; j++ {
		var st VarStatus
		switch {
		case s.pos[j] >= 0:
			st = Basic
		case s.x[j] == s.lo0[j] && !math.IsInf(s.lo0[j], 0):
			st = AtLower
		case s.x[j] == s.up0[j] && !math.IsInf(s.up0[j], 0):
			st = AtUpper
		default:
			st = AtZero
		}
		if j < s.n {
			b.Cols[j] = st
			continue
		}
		// The logical is minus the activity: its lower bound is the
		// row's upper limit.
		switch st {
		case AtLower:
			st = AtUpper
		case AtUpper:
			st = AtLower
		}
		b.Rows[j-s.n] = st
	}
	return b
}
