package simplex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// tolFloor bounds how much the per-variable tolerances may tighten the
// nominal ones (see newSolver).
const tolFloor = 1e-4

// logicalPerturb is the size of the cost perturbation of the logical
// variables relative to that of the structural ones. Logicals need one
// too: a problem whose columns are all free (their costs are never
// perturbed) or whose objective is sparse is otherwise dually degenerate
// in every row, and the dual method stalls.
const logicalPerturb = 0.1

// solver holds the state of the simplex methods on an lpData.
type solver struct {
	*lpData
	ctx           context.Context
	progress      func(stage string, done, total int)
	events        []string
	ptol, dtol    float64
	ptolv, dtolv  []float64 // per-variable tolerances in the scaled problem
	maxIter       int
	refactorEvery int
	perturb       bool
	seed          uint64
	method        Method
	start         *Basis

	cost   []float64 // working costs (perturbed, shifted)
	lo, up []float64 // working bounds (lo0/up0, or those of dual phase 1)
	x      []float64 // values of the nonbasic variables (basic entries stale)
	xB     []float64 // values of the basic variables, by position
	head   []int     // head[r]: the variable at basis position r
	pos    []int     // pos[j]: the position of variable j, -1 if nonbasic
	d      []float64 // reduced costs (0 for basic variables)
	dse    []float64 // dual steepest-edge weights, by position
	lu     luFactor
	iter   int
	ray    []float64

	// scratch
	col, rho, tau, tmp []float64
	alpha              []float64
	alphaIdx           []int
	rhoIdx             []int     // nonzeros of rho (pivotRow)
	bLo, bUp, bTol     []float64 // bounds and tolerance of the basic variables by position (chuzr)
	alphaMark          []bool
	cands              []cand
	flips              []int
	bps                []breakpoint // phase 1 ratio test
	devex              []float64    // primal pricing weights
	colNZ              []int        // nonzeros of the primal method's column
	pcands             []primalCand // primal ratio test
	shifted            bool
	perturbed          bool
	boundsPerturbed    bool   // the primal method's bound perturbation has been used
	kind               []int8 // nonbasic state for the dual ratio test (see setKind)
	arNB               []int  // arNB[i]: end of the nonbasic part of row i of the row-wise A
	degenerate         int    // consecutive degenerate iterations
	bland              bool
}

func newSolver(ctx context.Context, p *Problem, o *Options) *solver {
	d := newLPData(p, o.NoScaling)
	m, n := d.m, d.n
	nt := n + m
	s := &solver{
		lpData:        d,
		ctx:           ctx,
		progress:      o.Progress,
		ptol:          o.PrimalTol,
		dtol:          o.DualTol,
		maxIter:       o.MaxIter,
		refactorEvery: o.RefactorInterval,
		perturb:       !o.NoPerturbation,
		seed:          o.Seed,
		method:        o.Method,
		start:         o.Basis,
	}
	if s.ptol <= 0 {
		s.ptol = 1e-7
	}
	if s.dtol <= 0 {
		s.dtol = 1e-7
	}
	if s.maxIter <= 0 {
		s.maxIter = 50000 + 20*nt
	}
	if s.refactorEvery <= 0 {
		s.refactorEvery = 100
	}
	// Per-variable tolerances: a violation of ptolv[j] (dtolv[j]) in the
	// scaled problem is at most ptol (1 + |bound|) (dtol (1 + |c_j|)) in
	// the original units, within a factor tolFloor of the nominal value.
	s.ptolv = make([]float64, nt)
	s.dtolv = make([]float64, nt)
	for j := 0; j < nt; j++ {
		var f float64 // scaled value = f * original value
		if j < n {
			f = 1 / d.colScale[j]
		} else {
			f = d.rowScale[j-n]
		}
		b := math.Inf(1) // smallest finite |bound| (scaled)
		for _, v := range []float64{d.lo0[j], d.up0[j]} {
			if !math.IsInf(v, 0) {
				b = math.Min(b, math.Abs(v))
			}
		}
		if math.IsInf(b, 1) {
			b = 0
		}
		// Scaled violation e is e/f original, allowed ptol (1 + b/f).
		s.ptolv[j] = s.ptol * math.Max(math.Min(1, f+b), tolFloor)
		// Scaled reduced cost r is r f original, allowed dtol (1 + |c|),
		// |c| = |c_scaled| / f.
		s.dtolv[j] = s.dtol * math.Max(math.Min(1, (1+math.Abs(d.cost0[j])*f)/f), tolFloor)
	}
	s.cost = append([]float64(nil), d.cost0...)
	s.lo, s.up = d.lo0, d.up0
	s.x = make([]float64, nt)
	s.xB = make([]float64, m)
	s.head = make([]int, m)
	s.pos = make([]int, nt)
	s.d = make([]float64, nt)
	s.dse = make([]float64, m)
	s.col = make([]float64, m)
	s.rho = make([]float64, m)
	s.tau = make([]float64, m)
	s.tmp = make([]float64, m)
	s.bLo = make([]float64, m)
	s.bUp = make([]float64, m)
	s.bTol = make([]float64, m)
	s.alpha = make([]float64, nt)
	s.alphaMark = make([]bool, nt)
	s.kind = make([]int8, nt)
	s.arNB = make([]int, m)
	return s
}

// Kinds of variables for the dual ratio test.
const (
	kindNone  int8 = 0  // basic or fixed: never enters
	kindLower int8 = 1  // nonbasic at its lower bound
	kindUpper int8 = -1 // nonbasic at its upper bound
	kindFree  int8 = 2  // nonbasic free (at zero)
)

// setKind records the state of variable j after a change of its value,
// bounds or basis status.
func (s *solver) setKind(j int) {
	l, u := s.lo[j], s.up[j]
	switch {
	case s.pos[j] >= 0 || l == u:
		s.kind[j] = kindNone
	case math.IsInf(l, -1) && math.IsInf(u, 1):
		s.kind[j] = kindFree
	case s.x[j] == l:
		s.kind[j] = kindLower
	default:
		s.kind[j] = kindUpper
	}
}

func (s *solver) setKinds() {
	for j := range s.kind {
		s.setKind(j)
	}
}

// partitionRows arranges each row of the row-wise copy of A so that the
// entries of nonbasic columns come first (up to arNB[i]).
func (s *solver) partitionRows() {
	for i := 0; i < s.m; i++ {
		k := s.arStart[i]
		for t := k; t < s.arStart[i+1]; t++ {
			if s.pos[s.arIdx[t]] < 0 {
				s.arIdx[t], s.arIdx[k] = s.arIdx[k], s.arIdx[t]
				s.arVal[t], s.arVal[k] = s.arVal[k], s.arVal[t]
				k++
			}
		}
		s.arNB[i] = k
	}
}

// moveRows moves the entries of structural column j to the basic
// (basic true) or nonbasic part of their rows.
func (s *solver) moveRows(j int, basic bool) {
	if j >= s.n {
		return
	}
	arIdx, arVal := s.arIdx, s.arVal
	for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
		i := s.aIdx[k]
		nb := s.arNB[i]
		if basic {
			for t := s.arStart[i]; t < nb; t++ {
				if arIdx[t] == j {
					nb--
					arIdx[t], arIdx[nb] = arIdx[nb], arIdx[t]
					arVal[t], arVal[nb] = arVal[nb], arVal[t]
					break
				}
			}
		} else {
			for t := nb; t < s.arStart[i+1]; t++ {
				if arIdx[t] == j {
					arIdx[t], arIdx[nb] = arIdx[nb], arIdx[t]
					arVal[t], arVal[nb] = arVal[nb], arVal[t]
					nb++
					break
				}
			}
		}
		s.arNB[i] = nb
	}
}

// swapBasis makes q basic at position r in place of the variable there,
// which becomes nonbasic (its value is the caller's business).
func (s *solver) swapBasis(r, q int) {
	p := s.head[r]
	s.head[r] = q
	s.pos[q] = r
	s.pos[p] = -1
	s.moveRows(q, true)
	s.moveRows(p, false)
}

// maxEvents bounds Result.Events, so that a long solve that repeats an
// event holds a bounded log.
const maxEvents = 64

// log records an event for Result.Events.
func (s *solver) log(format string, args ...any) {
	if len(s.events) < maxEvents {
		s.events = append(s.events, fmt.Sprintf(format, args...))
	}
}

// tick reports progress every 100 iterations of method.
func (s *solver) tick(method string) {
	if s.progress != nil && s.iter%100 == 0 {
		s.progress(method, s.iter, s.maxIter)
	}
}

// canceled reports whether the context has ended (checked every few
// iterations by the callers).
func (s *solver) canceled() bool {
	select {
	case <-s.ctx.Done():
		return true
	default:
		return false
	}
}

// defaultValue is the value of nonbasic variable j with no other
// information: its finite bound nearest zero, or zero if free.
func (s *solver) defaultValue(j int) float64 {
	l, u := s.lo[j], s.up[j]
	switch {
	case !math.IsInf(l, 0) && !math.IsInf(u, 0):
		if math.Abs(l) <= math.Abs(u) {
			return l
		}
		return u
	case !math.IsInf(l, 0):
		return l
	case !math.IsInf(u, 0):
		return u
	}
	return 0
}

// initBasis sets up the slack basis, or the starting basis of the
// options (repaired to have m basic variables).
func (s *solver) initBasis() {
	m, n := s.m, s.n
	nt := n + m
	for j := range s.pos {
		s.pos[j] = -1
	}
	if s.start == nil {
		for i := 0; i < m; i++ {
			s.head[i] = n + i
			s.pos[n+i] = i
		}
		for j := 0; j < n; j++ {
			s.x[j] = s.defaultValue(j)
		}
		for i := range s.dse {
			s.dse[i] = 1
		}
		return
	}
	status := func(j int) VarStatus {
		if j < n {
			return s.start.Cols[j]
		}
		// Rows speak of the activity, the logical is its negative.
		switch st := s.start.Rows[j-n]; st {
		case AtLower:
			return AtUpper
		case AtUpper:
			return AtLower
		default:
			return st
		}
	}
	r := 0
	// Logicals first so that a surplus of basic variables drops
	// structural ones.
	for j := n; j < nt && r < m; j++ {
		if status(j) == Basic {
			s.head[r] = j
			s.pos[j] = r
			r++
		}
	}
	for j := 0; j < n && r < m; j++ {
		if status(j) == Basic {
			s.head[r] = j
			s.pos[j] = r
			r++
		}
	}
	for j := n; j < nt && r < m; j++ {
		if s.pos[j] < 0 {
			s.head[r] = j
			s.pos[j] = r
			r++
		}
	}
	for j := 0; j < nt; j++ {
		if s.pos[j] >= 0 {
			continue
		}
		switch st := status(j); {
		case st == AtLower && !math.IsInf(s.lo[j], 0):
			s.x[j] = s.lo[j]
		case st == AtUpper && !math.IsInf(s.up[j], 0):
			s.x[j] = s.up[j]
		default:
			s.x[j] = s.defaultValue(j)
		}
	}
	for i := range s.dse {
		s.dse[i] = 1
	}
}

// refactor factorizes the basis, renumbers the positions to the pivot
// rows, and replaces the columns of a singular basis by logicals. It
// returns the number of replaced columns.
func (s *solver) refactor() int {
	m := s.m
	rowOf, singular := s.lu.factor(m, func(p int) ([]int, []float64) { return s.column(s.head[p]) })
	tmpH := make([]int, m)
	tmpW := s.tmp
	for p := 0; p < m; p++ {
		tmpH[rowOf[p]] = s.head[p]
		tmpW[rowOf[p]] = s.dse[p]
	}
	copy(s.head, tmpH)
	copy(s.dse, tmpW)
	for r, j := range s.head {
		s.pos[j] = r
	}
	for _, p := range singular {
		r := rowOf[p]
		j := s.head[r]
		s.x[j] = s.nearestBound(j, s.xB[p])
		s.swapBasis(r, s.n+r)
		s.setKind(j)
		s.dse[r] = 1
	}
	if len(singular) > 0 {
		s.log("refactor: basis singular, %d columns replaced by logicals", len(singular))
	}
	return len(singular)
}

// nearestBound returns the bound of j nearest v (0 for a free variable).
func (s *solver) nearestBound(j int, v float64) float64 {
	l, u := s.lo[j], s.up[j]
	switch {
	case math.IsInf(l, 0) && math.IsInf(u, 0):
		return 0
	case math.IsInf(l, 0):
		return u
	case math.IsInf(u, 0):
		return l
	case math.Abs(v-l) <= math.Abs(v-u):
		return l
	}
	return u
}

// computePrimal sets xB = -B^{-1} N x_N.
func (s *solver) computePrimal() {
	b := s.xB
	clear(b)
	for j, v := range s.x {
		if v == 0 || s.pos[j] >= 0 {
			continue
		}
		idx, val := s.column(j)
		for k, i := range idx {
			b[i] -= val[k] * v
		}
	}
	s.lu.ftran(b, false)
}

// computeDual sets d = c - A^T y with y = B^{-T} c_B.
func (s *solver) computeDual() {
	y := s.rho
	for r, j := range s.head {
		y[r] = s.cost[j]
	}
	s.lu.btran(y)
	s.priceAll(y, s.cost, s.d)
	for _, j := range s.head {
		s.d[j] = 0
	}
}

// priceAll sets d_j = c_j - a_j^T y for every nonbasic j.
func (s *solver) priceAll(y, c, d []float64) {
	n := s.n
	for j := 0; j < n; j++ {
		if s.pos[j] >= 0 {
			continue
		}
		t := c[j]
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			t -= s.aVal[k] * y[s.aIdx[k]]
		}
		d[j] = t
	}
	for i := 0; i < s.m; i++ {
		if s.pos[n+i] < 0 {
			d[n+i] = c[n+i] - y[i]
		}
	}
}

// duals returns y = B^{-T} c_B for the original (unperturbed) costs.
func (s *solver) duals() []float64 {
	y := make([]float64, s.m)
	for r, j := range s.head {
		y[r] = s.cost0[j]
	}
	s.lu.btran(y)
	return y
}

// primalInfeasibility returns the largest bound violation of the basic
// variables, relative to their tolerance and times ptol (so that it is
// comparable with ptol), and the number of violations.
func (s *solver) primalInfeasibility() (float64, int) {
	var mx float64
	cnt := 0
	for r, j := range s.head {
		v := s.xB[r]
		var e float64
		if v < s.lo[j] {
			e = s.lo[j] - v
		} else if v > s.up[j] {
			e = v - s.up[j]
		}
		e *= s.ptol / s.ptolv[j]
		if e > s.ptol {
			cnt++
		}
		mx = math.Max(mx, e)
	}
	return mx, cnt
}

// dualInfeasibility of nonbasic j under its current value: how far d_j
// is on the wrong side, relative to j's tolerance and times dtol (so that
// it is comparable with dtol).
func (s *solver) dualInfeasibility(j int) float64 {
	l, u := s.lo[j], s.up[j]
	if l == u {
		return 0
	}
	dj := s.d[j] * (s.dtol / s.dtolv[j])
	x := s.x[j]
	switch {
	case math.IsInf(l, -1) && math.IsInf(u, 1):
		return math.Abs(dj)
	case x == l:
		return math.Max(0, -dj)
	case x == u:
		return math.Max(0, dj)
	}
	// Between bounds (possible after a warm start): any nonzero d_j.
	return math.Abs(dj)
}

// setByDual puts nonbasic j at the bound that its reduced cost favours
// when it has both; it reports whether the value changed.
func (s *solver) setByDual(j int) bool {
	l, u := s.lo[j], s.up[j]
	old := s.x[j]
	var v float64
	switch {
	case l == u:
		v = l
	case math.IsInf(l, -1) && math.IsInf(u, 1):
		v = 0
	case math.IsInf(u, 1):
		v = l
	case math.IsInf(l, -1):
		v = u
	case s.d[j] > s.dtolv[j]:
		v = l
	case s.d[j] < -s.dtolv[j]:
		v = u
	default:
		v = old
		if v != l && v != u {
			v = s.nearestBound(j, old)
		}
	}
	s.x[j] = v
	return v != old
}

// perturbCosts adds small random amounts to the costs of the structural
// variables in the direction that makes their reduced costs more
// feasible (up for those at a lower bound, down at an upper bound).
func (s *solver) perturbCosts() {
	r := rand.New(rand.NewPCG(s.seed, 0x5eed))
	var cmax float64
	for j := 0; j < s.n; j++ {
		cmax = math.Max(cmax, math.Abs(s.cost0[j]))
	}
	base := 5e-6 * math.Min(math.Max(cmax, 1), 1e3)
	for j := 0; j < s.n+s.m; j++ {
		l, u := s.lo0[j], s.up0[j]
		if l == u {
			continue
		}
		c := s.cost0[j]
		amt := (base + 1e-5*math.Abs(c)) * (1 + r.Float64())
		if j >= s.n {
			amt *= logicalPerturb
		}
		var dir float64
		switch {
		case math.IsInf(l, -1) && math.IsInf(u, 1):
			continue
		case math.IsInf(u, 1):
			dir = 1
		case math.IsInf(l, -1):
			dir = -1
		case s.pos[j] >= 0:
			if c >= 0 {
				dir = 1
			} else {
				dir = -1
			}
		case s.x[j] == u:
			dir = -1
		default:
			dir = 1
		}
		s.cost[j] += dir * amt
	}
	s.perturbed = true
}

// restoreCosts removes perturbations and shifts.
func (s *solver) restoreCosts() {
	copy(s.cost, s.cost0)
	s.perturbed = false
	s.shifted = false
}

// run solves the problem and returns the status.
func (s *solver) run() Status {
	if s.m == 0 {
		return s.solveNoRows()
	}
	s.initBasis()
	s.partitionRows()
	s.refactor()
	s.computePrimal()
	if s.method == Primal {
		return s.primalDriver()
	}
	return s.dualDriver()
}

// solveNoRows handles m == 0: each variable goes to its best bound. A
// cost within the variable's dual tolerance counts as zero, as it would
// in the simplex method's pricing: after the presolve has substituted
// rows into the objective, a cost that is zero in exact arithmetic may
// be left as a rounding error, which is no ray.
func (s *solver) solveNoRows() Status {
	for j := range s.pos {
		s.pos[j] = -1
	}
	st := Optimal
	for j := 0; j < s.n; j++ {
		c := s.cost0[j]
		s.d[j] = c
		l, u := s.lo0[j], s.up0[j]
		switch {
		case c > 0 && !math.IsInf(l, 0):
			s.x[j] = l
		case c < 0 && !math.IsInf(u, 0):
			s.x[j] = u
		case math.Abs(c) <= s.dtolv[j]:
			s.x[j] = s.defaultValue(j)
		default:
			s.x[j] = s.defaultValue(j)
			st = Unbounded
			if s.ray == nil {
				s.ray = make([]float64, s.n)
			}
			if c > 0 {
				s.ray[j] = -1
			} else {
				s.ray[j] = 1
			}
		}
	}
	return st
}
