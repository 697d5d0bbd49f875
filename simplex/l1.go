package simplex

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/dense"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// L1Options are the options of L1Min, L1MinBatch and NewL1Solver. The
// zero value (or nil) gives the defaults stated for each field. A
// negative count or a NaN, infinite or negative Tol is an error wrapping
// ErrBadOption, returned before any work.
type L1Options struct {
	// MaxIter bounds the simplex iterations of one problem
	// (0: 50(n+k) + 1000).
	MaxIter int
	// Tol is the feasibility tolerance of the dual problem, on |y_i| <= 1
	// (0: 1e-9), after B and q are scaled to largest magnitude one.
	Tol float64
	// NoWarmStart makes every problem start from a fresh basis instead
	// of the best earlier optimum.
	NoWarmStart bool
	// PoolSize is the number of earlier optimal bases kept for warm
	// starts (0: 64).
	PoolSize int
}

// L1Result is the solution of min ||B w||_1 subject to q^T w = 1.
type L1Result struct {
	// W is the minimiser (k elements); q^T W = 1 up to rounding.
	W []float64
	// S is B W (n elements), with the entries that the optimal vertex
	// makes zero (k-1 of them, those of the final basis) set to exactly
	// zero.
	S []float64
	// Norm is ||S||_1, the optimal value.
	Norm float64
	// Iterations counts the simplex iterations.
	Iterations int
	// Warm reports whether the solve started from an earlier optimum.
	Warm bool
}

// L1Min solves min ||B w||_1 subject to q^T w = 1 for the n x k matrix B
// (k << n is the intended use) through its dual with k equality rows,
//
//	max mu  subject to  B^T y = mu q,  -1 <= y <= 1,
//
// by a bounded dual simplex method on a dense k x k basis; nil opts
// means the defaults (of the fields, only MaxIter and Tol matter for one
// problem). It returns an *InputError (matching ErrInvalid) for
// non-finite data or len(q) != k, an error wrapping ErrBadOption for an
// option out of range, ErrInfeasible when q is zero, and
// ErrIterationLimit or ErrNumerical when the method fails or the optimum
// overflows. When B has rank below k the problem is passed to Solve.
func L1Min(B *mat.Dense, q []float64, opts *L1Options) (*L1Result, error) {
	s, err := NewL1Solver(B, opts)
	if err != nil {
		return nil, err
	}
	return s.Solve(q)
}

// L1MinBatch solves min ||B w||_1 subject to q^T w = 1 for every row q of
// Q with one L1Solver, so that each problem warm-starts from the best
// earlier optimum. The rows are solved in order and the results do not
// depend on anything but B, Q and the options. An option out of range
// gives no results and an error wrapping ErrBadOption; B with non-finite
// data or Q with other than k columns, no results and an *InputError
// (matching ErrInvalid). A row that fails (non-finite or zero, or the
// method fails on it) ends the batch: L1MinBatch returns the results so
// far and an error that names the row and wraps that row's error, as
// L1Min would return it. When ctx ends it stops between two problems and
// returns ctx's error, wrapped. ctx must not be nil (L1MinBatch panics
// with a message if it is).
func L1MinBatch(ctx context.Context, B, Q *mat.Dense, opts *L1Options) ([]L1Result, error) {
	if ctx == nil {
		panic("simplex: L1MinBatch: nil context")
	}
	s, err := NewL1Solver(B, opts)
	if err != nil {
		return nil, err
	}
	nq, kq := Q.Dims()
	if kq != s.k {
		return nil, invalid("Q", -1, "has %d columns, B has %d", kq, s.k)
	}
	out := make([]L1Result, 0, nq)
	q := make([]float64, s.k)
	for i := 0; i < nq; i++ {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("simplex: L1MinBatch stopped before row %d: %w", i, err)
		}
		Q.Row(q, i)
		r, err := s.Solve(q)
		if err != nil {
			return out, fmt.Errorf("simplex: L1MinBatch: row %d of Q: %w", i, err)
		}
		out = append(out, *r)
	}
	return out, nil
}

// L1Solver solves min ||B w||_1 subject to q^T w = 1 for a fixed B and a
// sequence of q, reusing its storage and warm-starting each problem from
// the earlier optimum that is best for the new q: each optimal basis
// gives a vertex w_v of the feasible set of any q with q^T w_v != 0
// (after scaling w_v), with value ||B w_v||_1 / |q^T w_v|, and the solver
// starts from the smallest of these values. An L1Solver is not safe for
// concurrent use.
type L1Solver struct {
	n, k    int
	orig    []float64 // B, row-major copy
	b       []float64 // B / max|B|
	tol     float64
	dtol    float64
	maxIter int
	warm    bool
	poolMax int

	basis []int // basis[p]: y index (0..n-1) or n for mu
	where []int // where[i]: position of i (0..n), -1 if nonbasic
	y     []float64
	xB    []float64
	d     []float64
	minv  []float64 // inverse of the basis matrix, row-major
	q     []float64 // scaled q
	alpha []float64
	col   []float64
	dg    []float64
	wk    []float64
	piv   []int
	cands []cand
	flips []int
	pool  []l1Vertex
	iters int
	since int // inverse updates since the last inversion
	bland bool
	// eps perturbs the costs of the y_i in the dual (min -mu + eps^T y)
	// against dual degeneracy; perturbed says whether it is in effect.
	eps       []float64
	perturbed bool
	// scratch of the crash
	cr l1Crash
	cB []float64
}

// l1Vertex is an optimal basis kept for warm starts: its k-1 rows of B
// (sorted) and the direction w (unit norm) orthogonal to them, with
// ||B w||_1 (scaled B).
type l1Vertex struct {
	rows []int
	w    []float64
	norm float64
}

// NewL1Solver returns a solver for the n x k matrix B (copied). It
// returns an *InputError if B holds NaN or Inf, and an error wrapping
// ErrBadOption for a negative or non-finite option.
func NewL1Solver(B *mat.Dense, opts *L1Options) (*L1Solver, error) {
	var o L1Options
	if opts != nil {
		o = *opts
	}
	if err := checkL1Options(&o); err != nil {
		return nil, err
	}
	n, k := B.Dims()
	s := &L1Solver{n: n, k: k, tol: o.Tol, maxIter: o.MaxIter, warm: !o.NoWarmStart, poolMax: o.PoolSize}
	if s.tol <= 0 {
		s.tol = 1e-9
	}
	s.dtol = 1e-11
	if s.maxIter <= 0 {
		s.maxIter = 50*(n+k) + 1000
	}
	if s.poolMax <= 0 {
		s.poolMax = 64
	}
	s.orig = make([]float64, n*k)
	var bmax float64
	for i := 0; i < n; i++ {
		copy(s.orig[i*k:(i+1)*k], B.RawRow(i))
		for j, v := range s.orig[i*k : (i+1)*k] {
			if v-v != 0 {
				return nil, invalid("B", i*k+j, "element (%d, %d) is not finite: %v", i, j, v)
			}
			if v < 0 {
				v = -v
			}
			if v > bmax {
				bmax = v
			}
		}
	}
	s.b = make([]float64, n*k)
	if bmax > 0 {
		inv := 1 / bmax
		for i, v := range s.orig {
			s.b[i] = v * inv
		}
	}
	s.basis = make([]int, k)
	s.where = make([]int, n+1)
	s.y = make([]float64, n)
	s.xB = make([]float64, k)
	s.d = make([]float64, n)
	s.minv = make([]float64, k*k)
	s.q = make([]float64, k)
	s.alpha = make([]float64, n)
	s.col = make([]float64, k)
	s.dg = make([]float64, k)
	s.wk = make([]float64, k)
	s.piv = make([]int, k)
	s.cB = make([]float64, k)
	s.eps = make([]float64, n)
	rng := rand.New(rand.NewPCG(0x11, 0x5eed))
	for i := range s.eps {
		s.eps[i] = 1e-7 * (1 + rng.Float64())
		if rng.IntN(2) == 0 {
			s.eps[i] = -s.eps[i]
		}
	}
	return s, nil
}

// Solve solves the problem for q (k elements; not retained). When the
// optimum lies outside the float64 range (a tiny q with a huge B: w or
// B w overflows) it returns an error matching ErrNumerical.
func (s *L1Solver) Solve(q []float64) (*L1Result, error) {
	r, err := s.solve(q)
	if err != nil {
		return nil, err
	}
	for _, v := range r.W {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%w: the minimiser overflows (w = %v)", ErrNumerical, r.W)
		}
	}
	if math.IsInf(r.Norm, 0) || math.IsNaN(r.Norm) {
		return nil, fmt.Errorf("%w: the optimal value ||B w||_1 overflows (w = %v)", ErrNumerical, r.W)
	}
	return r, nil
}

func (s *L1Solver) solve(q []float64) (*L1Result, error) {
	n, k := s.n, s.k
	if len(q) != k {
		return nil, invalid("q", -1, "has %d elements, B has %d columns", len(q), k)
	}
	var qmax float64
	for i, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, invalid("q", i, "not finite: %v", v)
		}
		qmax = math.Max(qmax, math.Abs(v))
	}
	if qmax == 0 {
		return nil, fmt.Errorf("%w: q is zero, so q^T w = 1 has no solution", ErrInfeasible)
	}
	if n == 0 {
		// ||B w||_1 is identically zero: the minimum-norm feasible w.
		qq := kernels.Dot(q, q)
		w := make([]float64, k)
		for i, v := range q {
			w[i] = v / qq
		}
		return &L1Result{W: w, S: []float64{}}, nil
	}
	gamma := 1 / qmax
	for i, v := range q {
		s.q[i] = v * gamma
	}
	s.iters = 0
	s.bland = false
	// Start from the better (by objective value) of the crash basis and
	// the best earlier optimum.
	var warmRows []int
	warmVal := math.Inf(1)
	if s.warm {
		warmRows, warmVal = s.bestVertex()
	}
	warm := false
	ok := false
	if crash := s.crashRows(); crash != nil && s.start(crash) {
		ok = true
		if warmRows != nil && warmVal < s.vertexValue() {
			if s.start(warmRows) {
				warm = true
			} else {
				s.start(crash)
			}
		}
	} else if warmRows != nil && s.start(warmRows) {
		ok, warm = true, true
	}
	if !ok {
		// B (with q) is rank deficient: the general solver copes,
		// within the same iteration limit.
		return l1GeneralOpts(s.orig, n, k, q, &Options{MaxIter: s.maxIter})
	}
	if err := s.iterate(math.MaxInt); err != nil {
		return nil, err
	}
	// Remove the perturbation and re-optimise (usually no iterations),
	// confirming the optimum on a fresh inverse if many updates were
	// made.
	s.perturbed = false
	s.redual()
	if err := s.iterate(l1ConfirmAfter); err != nil {
		return nil, err
	}
	// Extract w = -(row of mu in B^{-1}) in the scaled problem.
	pmu := s.where[n]
	w := make([]float64, k)
	for j := 0; j < k; j++ {
		w[j] = -s.minv[pmu*k+j] * gamma
	}
	// q^T w = 1 holds to the accuracy of the inverse; make it exact to
	// rounding.
	if qw := kernels.Dot(q, w); qw != 0 {
		kernels.Scal(1/qw, w)
	}
	res := &L1Result{W: w, S: make([]float64, n), Iterations: s.iters, Warm: warm}
	kernels.Gemv(false, n, k, 1, s.orig, k, w, 0, res.S)
	for _, i := range s.basis {
		if i < n {
			res.S[i] = 0
		}
	}
	for _, v := range res.S {
		res.Norm += math.Abs(v)
	}
	s.remember()
	return res, nil
}

// bestVertex returns the rows of the kept basis with the smallest value
// for the current q and that value, or nil.
func (s *L1Solver) bestVertex() ([]int, float64) {
	best := -1
	bestVal := math.Inf(1)
	qn := math.Sqrt(kernels.Dot(s.q, s.q))
	for i := range s.pool {
		v := &s.pool[i]
		t := math.Abs(kernels.Dot(s.q, v.w))
		if t <= 1e-8*qn {
			continue
		}
		if val := v.norm / t; val < bestVal {
			best, bestVal = i, val
		}
	}
	if best < 0 {
		return nil, bestVal
	}
	return s.pool[best].rows, bestVal
}

// vertexValue returns ||B w||_1 (scaled) for the w of the current basis.
func (s *L1Solver) vertexValue() float64 {
	n, k := s.n, s.k
	pmu := s.where[n]
	kernels.Gemv(false, n, k, 1, s.b, k, s.minv[pmu*k:(pmu+1)*k], 0, s.alpha)
	return kernels.Asum(s.alpha)
}

// remember keeps the current (optimal) basis in the pool.
func (s *L1Solver) remember() {
	if !s.warm {
		return
	}
	n, k := s.n, s.k
	rows := make([]int, 0, k-1)
	for _, i := range s.basis {
		if i < n {
			rows = append(rows, i)
		}
	}
	slices.Sort(rows)
	for i := range s.pool {
		if slices.Equal(s.pool[i].rows, rows) {
			return
		}
	}
	pmu := s.where[n]
	w := make([]float64, k)
	copy(w, s.minv[pmu*k:(pmu+1)*k])
	nw := math.Sqrt(kernels.Dot(w, w))
	if nw == 0 {
		return
	}
	kernels.Scal(1/nw, w)
	sb := s.alpha
	kernels.Gemv(false, n, k, 1, s.b, k, w, 0, sb)
	v := l1Vertex{rows: rows, w: w, norm: kernels.Asum(sb)}
	if len(s.pool) < s.poolMax {
		s.pool = append(s.pool, v)
		return
	}
	copy(s.pool, s.pool[1:])
	s.pool[len(s.pool)-1] = v
}

// start sets up the basis of the given k-1 rows and mu, its inverse, the
// dual values and the nonbasic signs; it reports false if the basis is
// singular.
func (s *L1Solver) start(rows []int) bool {
	n, k := s.n, s.k
	for i := range s.where {
		s.where[i] = -1
	}
	for p, i := range rows {
		s.basis[p] = i
		s.where[i] = p
	}
	s.basis[k-1] = n
	s.where[n] = k - 1
	s.perturbed = true
	if !s.invert() {
		return false
	}
	clear(s.y)
	s.computeDual()
	for i := 0; i < n; i++ {
		if s.where[i] >= 0 {
			continue
		}
		if s.d[i] > 0 {
			s.y[i] = -1
		} else {
			s.y[i] = 1
		}
	}
	s.computePrimal()
	return true
}

// invert forms the basis matrix [b_S, -q] and inverts it.
func (s *L1Solver) invert() bool {
	n, k := s.n, s.k
	m := s.minv
	for p, i := range s.basis {
		if i == n {
			for r := 0; r < k; r++ {
				m[r*k+p] = -s.q[r]
			}
			continue
		}
		bi := s.b[i*k : (i+1)*k]
		for r := 0; r < k; r++ {
			m[r*k+p] = bi[r]
		}
	}
	s.since = 0
	return dense.Invert(m, k, s.piv, 1e-13)
}

// computeDual sets d = c - B pi with pi = B^{-T} c_B, where c is zero
// (eps when perturbed) for the y and -1 for mu: without the perturbation
// d_i = -(B w)_i with w = -(row of mu in B^{-1}).
func (s *L1Solver) computeDual() {
	n, k := s.n, s.k
	for p, i := range s.basis {
		switch {
		case i == n:
			s.cB[p] = -1
		case s.perturbed:
			s.cB[p] = s.eps[i]
		default:
			s.cB[p] = 0
		}
	}
	pi := s.wk
	kernels.Gemv(true, k, k, 1, s.minv, k, s.cB, 0, pi)
	kernels.Gemv(false, n, k, -1, s.b, k, pi, 0, s.d)
	if s.perturbed {
		kernels.Axpy(1, s.eps, s.d)
	}
	for _, i := range s.basis {
		if i < n {
			s.d[i] = 0
		}
	}
}

// computePrimal sets xB = -B^{-1} (sum over nonbasic i of b_i y_i).
func (s *L1Solver) computePrimal() {
	n, k := s.n, s.k
	kernels.Gemv(true, n, k, 1, s.b, k, s.y, 0, s.dg)
	kernels.Gemv(false, k, k, -1, s.minv, k, s.dg, 0, s.xB)
}

// l1RefreshEvery is the number of inverse updates between two inversions;
// l1ConfirmAfter the number beyond which an optimum is confirmed on a
// fresh inverse.
const (
	l1RefreshEvery = 64
	l1ConfirmAfter = 16
)

// refresh recomputes the inverse, the duals and the primal values from
// scratch; nonbasic variables whose reduced cost has turned to the wrong
// side move to their other bound.
func (s *L1Solver) refresh() bool {
	if !s.invert() {
		return false
	}
	s.redual()
	return true
}

// redual recomputes the duals and the primal values with the current
// inverse, moving the nonbasic variables whose reduced cost has turned to
// the wrong side to their other bound.
func (s *L1Solver) redual() {
	s.computeDual()
	for i := 0; i < s.n; i++ {
		if s.where[i] < 0 && s.y[i]*s.d[i] > s.dtol {
			s.y[i] = -s.y[i]
		}
	}
	s.computePrimal()
}

// iterate runs the dual simplex method until the basic y are within
// [-1, 1]; an optimum reached after more than confirm updates of the
// inverse is checked again on a fresh one. Each iteration chooses the
// leaving row (leavingRow), the entering variable by the bound-flipping
// ratio test (enteringVar), and pivots (pivot); a mismatch between the
// pivot element of the row and that of the column, or a failed ratio
// test, first refreshes the inverse.
func (s *L1Solver) iterate(confirm int) error {
	k := s.k
	pmu := s.where[s.n]
	degenerate := 0
	for {
		if s.since >= l1RefreshEvery {
			if !s.refresh() {
				return fmt.Errorf("%w: l1 basis became singular", ErrNumerical)
			}
		}
		if s.iters >= s.maxIter {
			return ErrIterationLimit
		}
		r := s.leavingRow(pmu)
		if r < 0 {
			if s.since > confirm {
				// Confirm on a fresh inverse.
				if !s.refresh() {
					return fmt.Errorf("%w: l1 basis became singular", ErrNumerical)
				}
				continue
			}
			return nil
		}
		bound := 1.0
		if s.xB[r] < 0 {
			bound = -1
		}
		q := s.enteringVar(r, s.xB[r]-bound)
		if q < 0 {
			if s.since > 0 {
				s.since = l1RefreshEvery
				continue
			}
			return fmt.Errorf("%w: l1 dual ratio test found no entering row", ErrNumerical)
		}
		col := s.col
		kernels.Gemv(false, k, k, 1, s.minv, k, s.b[q*k:(q+1)*k], 0, col)
		arq := col[r]
		if math.Abs(arq-s.alpha[q]) > 1e-7*math.Max(1, math.Abs(arq)) {
			if s.since > 0 {
				s.since = l1RefreshEvery
				continue
			}
		}
		if s.pivot(r, q, bound, arq) {
			degenerate = 0
			s.bland = false
		} else if degenerate++; degenerate > blandAfter {
			s.bland = true
		}
	}
}

// leavingRow returns the basic position whose y is furthest outside
// [-1, 1] relative to the norm of its row of the inverse (the largest
// infeasibility^2 / ||row of B^{-1}||^2; under Bland's rule the
// infeasible one of least index), skipping position pmu, the multiplier
// of the constraint q^T w = 1; or -1 when every basic y is feasible.
func (s *L1Solver) leavingRow(pmu int) int {
	k := s.k
	r := -1
	var best float64
	for p := 0; p < k; p++ {
		if p == pmu {
			continue
		}
		e := math.Abs(s.xB[p]) - 1
		if e <= s.tol {
			continue
		}
		if s.bland {
			if r < 0 || s.basis[p] < s.basis[r] {
				r = p
			}
			continue
		}
		row := s.minv[p*k : (p+1)*k]
		if sc := e * e / kernels.Dot(row, row); sc > best {
			r, best = p, sc
		}
	}
	return r
}

// enteringVar is the dual ratio test for leaving row r, whose basic y
// is delta beyond its bound: it forms the row alpha = B rho of the
// tableau (rho the row r of the inverse), collects the nonbasic y whose
// move off their bound helps, with their ratios and Harris ratios, and
// returns the entering variable chosen by the bound-flipping ratio test,
// leaving in s.flips the variables that flip to their other bound, or
// -1 when none can enter.
func (s *L1Solver) enteringVar(r int, delta float64) int {
	n, k := s.n, s.k
	rho := s.minv[r*k : (r+1)*k]
	kernels.Gemv(false, n, k, 1, s.b, k, rho, 0, s.alpha)
	sgn := 1.0
	if delta < 0 {
		sgn = -1
	}
	ptol := 1e-9 * math.Abs(rho[kernels.Iamax(rho)])
	cands := s.cands[:0]
	alpha, d, y, where, dtol := s.alpha[:n], s.d[:n], s.y[:n], s.where[:n], s.dtol
	for i, ai := range alpha {
		a := sgn * ai
		// Moving y_i off its bound must help: a > 0 at -1, a < 0 at
		// +1; then ratio = d_i / a >= 0 (up to tolerance).
		if y[i] > 0 {
			a = -a
		}
		if a <= ptol || where[i] >= 0 {
			continue
		}
		inv := 1 / a
		di := d[i]
		if y[i] > 0 {
			di = -di
		}
		ratio := di * inv
		harris := ratio + dtol*inv
		if ratio < 0 {
			ratio = 0
		}
		if harris < 0 {
			harris = 0
		}
		cands = append(cands, cand{j: i, a: a, rng: 2, ratio: ratio, harris: harris})
	}
	s.cands = cands
	q, flips := bfrt(cands, math.Abs(delta), s.tol, s.bland, s.flips[:0])
	s.flips = flips
	return q
}

// pivot exchanges the basic variable of row r for q, with arq the pivot
// element and s.col the column of q in the tableau: it flips the
// variables of s.flips to their other bound, updates the reduced costs,
// the basic values and the inverse (a product-form update), and the
// leaving variable goes to bound. It reports whether the dual step was
// positive (false: a degenerate pivot).
func (s *L1Solver) pivot(r, q int, bound, arq float64) bool {
	k := s.k
	leaving := s.basis[r]
	col := s.col
	delta := s.xB[r] - bound
	if len(s.flips) > 0 {
		clear(s.dg)
		for _, i := range s.flips {
			kernels.Axpy(-2*s.y[i], s.b[i*k:(i+1)*k], s.dg)
			s.y[i] = -s.y[i]
		}
		kernels.Gemv(false, k, k, -1, s.minv, k, s.dg, 1, s.xB)
		delta = s.xB[r] - bound
	}
	thetaD := s.d[q] / arq
	if thetaD*delta < 0 || math.Abs(s.d[q]) <= s.dtol {
		thetaD = 0
	}
	if thetaD != 0 {
		kernels.Axpy(-thetaD, s.alpha, s.d)
	}
	s.d[q] = 0
	s.d[leaving] = -thetaD
	thetaP := delta / arq
	kernels.Axpy(-thetaP, col, s.xB)
	s.xB[r] = s.y[q] + thetaP
	s.y[leaving] = bound
	s.y[q] = 0
	// Update the inverse: pivot on (r, q).
	rho := s.minv[r*k : (r+1)*k]
	kernels.Scal(1/arq, rho)
	for i := 0; i < k; i++ {
		if f := col[i]; i != r && f != 0 {
			kernels.Axpy(-f, rho, s.minv[i*k:(i+1)*k])
		}
	}
	s.basis[r] = q
	s.where[q] = r
	s.where[leaving] = -1
	s.iters++
	s.since++
	return thetaD != 0
}

// l1General solves the l1 problem with Solve, as the LP
//
//	min sum(u + v)  s.t.  B w - u + v = 0,  q^T w = 1,  u, v >= 0, w free.
func l1General(b []float64, n, k int, q []float64) (*L1Result, error) {
	return l1GeneralOpts(b, n, k, q, nil)
}

func l1GeneralOpts(b []float64, n, k int, q []float64, opts *Options) (*L1Result, error) {
	nv := k + 2*n
	p := &Problem{
		Obj:      make([]float64, nv),
		ColLower: make([]float64, nv),
		ColUpper: make([]float64, nv),
		RowLower: make([]float64, n+1),
		RowUpper: make([]float64, n+1),
		A:        Sparse{Rows: n + 1, Cols: nv, ColStart: make([]int, nv+1)},
	}
	for j := 0; j < nv; j++ {
		p.ColUpper[j] = math.Inf(1)
		if j < k {
			p.ColLower[j] = math.Inf(-1)
		} else {
			p.Obj[j] = 1
		}
	}
	p.RowLower[n], p.RowUpper[n] = 1, 1
	a := &p.A
	for j := 0; j < k; j++ {
		for i := 0; i < n; i++ {
			if v := b[i*k+j]; v != 0 {
				a.RowIndex = append(a.RowIndex, i)
				a.Value = append(a.Value, v)
			}
		}
		if q[j] != 0 {
			a.RowIndex = append(a.RowIndex, n)
			a.Value = append(a.Value, q[j])
		}
		a.ColStart[j+1] = len(a.RowIndex)
	}
	for t := 0; t < 2*n; t++ {
		a.RowIndex = append(a.RowIndex, t%n)
		if t < n {
			a.Value = append(a.Value, -1)
		} else {
			a.Value = append(a.Value, 1)
		}
		a.ColStart[k+t+1] = len(a.RowIndex)
	}
	res, err := Solve(context.Background(), p, opts)
	if err != nil {
		return nil, err
	}
	out := &L1Result{W: res.X[:k:k], S: make([]float64, n), Iterations: res.Iterations}
	// q^T w = 1 holds within the LP's tolerance; make it exact to
	// rounding.
	if qw := kernels.Dot(q, out.W); qw != 0 {
		kernels.Scal(1/qw, out.W)
	}
	kernels.Gemv(false, n, k, 1, b, k, out.W, 0, out.S)
	for _, v := range out.S {
		out.Norm += math.Abs(v)
	}
	return out, nil
}

// l1CrashSteps is the number of reweighted least-squares steps of the
// crash.
const l1CrashSteps = 3

// l1Crash is the scratch of crashRows.
type l1Crash struct {
	g, sb, v, bt []float64
	wt, res, rel []float64
	w, r         []float64
	order        []int
	used         []bool
}

// crashRows chooses the starting basis: a few steps of iteratively
// reweighted least squares (min sum_i (b_i w)^2 / max(|b_i w_prev|, eps)
// subject to q^T w = 1) approximate the l1 minimiser, and the k-1 rows
// with the smallest relative residuals |b_i w| / |b_i| that are, with q,
// well conditioned (Gram–Schmidt against the rows taken so far) form the
// basis. It returns nil if B is rank deficient.
func (s *L1Solver) crashRows() []int {
	n, k := s.n, s.k
	c := &s.cr
	if c.g == nil {
		c.g = make([]float64, k*k)
		c.sb = make([]float64, n)
		c.v = make([]float64, 0, k*k)
		c.wt = make([]float64, n)
		c.res = make([]float64, n)
		c.rel = make([]float64, n)
		c.w = make([]float64, k)
		c.r = make([]float64, k)
		c.order = make([]int, n)
		c.used = make([]bool, n)
	}
	for i := range c.wt {
		c.wt[i] = 1
	}
	if c.bt == nil {
		// B^T, for the weighted Gram matrices.
		c.bt = make([]float64, k*n)
		for i := 0; i < n; i++ {
			for a, v := range s.b[i*k : (i+1)*k] {
				c.bt[a*n+i] = v
			}
		}
	}
	for step := 0; step < l1CrashSteps; step++ {
		// G = B^T diag(wt) B (row a: B^T (wt .* column a of B)), then
		// w = G^{-1} q / (q^T G^{-1} q).
		for a := 0; a < k; a++ {
			ta := c.bt[a*n : (a+1)*n]
			for i, v := range ta {
				c.sb[i] = c.wt[i] * v
			}
			kernels.Gemv(false, k, n, 1, c.bt, n, c.sb[:n], 0, c.g[a*k:(a+1)*k])
		}
		copy(c.w, s.q)
		if !dense.Cholesky(c.g, k, 1e-14) {
			return nil
		}
		dense.CholeskySolve(c.g, k, c.w)
		qw := kernels.Dot(s.q, c.w)
		if !(qw > 0) {
			return nil
		}
		kernels.Scal(1/qw, c.w)
		kernels.Gemv(false, n, k, 1, s.b, k, c.w, 0, c.res)
		mean := kernels.Asum(c.res) / float64(n)
		floor := 1e-6 * mean
		for i, v := range c.res {
			if v < 0 {
				v = -v
			}
			if v < floor {
				v = floor
			}
			c.wt[i] = 1 / v
		}
	}
	// Rows by increasing relative residual.
	for i := 0; i < n; i++ {
		c.order[i] = i
		bi := s.b[i*k : (i+1)*k]
		if nb := kernels.Dot(bi, bi); nb > 0 {
			c.rel[i] = math.Abs(c.res[i]) / math.Sqrt(nb)
		} else {
			c.rel[i] = math.Inf(1)
		}
	}
	slices.SortFunc(c.order, func(a, b int) int { return cmp.Compare(c.rel[a], c.rel[b]) })
	// Gram–Schmidt selection, first demanding a well-conditioned
	// residual, then anything independent.
	v := append(c.v[:0], s.q...)
	kernels.Scal(1/math.Sqrt(kernels.Dot(v, v)), v)
	clear(c.used)
	rows := make([]int, 0, k-1)
	r := c.r
	for _, thr := range []float64{0.3, 1e-7} {
		for _, i := range c.order {
			if len(rows) == k-1 {
				break
			}
			if c.used[i] || math.IsInf(c.rel[i], 1) {
				continue
			}
			copy(r, s.b[i*k:(i+1)*k])
			n0 := kernels.Dot(r, r)
			// r -= V^T (V r), V the orthonormal rows so far.
			t := len(v) / k
			kernels.Gemv(false, t, k, 1, v, k, r, 0, c.w[:t])
			kernels.Gemv(true, t, k, -1, v, k, c.w[:t], 1, r)
			nr := kernels.Dot(r, r)
			if !(nr >= thr*thr*n0) {
				continue
			}
			kernels.Scal(1/math.Sqrt(nr), r)
			v = append(v, r...)
			rows = append(rows, i)
			c.used[i] = true
		}
	}
	c.v = v
	if len(rows) < k-1 {
		return nil
	}
	return rows
}
