package svd

import (
	"context"
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// TopEigOptions configures TopEigSym. The zero value is the default;
// nil options mean the zero value.
type TopEigOptions struct {
	// Oversample is the number of block columns beyond the k requested:
	// 0 means max(10, k/2), or max(5, k/4) when Start is set; a negative
	// value means none. A larger block converges in fewer products when
	// eigenvalues crowd near the k-th, but every step's work outside the
	// products grows with the square of the block's width: from a warm
	// start, which needs far fewer steps, the narrower block is cheaper
	// (on the Brown and State of the Union corpora, k = 10 and 20, started
	// from the basis of 90% of the documents, it made 0 to 1 more products
	// and took about a quarter less time).
	Oversample int
	// MaxIter caps the block products with A after the first; 0 means
	// 60. A negative value is an error (ErrBadOption).
	MaxIter int
	// Tol is the relative residual at which an eigenpair has converged:
	// ||A v - lambda v|| <= Tol * ||A||, with ||A|| estimated by the
	// largest Ritz value in magnitude; 0 means 1e-6. It must be finite
	// and in [0, 1) (ErrBadOption).
	Tol float64
	// Seed seeds the Gaussian starting block, drawn from
	// rand.New(rand.NewPCG(Seed, 0x70c1c)): the same Seed (0 for
	// nil options) gives the same bits.
	Seed uint64
	// Start, when not nil, is the starting block in place of a Gaussian
	// one: n x m (n the operator's order), finite; its first min(m, l)
	// columns are used (l = k plus the oversampling), completed by
	// Gaussian columns when m < l, and made orthonormal. Columns near the
	// sought eigenvectors, such as the Basis of a solve on a nearby
	// operator (a Pairs of a different alpha0, or of most of the same
	// documents), cut the products needed; the convergence test is the
	// same as from a Gaussian start. Other row counts and non-finite
	// entries are errors (ErrBadOption).
	Start *mat.Dense
}

// topEigStream is the second PCG word of TopEigSym's generator, fixed
// so that a Seed alone names the stream.
const topEigStream = 0x70c1c

// TopEigen holds the k algebraically largest eigenpairs of a symmetric
// operator found by TopEigSym.
type TopEigen struct {
	// Values holds the k largest eigenvalues, in decreasing order.
	Values []float64
	// Vectors is n x k with orthonormal columns: column i belongs to
	// Values[i].
	Vectors *mat.Dense
	// Basis is n x len(Block) with orthonormal columns: the Ritz vectors
	// of the whole final block, column i belonging to Block[i] (its first
	// k columns are Vectors). As TopEigOptions.Start it warm-starts a
	// solve on a nearby operator.
	Basis *mat.Dense
	// Block holds all the Ritz values of the final block (k of them and
	// the oversampling), in decreasing order; Block[:k] is Values. By
	// Cauchy interlacing the i-th of them is at most the i-th largest
	// eigenvalue of A, so each positive one proves a positive eigenvalue.
	Block []float64
	// Residuals holds ||A v_i - lambda_i v_i|| for the k pairs.
	Residuals []float64
	// Norm is the estimate of ||A|| (the largest Ritz value in magnitude
	// seen) that scales the convergence test.
	Norm float64
	// Products is the number of block products with A made (the first
	// included).
	Products int
	// Converged reports that every residual met the tolerance.
	Converged bool
}

// TopEigSym returns the k algebraically largest eigenpairs of the
// symmetric n x n operator A, whatever the signs of the others: unlike
// RandomizedEigSym, which keeps those of largest magnitude, it is right
// for indefinite operators whose negative eigenvalues are larger in
// magnitude than the positive ones sought. The method is the locally
// optimal block preconditioned conjugate gradient of Knyazev (LOBPCG,
// without a preconditioner): a block X of l = k + oversampling columns,
// started from a Gaussian matrix drawn from a generator seeded by
// opts.Seed (or from opts.Start), is replaced at each step
// by the l Ritz vectors of largest Ritz value in the span of X, the
// residuals A X - X Theta and the previous search directions (of the
// columns not yet converged: soft locking) (the
// Rayleigh-Ritz procedure with EigSym on a matrix of order at most 3l,
// which ranks Ritz values algebraically, so no shift is needed). Each
// step makes one product of A with at most 2l columns, and holds about
// twelve n x l matrices at its peak (n*l*96 bytes). It stops when the
// residuals of the top k pairs are at most Tol * ||A||; after MaxIter
// steps it returns the last approximation with Converged false and a
// *ConvergenceError (errors.Is ErrNoConvergence). op.MulT is not used.
// It panics if ctx is nil, op is not square or k is not in [1, n],
// returns an error wrapping ErrBadOption, before any product, for an
// option out of range, returns ErrNotFinite if a product gives NaN or an
// infinity, and returns
// the operator's errors and ctx.Err() (checked before each product) as
// they are, with no result.
func TopEigSym(ctx context.Context, op Operator, k int, opts *TopEigOptions) (*TopEigen, error) {
	checkContext("TopEigSym", ctx)
	n := op.Rows
	if op.Rows != op.Cols {
		panic(fmt.Sprintf("svd: TopEigSym: the operator is %dx%d, not square", op.Rows, op.Cols))
	}
	if k < 1 || k > n {
		panic(fmt.Sprintf("svd: TopEigSym: k = %d for a %dx%d operator", k, n, n))
	}
	var o TopEigOptions
	if opts != nil {
		o = *opts
	}
	over := o.Oversample
	if over == 0 {
		over = max(10, k/2)
		if o.Start != nil {
			over = max(5, k/4)
		}
	}
	l := min(k+max(over, 0), n)
	if err := optcheck.First(
		optcheck.Int(ErrBadOption, "TopEigOptions.MaxIter", o.MaxIter, 0, math.MaxInt),
		optcheck.Less(ErrBadOption, "TopEigOptions.Tol", o.Tol, 0, 1)); err != nil {
		return nil, err
	}
	if o.MaxIter == 0 {
		o.MaxIter = 60
	}
	if o.Tol == 0 {
		o.Tol = 1e-6
	}

	start, err := startBlock(o, n, l)
	if err != nil {
		return nil, err
	}
	x, err := orthCols(start)
	if err != nil {
		return nil, err
	}
	products := 0
	apply := func(v *mat.Dense) (*mat.Dense, error) {
		av, err := op.mul(ctx, "TopEigSym", v)
		if err != nil {
			return nil, err
		}
		products++
		if !av.IsFinite() {
			return nil, ErrNotFinite
		}
		return av, nil
	}
	ax, err := apply(x)
	if err != nil {
		return nil, err
	}
	// Work space, allocated once: xb[cur] holds [X P] (the block and the
	// previous search directions) and xb[1-cur] receives the next; sb
	// holds the new directions S, contiguous, and the other half of
	// their orthogonalization; axb holds A X in turn. With A S that is
	// twelve n x l blocks.
	xb := [2]*mat.Dense{mat.Zeros(n, 2*l), mat.Zeros(n, 2*l)}
	axb := [2]*mat.Dense{mat.Zeros(n, l), mat.Zeros(n, l)}
	sb := [2][]float64{make([]float64, n*2*l), make([]float64, n*2*l)}
	// Rayleigh-Ritz on the starting block.
	theta, x, p, err := rayleighRitz(x, ax, nil, nil, xb[0], axb[0], l)
	if err != nil {
		return nil, err
	}
	ax = axb[0]
	cur := 0
	stalled := false
	res := &TopEigen{}
	for iter := 0; ; iter++ {
		// Residuals R = A X - X Theta.
		for _, t := range theta {
			res.Norm = math.Max(res.Norm, math.Abs(t))
		}
		res.Residuals = residualNorms(x, ax, theta, k)
		done := true
		for _, v := range res.Residuals {
			if !(v <= o.Tol*res.Norm) {
				done = false
			}
		}
		if done || stalled || iter == o.MaxIter || l == n {
			res.Converged = done || stalled || l == n
			res.Values = theta[:k:k]
			res.Block = theta
			res.Basis = x.Clone()
			res.Vectors = x.Slice(0, n, 0, k).Clone()
			res.Products = products
			break
		}
		// The new directions: residuals and previous directions, made
		// orthonormal and orthogonal to X (twice, so that directions
		// nearly inside span X come out clean).
		// Converged pairs among the top k contribute no directions (soft
		// locking); the oversampling columns always do, since they
		// speed up the convergence of the k-th.
		var active []int
		for j := 0; j < l; j++ {
			if j >= k || !(res.Residuals[j] <= o.Tol*res.Norm) {
				active = append(active, j)
			}
		}
		c := len(active)
		if p != nil {
			c *= 2
		}
		s := newDirections(x, ax, p, theta, active, min(n-l, c), sb[0])
		if s, err = orthAgainst(s, x, sb[1]); err != nil {
			return nil, err
		}
		if _, c := s.Dims(); c == 0 {
			// The residuals lie in span X, to which they are orthogonal:
			// span X is invariant to working accuracy and the Ritz pairs
			// are as good as they will get.
			stalled = true
			continue
		}
		as, err := apply(s)
		if err != nil {
			return nil, err
		}
		theta, x, p, err = rayleighRitz(x, ax, s, as, xb[1-cur], axb[1-cur], l)
		if err != nil {
			return nil, err
		}
		cur = 1 - cur
		ax = axb[cur]
	}
	if !res.Converged {
		worst := 0.0
		for _, v := range res.Residuals {
			worst = math.Max(worst, v)
		}
		rel := worst
		if res.Norm > 0 {
			rel = worst / res.Norm
		}
		return res, &ConvergenceError{Method: "block eigensolver (LOBPCG)", Sweeps: res.Products, Off: rel}
	}
	return res, nil
}

// startBlock returns TopEigSym's n x l starting block: o.Start's first
// columns completed by Gaussian ones, or a Gaussian block.
func startBlock(o TopEigOptions, n, l int) (*mat.Dense, error) {
	if o.Start == nil {
		return gaussian(n, l, o.Seed, topEigStream), nil
	}
	r, m := o.Start.Dims()
	if r != n {
		return nil, fmt.Errorf("%w: TopEigOptions.Start has %d rows for an operator of order %d", ErrBadOption, r, n)
	}
	if !o.Start.IsFinite() {
		return nil, fmt.Errorf("%w: TopEigOptions.Start has a NaN or an infinity", ErrBadOption)
	}
	if m >= l {
		return o.Start.Slice(0, n, 0, l).Clone(), nil
	}
	return hcat(o.Start, gaussian(n, l-m, o.Seed, topEigStream)), nil
}

// rayleighRitz returns the l largest Ritz values of A on the span of the
// orthonormal columns of [x s] (ax = A x, as = A s; s may be nil),
// decreasing, their Ritz vectors, written to the first l columns of out
// (n x 2l, sharing no memory with the inputs), A times them, written to
// outAX (n x l), and the part of the Ritz vectors in the directions s
// (the next LOBPCG directions), written to the last l columns of out;
// nil when s is. It works on the blocks, never forming [x s].
func rayleighRitz(x, ax, s, as, out, outAX *mat.Dense, l int) (theta []float64, nx, p *mat.Dense, err error) {
	n, lx := x.Dims()
	ls := 0
	if s != nil {
		_, ls = s.Dims()
	}
	m := lx + ls
	h := mat.Zeros(m, m)
	var xx, sx, ss mat.Dense
	xx.MulAT(x, ax)
	h.Slice(0, lx, 0, lx).Copy(&xx)
	if ls > 0 {
		// X^T AS as (AS^T X)^T: the same sums, bit for bit, with the
		// longer side along the GEMM's rows, which tile better.
		sx.MulAT(as, x)
		h.Slice(lx, m, 0, lx).Copy(&sx)
		h.Slice(0, lx, lx, m).Copy(sx.T())
		ss.MulAT(s, as)
		h.Slice(lx, m, lx, m).Copy(&ss)
	}
	h.Symmetrize()
	if !h.IsFinite() {
		return nil, nil, nil, ErrNotFinite
	}
	e, err := EigSym(h, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	yx := e.Vectors.Slice(0, lx, 0, l)
	nx = out.Slice(0, n, 0, l)
	if ls == 0 {
		nx.Mul(x, yx)
		outAX.Mul(ax, yx)
		return e.Values[:l:l], nx, nil, nil
	}
	// P = S Ys, X_new = P + X Yx.
	ys := e.Vectors.Slice(lx, m, 0, l)
	p = out.Slice(0, n, l, 2*l)
	p.Mul(s, ys)
	nx.Copy(p)
	mulAdd(nx, x, yx)
	outAX.Mul(ax, yx)
	mulAdd(outAX, as, ys)
	return e.Values[:l:l], nx, p, nil
}

// mulAdd sets c += a*b.
func mulAdd(c, a, b *mat.Dense) {
	r, kk := a.Dims()
	_, cc := b.Dims()
	if r == 0 || cc == 0 || kk == 0 {
		return
	}
	kernels.Gemm(false, false, r, cc, kk, 1, a.RawData(), a.Stride(), b.RawData(), b.Stride(), 1, c.RawData(), c.Stride())
}

// residualNorms returns the norms of the first k columns of the
// residuals A X - X Theta (ax = A X).
func residualNorms(x, ax *mat.Dense, theta []float64, k int) []float64 {
	n, _ := x.Dims()
	s := make([]float64, k)
	xd, axd := x.RawData(), ax.RawData()
	xs, axs := x.Stride(), ax.Stride()
	theta = theta[:k]
	for i := 0; i < n; i++ {
		xr, axr := xd[i*xs:i*xs+k], axd[i*axs:i*axs+k]
		for j, t := range theta {
			v := axr[j] - xr[j]*t
			s[j] += v * v
		}
	}
	for j := range s {
		s[j] = math.Sqrt(s[j])
	}
	return s
}

// newDirections writes the next search directions into buf as a
// contiguous n x c matrix and returns it: the residual columns
// A X - X Theta of the active pairs, then (when p is not nil) the
// columns of p of the active pairs, the first c of them in that order.
func newDirections(x, ax, p *mat.Dense, theta []float64, active []int, c int, buf []float64) *mat.Dense {
	n, _ := x.Dims()
	s := mat.New(n, c, buf[:n*c])
	if c == 0 {
		return s
	}
	for i := 0; i < n; i++ {
		row, xr, axr := s.RawRow(i), x.RawRow(i), ax.RawRow(i)
		t := 0
		for _, j := range active {
			if t == c {
				break
			}
			row[t] = axr[j] - xr[j]*theta[j]
			t++
		}
		if p == nil {
			continue
		}
		pr := p.RawRow(i)
		for _, j := range active {
			if t == c {
				break
			}
			row[t] = pr[j]
			t++
		}
	}
	return s
}

// orthAgainst returns an orthonormal basis of the part of the span of
// the columns of s (contiguous) orthogonal to the orthonormal columns of
// x, dropping the directions that part does not have (so it may have
// fewer columns than s, even none). Two rounds of projection and SVQB
// orthonormalization (Stathopoulos and Wu 2002) keep the result
// orthogonal to x and to itself to working accuracy. The first round
// writes its basis into spare (at least as long as s; nil: allocated),
// the second into s's storage, which it returns. (Skipping the
// second round when the first looked well conditioned saved about a
// tenth of a solve on real text, but let rounding differences of 1e-15
// in the products grow to 1e-11 in the basis, which changed the factors
// ECA learned from a corpus with three near-equal eigenvalues.)
func orthAgainst(s, x *mat.Dense, spare []float64) (*mat.Dense, error) {
	n, c0 := s.Dims()
	home := s.RawData()
	if spare == nil {
		spare = make([]float64, n*c0)
	}
	bufs := [2][]float64{spare, home}
	for pass := 0; pass < 2; pass++ {
		_, cols := s.Dims()
		if cols == 0 {
			return s, nil
		}
		// Fresh products each round: svqb may have dropped columns.
		// S -= X C with C = X^T S, formed as C^T = S^T X (the same sums,
		// bit for bit, with the longer side along the GEMM's rows).
		var ct mat.Dense
		ct.MulAT(s, x)
		_, lx := x.Dims()
		if lx > 0 {
			kernels.Gemm(false, true, n, cols, lx, -1, x.RawData(), x.Stride(), ct.RawData(), ct.Stride(), 1, s.RawData(), s.Stride())
		}
		var err error
		if s, err = svqb(s, bufs[pass]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// svqb returns S D V Lambda^{-1/2} for the eigendecomposition
// V Lambda V^T of D S^T S D, D the diagonal that scales the columns of s
// to unit norm, keeping the eigenvalues above 1e-12 times the largest:
// an orthonormal basis of the numerical span of s, written contiguously
// into dst (at least as long as s, sharing no memory with it).
func svqb(s *mat.Dense, dst []float64) (*mat.Dense, error) {
	n, m := s.Dims()
	var g mat.Dense
	g.GramCols(s)
	d := make([]float64, m)
	for j := range d {
		if v := g.At(j, j); v > 0 {
			d[j] = 1 / math.Sqrt(v)
		}
	}
	for i := 0; i < m; i++ {
		row := g.RawRow(i)
		for j := range row {
			row[j] *= d[i] * d[j]
		}
	}
	e, err := EigSym(&g, nil)
	if err != nil {
		return nil, err
	}
	keep := 0
	for _, v := range e.Values {
		if v > 1e-12*e.Values[0] {
			keep++
		}
	}
	t := mat.Zeros(m, keep)
	for i := 0; i < m; i++ {
		row := t.RawRow(i)
		for j := 0; j < keep; j++ {
			row[j] = d[i] * e.Vectors.At(i, j) / math.Sqrt(e.Values[j])
		}
	}
	out := mat.New(n, keep, dst[:n*keep])
	if keep > 0 {
		out.Mul(s, t)
	}
	return out, nil
}

// hcat returns [a b].
func hcat(a, b *mat.Dense) *mat.Dense {
	n, ca := a.Dims()
	_, cb := b.Dims()
	out := mat.Zeros(n, ca+cb)
	for i := 0; i < n; i++ {
		row := out.RawRow(i)
		copy(row, a.RawRow(i))
		copy(row[ca:], b.RawRow(i))
	}
	return out
}
