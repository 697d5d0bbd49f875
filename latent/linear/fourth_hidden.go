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

// NoisyFourthMoments are FourthMoments that also give the moments of
// the observed variables from which LearnDAG estimates the third and
// fourth cumulants of the observation noises on its fourth-order route
// (the counterpart of the diagonal third moments that
// WhitenedThirdMoments give the third-order route). SampleThird
// implements it.
type NoisyFourthMoments interface {
	FourthMoments
	// DiagonalMoments returns the moments of each observed variable
	// with the whitened samples y = W^T (x - mu), for W n x k and mu the
	// mean of the moments.
	DiagonalMoments(ctx context.Context, w *mat.Dense) (*DiagonalMoments, error)
}

// DiagonalMoments are centred moments of each observed variable x_i
// (x_i - mu_i below) alone and with the whitened samples y = W^T (x -
// mu).
type DiagonalMoments struct {
	// M2, M3 and M4 are E[x_i^2], E[x_i^3] and E[x_i^4] (n values each).
	M2, M3, M4 []float64
	// XY, X2Y and X3Y are n x k: row i holds E[x_i y], E[x_i^2 y] and
	// E[x_i^3 y].
	XY, X2Y, X3Y *mat.Dense
}

// DiagonalMoments returns the diagonal moments of Src (centred by
// Moments.Mean) for W, in one pass over Src (3 N n k multiply-adds for
// the products with y); or an error matching ErrNotFinite if one is NaN
// or infinite.
func (s *SampleThird) DiagonalMoments(ctx context.Context, w *mat.Dense) (*DiagonalMoments, error) {
	checkCtx("SampleThird.DiagonalMoments", ctx)
	n, k := w.Dims()
	total := s.Src.NumSamples()
	if s.Src.Dim() != n || len(s.Moments.Mean) != n {
		panic(fmt.Sprintf("linear: SampleThird.DiagonalMoments: W has %d rows for samples of dimension %d", n, s.Src.Dim()))
	}
	d := &DiagonalMoments{M2: make([]float64, n), M3: make([]float64, n), M4: make([]float64, n), XY: mat.Zeros(n, k), X2Y: mat.Zeros(n, k), X3Y: mat.Zeros(n, k)}
	const chunk = 2048
	rows := min(chunk, max(total, 1))
	block, b2, b3, yb := mat.Zeros(rows, n), mat.Zeros(rows, n), mat.Zeros(rows, n), mat.Zeros(rows, k)
	var t mat.Dense
	for lo := 0; lo < total; lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(total, lo+chunk)
		b := block.Slice(0, hi-lo, 0, n)
		s.Src.Block(lo, hi, b)
		q2, q3 := b2.Slice(0, hi-lo, 0, n), b3.Slice(0, hi-lo, 0, n)
		for i := 0; i < hi-lo; i++ {
			row, r2, r3 := b.RawRow(i), q2.RawRow(i), q3.RawRow(i)
			for j, x := range row {
				v := x - s.Moments.Mean[j]
				v2 := v * v
				row[j], r2[j], r3[j] = v, v2, v2*v
				d.M2[j] += v2
				d.M3[j] += v2 * v
				d.M4[j] += v2 * v2
			}
		}
		y := yb.Slice(0, hi-lo, 0, k)
		y.Mul(b, w)
		for _, acc := range []struct{ x, dst *mat.Dense }{{b, d.XY}, {q2, d.X2Y}, {q3, d.X3Y}} {
			t.MulAT(acc.x, y)
			acc.dst.Add(acc.dst, &t)
		}
	}
	inv := 1 / float64(max(total, 1))
	for j := range d.M2 {
		d.M2[j] *= inv
		d.M3[j] *= inv
		d.M4[j] *= inv
	}
	for _, m := range []*mat.Dense{d.XY, d.X2Y, d.X3Y} {
		m.Scale(inv, m)
	}
	if !d.XY.IsFinite() || !d.X2Y.IsFinite() || !d.X3Y.IsFinite() || !mat.New(1, n, d.M4).IsFinite() || !mat.New(1, n, d.M3).IsFinite() {
		return nil, fmt.Errorf("linear: %w: a diagonal moment of the samples", ErrNotFinite)
	}
	return d, nil
}

// maxNoiseKurtosis bounds the estimated fourth cumulants of the observed
// noises by maxNoiseKurtosis sigma_i^4 above (the excess kurtosis of
// chi2_1; 6 for the exponential, 3 for the Laplace) and by -2 sigma_i^4
// below (no distribution has an excess kurtosis below -2), sigma_i^2
// their variances from DLD, unless DAGOptions.MaxNoiseSkew is negative.
const maxNoiseKurtosis = 12.0

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
// The noise cumulants need no directions. The slice of the fourth
// cumulant of x at (l, l, l), the n-vector c_l = E[x_l^3 x] - 3 E[x_l^2]
// E[x_l x], is sum_j k_j S_lj^3 S_j + kappa_l e_l with S = M, whose
// columns span the range of L: the part of c_l outside that range (the
// projection I - U U^T, U the top k eigenvectors of L, (W^+)^T = U
// Lambda^(1/2)) is kappa_l's alone, so
//
//	kappa_l = (c_ll - r_l . (E[x_l^3 y] - 3 E[x_l^2] E[x_l y])) / (1 - r_l . w_l),
//	mu_l    = (E[x_l^3] - r_l . E[x_l^2 y]) / (1 - r_l . w_l),
//
// r_l the row l of (W^+)^T and c_ll = E[x_l^4] - 3 E[x_l^2]^2 (the same
// for the third cumulant, whose slice is E[x_l^2 x]): one pass over the
// samples (NoisyFourthMoments.DiagonalMoments), the fourth-order
// counterpart of the DLD of slices Psi(zeta) that DAGOptions.Zetas
// selects for the third. With sampled moments the estimates of the
// strongly observed variables (r_l . w_l near 1) are noisy, and they
// are bounded by MaxNoiseSkew sigma_l^3 and by -2 sigma_l^4 and
// maxNoiseKurtosis sigma_l^4, sigma_l^2 the noise variances from DLD
// (no bounds when MaxNoiseSkew is negative); the bounded terms enter
// through (u.w_l)^4, small where the signal is strong.
type noiseTerms struct {
	w, winvT *mat.Dense // n x k: W and (W^+)^T
	cov      *mat.Dense // k x k: the covariance of y
	// third and fourth are the estimates of mu and kappa.
	third, fourth []float64
	// Set by at and weigh for the step of fixedPoint.
	pw, cv *mat.Dense // W V and C V
	r      *mat.Dense // update's scratch, n x k
	q      []float64  // v_j^T C v_j
	a, b   []float64  // the weights of the step (before b's factor 3)
}

// newNoiseTerms returns the noise terms of the whitened samples y (N x
// k) for the whitening w and (W^+)^T winvT, from the diagonal moments
// dm, with the noise variances noiseVar (nil: no bounds) and the bound
// maxSkew (DAGOptions.MaxNoiseSkew; negative: no bounds).
func newNoiseTerms(y, w, winvT *mat.Dense, dm *DiagonalMoments, noiseVar []float64, maxSkew float64) *noiseTerms {
	nSamples, _ := y.Dims()
	n, _ := w.Dims()
	var cov mat.Dense
	cov.MulAT(y, y)
	cov.Scale(1/float64(max(nSamples, 1)), &cov)
	nt := &noiseTerms{w: w, winvT: winvT, cov: &cov, third: make([]float64, n), fourth: make([]float64, n)}
	for l := 0; l < n; l++ {
		r, wl := winvT.RawRow(l), w.RawRow(l)
		den := 1 - dot(r, wl)
		x3, x2, x1 := dm.X3Y.RawRow(l), dm.X2Y.RawRow(l), dm.XY.RawRow(l)
		var p3, p4 float64
		for j, rj := range r {
			p3 += rj * x2[j]
			p4 += rj * (x3[j] - 3*dm.M2[l]*x1[j])
		}
		mu := (dm.M3[l] - p3) / den
		kappa := (dm.M4[l] - 3*dm.M2[l]*dm.M2[l] - p4) / den
		if !(den > 0) {
			mu, kappa = 0, 0
		}
		if noiseVar != nil && maxSkew >= 0 {
			v := math.Max(noiseVar[l], 0)
			b3 := maxSkew * math.Pow(v, 1.5)
			mu = math.Max(-b3, math.Min(b3, mu))
			kappa = math.Max(-2*v*v, math.Min(maxNoiseKurtosis*v*v, kappa))
		}
		nt.third[l], nt.fourth[l] = mu, kappa
	}
	return nt
}

// dot returns the inner product of a and b.
func dot(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		s += x * b[i]
	}
	return s
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
	if rr, rc := nt.rDims(); rr != n || rc != k {
		nt.r = mat.Zeros(n, k) // every entry is written below, each step
	}
	r := nt.r
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

// rDims returns the shape of update's scratch (0 x 0 before the first
// step).
func (nt *noiseTerms) rDims() (int, int) {
	if nt.r == nil {
		return 0, 0
	}
	return nt.r.Dims()
}

// projectedCov returns V^T C V, the covariance of the projections y v.
func (nt *noiseTerms) projectedCov(v *mat.Dense) *mat.Dense {
	var cv, out mat.Dense
	cv.Mul(nt.cov, v)
	out.MulAT(v, &cv)
	return &out
}

// components measures the directions v on the noisy samples y: the
// skewness and excess kurtosis of the hidden noises they recover (those
// of the projections p_j = v_j.y less the observation noises' terms,
// see noiseTerms), the standard errors of the skewness (those of the
// standardised projections, times spread^(3/2)), the spread E[p_j^2],
// and the noise estimates; for both cumulants the contrast sum_j
// s_j^2/12 + k_j^2/48.
func (nt *noiseTerms) components(y, v *mat.Dense, choice Cumulants) (*components, error) {
	nSamples, k := y.Dims()
	var p, pw mat.Dense
	p.Mul(y, v)
	pw.Mul(nt.w, v)
	m2 := make([]float64, k)
	skew := make([]float64, k)
	kurt := make([]float64, k)
	for r := 0; r < nSamples; r++ {
		for j, x := range p.RawRow(r) {
			x2 := x * x
			m2[j] += x2
			skew[j] += x2 * x
			kurt[j] += x2 * x2
		}
	}
	inv := 1 / float64(nSamples)
	std3 := make([]float64, k)
	for j := range m2 {
		m2[j] *= inv
		skew[j] *= inv
		kurt[j] = kurt[j]*inv - 3*m2[j]*m2[j]
		std3[j] = skew[j] / math.Pow(m2[j], 1.5)
	}
	n, _ := pw.Dims()
	for l := 0; l < n; l++ {
		for j, x := range pw.RawRow(l) {
			x3 := x * x * x
			skew[j] -= nt.third[l] * x3
			kurt[j] -= nt.fourth[l] * x3 * x
		}
	}
	c := &components{v: v, skew: skew, kurt: kurt, choice: choice, converged: true, n: nSamples, spread: m2, noise3: nt.third, noise4: nt.fourth}
	// The standard errors of the skewness of the standardised
	// projections, scaled back.
	sd := make([]float64, k)
	for j := range sd {
		sd[j] = math.Sqrt(m2[j])
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
// fixed point of its noise-corrected contraction (see noiseTerms) from
// hiddenStart(W, a), and both by the negentropy contrast from there.
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
		n, k := e.w.Dims()
		if err := mat.CheckMemory(fmt.Sprintf("the diagonal moments of %d variables", n), size.Add(size.Float64s(3*n, k), size.Float64s(3*min(fm.NumSamples(), 2048), n)), o.MaxMemory); err != nil {
			return fmt.Errorf("linear: LearnDAG: %w", err)
		}
		dm, err := fm.DiagonalMoments(ctx, e.w)
		if err != nil {
			return err
		}
		nt = newNoiseTerms(y, e.w, e.winvT, dm, e.noiseVar, o.MaxNoiseSkew)
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
	if want == CumulantsFourth || want == CumulantsAuto && !c.skewHelps() {
		return c, nil
	}
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
