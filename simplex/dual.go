package simplex

import (
	"cmp"
	"math"
	"slices"
)

// Tolerances of the ratio tests (scaled problem).
const (
	// pivotTol: tableau entries below this magnitude are never pivots.
	pivotTol = 1e-7
	// minDSEWeight floors the updated dual steepest-edge weights.
	minDSEWeight = 1e-6
	// blandAfter: consecutive degenerate iterations before the methods
	// switch to a smallest-index rule until progress resumes.
	blandAfter = 200
)

// cand is a candidate of the dual ratio test: variable j, |alpha_rj|
// (oriented), the ratio |d_j|/|alpha_rj| and its Harris-relaxed bound.
type cand struct {
	j             int
	a             float64
	rng           float64 // u_j - l_j
	ratio, harris float64
}

// dualDriver runs the dual simplex method: phase 1 on the auxiliary
// problem if the start is not dual feasible, phase 2, removal of the
// perturbation and a primal clean-up if that leaves the basis dual
// infeasible. A dual infeasible problem goes to the primal method.
func (s *solver) dualDriver() Status {
	if s.start != nil {
		// A warm start that is optimal already needs no iteration.
		s.computeDual()
		if s.isOptimal() {
			return Optimal
		}
	}
	if s.perturb {
		s.perturbCosts()
	}
	s.computeDual()
	if s.countDualInfeasible() > 0 {
		st := s.dualPhase1()
		if st == dualInfeasible {
			s.log("dual phase 1: dual infeasible after %d iterations; primal simplex decides", s.iter)
			return s.primalDriver()
		}
		if st != Optimal {
			return st
		}
	}
	for _, j := range s.nonbasicList() {
		s.setByDual(j)
	}
	s.computePrimal()
	st := s.dualLoop()
	if st == Infeasible {
		// The dual ratio test found a row that no variable can repair.
		// Its pivot tolerance may have hidden a tiny but genuine entry,
		// so the primal method (phase 1 from this basis) confirms: it
		// proves infeasibility at once when the row is genuine.
		s.log("dual: infeasible after %d iterations; primal phase 1 confirms", s.iter)
		return s.primalDriver()
	}
	if st != Optimal {
		return st
	}
	if s.perturbed || s.shifted {
		s.restoreCosts()
		s.computeDual()
		var worst float64
		cnt := 0
		for j := range s.d {
			if s.pos[j] < 0 {
				if e := s.dualInfeasibility(j); e > s.dtol {
					worst = math.Max(worst, e)
					cnt++
				}
			}
		}
		if cnt > 0 {
			s.log("after removing the perturbation: %d dual infeasibilities (max %.3g); primal clean-up", cnt, worst)
			return s.primalLoop()
		}
	}
	return Optimal
}

// isOptimal reports whether the current basis is primal and dual feasible
// within the tolerances.
func (s *solver) isOptimal() bool {
	if inf, _ := s.primalInfeasibility(); inf > s.ptol {
		return false
	}
	for j, p := range s.pos {
		if p < 0 && s.dualInfeasibility(j) > s.dtol {
			return false
		}
	}
	return true
}

// dualInfeasible is an internal status: dual phase 1 ended with the
// problem dual infeasible.
const dualInfeasible Status = -1

func (s *solver) nonbasicList() []int {
	var l []int
	for j, p := range s.pos {
		if p < 0 {
			l = append(l, j)
		}
	}
	return l
}

// countDualInfeasible counts the nonbasic variables whose reduced cost has
// the wrong sign and that cannot be fixed by moving them to their other
// bound.
func (s *solver) countDualInfeasible() int {
	cnt := 0
	for j, p := range s.pos {
		if p >= 0 {
			continue
		}
		l, u := s.lo[j], s.up[j]
		if l == u || (!math.IsInf(l, 0) && !math.IsInf(u, 0)) {
			continue
		}
		dj, tol := s.d[j], s.dtolv[j]
		switch {
		case math.IsInf(l, -1) && math.IsInf(u, 1):
			if math.Abs(dj) > tol {
				cnt++
			}
		case math.IsInf(u, 1):
			if dj < -tol {
				cnt++
			}
		default:
			if dj > tol {
				cnt++
			}
		}
	}
	return cnt
}

// dualPhase1 makes the basis dual feasible by solving, with the phase 2
// code, the auxiliary problem whose bounds are: free [-1000, 1000], lower
// only [0, 1], upper only [-1, 0], others [0, 0]. Its optimum has zero
// objective exactly when a dual feasible basis exists.
func (s *solver) dualPhase1() Status {
	nt := s.n + s.m
	lo := make([]float64, nt)
	up := make([]float64, nt)
	for j := 0; j < nt; j++ {
		l, u := s.lo0[j], s.up0[j]
		switch {
		case math.IsInf(l, -1) && math.IsInf(u, 1):
			lo[j], up[j] = -1000, 1000
		case math.IsInf(u, 1):
			lo[j], up[j] = 0, 1
		case math.IsInf(l, -1):
			lo[j], up[j] = -1, 0
		}
	}
	s.lo, s.up = lo, up
	for _, j := range s.nonbasicList() {
		s.setByDual(j)
	}
	s.computePrimal()
	s.log("dual phase 1: %d dual infeasibilities", s.countDualInfeasibleIn(s.lo0, s.up0))
	st := s.dualLoop()
	s.lo, s.up = s.lo0, s.up0
	for _, j := range s.nonbasicList() {
		s.setByDual(j)
	}
	s.computePrimal()
	switch st {
	case Optimal:
	case Infeasible:
		// The auxiliary problem is feasible (x = 0); reaching this means
		// numerical trouble.
		return Numerical
	default:
		return st
	}
	if n := s.countDualInfeasible(); n > 0 {
		return dualInfeasible
	}
	return Optimal
}

func (s *solver) countDualInfeasibleIn(lo, up []float64) int {
	l, u := s.lo, s.up
	s.lo, s.up = lo, up
	n := s.countDualInfeasible()
	s.lo, s.up = l, u
	return n
}

// correctDual repairs the dual infeasibilities that drift leaves after a
// refactorization: boxed variables move to their other bound, the costs
// of the others are shifted. It reports whether any variable moved.
func (s *solver) correctDual() bool {
	moved := false
	for j, p := range s.pos {
		if p >= 0 {
			continue
		}
		if s.dualInfeasibility(j) <= s.dtol {
			continue
		}
		l, u := s.lo[j], s.up[j]
		if !math.IsInf(l, 0) && !math.IsInf(u, 0) {
			if s.setByDual(j) {
				moved = true
			}
			continue
		}
		s.cost[j] -= s.d[j]
		s.d[j] = 0
		s.shifted = true
	}
	return moved
}

// rebuild refactorizes and recomputes the primal and dual values.
func (s *solver) rebuild() {
	s.refactor()
	s.computePrimal()
	s.computeDual()
	if s.correctDual() {
		s.computePrimal()
	}
	s.setKinds()
}

// chuzr picks the leaving row: the largest infeasibility^2/weight (dual
// steepest edge), or the infeasible basic variable of smallest index in
// Bland mode; -1 if the basis is primal feasible. It reads the bounds of
// the basic variables by position (loadRowBounds), so that the pass over
// the rows is a stream rather than a gather through head.
func (s *solver) chuzr() int {
	best := -1
	var bestScore float64
	bestJ := math.MaxInt
	xB, bLo, bUp, bTol, dse := s.xB, s.bLo, s.bUp, s.bTol, s.dse
	bLo, bUp, bTol, dse = bLo[:len(xB)], bUp[:len(xB)], bTol[:len(xB)], dse[:len(xB)]
	for r, v := range xB {
		var e float64
		if l := bLo[r]; v < l-bTol[r] {
			e = l - v
		} else if u := bUp[r]; v > u+bTol[r] {
			e = v - u
		} else {
			continue
		}
		if s.bland {
			if j := s.head[r]; j < bestJ {
				best, bestJ = r, j
			}
			continue
		}
		if sc := e * e / dse[r]; sc > bestScore {
			best, bestScore = r, sc
		}
	}
	return best
}

// loadRowBounds copies the working bounds and primal tolerances of the
// basic variables into bLo, bUp and bTol by position (for chuzr).
func (s *solver) loadRowBounds() {
	for r, j := range s.head {
		s.setRowBounds(r, j)
	}
}

// setRowBounds records the bounds of variable j, basic at position r.
func (s *solver) setRowBounds(r, j int) {
	s.bLo[r], s.bUp[r], s.bTol[r] = s.lo[j], s.up[j], s.ptolv[j]
}

// priceRowDensity: priceRow works row-wise (through the nonzeros of rho
// and the nonbasic part of each row) below this density of rho, column by
// column above it.
const priceRowDensity = 0.4

// priceRow computes alpha_j = rho^T a_j for the nonbasic variables
// (row-wise through the nonzeros of rho, listed in rhoIdx, when it is
// sparse), listing the touched j in alphaIdx.
func (s *solver) priceRow(rho []float64, rhoIdx []int) {
	m, n := s.m, s.n
	alpha, mark := s.alpha, s.alphaMark
	idx := s.alphaIdx[:0]
	nnz := len(rhoIdx)
	if float64(nnz) < priceRowDensity*float64(m) {
		arStart, arNB, arIdx, arVal := s.arStart, s.arNB, s.arIdx, s.arVal
		for _, i := range rhoIdx {
			v := rho[i]
			for k := arStart[i]; k < arNB[i]; k++ {
				j := arIdx[k]
				if !mark[j] {
					mark[j] = true
					idx = append(idx, j)
				}
				alpha[j] += v * arVal[k]
			}
			if j := n + i; s.pos[j] < 0 {
				mark[j] = true
				idx = append(idx, j)
				alpha[j] = v
			}
		}
	} else {
		aStart, aIdx, aVal := s.aStart, s.aIdx, s.aVal
		for j := 0; j < n; j++ {
			if s.pos[j] >= 0 {
				continue
			}
			var t float64
			for k := aStart[j]; k < aStart[j+1]; k++ {
				t += aVal[k] * rho[aIdx[k]]
			}
			if t != 0 {
				alpha[j] = t
				mark[j] = true
				idx = append(idx, j)
			}
		}
		for i := 0; i < m; i++ {
			if j := n + i; rho[i] != 0 && s.pos[j] < 0 {
				alpha[j] = rho[i]
				mark[j] = true
				idx = append(idx, j)
			}
		}
	}
	s.alphaIdx = idx
}

func (s *solver) clearAlpha() {
	for _, j := range s.alphaIdx {
		s.alpha[j] = 0
		s.alphaMark[j] = false
	}
	s.alphaIdx = s.alphaIdx[:0]
}

// dualRatio is the bound-flipping ratio test with Harris tolerances for
// the leaving row whose infeasibility is delta (x_r - bound). It returns
// the entering variable, or -1 if there is none (the problem is
// infeasible), and lists in s.flips the boxed variables that move to
// their other bound.
func (s *solver) dualRatio(delta float64) int {
	sgn := 1.0
	if delta < 0 {
		sgn = -1
	}
	cands := s.cands[:0]
	s.flips = s.flips[:0]
	dtolv := s.dtolv
	kind, alpha, d := s.kind, s.alpha, s.d
	for _, j := range s.alphaIdx {
		k := kind[j]
		if k == kindNone {
			continue
		}
		a := sgn * alpha[j]
		dj := d[j]
		switch k {
		case kindLower:
			if a <= pivotTol {
				continue
			}
		case kindUpper:
			if a >= -pivotTol {
				continue
			}
			a, dj = -a, -dj
		default: // free: either direction, ratio |d_j|/|alpha_j|
			if a < 0 {
				a = -a
			}
			if a <= pivotTol {
				continue
			}
			if dj < 0 {
				dj = -dj
			}
		}
		inv := 1 / a
		ratio := dj * inv
		harris := ratio + dtolv[j]*inv
		if ratio < 0 {
			ratio = 0
		}
		if harris < 0 {
			harris = 0
		}
		rng := math.Inf(1)
		if k != kindFree {
			rng = s.up[j] - s.lo[j]
		}
		cands = append(cands, cand{j: j, a: a, rng: rng, ratio: ratio, harris: harris})
	}
	s.cands = cands
	q, flips := bfrt(cands, math.Abs(delta), s.ptol, s.bland, s.flips[:0])
	s.flips = flips
	return q
}

// bfrt is the bound-flipping ratio test on the candidates of a dual
// ratio test (each with its range u_j - l_j in rng, its oriented |alpha|
// in a, its ratio |d_j|/|alpha_j| and the Harris bound of that ratio).
// Passing breakpoint j lowers the slope of the dual objective, which
// starts at the primal infeasibility of the leaving row, by a*rng. bfrt
// finds theta*, the smallest ratio at which the slope falls to tol or
// below, flips every candidate with a smaller ratio (listed in flips:
// they move to their other bound), and returns the entering variable: the
// largest |alpha| among the candidates with ratio between theta* and the
// smallest Harris bound of the candidates not flipped (the smallest index
// in Bland mode). It returns -1 and no flips when the slope stays above
// tol past every breakpoint (the leaving row cannot become feasible).
// The order of cands is changed.
func bfrt(cands []cand, slope, tol float64, bland bool, flips []int) (int, []int) {
	if len(cands) == 0 {
		return -1, flips
	}
	need := slope - tol
	// First group (within the smallest Harris bound) without ordering:
	// most iterations of sparse problems stop here.
	theta := math.Inf(1)
	for _, c := range cands {
		theta = math.Min(theta, c.harris)
	}
	var dsl float64
	for _, c := range cands {
		if c.ratio <= theta {
			dsl += c.a * c.rng
		}
	}
	if !(dsl < need) {
		return pickEntering(cands, theta, bland), flips
	}
	// Weighted selection of theta*: the smallest ratio r with
	// sum_{ratio <= r} a*rng >= need.
	thetaStar, ok := weightedSelect(cands, need)
	if !ok {
		return -1, flips[:0]
	}
	hmin := math.Inf(1)
	for _, c := range cands {
		if c.ratio < thetaStar {
			flips = append(flips, c.j)
		} else {
			hmin = math.Min(hmin, c.harris)
		}
	}
	q := -1
	var best float64
	for _, c := range cands {
		if c.ratio < thetaStar || c.ratio > hmin {
			continue
		}
		if bland {
			if q < 0 || c.j < q {
				q = c.j
			}
			continue
		}
		if c.a > best || q < 0 {
			q, best = c.j, c.a
		}
	}
	return q, flips
}

// weightedSelect returns the smallest ratio r among cands such that the
// weights a*rng of the candidates with ratio <= r sum to at least need
// (false if all of them do not). It reorders cands (quickselect with
// three-way partitioning, expected linear time).
func weightedSelect(cands []cand, need float64) (float64, bool) {
	lo, hi := 0, len(cands)
	acc := 0.0
	for hi-lo > 12 {
		// Median of three as the pivot.
		a, b, c := cands[lo].ratio, cands[(lo+hi)/2].ratio, cands[hi-1].ratio
		p := math.Max(math.Min(a, b), math.Min(math.Max(a, b), c))
		// Partition [lo, hi) into < p, == p, > p.
		lt, i, gt := lo, lo, hi
		for i < gt {
			r := cands[i].ratio
			switch {
			case r < p:
				cands[lt], cands[i] = cands[i], cands[lt]
				lt++
				i++
			case r > p:
				gt--
				cands[gt], cands[i] = cands[i], cands[gt]
			default:
				i++
			}
		}
		var wl, we float64
		for _, c := range cands[lo:lt] {
			wl += c.a * c.rng
		}
		if acc+wl >= need {
			hi = lt
			continue
		}
		for _, c := range cands[lt:gt] {
			we += c.a * c.rng
		}
		if acc+wl+we >= need {
			return p, true
		}
		acc += wl + we
		lo = gt
	}
	// Few left: order them and scan.
	rest := cands[lo:hi]
	slices.SortFunc(rest, func(x, y cand) int { return cmp.Compare(x.ratio, y.ratio) })
	for _, c := range rest {
		acc += c.a * c.rng
		if acc >= need {
			return c.ratio, true
		}
	}
	return 0, false
}

// pickEntering chooses, among the candidates with ratio <= theta, the one
// with the largest |alpha| (the smallest index in Bland mode).
func pickEntering(cands []cand, theta float64, bland bool) int {
	q := -1
	var best float64
	for _, c := range cands {
		if c.ratio > theta {
			continue
		}
		if bland {
			if q < 0 || c.j < q {
				q = c.j
			}
			continue
		}
		if c.a > best {
			q, best = c.j, c.a
		}
	}
	return q
}

// flipRHS returns sum_j a_j dx_j over the variables of s.flips, dx_j the
// move to their other bound (in s.tmp).
func (s *solver) flipRHS() []float64 {
	t := s.tmp
	clear(t)
	for _, j := range s.flips {
		dx := s.lo[j] - s.x[j]
		if s.x[j] == s.lo[j] {
			dx = s.up[j] - s.x[j]
		}
		idx, val := s.column(j)
		for k, i := range idx {
			t[i] += val[k] * dx
		}
	}
	return t
}

// applyFlips moves the variables of s.flips to their other bound and
// updates the basic variables by dxB = -t, t = B^{-1} flipRHS().
func (s *solver) applyFlips(t []float64) {
	for _, j := range s.flips {
		if s.x[j] == s.lo[j] {
			s.x[j] = s.up[j]
		} else {
			s.x[j] = s.lo[j]
		}
		s.kind[j] = -s.kind[j]
	}
	for i, v := range t {
		s.xB[i] -= v
	}
	clear(t)
}

// dualLoop iterates the dual simplex method on the current bounds from a
// dual feasible basis until it is primal feasible (Optimal), the leaving
// row has no entering variable (Infeasible), or a limit.
func (s *solver) dualLoop() Status {
	m := s.m
	needRebuild := true
	rejects := 0
	for {
		if needRebuild || s.lu.updates >= s.refactorEvery || s.lu.fill() > 2*s.lu.factorNnz+8*m {
			s.rebuild()
			s.loadRowBounds()
			needRebuild = false
		}
		if s.iter >= s.maxIter {
			return IterationLimit
		}
		if s.iter&31 == 0 && s.canceled() {
			return Canceled
		}
		r := s.chuzr()
		if r < 0 {
			if s.lu.updates > 0 {
				// Confirm on a fresh factorization.
				s.rebuild()
				s.loadRowBounds()
				if s.chuzr() < 0 {
					return Optimal
				}
				continue
			}
			return Optimal
		}
		p := s.head[r]
		bound := s.lo[p]
		if s.xB[r] > s.up[p] {
			bound = s.up[p]
		}
		delta := s.xB[r] - bound
		rho, wr := s.pivotRow(r)
		q := s.dualRatio(delta)
		if q < 0 {
			s.clearAlpha()
			if s.lu.updates > 0 {
				needRebuild = true
				continue
			}
			s.log("dual: row %d (variable %d, infeasibility %.3g) has no entering variable: infeasible", r, p, delta)
			return Infeasible
		}
		col := s.loadColumn(q)
		// One pass over the factors for the column of q, the DSE vector
		// B^{-1} rho and the effect of the bound flips.
		copy(s.tau, rho)
		var flipRHS []float64
		if len(s.flips) > 0 {
			flipRHS = s.flipRHS()
		}
		s.lu.ftran3(col, s.tau, flipRHS)
		arq := col[r]
		if math.Abs(arq-s.alpha[q]) > 1e-6*math.Max(1, math.Abs(arq)) || math.Abs(arq) < 1e-11 {
			s.clearAlpha()
			if s.lu.updates > 0 {
				needRebuild = true
				continue
			}
			rejects++
			if rejects > 10 || math.Abs(arq) < 1e-11 {
				s.log("dual: pivot %g (row %g) unreliable on a fresh factorization", arq, s.alpha[q])
				return Numerical
			}
		}
		if flipRHS != nil {
			s.applyFlips(flipRHS)
			delta = s.xB[r] - bound
		}
		thetaD := s.dualStep(p, q, arq, delta)
		s.countDegenerate("dual", thetaD == 0)
		// Primal step and dual steepest-edge weights in one pass.
		s.primalStepDSE(col, r, delta/arq, arq, wr)
		s.xB[r] = s.x[q] + delta/arq
		s.x[p] = bound
		// Basis change.
		s.swapBasis(r, q)
		s.setRowBounds(r, q)
		s.setKind(q)
		s.setKind(p)
		s.clearAlpha()
		if !s.lu.update(r, arq) {
			needRebuild = true
		}
		s.iter++
		s.tick("dual")
	}
}

// pivotRow computes row r of B^{-1}, rho = B^{-T} e_r (in s.rho), its
// squared norm wr (the exact dual steepest-edge weight of r, which it
// stores) and the pivot row alpha_r = rho^T A (priceRow).
func (s *solver) pivotRow(r int) (rho []float64, wr float64) {
	rho = s.rho
	clear(rho)
	rho[r] = 1
	s.lu.btran(rho)
	idx, wr := s.rhoNonzeros()
	s.dse[r] = wr
	s.priceRow(rho, idx)
	return rho, wr
}

// rhoNonzeros lists the nonzeros of s.rho (in s.rhoIdx) and returns
// them with the squared norm of s.rho.
func (s *solver) rhoNonzeros() (idx []int, norm2 float64) {
	idx = s.rhoIdx[:0]
	for i, v := range s.rho {
		if v != 0 {
			norm2 += v * v
			idx = append(idx, i)
		}
	}
	s.rhoIdx = idx
	return idx, norm2
}

// dualStep updates the reduced costs for q entering and p leaving with
// pivot arq and primal infeasibility delta of the leaving row, and
// returns the dual step d_q/arq (0 when d_q is on the wrong side within
// tolerance: its cost is then shifted to make it 0).
func (s *solver) dualStep(p, q int, arq, delta float64) float64 {
	thetaD := s.d[q] / arq
	if thetaD*delta < 0 {
		// d_q is on the wrong side (within tolerance): shift its cost.
		s.cost[q] -= s.d[q]
		s.d[q] = 0
		s.shifted = true
		thetaD = 0
	}
	if thetaD != 0 {
		for _, j := range s.alphaIdx {
			if s.pos[j] < 0 {
				s.d[j] -= thetaD * s.alpha[j]
			}
		}
	}
	s.d[q] = 0
	s.d[p] = -thetaD
	return thetaD
}

// primalStepDSE moves the basic variables by -thetaP col (col = B^{-1}
// a_q) and updates the dual steepest-edge weights for the pivot arq in
// row r, from col, tau = B^{-1} rho and the weight wr of row r (Forrest
// and Goldfarb's update, floored at minDSEWeight), in one pass over col.
func (s *solver) primalStepDSE(col []float64, r int, thetaP, arq, wr float64) {
	xB, tau, dse := s.xB, s.tau, s.dse
	xB, tau, dse = xB[:len(col)], tau[:len(col)], dse[:len(col)]
	for i, v := range col {
		if v == 0 {
			continue
		}
		xB[i] -= thetaP * v
		ratio := v / arq
		w := dse[i] + ratio*(ratio*wr-2*tau[i])
		dse[i] = math.Max(w, minDSEWeight)
	}
	dse[r] = math.Max(wr/(arq*arq), minDSEWeight)
}

// objective returns the working objective sum cost_j x_j (scaled).
func (s *solver) objective() float64 {
	var f float64
	for j, v := range s.x {
		if s.pos[j] < 0 {
			f += s.cost[j] * v
		}
	}
	for r, j := range s.head {
		f += s.cost[j] * s.xB[r]
	}
	return f
}
