package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// NoisyFourthMoments are FourthMoments that also give the centred
// diagonal moments of the observed variables, from which LearnDAG
// estimates the third and fourth cumulants of the observation noises on
// its fourth-order route (the counterpart of the diagonal third moments
// that WhitenedThirdMoments give the third-order route). SampleThird
// implements it.
type NoisyFourthMoments interface {
	FourthMoments
	// DiagonalMoments returns E[(x_i - mu_i)^2], E[(x_i - mu_i)^3] and
	// E[(x_i - mu_i)^4] for every observed variable i (n values each),
	// mu the mean of the moments.
	DiagonalMoments(ctx context.Context) (m2, m3, m4 []float64, err error)
}

// DiagonalMoments returns the centred second, third and fourth moments
// of each variable of Src (centred by Moments.Mean), in one pass over
// Src; or an error matching ErrNotFinite if one is NaN or infinite.
func (s *SampleThird) DiagonalMoments(ctx context.Context) (m2, m3, m4 []float64, err error) {
	checkCtx("SampleThird.DiagonalMoments", ctx)
	n := s.Src.Dim()
	total := s.Src.NumSamples()
	if len(s.Moments.Mean) != n {
		panic(fmt.Sprintf("linear: SampleThird.DiagonalMoments: a mean of %d values for samples of dimension %d", len(s.Moments.Mean), n))
	}
	m2, m3, m4 = make([]float64, n), make([]float64, n), make([]float64, n)
	const chunk = 2048
	block := mat.Zeros(min(chunk, max(total, 1)), n)
	for lo := 0; lo < total; lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		hi := min(total, lo+chunk)
		b := block.Slice(0, hi-lo, 0, n)
		s.Src.Block(lo, hi, b)
		for i := 0; i < hi-lo; i++ {
			for j, x := range b.RawRow(i) {
				d := x - s.Moments.Mean[j]
				d2 := d * d
				m2[j] += d2
				m3[j] += d2 * d
				m4[j] += d2 * d2
			}
		}
	}
	inv := 1 / float64(max(total, 1))
	for j := range m2 {
		m2[j] *= inv
		m3[j] *= inv
		m4[j] *= inv
		if math.IsNaN(m4[j]) || math.IsInf(m4[j], 0) || math.IsNaN(m3[j]) || math.IsInf(m3[j], 0) {
			return nil, nil, nil, fmt.Errorf("linear: %w: the fourth moment of variable %d is %v", ErrNotFinite, j, m4[j])
		}
	}
	return m2, m3, m4, nil
}

// maxNoiseKurtosis bounds the estimated fourth cumulants of the observed
// noises by maxNoiseKurtosis sigma_i^4 above (the excess kurtosis of
// chi2_1; 6 for the exponential, 3 for the Laplace) and by -2 sigma_i^4
// below (no distribution has an excess kurtosis below -2), sigma_i^2
// their variances from DLD, unless DAGOptions.MaxNoiseSkew is negative.
const maxNoiseKurtosis = 12.0

// noiseRounds caps the alternations of LearnDAG's fourth-order route
// between the noise cumulants and the directions (see noiseTerms).
const noiseRounds = 5

// noiseTerms describe the observation noise of the whitened samples y =
// W^T (x - mu) of x = M e + eps (the hidden-variable learners; M = A G
// diag(sd(eta)), e the standardised hidden noises): y = V e + W^T eps
// with V = W^T M orthonormal (W^T L W = I for the low-rank part L = M
// M^T), so the covariance of y is C = I + W^T D W, not I, and its
// cumulants gain the observation noises' terms. For a unit u, with w_l =
// W^T e_l the rows of W,
//
//	kappa3(u) = E[(u.y)^3] - sum_l mu_l (u.w_l)^3,
//	kappa4(u) = E[(u.y)^4] - 3 (u^T C u)^2 - sum_l kappa_l (u.w_l)^4,
//
// mu_l and kappa_l the third and fourth cumulants of eps_l, are those of
// the hidden noise e_j when u = v_j; and the contractions the fixed
// points take,
//
//	E[(u.y)^2 y] - sum_l mu_l (u.w_l)^2 w_l,
//	E[(u.y)^3 y] - 3 (u^T C u) C u - sum_l kappa_l (u.w_l)^3 w_l,
//
// are sum_j s_j (u.v_j)^2 v_j and sum_j k_j (u.v_j)^3 v_j (s_j, k_j the
// skewness and excess kurtosis of e_j), as without noise. The noise
// terms cost O(n k) per direction beyond the pass over the samples.
//
// The noise cumulants come from the diagonal ones: with S = (W^+)^T V
// = M (the columns of the mixing matrix, in the directions' order and
// signs), the third and fourth cumulants of x_l are sum_j s_j S_lj^3 +
// mu_l and sum_j k_j S_lj^4 + kappa_l; given the directions, these and
// the cumulants of the projections p_j = v_j.y, sum_l P_lj^3 mu_l + s_j
// and sum_l P_lj^4 kappa_l + k_j (P = W V), are two k x k linear systems
// for the hidden noises' cumulants, whose solutions give the noises'
// (bounded by DAGOptions.MaxNoiseSkew and maxNoiseKurtosis, as the
// third-order route bounds its estimates; the hidden cumulants are then
// measured again with the bounded noise terms). LearnDAG alternates
// between this estimate and the fixed point, as the third-order route
// alternates between its noise estimate and the tensor decomposition.
type noiseTerms struct {
	w, winvT *mat.Dense // n x k: W and (W^+)^T
	cov      *mat.Dense // k x k: the covariance of y
	// m2, m3, m4 are the centred diagonal moments of x; noiseVar the
	// variances of the observed noises (nil: no bounds), maxSkew the
	// bound DAGOptions.MaxNoiseSkew (negative: none).
	m2, m3, m4 []float64
	noiseVar   []float64
	maxSkew    float64
	// third and fourth are the current estimates of mu and kappa (nil:
	// zero).
	third, fourth []float64
	// Set by at and weigh for the step of fixedPoint.
	pw, cv *mat.Dense // W V and C V
	q      []float64  // v_j^T C v_j
	a, b   []float64  // the weights of the step (before b's factor 3)
}

// at prepares the step of fixedPoint at the directions v.
func (nt *noiseTerms) at(v *mat.Dense) {
	_, k := v.Dims()
	if nt.pw == nil {
		nt.pw, nt.cv = &mat.Dense{}, &mat.Dense{}
		nt.q, nt.a, nt.b = make([]float64, k), make([]float64, k), make([]float64, k)
	}
	nt.pw.Mul(nt.w, v)
	nt.cv.Mul(nt.cov, v)
	for j := 0; j < k; j++ {
		var q float64
		for i := 0; i < k; i++ {
			q += v.At(i, j) * nt.cv.At(i, j)
		}
		nt.q[j] = q
	}
}

// correct turns the cumulants k3 = E[p^3] and k4 = E[p^4] - 3 of the
// projections (cumulantsOf) at the directions of at into the noise-free
// kappa3 and kappa4.
func (nt *noiseTerms) correct(k3, k4 []float64) {
	n, k := nt.pw.Dims()
	for j := 0; j < k; j++ {
		k4[j] += 3 - 3*nt.q[j]*nt.q[j]
	}
	for l := 0; l < n; l++ {
		row := nt.pw.RawRow(l)
		for j, x := range row {
			x2 := x * x
			if nt.third != nil {
				k3[j] -= nt.third[l] * x2 * x
			}
			if nt.fourth != nil {
				k4[j] -= nt.fourth[l] * x2 * x2
			}
		}
	}
}

// weigh records the weights a_j (of E[p^2 y]) and b_j (of E[p^3 y]) of
// the step.
func (nt *noiseTerms) weigh(a, b []float64) {
	copy(nt.a, a)
	copy(nt.b, b)
}

// update turns g = Y^T H (H = a p^2 + b p^3, column-wise) into the step:
// g/N - 3 b_j q_j C v_j - W^T R, R_lj = a_j mu_l P_lj^2 + b_j kappa_l
// P_lj^3.
func (nt *noiseTerms) update(g *mat.Dense, inv float64) {
	k, _ := g.Dims()
	for i := 0; i < k; i++ {
		row := g.RawRow(i)
		for j := range row {
			row[j] = row[j]*inv - 3*nt.b[j]*nt.q[j]*nt.cv.At(i, j)
		}
	}
	if nt.third == nil && nt.fourth == nil {
		return
	}
	n, _ := nt.pw.Dims()
	r := mat.Zeros(n, k)
	for l := 0; l < n; l++ {
		row, out := nt.pw.RawRow(l), r.RawRow(l)
		for j, x := range row {
			var v float64
			if nt.third != nil {
				v += nt.a[j] * nt.third[l] * x * x
			}
			if nt.fourth != nil {
				v += nt.b[j] * nt.fourth[l] * x * x * x
			}
			out[j] = v
		}
	}
	var wr mat.Dense
	wr.MulAT(nt.w, r)
	g.Sub(g, &wr)
}

// projectedCov returns V^T C V, the covariance of the projections y v.
func (nt *noiseTerms) projectedCov(v *mat.Dense) *mat.Dense {
	var cv, out mat.Dense
	cv.Mul(nt.cov, v)
	out.MulAT(v, &cv)
	return &out
}

// components measures the directions v on the noisy samples y: the
// skewness and excess kurtosis of the hidden noises they recover, with
// the estimates of the observation noises' cumulants (noise3, noise4)
// that go with them (see noiseTerms), the standard errors of the
// skewness (those of the standardised projections, times spread^(3/2))
// and the spread E[p_j^2]; for both cumulants the contrast sum_j
// s_j^2/12 + k_j^2/48.
func (nt *noiseTerms) components(y, v *mat.Dense, choice Cumulants) (*components, error) {
	nSamples, k := y.Dims()
	n, _ := nt.w.Dims()
	var p, pw, s mat.Dense
	p.Mul(y, v)
	pw.Mul(nt.w, v)
	s.Mul(nt.winvT, v)
	m2 := make([]float64, k)
	c3 := make([]float64, k)
	c4 := make([]float64, k)
	for r := 0; r < nSamples; r++ {
		for j, x := range p.RawRow(r) {
			x2 := x * x
			m2[j] += x2
			c3[j] += x2 * x
			c4[j] += x2 * x2
		}
	}
	inv := 1 / float64(nSamples)
	for j := range m2 {
		m2[j] *= inv
		c3[j] *= inv
		c4[j] = c4[j]*inv - 3*m2[j]*m2[j]
	}
	d3 := make([]float64, n)
	d4 := make([]float64, n)
	for l := range d3 {
		d3[l] = nt.m3[l]
		d4[l] = nt.m4[l] - 3*nt.m2[l]*nt.m2[l]
	}
	bound3 := func(l int, x float64) float64 {
		if nt.noiseVar == nil || nt.maxSkew < 0 {
			return x
		}
		b := nt.maxSkew * math.Pow(math.Max(nt.noiseVar[l], 0), 1.5)
		return math.Max(-b, math.Min(b, x))
	}
	bound4 := func(l int, x float64) float64 {
		if nt.noiseVar == nil || nt.maxSkew < 0 {
			return x
		}
		v2 := nt.noiseVar[l] * nt.noiseVar[l]
		return math.Max(-2*v2, math.Min(maxNoiseKurtosis*v2, x))
	}
	skew, mu, err := noiseSplit(c3, d3, &pw, &s, 3, bound3)
	if err != nil {
		return nil, err
	}
	kurt, kappa, err := noiseSplit(c4, d4, &pw, &s, 4, bound4)
	if err != nil {
		return nil, err
	}
	c := &components{v: v, skew: skew, kurt: kurt, choice: choice, converged: true, n: nSamples, spread: m2, noise3: mu, noise4: kappa}
	// The standard errors of the skewness of the standardised
	// projections, scaled back.
	sd := make([]float64, k)
	std3 := make([]float64, k)
	for j := range sd {
		sd[j] = math.Sqrt(m2[j])
		std3[j] = c3[j] / (m2[j] * sd[j])
	}
	for r := 0; r < nSamples; r++ {
		row := p.RawRow(r)
		for j := range row {
			row[j] /= sd[j]
		}
	}
	c.se3 = standardErrors(&p, std3)
	for j := range c.se3 {
		c.se3[j] *= m2[j] * sd[j]
	}
	if choice == CumulantsBoth {
		for j := 0; j < k; j++ {
			c.contrast += skew[j]*skew[j]/12 + kurt[j]*kurt[j]/48
		}
	}
	return c, nil
}

// noiseSplit splits the cumulants of order r of the projections (cp, k
// values) and of the observed variables (cx, n values) into the hidden
// noises' (h) and the observation noises' (e): cp_j = h_j + sum_l
// P_lj^r e_l and cx_l = sum_j S_lj^r h_j + e_l. It solves (I - (P^r)^T
// S^r) h = cp - (P^r)^T cx, sets e = bound(cx - S^r h), and returns h
// measured again with the bounded e: h_j = cp_j - sum_l P_lj^r e_l.
func noiseSplit(cp, cx []float64, pw, s *mat.Dense, r int, bound func(l int, x float64) float64) (h, e []float64, err error) {
	n, k := pw.Dims()
	pr, sr := powered(pw, r), powered(s, r)
	var a mat.Dense
	a.MulAT(pr, sr) // a_ji = sum_l P_lj^r S_li^r
	m := mat.Identity(k)
	m.Sub(m, &a)
	rhs := make([]float64, k)
	ptx := pr.MulVecT(nil, cx)
	for j := range rhs {
		rhs[j] = cp[j] - ptx[j]
	}
	minv, err := inverse(m)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the split of the noise cumulants of order %d is singular: %v", ErrRankDeficient, r, err)
	}
	h0 := minv.MulVec(nil, rhs)
	sh := sr.MulVec(nil, h0)
	e = make([]float64, n)
	for l := range e {
		e[l] = bound(l, cx[l]-sh[l])
	}
	pe := pr.MulVecT(nil, e)
	h = make([]float64, k)
	for j := range h {
		h[j] = cp[j] - pe[j]
	}
	return h, e, nil
}

// powered returns the entries of m raised to the power r.
func powered(m *mat.Dense, r int) *mat.Dense {
	out := m.Clone()
	rows, _ := out.Dims()
	for i := 0; i < rows; i++ {
		row := out.RawRow(i)
		for j, x := range row {
			v := x
			for range r - 1 {
				v *= x
			}
			row[j] = v
		}
	}
	return out
}

// hiddenStart returns the orthonormal matrix nearest to the matrix whose
// column j is W^T a_j normalised, a_j the column j of the coefficients
// A (n x k): the whitened directions of the hidden noises when Lambda =
// 0, the hidden-variable counterpart of variableStart.
func hiddenStart(w, a *mat.Dense) (*mat.Dense, error) {
	var m mat.Dense
	m.MulAT(w, a)
	k, _ := m.Dims()
	col := make([]float64, k)
	for j := 0; j < k; j++ {
		m.Col(col, j)
		var nr float64
		for _, x := range col {
			nr += x * x
		}
		if nr = math.Sqrt(nr); nr > 0 {
			for i := range col {
				col[i] /= nr
			}
		}
		m.SetCol(j, col)
	}
	return symOrth(&m)
}

// loadWhitened returns the whitened samples of fm for W (n x k) after
// checking their memory: the samples, the projections of the fixed
// point, of the measurements and their powers in the pairwise check,
// the coarse subsample and its projections (a quarter each), and a
// block of raw samples. who names the learner in the errors.
func loadWhitened(ctx context.Context, fm FourthMoments, w *mat.Dense, o *DAGOptions, who string) (*mat.Dense, error) {
	n, k := w.Dims()
	need := size.Add(size.Scale(4, size.Float64s(fm.NumSamples(), k)), size.Scale(2, size.Float64s(fm.NumSamples()/coarseStride, k)), size.Float64s(min(fm.NumSamples(), 2048), n))
	if err := mat.CheckMemory(fmt.Sprintf("the whitened samples (%d x %d, four and a half times)", fm.NumSamples(), k), need, o.MaxMemory); err != nil {
		return nil, fmt.Errorf("linear: %s: %w", who, err)
	}
	progress(o.Progress, "whitened samples", 0, 1)
	y, err := fm.WhitenedSamples(ctx, w)
	progress(o.Progress, "whitened samples", 1, 1)
	return y, err
}

// hiddenDirections finds the noise directions of LearnDAG by the
// cumulants that o.Cumulants selects (see DAGOptions.Cumulants): the
// third by ECA (e.run) as before, and, when the moments are
// NoisyFourthMoments and the choice calls for it, the fourth by the
// fixed point of its noise-corrected contraction from hiddenStart(W,
// a), alternating with the estimate of the observation noises' fourth
// cumulants, and both by the negentropy contrast from there.
func (e *eca) hiddenDirections(ctx context.Context, rng *rand.Rand, a *mat.Dense) (*components, error) {
	o := e.opts
	fm, fourthAvail := e.third.(NoisyFourthMoments)
	want := o.Cumulants
	if (want == CumulantsFourth || want == CumulantsBoth) && !fourthAvail {
		return nil, fmt.Errorf("%w: DAGOptions.Cumulants = %v needs NoisyFourthMoments (such as SampleThird); %T does not give them", ErrBadOption, want, e.third)
	}
	var y *mat.Dense
	var nt *noiseTerms
	load := func() error {
		if y != nil {
			return nil
		}
		var err error
		if y, err = loadWhitened(ctx, fm, e.w, o, "LearnDAG"); err != nil {
			return err
		}
		m2, m3, m4, err := fm.DiagonalMoments(ctx)
		if err != nil {
			return err
		}
		var cov mat.Dense
		cov.MulAT(y, y)
		cov.Scale(1/float64(max(fm.NumSamples(), 1)), &cov)
		nt = &noiseTerms{w: e.w, winvT: e.winvT, cov: &cov, m2: m2, m3: m3, m4: m4, noiseVar: e.noiseVar, maxSkew: o.MaxNoiseSkew}
		return nil
	}
	if want == CumulantsAuto || want == CumulantsThird {
		v, eig, err := e.run(ctx, rng)
		if err != nil && (want == CumulantsThird || !fourthAvail || ctx.Err() != nil) {
			return nil, err
		}
		if err == nil {
			_, k := v.Dims()
			c := &components{v: v, skew: eig, kurt: make([]float64, k), choice: CumulantsThird, iters: e.iters, converged: true, noise3: e.noiseThird}
			for j := range c.kurt {
				c.kurt[j] = math.NaN()
			}
			if want == CumulantsAuto && fourthAvail {
				// Whitened samples beyond MaxMemory leave the third.
				if err := load(); errors.Is(err, mat.ErrTooLarge) {
					fourthAvail = false
				} else if err != nil {
					return nil, err
				} else {
					m, err := nt.components(y, v, CumulantsThird)
					if err != nil {
						return nil, err
					}
					c.kurt, c.se3, c.n, c.spread = m.kurt, m.se3, m.n, m.spread
				}
			}
			if want == CumulantsThird || !fourthAvail || c.skewed() {
				if err := checkSkewed(eig); err != nil {
					return nil, err
				}
				return c, nil
			}
		}
	}
	if err := load(); err != nil {
		return nil, err
	}
	start, err := hiddenStart(e.w, a)
	if err != nil {
		return nil, err
	}
	c, err := fourthOrderFrom(ctx, y, start, nt, rng, o)
	if err != nil {
		return nil, err
	}
	iters := c.iters
	for range noiseRounds {
		nt.fourth = c.noise4
		progress(o.Progress, "noise fourth cumulants", 0, 1)
		v, it, conv, err := iterate(ctx, y, nil, c.v, kurtosisContrast, o, fourthTol, nil, nt)
		if err != nil {
			return nil, err
		}
		iters += it
		if c, err = nt.components(y, v, CumulantsFourth); err != nil {
			return nil, err
		}
		c.converged = conv
		if it <= 1 {
			break
		}
	}
	progress(o.Progress, "noise fourth cumulants", 1, 1)
	c.iters = iters
	if want == CumulantsFourth || want == CumulantsAuto && !c.skewHelps() {
		return c, nil
	}
	nt.third = c.noise3
	return fixedPointFrom(ctx, y, c, o, nt)
}

// thirdOnly returns an error matching ErrBadOption when o asks for the
// fourth cumulant (CumulantsFourth or CumulantsBoth) of a learner that
// has only third moments: the cross-moment learners, whose fourth cross
// cumulant would need a fourth view.
func (o *DAGOptions) thirdOnly(who string) error {
	if o.Cumulants == CumulantsFourth || o.Cumulants == CumulantsBoth {
		return fmt.Errorf("%w: %s: DAGOptions.Cumulants = %v: the cross-moment learners use the third cumulant only", ErrBadOption, who, o.Cumulants)
	}
	return nil
}
