package tensor3

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/moments-go/moments/internal/dense"
	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// ErrNotFinite is returned (wrapped, with the place) when a tensor given
// to PowerMethod holds a NaN or an infinity, or when the iteration
// overflows.
var ErrNotFinite = errors.New("tensor3: value is NaN or infinite")

// ErrNoConvergence is returned (wrapped) by the simultaneous power
// iteration when it has not converged within PowerOptions.SimIters
// iterations; the decomposition it returns alongside is the last
// iterate.
var ErrNoConvergence = errors.New("tensor3: no convergence")

// ErrBadOption is wrapped by the error for a PowerOptions value that
// makes no sense (a NaN or infinite Tol); the message names the option
// and its value.
var ErrBadOption = errors.New("tensor3: bad option")

// PowerOptions configures PowerMethod. The zero value, and nil options,
// give the documented defaults.
type PowerOptions struct {
	// Starts is the number L of random starts for each component of the
	// robust method. 0 (or negative) means 10.
	Starts int
	// Iters is the number N of power iterations from each start. 0 (or
	// negative) means 30.
	Iters int
	// Polish is the number of further iterations from the best start
	// before the component is deflated. 0 means Iters; negative means
	// none.
	Polish int
	// Tol stops a run of iterations early once an iterate moves by at
	// most Tol in Euclidean norm. 0 means 1e-12; negative means never
	// stop early (every run takes its full count, as in the paper). NaN
	// or an infinity is an error (ErrBadOption).
	Tol float64
	// Simultaneous selects the orthogonal simultaneous power iteration
	// instead of the robust method: all k vectors are iterated together,
	// v_m <- T(I, v_m, v_m), and re-orthonormalised (modified
	// Gram-Schmidt, in order) after every step, with no deflation.
	Simultaneous bool
	// SimIters is the largest number of steps of the simultaneous
	// iteration. 0 (or negative) means 1000.
	SimIters int
	// Seed seeds the random starts (and the random vectors that replace
	// a dependent one in the simultaneous iteration), drawn from
	// rand.New(rand.NewPCG(Seed, 0x9013e7)): the same Seed gives the
	// same bits.
	Seed uint64
}

// powerStream is the second PCG word of PowerMethod's generator, fixed
// so that a Seed alone names the stream.
const powerStream = 0x9013e7

func (o *PowerOptions) withDefaults() PowerOptions {
	var r PowerOptions
	if o != nil {
		r = *o
	}
	if r.Starts <= 0 {
		r.Starts = 10
	}
	if r.Iters <= 0 {
		r.Iters = 30
	}
	switch {
	case r.Polish == 0:
		r.Polish = r.Iters
	case r.Polish < 0:
		r.Polish = 0
	}
	if r.Tol == 0 {
		r.Tol = 1e-12
	}
	if r.SimIters <= 0 {
		r.SimIters = 1000
	}
	return r
}

// Decomposition is the result of PowerMethod: T is approximated by
// sum_i Values[i] * v_i(x)v_i(x)v_i, with v_i column i of Vectors.
type Decomposition struct {
	// Values holds the eigenvalues, sorted in decreasing order. They are
	// non-negative: since (-v)(x)(-v)(x)(-v) = -v(x)v(x)v, an eigenpair
	// (lambda, v) with lambda < 0 is reported as (-lambda, -v).
	Values []float64
	// Vectors is d x k; its columns are the unit eigenvectors, in the
	// order of Values. A component whose eigenvalue is 0 (T(I, v, v) = 0
	// for the vectors tried) has an arbitrary unit vector.
	Vectors *mat.Dense
	// Residual is ||T - sum_i Values[i] v_i(x)v_i(x)v_i||_F (see
	// Sym.NormFrob).
	Residual float64
}

// PowerMethod computes k eigenpairs of the symmetric tensor t by the
// robust tensor power method of Anandkumar, Ge, Hsu, Kakade and Telgarsky
// (2014), or, with opts.Simultaneous, by orthogonal simultaneous power
// iteration. opts may be nil for the defaults.
//
// The robust method finds one component at a time: from each of L
// random starts (uniform on the unit sphere, drawn from a generator
// seeded by opts.Seed; no other randomness is used) it runs N power
// iterations theta <- T(I, theta, theta)/||T(I, theta, theta)||,
// keeps the start with the largest T(theta, theta, theta), polishes it
// with further iterations, takes lambda = T(theta, theta, theta) and
// deflates T <- T - lambda theta(x)theta(x)theta before the next
// component. For a tensor close to an orthogonally decomposable one,
// sum_i lambda_i v_i(x)v_i(x)v_i + E, the paper bounds the errors by
// about ||E||/lambda_i for the vectors and ||E|| for the eigenvalues.
// The iterations run on the tensor scaled by a power of two (exactly;
// anew for each component of the robust method), so that neither huge
// nor tiny values overflow or lose precision.
//
// The output depends only on t, k and the options (Seed included): the
// same inputs give the same bits. ctx must not be nil (PowerMethod
// panics if it is); it is checked before each random start and each
// polish of the robust method and before each step of the simultaneous
// iteration, and once it is done PowerMethod returns ctx.Err() with no
// decomposition. PowerMethod returns an error wrapping ErrNotFinite if t
// holds a NaN or an infinity (or the iteration overflows), one wrapping
// ErrNoConvergence, together with the last iterate, if the simultaneous
// iteration does not converge, and one wrapping ErrBadOption for a NaN
// or infinite Tol. It panics if k is negative or larger than the
// dimension.
func PowerMethod(ctx context.Context, t *Sym, k int, opts *PowerOptions) (*Decomposition, error) {
	if ctx == nil {
		panic("tensor3: PowerMethod: nil context")
	}
	d := t.d
	if k < 0 || k > d {
		panic(fmt.Sprintf("tensor3: PowerMethod: %d components asked of a tensor of dimension %d", k, d))
	}
	if i, j, l, v, ok := t.firstNonFinite(); !ok {
		return nil, fmt.Errorf("tensor3: PowerMethod: T[%d][%d][%d] = %v: %w", i, j, l, v, ErrNotFinite)
	}
	if opts != nil {
		if err := optcheck.Float(ErrBadOption, "PowerOptions.Tol", opts.Tol, math.Inf(-1), math.Inf(1)); err != nil {
			return nil, err
		}
	}
	o := opts.withDefaults()
	rng := rand.New(rand.NewPCG(o.Seed, powerStream))
	if o.Simultaneous {
		return simultaneous(ctx, t, k, rng, &o)
	}
	return robust(ctx, t, k, rng, &o)
}

// scaleExp returns e such that the largest |value| of t times 2^-e lies
// in [0.5, 1) (0 for the zero tensor): the power of two that protects
// the iterations from overflow and from loss of precision to underflow.
func scaleExp(t *Sym) int {
	var big float64
	for _, v := range t.data {
		big = max(big, math.Abs(v))
	}
	if big == 0 {
		return 0
	}
	_, e := math.Frexp(big)
	return e
}

// robust is the robust tensor power method. It deflates a copy of t;
// each component is sought on that copy scaled anew by a power of two
// (exactly), so that neither huge values overflow nor the small values
// left after deflating large components fall into the subnormal range.
func robust(ctx context.Context, t *Sym, k int, rng *rand.Rand, o *PowerOptions) (*Decomposition, error) {
	d := t.d
	p := newPowerState(d)
	work := t.Clone()
	scaled := New(d, nil)
	vals := make([]float64, k)
	vecs := make([][]float64, k)
	theta := make([]float64, d)
	best := make([]float64, d)
	for comp := 0; comp < k; comp++ {
		e := scaleExp(work)
		scaled.Scale(math.Ldexp(1, -e), work)
		bestVal := math.Inf(-1)
		for range o.Starts {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			randomUnit(rng, theta)
			if err := p.iterate(scaled, theta, o.Iters, o.Tol); err != nil {
				return nil, err
			}
			if v := scaled.ContractScalar(theta); v > bestVal || math.IsInf(bestVal, -1) {
				bestVal = v
				copy(best, theta)
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		copy(theta, best)
		if err := p.iterate(scaled, theta, o.Polish, o.Tol); err != nil {
			return nil, err
		}
		lam, err := eigenvalue(scaled, theta, e, comp)
		if err != nil {
			return nil, err
		}
		vals[comp] = lam
		vecs[comp] = append([]float64(nil), theta...)
		work.AddOuter(-lam, theta)
	}
	// work is now T minus the components, deflated in the same order and
	// with the same rounding as the residual would be computed.
	return newDecomposition(d, vals, vecs, work.NormFrob()), nil
}

// powerState holds the scratch space of the power iterations.
type powerState struct {
	next, s, x []float64
}

func newPowerState(d int) *powerState {
	return &powerState{next: make([]float64, d), s: make([]float64, d), x: make([]float64, d)}
}

// iterate runs at most n power iterations on theta (a unit vector), in
// place. It stops early when theta moves by at most tol, and leaves
// theta as it is if T(I, theta, theta) is 0.
func (p *powerState) iterate(t *Sym, theta []float64, n int, tol float64) error {
	next := p.next
	for range n {
		clear(next)
		t.contractVec(next, theta, p.s, p.x)
		nrm := normalize(next)
		if math.IsNaN(nrm) || math.IsInf(nrm, 0) {
			return fmt.Errorf("tensor3: PowerMethod: T(I, v, v) has norm %v: %w", nrm, ErrNotFinite)
		}
		if nrm == 0 {
			return nil
		}
		var moved float64
		for i, v := range next {
			moved += (v - theta[i]) * (v - theta[i])
			theta[i] = v
		}
		if math.Sqrt(moved) <= tol {
			return nil
		}
	}
	return nil
}

// randomUnit fills v with a vector drawn uniformly from the unit sphere.
func randomUnit(rng *rand.Rand, v []float64) {
	for {
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		if normalize(v) > 0 {
			return
		}
	}
}

// normalize divides v by its norm, unless the norm is 0 or not finite,
// and returns the norm. A vector with a tiny norm is first scaled up by
// a power of two, so that the result is a unit vector to rounding even
// when the norm itself would be subnormal.
func normalize(v []float64) float64 {
	n := kernels.Nrm2(v)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return n
	}
	if n < 0x1p-900 {
		for i := range v {
			v[i] *= 0x1p600
		}
		m := kernels.Nrm2(v)
		for i := range v {
			v[i] /= m
		}
		return n
	}
	for i := range v {
		v[i] /= n
	}
	return n
}

// simultaneous is the orthogonal simultaneous power iteration, on t
// scaled by a power of two (exactly) against overflow.
func simultaneous(ctx context.Context, t *Sym, k int, rng *rand.Rand, o *PowerOptions) (*Decomposition, error) {
	d := t.d
	e := scaleExp(t)
	orig := t
	t = New(d, nil)
	t.Scale(math.Ldexp(1, -e), orig)
	vs := make([][]float64, k)
	us := make([][]float64, k)
	for m := range vs {
		vs[m] = make([]float64, d)
		us[m] = make([]float64, d)
		for i := range vs[m] {
			vs[m][i] = rng.NormFloat64()
		}
	}
	orthonormalize(vs, rng)
	p := newPowerState(d)
	converged := k == 0
	for it := 0; it < o.SimIters && !converged; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for m, v := range vs {
			clear(us[m])
			t.contractVec(us[m], v, p.s, p.x)
			switch n := kernels.Nrm2(us[m]); {
			case math.IsNaN(n) || math.IsInf(n, 0):
				return nil, fmt.Errorf("tensor3: PowerMethod: T(I, v, v) has norm %v: %w", n, ErrNotFinite)
			case n == 0:
				copy(us[m], v) // T(I, v, v) = 0: v stays
			}
		}
		orthonormalize(us, rng)
		var moved float64
		for m := range vs {
			var s float64
			for i, u := range us[m] {
				s += (u - vs[m][i]) * (u - vs[m][i])
			}
			moved = max(moved, math.Sqrt(s))
		}
		vs, us = us, vs
		converged = moved <= o.Tol
	}
	vals := make([]float64, k)
	for m, v := range vs {
		lam, err := eigenvalue(t, v, e, m)
		if err != nil {
			return nil, err
		}
		vals[m] = lam
	}
	res := orig.Clone()
	for m, v := range vs {
		res.AddOuter(-vals[m], v)
	}
	dec := newDecomposition(d, vals, vs, res.NormFrob())
	if !converged {
		return dec, fmt.Errorf("tensor3: PowerMethod: simultaneous iteration after %d steps: %w", o.SimIters, ErrNoConvergence)
	}
	return dec, nil
}

// eigenvalue returns lambda = 2^e T(v, v, v) for the unit vector v of
// component comp of the tensor t = 2^-e T, made non-negative by flipping
// the sign of v in place; ErrNotFinite if it is NaN or infinite.
func eigenvalue(t *Sym, v []float64, e, comp int) (float64, error) {
	lam := math.Ldexp(t.ContractScalar(v), e)
	if math.IsNaN(lam) || math.IsInf(lam, 0) {
		return 0, fmt.Errorf("tensor3: PowerMethod: component %d: eigenvalue %v: %w", comp, lam, ErrNotFinite)
	}
	if lam < 0 {
		lam = -lam
		kernels.Scal(-1, v)
	}
	return lam, nil
}

// orthonormalize makes the vectors orthonormal in order (modified
// Gram-Schmidt, twice). A vector that is (numerically) in the span of
// the previous ones is replaced by a random one. The vectors must be
// finite.
func orthonormalize(vs [][]float64, rng *rand.Rand) {
	for m, v := range vs {
		for {
			if n0, n := dense.Orthogonalize(v, vs[:m]); n > 1e-10*n0 && n > 0 {
				normalize(v)
				break
			}
			for i := range v {
				v[i] = rng.NormFloat64()
			}
		}
	}
}

// newDecomposition sorts the components by decreasing eigenvalue (ties
// keep their order).
func newDecomposition(d int, vals []float64, vecs [][]float64, residual float64) *Decomposition {
	k := len(vals)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	dec := &Decomposition{Values: make([]float64, k), Vectors: mat.Zeros(d, k), Residual: residual}
	for c, i := range order {
		dec.Values[c] = vals[i]
		if d > 0 {
			dec.Vectors.SetCol(c, vecs[i])
		}
	}
	return dec
}
