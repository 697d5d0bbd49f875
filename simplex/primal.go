package simplex

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// primalDriver runs the primal simplex method from the current basis with
// the original costs and bounds.
//
// As the main method (Options.Method = Primal, perturbation on) it
// first solves the problem with its bounds relaxed at random (see
// perturbBounds) against primal degeneracy, then restores them: the
// basis stays dual feasible, so the dual method removes the few primal
// infeasibilities that this leaves.
func (s *solver) primalDriver() Status {
	s.restoreCosts()
	s.lo, s.up = s.lo0, s.up0
	relax := s.method == Primal && s.perturb && !s.boundsPerturbed
	if relax {
		s.perturbBounds()
	}
	if s.method == Primal && s.iter == 0 && s.start == nil {
		s.crashFree()
	}
	s.boundsToNonbasic()
	st := s.primalLoop()
	if !relax {
		return st
	}
	s.lo, s.up = s.lo0, s.up0
	s.boundsToNonbasic()
	switch st {
	case Infeasible:
		// The relaxed problem is infeasible, so the original one is.
		return st
	case Optimal:
		if inf, n := s.primalInfeasibility(); inf > s.ptol {
			s.log("primal: %d bound violations (max %.3g) after removing the bound perturbation; dual clean-up", n, inf)
			s.setKinds()
			st = s.dualLoop()
			if st == Optimal && s.shifted {
				s.restoreCosts()
				s.computeDual()
				if !s.isOptimal() {
					s.log("primal: cost shifts of the dual clean-up left dual infeasibilities; primal clean-up")
					return s.primalLoop()
				}
			}
			if st != Infeasible {
				return st
			}
			// Not expected (the basis was optimal for bounds within
			// tolerance of these): the unperturbed primal decides.
			s.log("primal: the dual clean-up found no entering variable; unperturbed primal method")
			s.restoreCosts()
		} else {
			return st
		}
	case Unbounded:
		// A ray of the relaxed problem is one of the original problem,
		// but only a feasible original problem is unbounded: the
		// unperturbed method decides.
		s.log("primal: unbounded with relaxed bounds; unperturbed primal method decides")
	default:
		return st
	}
	return s.primalLoop()
}

// boundsToNonbasic puts every nonbasic variable that is not at one of its
// (working) bounds at the nearest one and recomputes the basic values.
func (s *solver) boundsToNonbasic() {
	for j, p := range s.pos {
		if p >= 0 {
			continue
		}
		if v := s.x[j]; v != s.lo[j] && v != s.up[j] {
			s.x[j] = s.nearestBound(j, v)
		}
	}
	s.computePrimal()
}

// perturbBounds relaxes every finite bound of the variables that are not
// fixed by a random amount (deterministic, Options.Seed) of 10 to 20
// times the variable's primal tolerance plus 1e-6 of the bound's
// magnitude, in the working bounds s.lo, s.up: ties in the primal ratio
// test, which make the primal method stall on degenerate vertices, then
// become rare. lo0 and up0 are kept.
func (s *solver) perturbBounds() {
	r := rand.New(rand.NewPCG(s.seed, 0xb0d5))
	nt := s.n + s.m
	lo := append([]float64(nil), s.lo0...)
	up := append([]float64(nil), s.up0...)
	for j := 0; j < nt; j++ {
		l, u := lo[j], up[j]
		if l == u {
			continue
		}
		if !math.IsInf(l, 0) {
			lo[j] = l - (1+r.Float64())*(10*s.ptolv[j]+1e-6*math.Abs(l))
		}
		if !math.IsInf(u, 0) {
			up[j] = u + (1+r.Float64())*(10*s.ptolv[j]+1e-6*math.Abs(u))
		}
	}
	s.lo, s.up = lo, up
	s.boundsPerturbed = true
}

// primalLoop iterates the primal simplex method. While basic variables
// violate their bounds it minimises the sum of the violations (composite
// phase 1, costs -1/+1 on the violated basic variables); then it
// minimises the working costs. Pricing is devex (a smallest-index rule
// after many degenerate steps); the ratio test is Harris' two-pass test,
// in phase 1 first the one that passes breakpoints (phase1Ratio).
func (s *solver) primalLoop() Status {
	nt := s.n + s.m
	pc := make([]float64, nt)
	rejected := make([]bool, nt)
	nRejected := 0
	needRebuild := true
	s.initDevex()
	s.degenerate = 0
	s.bland = false
	for {
		if needRebuild || s.lu.updates >= s.refactorEvery || s.lu.fill() > 2*s.lu.factorNnz+8*s.m {
			s.refactor()
			s.computePrimal()
			needRebuild = false
		}
		if s.iter >= s.maxIter {
			return IterationLimit
		}
		if s.iter&31 == 0 && s.canceled() {
			return Canceled
		}
		phase1 := s.primalInfeasibleBasis()
		c := s.cost
		if phase1 {
			c = s.phase1Costs(pc)
		}
		s.reducedCosts(c)
		q := s.primalPricing(rejected)
		if q < 0 && nRejected > 0 {
			// Only candidates without a usable pivot are left: their
			// reduced costs are at the level of the rounding errors.
			s.log("primal: %d candidates left out for tiny pivots; stopping", nRejected)
			if phase1 {
				return Numerical
			}
			return Optimal
		}
		if q < 0 {
			if phase1 {
				if s.lu.updates > 0 {
					needRebuild = true
					continue
				}
				return Infeasible
			}
			if s.lu.updates > 0 {
				// Confirm on a fresh factorization.
				if s.confirmOptimal() {
					return Optimal
				}
				continue
			}
			return Optimal
		}
		dir := 1.0
		if s.d[q] > 0 {
			dir = -1
		}
		col := s.loadColumn(q)
		s.lu.ftran(col, true)
		s.listNonzeros(col)
		r, t, target := -1, 0.0, 0.0
		if phase1 && !s.bland {
			r, t, target = s.phase1Ratio(col, dir, q, math.Abs(s.d[q]))
		}
		if r == -1 {
			r, t, target = s.primalRatio(col, dir, q, pivotTol)
		}
		if r == -1 {
			if s.lu.updates > 0 {
				needRebuild = true
				continue
			}
			if tiny := s.tinyPivotTol(col); tiny < pivotTol {
				// Entries below the pivot tolerance may block: no clear
				// ray. Pivot on one of them if it is the only way on;
				// leave q out (until the basis changes) if even that
				// fails.
				r, t, target = s.primalRatio(col, dir, q, tiny)
				if r != -1 {
					if rejected[q] {
						continue
					}
					rejected[q] = true
					nRejected++
				}
			}
		}
		if r == -1 {
			if phase1 {
				return Numerical
			}
			s.setPrimalRay(col, q, dir)
			s.log("primal: variable %d enters without a blocking row: unbounded", q)
			return Unbounded
		}
		s.countDegenerate("primal", t == 0)
		step := dir * t
		for _, i := range s.colNZ {
			s.xB[i] -= step * col[i]
		}
		s.iter++
		s.tick("primal")
		if r == -2 {
			// The entering variable reaches its other bound first.
			if s.x[q] == s.lo[q] {
				s.x[q] = s.up[q]
			} else {
				s.x[q] = s.lo[q]
			}
			continue
		}
		p := s.head[r]
		if nRejected > 0 {
			clear(rejected)
			nRejected = 0
		}
		s.updateDevex(r, q, p, col[r])
		s.xB[r] = s.x[q] + step
		s.x[p] = target
		s.swapBasis(r, q)
		if !s.lu.update(r, col[r]) {
			needRebuild = true
		}
	}
}

// primalInfeasibleBasis reports whether a basic variable violates a
// bound by more than its primal tolerance (phase 1 of primalLoop).
func (s *solver) primalInfeasibleBasis() bool {
	for r, j := range s.head {
		if v, tol := s.xB[r], s.ptolv[j]; v < s.lo[j]-tol || v > s.up[j]+tol {
			return true
		}
	}
	return false
}

// phase1Costs sets pc (n+m) to the costs of the composite phase 1, -1
// on the basic variables below their lower bound, +1 on those above
// their upper bound, 0 elsewhere, and returns it.
func (s *solver) phase1Costs(pc []float64) []float64 {
	clear(pc)
	for r, j := range s.head {
		if v, tol := s.xB[r], s.ptolv[j]; v < s.lo[j]-tol {
			pc[j] = -1
		} else if v > s.up[j]+tol {
			pc[j] = 1
		}
	}
	return pc
}

// reducedCosts sets s.d to the reduced costs of the costs c: y = B^{-T}
// c_B, d = c - Aᵀ y, with the basic ones exactly 0.
func (s *solver) reducedCosts(c []float64) {
	y := s.rho
	for r, j := range s.head {
		y[r] = c[j]
	}
	s.lu.btran(y)
	s.priceAll(y, c, s.d)
	for _, j := range s.head {
		s.d[j] = 0
	}
}

// primalPricing returns the entering variable of the primal simplex:
// the nonbasic variable, not rejected, of largest squared dual
// infeasibility (above the tolerance) over its devex weight, or the
// first such under the smallest-index rule; -1 when there is none.
func (s *solver) primalPricing(rejected []bool) int {
	q := -1
	var best float64
	for j := 0; j < s.n+s.m; j++ {
		if s.pos[j] >= 0 || rejected[j] {
			continue
		}
		e := s.dualInfeasibility(j)
		if e <= s.dtol {
			continue
		}
		if s.bland {
			return j
		}
		if e = e * e / s.devex[j]; e > best {
			q, best = j, e
		}
	}
	return q
}

// confirmOptimal refactors the basis, recomputes the primal and dual
// values and reports whether the basis is still primal feasible and
// dual feasible (optimal).
func (s *solver) confirmOptimal() bool {
	s.refactor()
	s.computePrimal()
	if inf, _ := s.primalInfeasibility(); !(inf <= s.ptol) {
		return false
	}
	s.computeDual()
	for j := 0; j < s.n+s.m; j++ {
		if s.pos[j] < 0 && s.dualInfeasibility(j) > s.dtol {
			return false
		}
	}
	return true
}

// loadColumn sets s.col to the dense column a_q of the working matrix
// [A I] and returns it.
func (s *solver) loadColumn(q int) []float64 {
	col := s.col
	clear(col)
	idx, val := s.column(q)
	for k, i := range idx {
		col[i] = val[k]
	}
	return col
}

// setPrimalRay sets s.ray to the unbounded direction of the structural
// variables when q enters in direction dir and nothing blocks:
// dir on q, -dir * col on the basic variables.
func (s *solver) setPrimalRay(col []float64, q int, dir float64) {
	s.ray = make([]float64, s.n)
	if q < s.n {
		s.ray[q] = dir
	}
	for i, v := range col {
		if j := s.head[i]; j < s.n {
			s.ray[j] = -dir * v
		}
	}
}

// countDegenerate counts the consecutive degenerate steps (of length
// zero) of method ("primal" or "dual") and switches to the
// smallest-index rule after blandAfter of them, back to the usual rule
// after a step that moves.
func (s *solver) countDegenerate(method string, degenerate bool) {
	if !degenerate {
		s.degenerate = 0
		s.bland = false
		return
	}
	s.degenerate++
	if s.degenerate > blandAfter && !s.bland {
		s.bland = true
		s.log("%s: %d degenerate iterations; smallest-index rule", method, s.degenerate)
	}
}

// primalRatio is Harris' two-pass ratio test for entering variable q
// moving in direction dir with column col = B^{-1} a_q. A basic variable
// that violates a bound blocks where it meets that bound (phase 1). It
// returns the leaving position r, the step t >= 0 and the bound the
// leaving variable takes; r == -2 when q reaches its own other bound
// first, r == -1 when nothing blocks.
func (s *solver) primalRatio(col []float64, dir float64, q int, pivTol float64) (int, float64, float64) {
	tmax := math.Inf(1)
	limit := func(i int, harris bool) (float64, float64, bool) {
		g := dir * col[i]
		if math.Abs(g) <= pivTol {
			return 0, 0, false
		}
		j := s.head[i]
		ptol := s.ptolv[j]
		x, l, u := s.xB[i], s.lo[j], s.up[j]
		tol := ptol
		if !harris {
			tol = 0
		}
		if g > 0 { // x decreases
			switch {
			case x < l-ptol:
				return 0, 0, false
			case x > u+ptol:
				return (x - u + tol) / g, u, true
			case math.IsInf(l, -1):
				return 0, 0, false
			}
			return (x - l + tol) / g, l, true
		}
		switch { // x increases
		case x > u+ptol:
			return 0, 0, false
		case x < l-ptol:
			return (l - x + tol) / -g, l, true
		case math.IsInf(u, 1):
			return 0, 0, false
		}
		return (u - x + tol) / -g, u, true
	}
	if s.bland {
		// Exact minimum ratio; ties to the smallest variable index.
		r, bestJ := -1, math.MaxInt
		var t, target float64
		for _, i := range s.colNZ {
			lim, b, ok := limit(i, false)
			if !ok {
				continue
			}
			lim = math.Max(lim, 0)
			if r < 0 || lim < t-1e-12 || (lim <= t+1e-12 && s.head[i] < bestJ) {
				r, t, target, bestJ = i, lim, b, s.head[i]
			}
		}
		if rng := s.up[q] - s.lo[q]; rng <= t || (r < 0 && !math.IsInf(rng, 1)) {
			return -2, rng, 0
		}
		return r, t, target
	}
	// One pass for the exact limits and their Harris bound (the limit
	// with the tolerance added), one over the candidates found.
	cands := s.pcands[:0]
	head, ptolv, xB, lo, up := s.head, s.ptolv, s.xB, s.lo, s.up
	for _, i := range s.colNZ {
		g := dir * col[i]
		ag := math.Abs(g)
		if ag <= pivTol {
			continue
		}
		j := head[i]
		ptol := ptolv[j]
		x, l, u := xB[i], lo[j], up[j]
		var lim, b float64
		if g > 0 { // x decreases
			switch {
			case x < l-ptol:
				continue
			case x > u+ptol:
				lim, b = (x-u)/g, u
			case math.IsInf(l, -1):
				continue
			default:
				lim, b = (x-l)/g, l
			}
		} else { // x increases
			switch {
			case x > u+ptol:
				continue
			case x < l-ptol:
				lim, b = (l-x)/ag, l
			case math.IsInf(u, 1):
				continue
			default:
				lim, b = (u-x)/ag, u
			}
		}
		if h := lim + ptol/ag; h < tmax {
			tmax = h
		}
		cands = append(cands, primalCand{i: i, lim: lim, bound: b, g: ag})
	}
	s.pcands = cands
	rng := s.up[q] - s.lo[q]
	if !math.IsInf(rng, 1) && rng <= tmax {
		return -2, rng, 0
	}
	if math.IsInf(tmax, 1) {
		return -1, 0, 0
	}
	r := -1
	var best, t, target float64
	for _, c := range cands {
		if c.lim > tmax {
			continue
		}
		if c.g > best {
			r, best, t, target = c.i, c.g, c.lim, c.bound
		}
	}
	return r, math.Max(t, 0), target
}

// primalCand is a blocking candidate of the primal ratio test: position
// i, its limit on the step, the bound it meets and |alpha_i|.
type primalCand struct {
	i             int
	lim, bound, g float64
}

// tinyPivotTol returns the pivot tolerance of the second try of the
// primal ratio test: 1e-12 of the largest entry of the column.
func (s *solver) tinyPivotTol(col []float64) float64 {
	var mx float64
	for _, v := range col {
		mx = math.Max(mx, math.Abs(v))
	}
	return 1e-12 * mx
}

// crashFree makes the nonbasic free structural variables basic, each in
// place of a logical variable (not free) of its largest entry in the
// column B^{-1} a_j: a free variable, once basic, never leaves, and the
// primal method would otherwise spend iterations to bring each in.
func (s *solver) crashFree() {
	moved := 0
	for j := 0; j < s.n; j++ {
		if s.pos[j] >= 0 || !math.IsInf(s.lo[j], -1) || !math.IsInf(s.up[j], 1) {
			continue
		}
		col := s.loadColumn(j)
		s.lu.ftran(col, true)
		r := -1
		var best, mx float64
		for i, v := range col {
			mx = math.Max(mx, math.Abs(v))
			h := s.head[i]
			if h < s.n || (math.IsInf(s.lo[h], -1) && math.IsInf(s.up[h], 1)) {
				continue
			}
			if a := math.Abs(v); a > best {
				r, best = i, a
			}
		}
		if r < 0 || best < 0.1*mx || best < 1e-7 {
			continue
		}
		p := s.head[r]
		s.x[p] = s.nearestBound(p, 0)
		s.x[j] = 0
		s.swapBasis(r, j)
		moved++
		if !s.lu.update(r, col[r]) {
			s.refactor()
		}
	}
	if moved > 0 {
		s.refactor()
		s.log("primal: %d free variables made basic before the first iteration", moved)
	}
}

// breakpoint is where a basic variable that violates a bound meets it in
// the phase 1 ratio test: step t, slope change |g|, position r and the
// bound b.
type breakpoint struct {
	t, h  float64 // h: t with the Harris tolerance
	g     float64
	r     int
	bound float64
}

// phase1Ratio is the ratio test of phase 1 that passes breakpoints: the
// sum of infeasibilities along the step falls at the rate slope (|d_q|
// for the phase 1 costs), and each infeasible basic variable that
// reaches its violated bound raises that rate by |g| (its entry of the
// column): the step goes to the breakpoint where the rate stops being
// negative, so that one iteration can repair many infeasibilities,
// unless a feasible basic variable (or an infeasible one's other bound,
// or q's own range) blocks first, with Harris' tolerances. When no
// breakpoint can be passed it is the ordinary test of primalRatio, done
// on the candidates of the same pass. It returns what primalRatio
// returns (r == -1 when nothing blocks: primalRatio then decides).
func (s *solver) phase1Ratio(col []float64, dir float64, q int, slope float64) (int, float64, float64) {
	hard := math.Inf(1) // Harris bound of the blocking limits
	bps := s.bps[:0]
	cands := s.pcands[:0] // the blocking limits
	head, ptolv, xB, lo, up := s.head, s.ptolv, s.xB, s.lo, s.up
	for _, i := range s.colNZ {
		g := dir * col[i]
		if math.Abs(g) <= pivotTol {
			continue
		}
		j := head[i]
		ptol := ptolv[j]
		x, l, u := xB[i], lo[j], up[j]
		if g > 0 { // x decreases
			switch {
			case x > u+ptol:
				t := (x - u) / g
				bps = append(bps, breakpoint{t: t, h: t + ptol/g, g: g, r: i, bound: u})
				if !math.IsInf(l, -1) {
					hard = math.Min(hard, (x-l+ptol)/g)
					cands = append(cands, primalCand{i: i, lim: (x - l) / g, bound: l, g: g})
				}
			case x < l-ptol:
			case !math.IsInf(l, -1):
				hard = math.Min(hard, (x-l+ptol)/g)
				cands = append(cands, primalCand{i: i, lim: (x - l) / g, bound: l, g: g})
			}
			continue
		}
		switch { // x increases
		case x < l-ptol:
			t := (l - x) / -g
			bps = append(bps, breakpoint{t: t, h: t + ptol/-g, g: -g, r: i, bound: l})
			if !math.IsInf(u, 1) {
				hard = math.Min(hard, (u-x+ptol)/-g)
				cands = append(cands, primalCand{i: i, lim: (u - x) / -g, bound: u, g: -g})
			}
		case x > u+ptol:
		case !math.IsInf(u, 1):
			hard = math.Min(hard, (u-x+ptol)/-g)
			cands = append(cands, primalCand{i: i, lim: (u - x) / -g, bound: u, g: -g})
		}
	}
	s.bps, s.pcands = bps, cands
	rng := s.up[q] - s.lo[q]
	hardOwn := hard // without q's range
	if rng < hard {
		hard = rng
	}
	k := 0
	for _, b := range bps {
		if b.t <= hard {
			bps[k] = b
			k++
		}
	}
	bps = bps[:k]
	slices.SortFunc(bps, func(a, b breakpoint) int { return cmp.Compare(a.t, b.t) })
	// Pass breakpoints while the rate stays negative and they lie
	// before the hard limit.
	k = -1
	for i, b := range bps {
		if b.t > hard {
			break
		}
		k = i
		slope -= b.g
		if slope <= 0 {
			break
		}
	}
	if k <= 0 {
		// Nothing passed: the ordinary Harris test on the same
		// candidates (as primalRatio).
		tmax := hardOwn
		for _, b := range bps {
			tmax = math.Min(tmax, b.h)
		}
		if !math.IsInf(rng, 1) && rng <= tmax {
			return -2, rng, 0
		}
		if math.IsInf(tmax, 1) {
			return -1, 0, 0
		}
		r := -1
		var best, t, target float64
		for _, c := range cands {
			if c.lim <= tmax && c.g > best {
				r, best, t, target = c.i, c.g, c.lim, c.bound
			}
		}
		for _, b := range bps {
			if b.t <= tmax && b.g > best {
				r, best, t, target = b.r, b.g, b.t, b.bound
			}
		}
		return r, math.Max(t, 0), target
	}
	// Among the breakpoints near the chosen one, the largest |g|.
	b := bps[k]
	for i := k - 1; i >= 0 && bps[i].t >= b.t-1e-9*(1+b.t); i-- {
		if bps[i].g > b.g {
			b = bps[i]
		}
	}
	return b.r, math.Max(b.t, 0), b.bound
}

// devexReset: the devex weights restart from 1 when one grows past this.
const devexReset = 1e6

// initDevex sets every devex weight to 1 (a new reference framework).
func (s *solver) initDevex() {
	if s.devex == nil {
		s.devex = make([]float64, s.n+s.m)
	}
	for j := range s.devex {
		s.devex[j] = 1
	}
}

// updateDevex updates the devex weights for q entering at position r
// (pivot arq) in place of p: w_j = max(w_j, (alpha_rj/arq)^2 w_q) for the
// nonbasic j, from the pivot row alpha_r = e_r^T B^{-1} N (computed here
// with the basis before the change), and w_p = max(w_q/arq^2, 1).
func (s *solver) updateDevex(r, q, p int, arq float64) {
	rho := s.rho
	clear(rho)
	rho[r] = 1
	s.lu.btran(rho)
	idx, _ := s.rhoNonzeros()
	s.priceRow(rho, idx)
	w := s.devex
	wq := w[q]
	big := false
	for _, j := range s.alphaIdx {
		if j == q || s.pos[j] >= 0 {
			continue
		}
		ratio := s.alpha[j] / arq
		if v := ratio * ratio * wq; v > w[j] {
			w[j] = v
			big = big || v > devexReset
		}
	}
	s.clearAlpha()
	w[p] = math.Max(wq/(arq*arq), 1)
	if big {
		s.initDevex()
	}
}

// listNonzeros lists the positions of the nonzeros of col in s.colNZ.
func (s *solver) listNonzeros(col []float64) {
	nz := s.colNZ[:0]
	for i, v := range col {
		if v != 0 {
			nz = append(nz, i)
		}
	}
	s.colNZ = nz
}
