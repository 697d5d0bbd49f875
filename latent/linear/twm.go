package linear

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/simplex"
	"github.com/moments-go/moments/svd"
)

// TWMOptions controls LearnTWM, LearnTWMEig and L1Recovery. nil or the
// zero value gives the defaults stated for each field.
type TWMOptions struct {
	// Basic selects the basic variant (one l1 problem per row, then a
	// greedy choice of k independent candidates); the default is the
	// projection variant of App. G of the topic-model paper (k rounds of
	// n problems, each round excluding the span of the columns found).
	Basic bool
	// SparsityTol is tau, the largest relative size of an entry counted
	// as zero (0: 0.01). Candidates are ranked by their sparsity count
	// ||s||_0 = #{i : |s_i| > t ||s||_inf}, ties going to the smaller
	// ||s||_1/||s||_inf, then to the smaller row index, where t =
	// min(tau, max(NoiseSigmas sigma, 1e-6)) and sigma is the noise level
	// of the moments (TWMResult.NoiseLevel): with sampled moments t is
	// tau, with exact moments it is 1e-6 (about the accuracy of the l1
	// solutions), so that exact non-zeros are counted and the sparsest
	// vectors of the column space, the columns, are found whenever the
	// expansion property holds.
	SparsityTol float64
	// NoiseSigmas is the multiple of the noise level in the threshold t
	// (0: 10).
	NoiseSigmas float64
	// IndepTol is the relative residual below which the basic variant
	// counts a candidate as dependent on those already chosen: the
	// candidate's unit vector must keep at least this much norm after
	// projection onto their span (0: 0.1, wide enough that two noisy
	// copies of one column are not taken for two columns).
	IndepTol float64
	// RowTol skips the rows i whose constraint vector (e_i^T B, projected
	// in the projection variant) has norm at most RowTol times the
	// largest row norm of B (0: 1e-6): such rows carry no column.
	RowTol float64
	// NoRefine turns off the refinement of each column (a beyond-the-
	// paper step, on by default). The l1 solution fixes only k-1 exact
	// zeros; refinement takes the entries with |s_i| <= t' ||s||_inf as
	// the column's zero set Z (t' as t, with RefineTol for tau) and
	// replaces the column by the vector of the column space closest to
	// vanishing on Z: U u, u the least right singular vector of U[Z,:], U
	// the orthonormal basis of L's column space. This averages the
	// sampling noise over all of Z instead of k-1 entries; exact moments
	// give the exact columns either way.
	NoRefine bool
	// RefineTol is tau of the refinement's zero set (0: SparsityTol).
	RefineTol float64
	// Dense keeps the refined columns as they come out of the least-
	// squares step; by default the entries of the zero set Z are then set
	// to exactly zero, so that the support of A is the estimated support.
	// Without refinement the columns are always returned as the l1
	// solutions give them.
	Dense bool
	// MaxRows, if positive, poses the l1 problems of at most MaxRows rows
	// in each round: those whose rows of B have the largest norms
	// (||B^T e_i||^2 = L_ii for the rank-k L, the variance of variable i
	// that the hidden variables explain; ties to the smaller row), a
	// beyond-the-paper step for large n. A column comes from the problem
	// of a row in its support alone, whose L_ii is A_ij^2 var(h_j) > 0,
	// while a row outside every support has L_ii at the noise level, so
	// the rows kept are those that can give a column as long as MaxRows
	// covers the supports. Each round then costs MaxRows problems instead
	// of n (each over the n rows of B). 0 poses every row's problem.
	MaxRows int
	// Workers bounds the goroutines solving l1 problems (0: GOMAXPROCS).
	// The rows are cut into fixed chunks, each with its own solver, so
	// results do not depend on it.
	Workers int
	// L1 are the options of the l1 solver (nil: its defaults).
	L1 *simplex.L1Options
}

func (o *TWMOptions) defaults() TWMOptions {
	var d TWMOptions
	if o != nil {
		d = *o
	}
	if d.SparsityTol <= 0 {
		d.SparsityTol = 0.01
	}
	if d.NoiseSigmas <= 0 {
		d.NoiseSigmas = 10
	}
	if d.IndepTol <= 0 {
		d.IndepTol = 0.1
	}
	if d.RowTol <= 0 {
		d.RowTol = 1e-6
	}
	if d.RefineTol <= 0 {
		d.RefineTol = d.SparsityTol
	}
	return d
}

// TWMResult is the output of LearnTWM.
type TWMResult struct {
	// A is n x k with unit-norm columns (the canonical form of the
	// topic-model paper), each with its entry of largest magnitude
	// positive, in the order found (sparsest first for the basic
	// variant, round by round for the projection variant).
	A *mat.Dense
	// B is the n x k factor of L used, B B^T = L_k, the best rank-k
	// approximation of L: B = U_k diag(sqrt(lambda_k)).
	B *mat.Dense
	// W is k x k: column j is the w with A e_j = B w (before the entries
	// of the zero set are cleared; see TWMOptions.Dense).
	W *mat.Dense
	// Rows[j] is the row whose l1 problem gave column j.
	Rows []int
	// Sparsity[j] is the sparsity count of column j.
	Sparsity []int
	// NoiseLevel is sigma, the noise level of the entries that should be
	// zero relative to the largest entry: the lower decile over the first
	// round's candidates s of the lower quartile of |s_i|/||s||_inf over
	// the entries not exactly zero, divided by 0.3186.
	NoiseLevel float64
	// ZeroTol is the relative threshold t of the sparsity count.
	ZeroTol float64
	// Problems is the number of l1 problems solved.
	Problems int
	// ZeroRMS[j] is the root mean square of the refined column j on its
	// zero set, before the set is cleared, relative to the column's
	// largest entry: the noise level of that column's entries that
	// should vanish (0 for exact moments; NaN when the column was not
	// refined).
	ZeroRMS []float64
	// EigenGap is lambda_k/|lambda_{k+1}| of L (+Inf when k = n or
	// lambda_{k+1} = 0): the spectrum gap that sets the rank of B.
	EigenGap float64
}

// LearnTWM recovers the k sparse columns of A from a symmetric positive
// semidefinite L = A H A^T of rank k (Pairs of a topic model, or the
// low-rank part of Sigma returned by DLD) by l1 minimisation: with B = L^{1/2}
// (n x k, from the top k eigenpairs), each problem is
//
//	min ||B w||_1  subject to  q^T w = 1,
//
// q = B^T e_i in the basic variant (the papers' algorithm, after
// ER-SpUD) and q = P B^T e_j in the projection variant (App. G of the
// topic-model paper), P the projector onto the complement of the span of
// the w found so far; each s = B w is a candidate column, and the
// sparsest independent candidates are kept (by the sparsity count of
// TWMOptions.SparsityTol), then refined (see TWMOptions.NoRefine). Under the conditions of Theorem 3.2
// the result is A up to the permutation and scale of its columns (L is
// scaled by a power of four to the unit range for the computation, so
// any finite L will do). It returns an error matching ErrRankDeficient
// if L has fewer than k positive eigenvalues (relative to the largest
// eigenvalue or entry, 1e-12) or fewer than k independent columns are
// found, ErrTooManyFactors if k > n, ErrNotFinite for NaN or Inf, and
// ErrNoConvergence when the eigendecomposition does not converge or the
// l1 solver fails (the error wraps the solver's too).
func LearnTWM(ctx context.Context, l *mat.Dense, k int, opts *TWMOptions) (*TWMResult, error) {
	checkCtx("LearnTWM", ctx)
	n := checkSquare("LearnTWM", l)
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	if k < 1 || k > n {
		return nil, fmt.Errorf("%w: LearnTWM: k = %d with n = %d", ErrTooManyFactors, k, n)
	}
	if err := checkFinite("L", l); err != nil {
		return nil, fmt.Errorf("linear: LearnTWM: %w", err)
	}
	// Work on L / 2^e, e even so that B = L^{1/2} scales back exactly:
	// a finite L of any magnitude neither overflows nor underflows.
	e := scaleExp(l)
	e += e & 1
	ls := scaled(l, e).Clone()
	ls.Symmetrize()
	vals, u, err := topEigSym(ls, min(k+1, n))
	if err != nil {
		return nil, svdErr(err, "LearnTWM: eigendecomposition")
	}
	gap := spectrumGap(vals, k)
	vals, u = vals[:k], u.Slice(0, n, 0, k).Clone()
	// Relative to the scale of L, not only to lambda_1: an indefinite L
	// may have positive eigenvalues that are rounding errors beside its
	// negative ones (for PSD L, lambda_1 bounds every entry).
	if top := math.Max(vals[0], ls.NormMax()); vals[0] <= 0 || vals[k-1] <= 1e-12*top {
		return nil, fmt.Errorf("%w: LearnTWM: L has fewer than k = %d positive eigenvalues (lambda_k/max(lambda_1, max|L_ij|) = %.3g)", ErrRankDeficient, k, vals[k-1]/top)
	}
	return twmFromEig(ctx, vals, u, k, &o, e, gap)
}

// twmFromEig runs LearnTWM from the top k eigenpairs (vals, u) of L /
// 2^e (e even), checked positive by the caller; gap is L's spectrum gap
// lambda_k/|lambda_{k+1}|, which the result reports.
func twmFromEig(ctx context.Context, vals []float64, u *mat.Dense, k int, o *TWMOptions, e int, gap float64) (*TWMResult, error) {
	n, _ := u.Dims()
	b := u.Clone()
	for i := 0; i < n; i++ {
		row := b.RawRow(i)
		for j := range row {
			row[j] *= math.Sqrt(vals[j])
		}
	}
	t := &twm{b: b, n: n, k: k, o: o, ctx: ctx}
	if err := t.setup(); err != nil {
		return nil, err
	}
	res := &TWMResult{B: b, W: mat.Zeros(k, k), EigenGap: gap}
	// The first round: the problem of every row, unprojected.
	first, err := t.solveAll(nil, 0)
	if err != nil {
		return nil, err
	}
	res.NoiseLevel = noiseLevel(first)
	floor := math.Max(o.NoiseSigmas*res.NoiseLevel, 1e-6)
	res.ZeroTol = math.Min(o.SparsityTol, floor)
	refineTol := math.Min(o.RefineTol, floor)
	// In chunks, each with one buffer for s.
	if err := par.For(ctx, (len(first)+twmChunk-1)/twmChunk, workers(o.Workers), func(c int) {
		buf := make([]float64, n)
		for i := c * twmChunk; i < min((c+1)*twmChunk, len(first)); i++ {
			first[i].nnz = sparsity(t.colInto(buf, &first[i]), res.ZeroTol*first[i].inf)
		}
	}); err != nil {
		return nil, err
	}
	var chosen []*candidate
	if o.Basic {
		chosen, err = t.basic(first)
	} else {
		chosen, err = t.projection(first, res.ZeroTol)
	}
	res.Problems = t.problems
	if err != nil {
		return nil, err
	}
	res.A = mat.Zeros(n, k)
	for j, c := range chosen {
		s, w := t.col(c), c.w
		rms := math.NaN()
		if !o.NoRefine {
			s, w, rms = refine(u, vals, s, refineTol, o.Dense)
		}
		res.ZeroRMS = append(res.ZeroRMS, rms)
		nrm := math.Sqrt(kernels.Dot(s, s))
		// Sign: the entry of largest magnitude positive.
		at := 0
		for i, v := range s {
			if math.Abs(v) > math.Abs(s[at]) {
				at = i
			}
		}
		scale := 1 / nrm
		if s[at] < 0 {
			scale = -scale
		}
		for i, v := range s {
			res.A.Set(i, j, v*scale)
		}
		for i, v := range w {
			res.W.Set(i, j, v*scale)
		}
		res.Rows = append(res.Rows, c.row)
		res.Sparsity = append(res.Sparsity, sparsity(s, res.ZeroTol*maxAbs(s)))
	}
	if e != 0 {
		res.B = scaled(res.B, -e/2)
		res.W = scaled(res.W, e/2)
	}
	return res, nil
}

// twmChunk is the least number of rows one l1 solver handles: the rows
// are cut into chunks of twmChunkRows(n) rows, independently of the
// number of workers.
const twmChunk = 32

// twmMaxSolvers bounds the number of l1 solvers (each holds two copies
// of B, n x k): beyond twmChunk*twmMaxSolvers rows the chunks grow, so
// that the solvers' memory stays linear in n.
const twmMaxSolvers = 64

// twmChunkRows returns the rows per chunk for n rows: twmChunk, or more
// when n exceeds twmChunk*twmMaxSolvers.
func twmChunkRows(n int) int {
	return max(twmChunk, (n+twmMaxSolvers-1)/twmMaxSolvers)
}

// twm holds the state of one LearnTWM run.
type twm struct {
	ctx      context.Context
	b        *mat.Dense
	n, k     int
	o        *TWMOptions
	maxRow   float64
	skip     []bool              // rows left out by MaxRows (nil: none)
	solvers  []*simplex.L1Solver // one per chunk of rows
	problems int
}

func (t *twm) setup() error {
	norms := make([]float64, t.n)
	for i := 0; i < t.n; i++ {
		norms[i] = math.Sqrt(kernels.Dot(t.b.RawRow(i), t.b.RawRow(i)))
		t.maxRow = math.Max(t.maxRow, norms[i])
	}
	if t.o.MaxRows > 0 && t.o.MaxRows < t.n {
		idx := seq(t.n)
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(norms[b], norms[a]) })
		t.skip = make([]bool, t.n)
		for _, i := range idx[t.o.MaxRows:] {
			t.skip[i] = true
		}
	}
	for lo := 0; lo < t.n; lo += twmChunkRows(t.n) {
		s, err := simplex.NewL1Solver(t.b, t.o.L1)
		if err != nil {
			return fmt.Errorf("linear: LearnTWM: %w", err)
		}
		t.solvers = append(t.solvers, s)
	}
	return nil
}

// solveAll solves the problem of every row whose constraint vector,
// projected off the orthonormal vectors span, is not negligible, and
// returns the candidates in row order.
//
// Each candidate keeps its w, its statistics and the rows where the l1
// solution is exactly zero, not s = B w (n numbers: n of them per round
// would make an n x n matrix); with tol > 0 it is ranked at once.
func (t *twm) solveAll(span [][]float64, tol float64) ([]candidate, error) {
	chunks := len(t.solvers)
	out := make([][]candidate, chunks)
	errs := make([]error, chunks)
	counts := make([]int, chunks)
	err := par.For(t.ctx, chunks, workers(t.o.Workers), func(c int) {
		q := make([]float64, t.k)
		rows := twmChunkRows(t.n)
		for i := c * rows; i < min((c+1)*rows, t.n); i++ {
			if t.ctx.Err() != nil {
				return
			}
			if t.skip != nil && t.skip[i] {
				continue
			}
			copy(q, t.b.RawRow(i))
			for pass := 0; pass < 2; pass++ {
				for _, e := range span {
					kernels.Axpy(-kernels.Dot(e, q), e, q)
				}
			}
			if math.Sqrt(kernels.Dot(q, q)) <= t.o.RowTol*t.maxRow {
				continue
			}
			r, err := t.solvers[c].Solve(q)
			counts[c]++
			if err != nil {
				// The problem always has a solution: a failure
				// (iteration cap, numerical trouble) is the solver's.
				errs[c] = fmt.Errorf("%w: LearnTWM: round %d, l1 problem of row %d: %w", ErrNoConvergence, len(span)+1, i, err)
				return
			}
			out[c] = append(out[c], t.newCandidate(i, r, tol))
		}
	})
	for c := range counts {
		t.problems += counts[c]
	}
	if err != nil {
		return nil, err
	}
	var all []candidate
	for c := range out {
		if errs[c] != nil {
			return nil, errs[c]
		}
		all = append(all, out[c]...)
	}
	return all, nil
}

// basic picks k independent candidates, sparsest first.
func (t *twm) basic(cands []candidate) ([]*candidate, error) {
	order := make([]*candidate, len(cands))
	for i := range cands {
		order[i] = &cands[i]
	}
	slices.SortStableFunc(order, func(x, y *candidate) int {
		if x.better(y) {
			return -1
		}
		if y.better(x) {
			return 1
		}
		return 0
	})
	var basis [][]float64 // orthonormal, of the chosen columns
	var chosen []*candidate
	for _, c := range order {
		if len(chosen) == t.k {
			break
		}
		v := t.col(c)
		nv := math.Sqrt(kernels.Dot(v, v))
		if nv == 0 {
			continue
		}
		kernels.Scal(1/nv, v)
		for pass := 0; pass < 2; pass++ {
			for _, e := range basis {
				kernels.Axpy(-kernels.Dot(e, v), e, v)
			}
		}
		r := math.Sqrt(kernels.Dot(v, v))
		if r <= t.o.IndepTol {
			continue
		}
		kernels.Scal(1/r, v)
		basis = append(basis, v)
		chosen = append(chosen, c)
	}
	if len(chosen) < t.k {
		return nil, fmt.Errorf("%w: LearnTWM found %d independent columns of k = %d", ErrRankDeficient, len(chosen), t.k)
	}
	return chosen, nil
}

// projection runs the k rounds of the projection variant, the first
// being cands; each keeps its sparsest candidate and adds its w to the
// span that the next rounds project off.
func (t *twm) projection(cands []candidate, zeroTol float64) ([]*candidate, error) {
	var span [][]float64 // orthonormal basis of span(S) in R^k
	var chosen []*candidate
	for round := 0; round < t.k; round++ {
		if round > 0 {
			var err error
			if cands, err = t.solveAll(span, zeroTol); err != nil {
				return nil, err
			}
		}
		var best *candidate
		for i := range cands {
			if best == nil || cands[i].better(best) {
				best = &cands[i]
			}
		}
		if best == nil {
			return nil, fmt.Errorf("%w: LearnTWM found %d independent columns of k = %d", ErrRankDeficient, round, t.k)
		}
		v := slices.Clone(best.w)
		for pass := 0; pass < 2; pass++ {
			for _, e := range span {
				kernels.Axpy(-kernels.Dot(e, v), e, v)
			}
		}
		nv := math.Sqrt(kernels.Dot(v, v))
		if nv == 0 {
			return nil, fmt.Errorf("%w: LearnTWM: round %d found a dependent column", ErrRankDeficient, round+1)
		}
		kernels.Scal(1/nv, v)
		span = append(span, v)
		chosen = append(chosen, best)
	}
	return chosen, nil
}

// candidate is one l1 solution with its ranking; its s = B w comes
// from twm.col.
type candidate struct {
	row   int
	w     []float64
	zeros []int   // the rows with s_i exactly 0 where B's row is not 0
	inf   float64 // ||s||_inf
	nnz   int
	ratio float64 // ||s||_1 / ||s||_inf
	level float64 // the candidate's share of noiseLevel (-1: none)
}

// newCandidate summarises the solution r of the problem of row; with
// tol > 0 it also sets the sparsity count at the relative threshold tol.
func (t *twm) newCandidate(row int, r *simplex.L1Result, tol float64) candidate {
	c := candidate{row: row, w: r.W, inf: maxAbs(r.S), ratio: math.Inf(1), level: -1}
	if c.inf > 0 {
		c.ratio = r.Norm / c.inf
		if tol <= 0 { // the first round, which sets the noise level
			c.level = candidateLevel(r.S, c.inf)
		}
	}
	for i, v := range r.S {
		if v == 0 && maxAbs(t.b.RawRow(i)) != 0 {
			c.zeros = append(c.zeros, i)
		}
	}
	if tol > 0 {
		c.nnz = sparsity(r.S, tol*c.inf)
	}
	return c
}

// col returns s = B w of c as the l1 solver formed it: the same product
// of B's rows (bit for bit, the solver holding a row-major copy of B),
// with its exact zeros.
func (t *twm) col(c *candidate) []float64 {
	return t.colInto(make([]float64, t.n), c)
}

// colInto is col into s (n).
func (t *twm) colInto(s []float64, c *candidate) []float64 {
	kernels.Gemv(false, t.n, t.k, 1, t.b.RawData(), t.b.Stride(), c.w, 0, s)
	for _, i := range c.zeros {
		s[i] = 0
	}
	return s
}

// better reports whether c ranks before d: fewer non-zeros, then a
// smaller l1/linf ratio, then a smaller row.
func (c *candidate) better(d *candidate) bool {
	if c.nnz != d.nnz {
		return c.nnz < d.nnz
	}
	if c.ratio != d.ratio {
		return c.ratio < d.ratio
	}
	return c.row < d.row
}

// sparsity counts the entries of s above t in magnitude.
func sparsity(s []float64, t float64) int {
	n := 0
	for _, v := range s {
		if math.Abs(v) > t {
			n++
		}
	}
	return n
}

// maxAbs returns the largest magnitude in s.
func maxAbs(s []float64) float64 {
	var m float64
	for _, v := range s {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// noiseLevel returns the lower decile over the candidates of the lower
// quartile of the relative magnitudes |s_i|/||s||_inf of their entries
// that the l1 solution does not set to exactly zero, over 0.3186 (the
// lower quartile of |N(0,1)|): see TWMResult.NoiseLevel. With columns of
// density up to about 60% the quartile falls among the entries that
// should be zero; the decile over candidates skips those that are
// mixtures of columns, which can be most of them.
func noiseLevel(cands []candidate) float64 {
	var levels []float64
	for _, c := range cands {
		if c.level >= 0 {
			levels = append(levels, c.level)
		}
	}
	if len(levels) == 0 {
		return 0
	}
	slices.Sort(levels)
	return levels[len(levels)/10]
}

// candidateLevel returns the lower quartile of |s_i|/inf over the
// entries of s not exactly zero, over 0.3186, or -1 when fewer than four
// entries are non-zero (see noiseLevel).
func candidateLevel(s []float64, inf float64) float64 {
	var mag []float64
	for _, v := range s {
		if v != 0 {
			mag = append(mag, math.Abs(v)/inf)
		}
	}
	if len(mag) < 4 {
		return -1
	}
	slices.Sort(mag)
	return mag[len(mag)/4] / 0.3186
}

// refine replaces the candidate s by the vector of the column space of
// U (n x k, orthonormal) closest to vanishing on Z = {i : |s_i| <= tol
// ||s||_inf} (see TWMOptions.NoRefine), clearing the entries of Z unless
// dense, and returns it with its w (U u = B w, B = U diag(sqrt(lambda)))
// and the root mean square of its entries on Z before clearing,
// relative to its largest entry (NaN when nothing was refined). With
// fewer than k-1 rows in Z there is nothing to refine.
func refine(u *mat.Dense, lambda, s []float64, tol float64, dense bool) ([]float64, []float64, float64) {
	n, k := u.Dims()
	coef := u.MulVecT(nil, s) // coordinates of s in the basis U
	w := make([]float64, k)
	for j := range w {
		w[j] = coef[j] / math.Sqrt(lambda[j])
	}
	t := tol * maxAbs(s)
	var z []int
	for i, v := range s {
		if math.Abs(v) <= t {
			z = append(z, i)
		}
	}
	if len(z) < k-1 || k == 1 {
		return s, w, math.NaN()
	}
	f, err := svd.Factorize(gather(u, z, seq(k)), &svd.Options{Want: svd.WantV})
	if err != nil || len(f.S) < k {
		return s, w, math.NaN()
	}
	v := make([]float64, k)
	f.V.Col(v, k-1)
	if kernels.Dot(v, coef) < 0 {
		kernels.Scal(-1, v)
	}
	out := u.MulVec(make([]float64, n), v)
	scale := math.Sqrt(kernels.Dot(s, s)) // keep the scale of s
	kernels.Scal(scale, out)
	for j := range w {
		w[j] = scale * v[j] / math.Sqrt(lambda[j])
	}
	var ss float64
	for _, i := range z {
		ss += out[i] * out[i]
	}
	rms := math.Sqrt(ss/float64(len(z))) / maxAbs(out)
	if !dense {
		for _, i := range z {
			out[i] = 0
		}
	}
	return out, w, rms
}

// seq returns 0..n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
