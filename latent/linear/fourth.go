package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// Fourth-order cumulants for the fully observed learner.
//
// With x = G eta (G = (I - Lambda)^{-1}, eta independent and centred)
// and W a whitening (W^T Sigma W = I), the whitened data y = W^T x =
// sum_i (W^T g_i) eta_i have identity covariance, so the directions
// v_i = W^T g_i sd(eta_i) are orthonormal and y = sum_i v_i e_i with e_i
// = eta_i / sd(eta_i) independent of unit variance. Cumulants add over
// independent summands, so
//
//	third cumulant  E[y(x)y(x)y]               = sum_i s_i v_i(x)v_i(x)v_i,
//	fourth cumulant E[y^(x)4] - 3 Sym(I(x)I)   = sum_i k_i v_i^(x)4,
//
// s_i the skewness and k_i the excess kurtosis of eta_i. Both are
// orthogonally decomposable in the same v_i: the third when the noises
// are skewed (the existing ECA route, see ECATensor), the fourth when
// they are not Gaussian, symmetric or not. The fourth cumulant is never
// formed (it has k^4/24 distinct entries); its contraction with a unit
// vector u three times,
//
//	K(u, u, u) = E[(u.y)^3 y] - 3 u = sum_i k_i (u.v_i)^3 v_i,
//
// costs one pass over the N whitened samples (2 N k multiply-adds), and
// k of them at once, for the columns of a k x k matrix U, two N x k x k
// matrix products. The fixed point u <- K(u, u, u)/|K(u, u, u)| is the
// power method of the fourth cumulant: in the basis v_i it maps the
// coefficients c_i to k_i c_i^3 (normalised), so it converges cubically
// to a v_i from almost every start (the symmetric counterpart of
// FastICA with the kurtosis contrast). All k directions are iterated at
// once and made orthonormal after every step by the symmetric
// orthogonalisation U <- G (G^T G)^{-1/2} (= P Q^T from the singular
// value decomposition G = P S Q^T), which treats the directions alike
// and accumulates no deflation error.
//
// When some noises are skewed and others nearly mesokurtic, neither
// cumulant alone separates them all; the combined contrast is then
//
//	J(u) = kappa3(u)^2 / 12 + kappa4(u)^2 / 48,
//
// kappa3(u) = E[(u.y)^3] and kappa4(u) = E[(u.y)^4] - 3 for unit u: the
// Gram-Charlier approximation of the negentropy of u.y, which weighs each
// cumulant by the inverse of its sampling variance under a Gaussian
// (6/N and 24/N, up to the factor 1/2). Its gradient on the sphere,
//
//	(kappa3(u)/2) E[(u.y)^2 y] + (kappa4(u)/6) (E[(u.y)^3 y] - 3 u),
//
// is in the basis v_i (kappa3/2) s_i c_i^2 + (kappa4/6) k_i c_i^3, whose
// fixed points with one non-zero c_i are again the v_i; it is iterated
// in the same way, from the fourth-order solution.

// Cumulants selects the cumulants from which LearnObservedBN finds the
// independent noise directions (see DAGOptions.Cumulants).
type Cumulants int

const (
	// CumulantsAuto (the default) chooses per data set: the third
	// cumulant when every noise it recovers is skewed (|skewness| at
	// least max(MinSkewness, SkewnessSigmas sqrt(6/N))); otherwise, when
	// the moments are FourthMoments, the fourth cumulant if every noise
	// that it recovers has |excess kurtosis| at least max(MinKurtosis,
	// KurtosisSigmas sqrt(24/N)), else both (the negentropy contrast).
	// ObservedBN.Cumulants reports the choice; when the chosen one does
	// not separate every noise (Gaussian noises, say) the verdict warns.
	CumulantsAuto Cumulants = iota
	// CumulantsThird uses the whitened third moment alone (ECA by
	// DAGOptions.Method): the learner as it was before fourth moments.
	CumulantsThird
	// CumulantsFourth uses the whitened fourth cumulant alone (the
	// fixed point of its contraction); the moments must be
	// FourthMoments.
	CumulantsFourth
	// CumulantsBoth maximises the negentropy approximation kappa3^2/12
	// + kappa4^2/48 of every direction, started from the fourth-order
	// solution; the moments must be FourthMoments.
	CumulantsBoth
)

// String names the choice.
func (c Cumulants) String() string {
	switch c {
	case CumulantsAuto:
		return "auto"
	case CumulantsThird:
		return "third"
	case CumulantsFourth:
		return "fourth"
	case CumulantsBoth:
		return "both"
	}
	return fmt.Sprintf("Cumulants(%d)", int(c))
}

// The bounds of the kurtosis check, the counterparts of MinSkewness and
// SkewnessSigmas: sqrt(24/N) is the standard deviation of the sample
// excess kurtosis of N Gaussian draws, as sqrt(6/N) is of the sample
// skewness.
const (
	// MinKurtosis is the least magnitude of a recovered noise's excess
	// kurtosis accepted with exact moments; with N samples the bound is
	// max(MinKurtosis, KurtosisSigmas sqrt(24/N)).
	MinKurtosis = 0.2
	// KurtosisSigmas is the multiple of sqrt(24/N) in the kurtosis
	// bound.
	KurtosisSigmas = 6.0
)

// FourthMoments are ThirdMoments that also give the whitened samples,
// from which LearnObservedBN contracts the whitened fourth cumulant
// implicitly (two N x k x k matrix products per iteration, never the
// k^4 array). SampleThird implements it.
type FourthMoments interface {
	ThirdMoments
	SampleCount
	// WhitenedSamples returns the N x k matrix whose row s is W^T (x_s
	// - mu), for W n x k and mu the mean of the moments.
	WhitenedSamples(ctx context.Context, w *mat.Dense) (*mat.Dense, error)
}

// WhitenedSamples returns the N x k matrix of the centred samples of
// Src times W, (x_s - Moments.Mean)^T W, in one pass over Src; or an
// error matching ErrNotFinite if a product is NaN or infinite.
func (s *SampleThird) WhitenedSamples(ctx context.Context, w *mat.Dense) (*mat.Dense, error) {
	checkCtx("SampleThird.WhitenedSamples", ctx)
	n, k := w.Dims()
	total := s.Src.NumSamples()
	if s.Src.Dim() != n || len(s.Moments.Mean) != n {
		panic(fmt.Sprintf("linear: SampleThird.WhitenedSamples: W has %d rows for samples of dimension %d", n, s.Src.Dim()))
	}
	out := mat.Zeros(total, k)
	const chunk = 2048
	block := mat.Zeros(min(chunk, max(total, 1)), n)
	for lo := 0; lo < total; lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(total, lo+chunk)
		b := block.Slice(0, hi-lo, 0, n)
		s.Src.Block(lo, hi, b)
		for i := 0; i < hi-lo; i++ {
			row := b.RawRow(i)
			for j, m := range s.Moments.Mean {
				row[j] -= m
			}
		}
		out.Slice(lo, hi, 0, k).Mul(b, w)
	}
	if err := checkFinite("whitened samples", out); err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	return out, nil
}

// fixedPoint runs the symmetric fixed-point iteration of the fourth
// cumulant (both false) or of the negentropy contrast (both true) on the
// whitened samples y (N x k) from the orthonormal v0 (k x k, columns),
// until every direction moves by at most tol (1 - |cos|) or maxIter
// steps. It returns the directions, the number of steps and whether it
// converged.
func fixedPoint(ctx context.Context, y, v0 *mat.Dense, both bool, maxIter int, tol float64) (*mat.Dense, int, bool, error) {
	nSamples, k := y.Dims()
	v := v0.Clone()
	p := mat.Zeros(nSamples, k)
	var g mat.Dense
	k3 := make([]float64, k)
	k4 := make([]float64, k)
	inv := 1 / float64(nSamples)
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, it, false, err
		}
		p.Mul(y, v)
		cumulantsOf(p, k3, k4)
		// H[s][j] = a_j p^2 + b_j p^3, so that Y^T H / N holds the
		// expectations of the update.
		a := make([]float64, k)
		b := make([]float64, k)
		for j := range b {
			b[j] = 1
			if both {
				a[j], b[j] = k3[j]/2, k4[j]/6
			}
		}
		for s := 0; s < nSamples; s++ {
			row := p.RawRow(s)
			for j, x := range row {
				x2 := x * x
				row[j] = x2 * (a[j] + b[j]*x)
			}
		}
		g.MulAT(y, p)
		for i := 0; i < k; i++ {
			row := g.RawRow(i)
			for j := range row {
				row[j] = row[j]*inv - 3*b[j]*v.At(i, j)
			}
		}
		if !g.IsFinite() {
			return nil, it, false, fmt.Errorf("%w: the fourth-order fixed point diverged", ErrNotFinite)
		}
		next, err := symOrth(&g)
		if err != nil {
			return nil, it, false, err
		}
		var moved float64
		for j := 0; j < k; j++ {
			var c float64
			for i := 0; i < k; i++ {
				c += next.At(i, j) * v.At(i, j)
			}
			moved = math.Max(moved, 1-math.Abs(c))
		}
		v = next
		if moved <= tol {
			return v, it, true, nil
		}
	}
	return v, maxIter, false, nil
}

// cumulantsOf writes the skewness E[p^3] and excess kurtosis E[p^4] - 3
// of each column of p (samples in rows, unit variance assumed).
func cumulantsOf(p *mat.Dense, k3, k4 []float64) {
	nSamples, k := p.Dims()
	clear(k3[:k])
	clear(k4[:k])
	for s := 0; s < nSamples; s++ {
		for j, x := range p.RawRow(s) {
			x3 := x * x * x
			k3[j] += x3
			k4[j] += x3 * x
		}
	}
	for j := 0; j < k; j++ {
		k3[j] /= float64(nSamples)
		k4[j] = k4[j]/float64(nSamples) - 3
	}
}

// symOrth returns P Q^T for G = P S Q^T, the orthonormal matrix nearest
// to G (G (G^T G)^{-1/2} when G is invertible; for a singular G, one of
// the nearest), or an error matching ErrRankDeficient if G is zero.
func symOrth(g *mat.Dense) (*mat.Dense, error) {
	f, err := svd.Factorize(g, nil)
	if err != nil {
		return nil, fmt.Errorf("linear: fourth-order fixed point: %w", err)
	}
	if len(f.S) == 0 || !(f.S[0] > 0) {
		return nil, fmt.Errorf("%w: the fourth-order fixed point reached zero", ErrRankDeficient)
	}
	var out mat.Dense
	out.MulBT(f.U, f.V)
	return &out, nil
}

// sliceStart returns the eigenvectors of a random slice of the fourth
// cumulant of the whitened samples y (N x k): for M = diag(m) with m
// standard Gaussian draws of rng,
//
//	Q(M) = E[(y^T M y) y y^T] - tr(M) I - 2 M = sum_i k_i (v_i^T M v_i) v_i v_i^T,
//
// whose eigenvectors are the v_i when the k_i (v_i^T M v_i) differ (as
// they do for almost every M, even when the k_i are all equal). One
// slice is fragile (close eigenvalues mix their vectors), so it only
// starts the fixed point, which then needs a few steps instead of the
// dozens of a random start. It costs two N x k x k products.
func sliceStart(y *mat.Dense, rng *rand.Rand) (*mat.Dense, error) {
	nSamples, k := y.Dims()
	m := make([]float64, k)
	var tr float64
	for i := range m {
		m[i] = rng.NormFloat64()
		tr += m[i]
	}
	w := y.Clone() // row s: q_s y_s, q_s = y_s^T M y_s
	for s := 0; s < nSamples; s++ {
		row := y.RawRow(s)
		var q float64
		for i, x := range row {
			q += m[i] * x * x
		}
		wr := w.RawRow(s)
		for i := range wr {
			wr[i] *= q / float64(nSamples)
		}
	}
	var qm mat.Dense
	qm.MulAT(y, w)
	for i := 0; i < k; i++ {
		qm.Set(i, i, qm.At(i, i)-tr-2*m[i])
	}
	qm.Symmetrize()
	if !qm.IsFinite() {
		return nil, fmt.Errorf("%w: a slice of the fourth cumulant", ErrNotFinite)
	}
	_, v, err := topEigSym(&qm, k)
	if err != nil {
		return nil, fmt.Errorf("linear: a slice of the fourth cumulant: %w", err)
	}
	return symOrth(v)
}

// fourthStarts is the number of random starts of the fourth-order fixed
// point: the iteration stops early once two converged starts agree.
const fourthStarts = 3

// fourthOrder finds the k noise directions of the whitened samples y by
// the fixed point of the fourth cumulant from up to fourthStarts seeded
// starts (the eigenvectors of random slices, see sliceStart): it keeps the converged start of largest
// contrast sum_j kappa4_j^2 (any start if none converged) and stops once
// two converged starts agree (every direction of one within 1e-6 of one
// of the other in 1 - |cos|). With both, the negentropy contrast is then
// iterated from that solution.
func fourthOrder(ctx context.Context, y *mat.Dense, both bool, rng *rand.Rand, o *DAGOptions) (*components, error) {
	ysub := subsample(y)
	var best *components
	var kept []*mat.Dense
	iters := 0
	for start := 0; start < fourthStarts; start++ {
		progress(o.Progress, "fourth-order fixed point", start, fourthStarts)
		v0, err := sliceStart(y, rng)
		if err != nil {
			return nil, err
		}
		v, it, conv, err := iterate(ctx, y, ysub, v0, false, o)
		iters += it
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			continue
		}
		c := newComponents(y, v, CumulantsFourth)
		c.converged = conv
		if best == nil || conv && !best.converged || conv == best.converged && c.contrast > best.contrast {
			best = c
		}
		if !conv {
			continue
		}
		agree := false
		for _, w := range kept {
			agree = agree || sameDirections(v, w, 1e-6)
		}
		if agree {
			break
		}
		kept = append(kept, v)
	}
	progress(o.Progress, "fourth-order fixed point", fourthStarts, fourthStarts)
	if best == nil {
		return nil, fmt.Errorf("%w: the fourth-order fixed point failed from every start", ErrNoConvergence)
	}
	best.iters = iters
	if !both {
		return best, nil
	}
	return fixedPointFrom(ctx, y, best, o)
}

// The tolerances of the fourth-order fixed point. It stops once every
// direction moves by at most max(DAGOptions.Tol, fourthTol) in 1 -
// |cos|: an angle of about 1.4e-5, far below the sampling error of the
// directions (of order N^{-1/2}), where the default Tol of 1e-14 would
// cost a dozen more steps of linear convergence (the fixed point of
// sampled moments converges linearly, not cubically). With N >=
// coarseStride coarseMin samples, each run starts on every
// coarseStride-th sample until its directions move by at most coarseTol,
// at a coarseStride-th of the cost per step.
const (
	fourthTol    = 1e-10
	coarseTol    = 1e-4
	coarseStride = 4
	coarseMin    = 2000
)

// subsample returns every coarseStride-th row of y, or nil when there
// are fewer than coarseStride max(coarseMin, 40 k) rows.
func subsample(y *mat.Dense) *mat.Dense {
	nSamples, k := y.Dims()
	if nSamples < coarseStride*max(coarseMin, 40*k) {
		return nil
	}
	out := mat.Zeros(nSamples/coarseStride, k)
	for s := range nSamples / coarseStride {
		copy(out.RawRow(s), y.RawRow(s*coarseStride))
	}
	return out
}

// iterate runs fixedPoint from v0: first on ysub (if not nil) to
// coarseTol, then on y to max(o.Tol, fourthTol); the steps are those of
// both phases, at most o.MaxIter in each.
func iterate(ctx context.Context, y, ysub, v0 *mat.Dense, both bool, o *DAGOptions) (*mat.Dense, int, bool, error) {
	steps := 0
	if ysub != nil {
		v, it, _, err := fixedPoint(ctx, ysub, v0, both, o.MaxIter, coarseTol)
		if err != nil {
			return nil, it, false, err
		}
		v0, steps = v, it
	}
	v, it, conv, err := fixedPoint(ctx, y, v0, both, o.MaxIter, math.Max(o.Tol, fourthTol))
	return v, steps + it, conv, err
}

// sameDirections reports whether every column of a is within tol (1 -
// |cos|) of some column of b.
func sameDirections(a, b *mat.Dense, tol float64) bool {
	var m mat.Dense
	m.MulAT(a, b)
	k, _ := m.Dims()
	for i := 0; i < k; i++ {
		var top float64
		for _, x := range m.RawRow(i) {
			top = math.Max(top, math.Abs(x))
		}
		if 1-top > tol {
			return false
		}
	}
	return true
}

// components are noise directions in whitened coordinates (columns of
// v) with the skewness and excess kurtosis of the noises they recover.
type components struct {
	v          *mat.Dense
	skew, kurt []float64
	choice     Cumulants
	contrast   float64
	iters      int
	converged  bool
}

// newComponents measures the cumulants of the directions v on y; the
// contrast is sum_j kappa4_j^2 for the fourth cumulant and the
// negentropy sum_j kappa3_j^2/12 + kappa4_j^2/48 for both.
func newComponents(y, v *mat.Dense, choice Cumulants) *components {
	_, k := v.Dims()
	var p mat.Dense
	p.Mul(y, v)
	c := &components{v: v, skew: make([]float64, k), kurt: make([]float64, k), choice: choice, converged: true}
	cumulantsOf(&p, c.skew, c.kurt)
	for j := 0; j < k; j++ {
		if choice == CumulantsBoth {
			c.contrast += c.skew[j]*c.skew[j]/12 + c.kurt[j]*c.kurt[j]/48
		} else {
			c.contrast += c.kurt[j] * c.kurt[j]
		}
	}
	return c
}

// cumulantBounds returns the least |skewness| and |excess kurtosis| that
// the checks accept with N samples (0: exact moments).
func cumulantBounds(samples int) (b3, b4 float64) {
	b3, b4 = MinSkewness, MinKurtosis
	if samples > 0 {
		b3 = math.Max(b3, SkewnessSigmas*math.Sqrt(6/float64(samples)))
		b4 = math.Max(b4, KurtosisSigmas*math.Sqrt(24/float64(samples)))
	}
	return b3, b4
}

// allAtLeast reports whether every |x_i| is at least b (false for NaN).
func allAtLeast(x []float64, b float64) bool {
	for _, v := range x {
		if !(math.Abs(v) >= b) {
			return false
		}
	}
	return true
}

// observedComponents finds the noise directions of LearnObservedBN by
// the cumulants that o.Cumulants selects (see CumulantsAuto), with
// fourthAvail telling whether third also gives fourth moments.
func (e *eca) observedComponents(ctx context.Context, rng *rand.Rand, third ThirdMoments, samples int) (*components, error) {
	o := e.opts
	fm, fourthAvail := third.(FourthMoments)
	want := o.Cumulants
	if (want == CumulantsFourth || want == CumulantsBoth) && !fourthAvail {
		return nil, fmt.Errorf("%w: DAGOptions.Cumulants = %v needs FourthMoments (such as SampleThird); %T gives third moments only", ErrBadOption, want, third)
	}
	b3, b4 := cumulantBounds(samples)
	var y *mat.Dense
	loadY := func() error {
		if y != nil {
			return nil
		}
		n, k := e.w.Dims()
		need := size.Add(size.Float64s(fm.NumSamples(), k), size.Float64s(fm.NumSamples(), k), size.Float64s(min(fm.NumSamples(), 2048), n))
		if err := mat.CheckMemory(fmt.Sprintf("the whitened samples (%d x %d, twice)", fm.NumSamples(), k), need, o.MaxMemory); err != nil {
			return fmt.Errorf("linear: LearnObservedBN: %w", err)
		}
		progress(o.Progress, "whitened samples", 0, 1)
		var err error
		y, err = fm.WhitenedSamples(ctx, e.w)
		progress(o.Progress, "whitened samples", 1, 1)
		return err
	}
	if want == CumulantsAuto || want == CumulantsThird {
		v, eig, err := e.run(ctx, rng)
		if err != nil {
			return nil, err
		}
		if want == CumulantsThird || allAtLeast(eig, b3) || !fourthAvail {
			if err := checkSkewed(eig); err != nil {
				return nil, err
			}
			_, k := v.Dims()
			c := &components{v: v, skew: eig, kurt: make([]float64, k), choice: CumulantsThird, iters: e.iters, converged: true}
			for j := range c.kurt {
				c.kurt[j] = math.NaN()
			}
			return c, nil
		}
	}
	if err := loadY(); err != nil {
		return nil, err
	}
	c, err := fourthOrder(ctx, y, want == CumulantsBoth, rng, o)
	if err != nil || want != CumulantsAuto || allAtLeast(c.kurt, b4) {
		return c, err
	}
	both, err := fixedPointFrom(ctx, y, c, o)
	if err != nil {
		return nil, err
	}
	return both, nil
}

// fixedPointFrom iterates the negentropy contrast from the fourth-order
// solution c.
func fixedPointFrom(ctx context.Context, y *mat.Dense, c *components, o *DAGOptions) (*components, error) {
	v, it, conv, err := iterate(ctx, y, nil, c.v, true, o)
	if err != nil {
		return nil, err
	}
	out := newComponents(y, v, CumulantsBoth)
	out.converged = conv
	out.iters = c.iters + it
	return out, nil
}

// byVariable returns the skewness and excess kurtosis of the noises
// matched to each variable (row of cm = (W^+)^T V, the columns of G up
// to order and scale), by the matching of CausalOrder.
func (c *components) byVariable(cm *mat.Dense) (skew, kurt []float64, err error) {
	_, match, err := CausalOrder(cm)
	if err != nil {
		return nil, nil, err
	}
	skew = make([]float64, len(match))
	kurt = make([]float64, len(match))
	for i, m := range match {
		skew[i], kurt[i] = c.skew[m], c.kurt[m]
	}
	return skew, kurt, nil
}

// observedChecks adds to d the checks of the cumulants c chose, with N
// samples behind the moments (0: exact) and the skewness and kurtosis of
// each recovered noise: the skewness check of the third cumulant; the
// kurtosis check of the fourth; for both, the check that every noise is
// skewed or kurtic enough; the convergence of the fixed point of the
// fourth and both; and the triangularity of the order.
func (c *components) observedChecks(d *DAG, samples int, skew, kurt []float64, maxIter int) {
	src := "exact moments"
	if samples > 0 {
		src = fmt.Sprintf("N = %d", samples)
	}
	b3, b4 := cumulantBounds(samples)
	switch c.choice {
	case CumulantsThird:
		d.dagChecks(samples)
		return
	case CumulantsFourth:
		least, at := math.Inf(1), -1
		for j, k := range kurt {
			if math.Abs(k) < least || math.IsNaN(k) {
				least, at = math.Abs(k), j
			}
		}
		d.add(atLeast("noise kurtosis", least, b4,
			fmt.Sprintf("least |excess kurtosis| of the recovered noises %.3g (noise %d), bound %.3g for %s", least, at, b4, src)))
	case CumulantsBoth:
		least, at := math.Inf(1), -1
		for j, s := range skew {
			z := math.Max(math.Abs(s)/b3, math.Abs(kurt[j])/b4)
			if z < least || math.IsNaN(z) {
				least, at = z, j
			}
		}
		d.add(atLeast("noise non-Gaussianity", least, 1,
			fmt.Sprintf("least over the recovered noises of max(|skewness|/%.3g, |excess kurtosis|/%.3g) is %.3g (noise %d) for %s; below 1, neither the third nor the fourth cumulants separate that noise (a Gaussian one, say)", b3, b4, least, at, src)))
	}
	conv := 0.0
	if c.converged {
		conv = 1
	}
	d.add(atLeast("fixed-point convergence", conv, 1,
		fmt.Sprintf("the fixed point of the %v cumulants moved every direction by at most DAGOptions.Tol within DAGOptions.MaxIter = %d steps: %v (%d steps in all starts)", c.choice, maxIter, c.converged, c.iters)))
	d.add(atMost("triangularity", d.Triangularity, MaxTriangularity,
		fmt.Sprintf("share of C~^{-1}'s off-diagonal mass above the diagonal in the learned order %.3g", d.Triangularity)))
}
