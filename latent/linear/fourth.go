package linear

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/assign"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

// Cumulants selects the cumulants from which LearnObservedBN and
// LearnDAG find the independent noise directions
// (DAGOptions.Cumulants), and reports the choice (ObservedBN.Cumulants,
// DAG.Cumulants).
//
// # The cumulants
//
// With x = G eta (G = (I - Lambda)^{-1}, eta independent and centred)
// and W a whitening (W^T Sigma W = I), the whitened data y = W^T x =
// sum_i (W^T g_i) eta_i have identity covariance, so the directions v_i
// = W^T g_i sd(eta_i) are orthonormal and y = sum_i v_i e_i with e_i =
// eta_i / sd(eta_i) independent of unit variance. Cumulants add over
// independent summands, so
//
//	third cumulant  E[y(x)y(x)y]             = sum_i s_i v_i(x)v_i(x)v_i,
//	fourth cumulant E[y^(x)4] - 3 Sym(I(x)I) = sum_i k_i v_i^(x)4,
//
// s_i the skewness and k_i the excess kurtosis of eta_i. Both are
// orthogonally decomposable in the same v_i: the third separates skewed
// noises (ECA, see ECATensor), the fourth any noises of non-zero excess
// kurtosis, symmetric or not (uniform: -1.2, Laplace: 3). Then (W^+)^T V
// is G up to the order and scale of its columns.
//
// # The third cumulant by a fixed point
//
// With DAGOptions.Method = ECATensor (the default) the whitened third
// moment T (k x k x k, packed) is first decomposed by the simultaneous
// fixed point u_j <- T(I, u_j, u_j) on all k directions at once, each
// step k contractions of T (no pass over the samples) followed by the
// symmetric orthogonalisation described below; in the basis v_i a step
// maps the coefficients c_i to s_i c_i^2 (normalised), the third-order
// power method, which converges quadratically on exact moments. It
// starts at the variables' whitened directions, as the fourth-order
// route below, and stops once no direction moves by more than
// max(DAGOptions.Tol, 1e-12) in 1 - |cos|, within DAGOptions.MaxIter
// steps. Its directions are kept when it converged and they pass the
// pairwise check below with the skewness contrast skew(theta)^2 +
// skew(theta + pi/2)^2 of each rotated pair (from T in the directions,
// which the last contractions give: for two separated noises it is
// (cos^6 + sin^6)(s_i^2 + s_j^2), largest at no rotation). Otherwise
// the robust tensor power method of ECA (random starts and deflation;
// see ECATensor) decomposes T as before. The fixed point treats the
// directions alike and accumulates no deflation error: on a random DAG
// of 20 variables (N = 20000, skewed noises) its directions were within
// 7.8e-4 of the true ones in 1 - |cos|, ECA's within 1.9e-3. On 180
// random DAGs (p = 10, 20 and 50, expected degree 2 and 4, weights
// uniform in +-[0.5, 2], N = 1000, 5000 and 20000, exponential and
// chi-square noises) it passed the check every time, in 5 to 30 steps,
// and at p = 50, N = 5000 the whole learner took 0.034 CPU s per data
// set where it had taken 0.16 with ECA.
//
// # The fourth cumulant by an implicit contraction
//
// The fourth cumulant is never formed (it has k^4/24 distinct entries);
// its contraction with a unit vector u three times,
//
//	K(u, u, u) = E[(u.y)^3 y] - 3 u = sum_i k_i (u.v_i)^3 v_i,
//
// costs one pass over the N whitened samples, and k of them at once,
// for the columns of a k x k matrix U, two N x k x k matrix products.
// The fixed point u <- K(u, u, u)/|K(u, u, u)| is the power method of
// the fourth cumulant: in the basis v_i it maps the coefficients c_i to
// k_i c_i^3 (normalised), so on exact moments it converges cubically to
// a v_i from almost every start (the symmetric counterpart of FastICA
// with the kurtosis contrast); on sampled moments the last steps
// converge linearly. All k directions are iterated at once and made
// orthonormal after every step by the symmetric orthogonalisation U <-
// G (G^T G)^{-1/2} (= P Q^T from the singular value decomposition G = P
// S Q^T), which treats the directions alike and accumulates no deflation
// error. The first start is the directions the noises would have
// without edges (Lambda = 0): the whitened directions W^T e_i of the
// variables, normalised, made orthonormal in the same symmetric way. In
// the rare case that its result fails the pairwise check below, further
// starts are the eigenvectors of random slices
//
//	Q(M) = E[(y^T M y) y y^T] - tr(M) I - 2 M = sum_i k_i (v_i^T M v_i) v_i v_i^T,
//
// M diagonal with Gaussian entries (one more pass), up to three starts
// in all (each polished, see below), until two of them converge to the
// same directions (their fourth-order solutions within 1e-4 in 1 -
// |cos|, then the later one is not polished; or their polished
// directions within 1e-6), and the converged one of largest log cosh
// negentropy sum_j (E[log cosh(u_j.y)] - E[log cosh(z)])^2 (z standard
// Gaussian) is kept.
//
// The pairwise check accepts the first start's polished directions
// when, for every pair of them, the rotation within their plane that
// maximises the pair's kurtosis contrast kappa4^2 + kappa4'^2 (from the
// pair's fourth moments E[p_i^a p_j^b], two k x k products for all
// pairs, on a grid of 36 angles) is within pi/8 of no rotation: a
// spurious fixed point of the symmetric iteration mixes some directions,
// and a rotation of a pair of them unmixes it, while for separated
// noises the best rotation is off zero by the sampling error only. A
// pair of nearly mesokurtic noises fails it, and costs the further
// starts. On 40 random DAGs (p = 10, 20 and 50, expected degree 2 and
// 4, weights uniform in +-[0.5, 2], N = 5000 and 20000, uniform and
// Laplace noises) the first start passed the check every time, and at
// p = 50 the whole route took 13 to 20 fixed-point steps where two
// slice starts had taken 44 to 71.
//
// A run takes its first steps
// (at most 20) on every fourth sample (with at least 2000 and 40 k of
// them), then iterates on all samples until no direction moves by more
// than max(DAGOptions.Tol, 1e-6) in 1 - |cos| (1e-10 for the polish),
// or for DAGOptions.MaxIter steps (the verdict says so). On sampled
// moments the last steps converge linearly, each move a roughly
// constant fraction of the one before; so while the moves shrink at
// least fourfold a step, the run also stops when the next move,
// predicted as the last one times that fraction, would be within the
// tolerance (at p = 50, N = 20000 this saves one step of the fourth
// cumulant's run and one of the polish). A step is one pass over the
// whitened samples in blocks of 256, each block's projections
// transformed and multiplied back while they are in the cache.
//
// The fourth cumulant finds the directions; the fourth power weighs the
// tails heavily, so for heavy-tailed noises its estimate is noisy (the
// sample excess kurtosis of a Laplace has standard error 34/sqrt(N),
// against 4.9/sqrt(N) for a Gaussian). The directions are therefore
// polished by the same fixed point on the log cosh contrast E[log
// cosh(u.y)] (FastICA's: u <- E[y tanh(u.y)] - E[1 - tanh^2(u.y)] u),
// which grows only linearly in the tails; the v_i are its fixed points
// for the noises with E[e tanh(e) - (1 - tanh^2(e))] != 0 (FastICA's
// stability condition, which the usual sub- and super-Gaussian families
// meet). On two random DAGs (p = 50, expected degree 2 and 4, weights
// uniform in +-[0.5, 2], N = 5000, Laplace noises) the polish took the mean structural Hamming distance of the refit
// Lambda from 59 to 2.5.
//
// # Both
//
// When some noises are skewed and others nearly mesokurtic, neither
// cumulant alone separates them all; the combined contrast is then
//
//	J(u) = kappa3(u)^2 / 12 + kappa4(u)^2 / 48,
//
// kappa3(u) = E[(u.y)^3] and kappa4(u) = E[(u.y)^4] - 3 for unit u: the
// Gram-Charlier approximation of the negentropy of u.y, which weighs
// each cumulant by the inverse of its sampling variance under a Gaussian
// (6/N and 24/N). Its gradient on the sphere,
//
//	(kappa3(u)/2) E[(u.y)^2 y] + (kappa4(u)/6) (E[(u.y)^3 y] - 3 u),
//
// is in the basis v_i (kappa3/2) s_i c_i^2 + (kappa4/6) k_i c_i^3, whose
// fixed points with one non-zero c_i are again the v_i; it is iterated in
// the same way from the fourth-order solution (no log cosh polish: log
// cosh is even and blind to skewness).
//
// # The choice
//
// With N samples, a noise counts as kurtic when |excess kurtosis| >=
// max(MinKurtosis, KurtosisSigmas sqrt(24/N)), sqrt(24/N) the standard
// deviation of the sample excess kurtosis of a Gaussian; and as skewed
// when |skewness| >= max(MinSkewness, SkewnessSigmas sqrt(6/N)) (the
// skewness check of LearnDAG) and also |skewness| >= 3 se3, se3 the
// standard error of its sample skewness measured along its direction
// by the delta method (the root mean square over the samples of p^3 -
// m3 - 3p - (3/2) m3 (p^2 - 1), m3 the skewness, over sqrt(N)). The
// second bound matters for heavy tails: a Laplace noise's sample
// skewness has standard error 7.9/sqrt(N), not 2.4/sqrt(N), and the
// third-order ECA, which seeks skewed directions, finds some in
// symmetric Laplace data that pass the first bound. Gaussian noises
// are neither skewed nor kurtic, and nothing separates them. With exact
// moments the bounds are MinSkewness and MinKurtosis.
//
// Before decomposing the whitened third moment T, CumulantsAuto screens
// it: with independent noises of skewness s_i, E[N ||T||_F^2] is about N
// sum_i s_i^2 + E|y|^6, so when N ||T||_F^2 - E|y|^6 (E|y|^6 measured on
// the samples) is below half of N k b^2, b the least skewness that
// counts, not every noise can be skewed, and the third-order ECA is
// skipped for the fourth.
//
// # Hidden variables
//
// LearnDAG whitens the low-rank part of Sigma, not Sigma, so its
// whitened samples y = V e + W^T eps carry the observation noises eps:
// their covariance is C = I + W^T D W and their cumulants gain the
// noises' terms. Its fourth-order route therefore iterates the
// noise-corrected contraction E[(u.y)^3 y] - 3 (u^T C u) C u - sum_i
// kappa_i (u.w_i)^3 w_i (and, for both, E[(u.y)^2 y] - sum_i mu_i
// (u.w_i)^2 w_i), kappa_i and mu_i the fourth and third cumulants of
// eps_i and w_i = W^T e_i. They need no directions: the slice
// E[x_i^3 x] - 3 E[x_i^2] E[x_i x] of the fourth cumulant of x is the
// signal's, in the range of the low-rank part L, plus kappa_i e_i, so
// its part outside that range gives kappa_i (likewise mu_i from E[x_i^2
// x]), from one pass that forms E[x_i^a y] for a = 1, 2, 3
// (NoisyFourthMoments.DiagonalMoments, n x k each); they are bounded by
// 12 sigma_i^4 (above; -2 sigma_i^4 below) and DAGOptions.MaxNoiseSkew
// sigma_i^3, sigma_i^2 the noise variances from DLD. The fixed point
// runs to max(Tol, 1e-10), there being no polish. The skewness and
// excess kurtosis of the hidden
// noises are measured along the directions less the observed noises'
// part, and the Gaussian bounds of the choice scale with the variance s_j =
// E[p_j^2] of each projection (sqrt(6/N) s_j^(3/2) and sqrt(24/N)
// s_j^2; the measured standard error of the skewness likewise).
// CumulantsAuto runs the third-order route first (ECA, as without the
// fourth) and keeps it when every noise it recovers is skewed: then the
// estimate is the third-order one, bit for bit, with the excess
// kurtosis measured besides. A direction that the observation noise
// dominates (s_j large) can fail that test on skewed data; the fourth
// cumulant is then taken. Whitened samples beyond
// DAGOptions.MaxMemory leave CumulantsAuto with the third. There is no
// screening of the third moment (its noise term would blur it).
//
// On two random models of Example 2's size satisfying the conditions of
// the coefficient step (n = 150, k = 25, density 0.3, gap 0.5) with
// uniform and Laplace noises, hidden and observed, CumulantsAuto chose
// the fourth cumulant and the relative Frobenius error of Lambda was
// 0.15 and 0.41 at N = 10000, 0.047 and 0.087 at N = 100000 (the third
// cumulant alone: 163 and 37), about what the third cumulant reaches on
// skewed models of that size (0.040 and 0.11 at N = 100000); the whole
// learner took 7 to 9 s at N = 100000, about 1 s of it the third-order
// route that CumulantsAuto tries first. On skewed models of that size
// CumulantsAuto kept the third cumulant's estimate exactly.
type Cumulants int

const (
	// CumulantsAuto (the default) chooses per data set: the third
	// cumulant when every noise it recovers is skewed; otherwise, when
	// the moments are FourthMoments (NoisyFourthMoments for LearnDAG),
	// the fourth, unless some noise that it recovers is not kurtic and
	// all such noises are skewed: then both. Without them it is the
	// third. The kurtosis is measured on the whitened samples whenever
	// they are at hand (ObservedBN.Kurtosis). When the chosen cumulants
	// do not separate every noise (Gaussian noises, say) the verdict
	// warns.
	CumulantsAuto Cumulants = iota
	// CumulantsThird uses the whitened third moment alone: with
	// ECATensor the fixed point from the variables' directions, checked
	// pairwise, and ECA when the check fails; with the other methods,
	// ECA by DAGOptions.Method. It needs skewed noises, reads no fourth
	// moment and measures no kurtosis (ObservedBN.Kurtosis is NaN).
	CumulantsThird
	// CumulantsFourth uses the whitened fourth cumulant (the fixed point
	// of its contraction, polished by the log cosh contrast); the
	// moments must be FourthMoments.
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
// SkewnessSigmas for the fourth cumulant (see Cumulants).
const (
	// MinKurtosis is the least magnitude of a recovered noise's excess
	// kurtosis accepted with exact moments; with N samples the bound is
	// max(MinKurtosis, KurtosisSigmas sqrt(24/N)), sqrt(24/N) being the
	// standard deviation of the sample excess kurtosis of a Gaussian.
	MinKurtosis = 0.2
	// KurtosisSigmas is the multiple of sqrt(24/N) in the kurtosis
	// bound.
	KurtosisSigmas = 6.0
)

// measuredSigmas is the multiple of the measured standard error of a
// noise's skewness that its |skewness| must reach to count as skewed.
const measuredSigmas = 3.0

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

// contrast is the function whose fixed point fixedPoint iterates.
type contrast int

const (
	// kurtosisContrast: kappa4(u)^2, the update K(u, u, u).
	kurtosisContrast contrast = iota
	// negentropyContrast: kappa3(u)^2/12 + kappa4(u)^2/48.
	negentropyContrast
	// logCoshContrast: E[log cosh(u.y)], the update E[y tanh(u.y)] -
	// E[1 - tanh^2(u.y)] u (FastICA's).
	logCoshContrast
)

// fixedPoint runs the symmetric fixed-point iteration of contrast c on
// the whitened samples y (N x k) from the orthonormal v0 (k x k,
// columns), until every direction moves by at most tol (1 - |cos|) or
// maxIter steps; p, when not nil, is N x k scratch space (only the
// negentropy contrast, whose weights need the cumulants of all the
// projections first, uses it). nt, when not nil, corrects the cumulant
// contrasts for observation noise (see noiseTerms; the log cosh
// contrast takes none). It returns the directions, the number of steps
// and whether it converged.
//
// A step is one pass over y in blocks of fpBlock samples: the block's
// projections P_b = Y_b V, the contrast's function of them in place,
// and Y_b^T H_b added to the k x k update, so that the block and its
// projections are read from cache by the second product instead of
// memory (see contractBlocks).
func fixedPoint(ctx context.Context, y, v0 *mat.Dense, c contrast, maxIter int, tol float64, p *mat.Dense, nt *noiseTerms) (*mat.Dense, int, bool, error) {
	nSamples, k := y.Dims()
	if nt != nil && c == logCoshContrast {
		panic("linear: fixedPoint: the log cosh contrast takes no noise terms")
	}
	v := v0.Clone()
	if p == nil && c == negentropyContrast {
		p = mat.Zeros(nSamples, k)
	}
	g := mat.Zeros(k, k)
	pb := make([]float64, min(fpBlock, nSamples)*k)
	k3 := make([]float64, k)
	k4 := make([]float64, k)
	a := make([]float64, k)
	b := make([]float64, k)
	inv := 1 / float64(nSamples)
	prev := math.Inf(1) // the move of the step before
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, it, false, err
		}
		if nt != nil {
			nt.at(v)
		}
		// g <- Y^T H / N - diag(b) V is the update, H a function of
		// the projections Y V.
		var proj *mat.Dense // the projections, when computed ahead
		switch c {
		case kurtosisContrast, negentropyContrast:
			// H[s][j] = a_j p^2 + b_j p^3 and b_j <- 3 b_j.
			for j := range b {
				a[j], b[j] = 0, 1
			}
			if c == negentropyContrast {
				p.Mul(y, v)
				proj = p
				cumulantsOf(p, k3, k4)
				if nt != nil {
					nt.correct(k3, k4)
				}
				for j := range b {
					a[j], b[j] = k3[j]/2, k4[j]/6
				}
			}
			if nt != nil {
				nt.weigh(a, b)
			}
			contractBlocks(y, v, proj, g, pb, func(blk []float64) {
				for i := 0; i < len(blk); i += k {
					row := blk[i : i+k : i+k]
					for j, x := range row {
						row[j] = x * x * (a[j] + b[j]*x)
					}
				}
			})
			for j := range b {
				b[j] *= 3
			}
		case logCoshContrast:
			clear(b)
			contractBlocks(y, v, nil, g, pb, func(blk []float64) {
				for i := 0; i < len(blk); i += k {
					row := blk[i : i+k : i+k]
					for j, x := range row {
						t := tanhFast(x)
						row[j] = t
						b[j] += 1 - t*t
					}
				}
			})
			for j := range b {
				b[j] *= inv
			}
		}
		if nt != nil {
			nt.update(g, inv)
		} else {
			for i := 0; i < k; i++ {
				row := g.RawRow(i)
				for j := range row {
					row[j] = row[j]*inv - b[j]*v.At(i, j)
				}
			}
		}
		if !g.IsFinite() {
			return nil, it, false, fmt.Errorf("%w: the fourth-order fixed point diverged", ErrNotFinite)
		}
		next, err := symOrth(g)
		if err != nil {
			return nil, it, false, err
		}
		moved := maxMove(next, v)
		v = next
		if moved <= tol || it > 1 && moved <= prev*fpContract && moved*moved <= tol*prev {
			return v, it, true, nil
		}
		prev = moved
	}
	return v, maxIter, false, nil
}

// maxMove returns the largest move, 1 - |cos|, between a column of v
// and the same column of next (both k x k, orthonormal columns): the
// convergence measure of the fixed-point iterations.
func maxMove(next, v *mat.Dense) float64 {
	_, k := v.Dims()
	var moved float64
	for j := 0; j < k; j++ {
		var c float64
		for i := range k {
			c += next.At(i, j) * v.At(i, j)
		}
		moved = math.Max(moved, 1-math.Abs(c))
	}
	return moved
}

// fpContract is the largest ratio of two successive moves of
// fixedPoint (in 1 - |cos|) at which it predicts the next move as the
// last one times that ratio, and stops when the prediction is within
// the tolerance: the fixed point of sampled moments converges
// linearly, each move a roughly constant fraction of the one before
// (1/50 to 1/100 for the log cosh polish at p = 50, N = 20000), so the
// step that would move by less than the tolerance is not taken.
const fpContract = 0.25

// fpBlock is the number of samples in a block of contractBlocks: a
// block of y and its projections (2 x 256 x 50 values at k = 50, 200
// KB) stay in the cache between the two products.
const fpBlock = 256

// contractBlocks sets g (k x k) = Y^T H, H = h(Y V) for the whitened
// samples y (N x k) and the directions v (k x k), block by block of
// fpBlock samples: the block's projections P_b = Y_b V (read from proj
// when it is not nil: the projections of all samples, computed ahead),
// h applied to them in place (h receives them row-major, k values a
// sample, in pb, N_b k values), and Y_b^T H_b added to g. pb is scratch
// space for min(fpBlock, N) k values. The blocks and their order depend
// on N alone, so the sums are the same on every run.
func contractBlocks(y, v, proj, g *mat.Dense, pb []float64, h func(blk []float64)) {
	nSamples, k := y.Dims()
	g.Zero()
	if nSamples == 0 || k == 0 {
		return
	}
	ys, yd := y.Stride(), y.RawData()
	gd := g.RawData()
	for lo := 0; lo < nSamples; lo += fpBlock {
		m := min(nSamples, lo+fpBlock) - lo
		yb := yd[lo*ys:]
		blk := pb[:m*k]
		if proj != nil {
			for i := 0; i < m; i++ {
				copy(blk[i*k:(i+1)*k], proj.RawRow(lo+i))
			}
		} else {
			kernels.Gemm(false, false, m, k, k, 1, yb, ys, v.RawData(), v.Stride(), 0, blk, k)
		}
		h(blk)
		kernels.Gemm(true, false, k, k, m, 1, yb, ys, blk, k, 1, gd, g.Stride())
	}
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
//
// With cov (the covariance C of y, nil: I) the slice is that of the
// fourth cumulant of samples of covariance C, E[(y^T M y) y y^T] -
// tr(M C) C - 2 C M C.
func sliceStart(y *mat.Dense, rng *rand.Rand, cov *mat.Dense) (*mat.Dense, error) {
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
	if cov == nil {
		for i := 0; i < k; i++ {
			qm.Set(i, i, qm.At(i, i)-tr-2*m[i])
		}
	} else {
		var trMC float64
		for i := 0; i < k; i++ {
			trMC += m[i] * cov.At(i, i)
		}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				var cmc float64
				for l := 0; l < k; l++ {
					cmc += cov.At(i, l) * m[l] * cov.At(l, j)
				}
				qm.Set(i, j, qm.At(i, j)-trMC*cov.At(i, j)-2*cmc)
			}
		}
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
// the fixed point of the fourth cumulant, polished by that of log cosh.
// The first start, when the whitening w (n x k) is given, is
// variableStart(w); it alone decides when it converges and its
// directions pass pairwiseOptimal. Otherwise up to fourthStarts starts
// run in all, the others seeded eigenvectors of random slices (see
// sliceStart), until two converged starts agree: when the fourth-order
// solutions of two starts agree (every direction of one within
// rawAgreeTol of one of the other in 1 - |cos|), the later one would
// polish to the directions of the earlier, and is not polished;
// otherwise when their polished directions agree within 1e-6. It keeps
// the converged start (any start if none converged), and of several
// the one of largest log cosh negentropy (logCoshContrastOf; with
// noise, see fourthOrderFrom, of largest sum of squared noise-corrected
// excess kurtoses).
func fourthOrder(ctx context.Context, y, w *mat.Dense, rng *rand.Rand, o *DAGOptions) (*components, error) {
	var first *mat.Dense
	if w != nil {
		var err error
		if first, err = variableStart(w); err != nil {
			return nil, err
		}
	}
	return fourthOrderFrom(ctx, y, first, nil, rng, o)
}

// fourthOrderFrom is fourthOrder with the first start given (nil: none)
// instead of the whitening, and the noise terms nt of noisy samples
// (nil: none). With noise terms the fixed point is that of the fourth
// cumulant corrected for the noise (see noiseTerms), the pairwise check
// uses the projections' covariance, the slices are corrected for it,
// and there is no log cosh polish (log cosh is no cumulant, and the
// noise would bias its fixed points): the fourth cumulant's own run
// goes on to max(DAGOptions.Tol, fourthTol).
func fourthOrderFrom(ctx context.Context, y, first *mat.Dense, nt *noiseTerms, rng *rand.Rand, o *DAGOptions) (*components, error) {
	ysub := subsample(y)
	ws := &workspace{}
	// kept are the converged starts: the fourth-order solution (raw)
	// and the polished components.
	type run struct {
		raw *mat.Dense
		c   *components
	}
	var kept []run
	var cands []*components
	iters := 0
	for start := 0; start < fourthStarts; start++ {
		progress(o.Progress, "fourth-order fixed point", start, fourthStarts)
		var v0 *mat.Dense
		var err error
		if start == 0 && first != nil {
			v0 = first
		} else {
			var cov *mat.Dense
			if nt != nil {
				cov = nt.cov
			}
			if v0, err = sliceStart(y, rng, cov); err != nil {
				return nil, err
			}
		}
		tol := kurtosisTol
		if nt != nil {
			tol = fourthTol // no polish follows
		}
		raw, it, conv, err := iterate(ctx, y, ysub, v0, kurtosisContrast, o, tol, ws, nt)
		iters += it
		if err == nil && conv && slices.ContainsFunc(kept, func(r run) bool { return sameDirections(raw, r.raw, rawAgreeTol) }) {
			break
		}
		v := raw
		if err == nil && nt == nil {
			// The polish by the log cosh contrast.
			var conv2 bool
			v, it, conv2, err = iterate(ctx, y, nil, raw, logCoshContrast, o, fourthTol, ws, nil)
			iters += it
			conv = conv && conv2
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			continue
		}
		if conv && slices.ContainsFunc(kept, func(r run) bool { return sameDirections(v, r.c.v, 1e-6) }) {
			break
		}
		var p mat.Dense
		p.Mul(y, v)
		var c *components
		var cv *mat.Dense
		if nt == nil {
			c = componentsOf(&p, v, CumulantsFourth)
		} else {
			if c, err = nt.components(y, v, CumulantsFourth); err != nil {
				return nil, err
			}
			cv = nt.projectedCov(v)
		}
		c.converged = conv
		cands = append(cands, c)
		if conv {
			kept = append(kept, run{raw, c})
			if start == 0 && first != nil && pairwiseOptimalCov(&p, cv) {
				break
			}
		}
	}
	progress(o.Progress, "fourth-order fixed point", fourthStarts, fourthStarts)
	if len(cands) == 0 {
		return nil, fmt.Errorf("%w: the fourth-order fixed point failed from every start", ErrNoConvergence)
	}
	// The converged candidates, or all of them if none converged.
	pool := cands
	if len(kept) > 0 {
		pool = pool[:0:0]
		for _, r := range kept {
			pool = append(pool, r.c)
		}
	}
	best := pool[0]
	if len(pool) > 1 {
		// With noise the projections are not of unit variance and log
		// cosh would favour the noisiest; the noise-corrected contrast
		// sum_j kappa4_j^2, which the fixed point maximises, decides.
		measure := func(c *components) float64 {
			if nt == nil {
				return logCoshContrastOf(y, c.v)
			}
			var f float64
			for _, k4 := range c.kurt {
				f += k4 * k4
			}
			return f
		}
		best.contrast = measure(best)
		for _, c := range pool[1:] {
			if c.contrast = measure(c); c.contrast > best.contrast {
				best = c
			}
		}
	}
	best.iters = iters
	return best, nil
}

// gaussLogCosh is E[log cosh(z)] for a standard Gaussian z, by the
// trapezoidal rule on [-12, 12] (the integrand's tails beyond are below
// 1e-30).
var gaussLogCosh = func() float64 {
	const n, a = 24000, 12.0
	h := 2 * a / n
	var sum float64
	for i := 0; i <= n; i++ {
		x := -a + float64(i)*h
		w := h
		if i == 0 || i == n {
			w = h / 2
		}
		sum += w * logCosh(x) * math.Exp(-x*x/2)
	}
	return sum / math.Sqrt(2*math.Pi)
}()

// logCosh returns log cosh(x) without overflow.
func logCosh(x float64) float64 {
	x = math.Abs(x)
	return x + math.Log1p(math.Exp(-2*x)) - math.Ln2
}

// The tolerances of the fourth-order fixed point. It stops once every
// direction moves by at most max(DAGOptions.Tol, fourthTol) in 1 -
// |cos|: an angle of about 1.4e-5, far below the sampling error of the
// directions (of order N^{-1/2}), where the default Tol of 1e-14 would
// cost a dozen more steps of linear convergence (the fixed point of
// sampled moments converges linearly, not cubically). The fourth
// cumulant's own run, which the log cosh polish follows, stops at
// max(DAGOptions.Tol, kurtosisTol). With N >=
// coarseStride max(coarseMin, 40 k) samples, each run starts on every
// coarseStride-th sample, at a coarseStride-th of the cost per step,
// until its directions move by at most coarseTol or for coarseSteps
// steps: the subsample's own fixed point can be poorly determined (at p
// = 50 and 5000 rows, the directions of one uniform-noise model still
// moved by 1e-3 after 100 steps), so the coarse phase only brings the
// directions near. Two fourth-order solutions within rawAgreeTol (an
// angle of 0.014, far below the distance between distinct fixed points,
// far above the 1.4e-3 at which each stopped) are the same.
const (
	rawAgreeTol  = 1e-4
	fourthTol    = 1e-10
	kurtosisTol  = 1e-6
	coarseTol    = 1e-3
	coarseSteps  = 20
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

// workspace holds the scratch space of the fixed points of one data
// set: N x k for the samples, and for their subsample.
type workspace struct {
	full, sub *mat.Dense
}

// scratch returns ws's scratch space of the shape of y (ysub when sub)
// for a fixed point of contrast c, or nil when ws is nil or c needs none
// (fixedPoint uses it for the negentropy contrast only).
func (ws *workspace) scratch(y *mat.Dense, sub bool, c contrast) *mat.Dense {
	if ws == nil || c != negentropyContrast {
		return nil
	}
	at := &ws.full
	if sub {
		at = &ws.sub
	}
	if *at == nil {
		*at = mat.Zeros(y.Dims())
	}
	return *at
}

// iterate runs fixedPoint from v0: first on ysub (if not nil) to
// coarseTol or for at most coarseSteps, then on y to max(o.Tol, tol) or
// for at most o.MaxIter steps; it returns the steps of both phases. ws,
// when not nil, lends the scratch space; nt, when not nil, are the
// noise terms of the cumulant contrasts (for both phases).
func iterate(ctx context.Context, y, ysub, v0 *mat.Dense, c contrast, o *DAGOptions, tol float64, ws *workspace, nt *noiseTerms) (*mat.Dense, int, bool, error) {
	steps := 0
	if ysub != nil {
		v, it, _, err := fixedPoint(ctx, ysub, v0, c, min(o.MaxIter, coarseSteps), coarseTol, ws.scratch(ysub, true, c), nt)
		if err != nil {
			return nil, it, false, err
		}
		v0, steps = v, it
	}
	v, it, conv, err := fixedPoint(ctx, y, v0, c, o.MaxIter, math.Max(o.Tol, tol), ws.scratch(y, false, c), nt)
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
	// se3 are the standard errors of skew (see standardErrors), nil
	// without samples; n is the number of samples (0: exact moments).
	se3 []float64
	n   int
	// spread, for noisy samples (see noiseTerms), are the variances
	// E[(v_j.y)^2] of the projections, which scale the Gaussian bounds
	// of bound3 and bound4 (nil: 1); noise3 and noise4 are the estimates
	// of the third and fourth cumulants of the observed noises that go
	// with the directions (nil without noise).
	spread         []float64
	noise3, noise4 []float64
	choice         Cumulants
	contrast       float64
	iters          int
	converged      bool
}

// newComponents measures the cumulants of the directions v on y, and
// for both cumulants the contrast, the approximation sum_j
// kappa3_j^2/12 + kappa4_j^2/48 of the negentropy. For the fourth
// cumulant, whose directions are polished on log cosh, the contrast is
// the log cosh negentropy (see logCoshContrastOf), which fourthOrder
// measures only when it compares starts (it costs a log per sample and
// direction).
func newComponents(y, v *mat.Dense, choice Cumulants) *components {
	var p mat.Dense
	p.Mul(y, v)
	return componentsOf(&p, v, choice)
}

// componentsOf is newComponents from the projections p = y v.
func componentsOf(p, v *mat.Dense, choice Cumulants) *components {
	_, k := v.Dims()
	c := &components{v: v, skew: make([]float64, k), kurt: make([]float64, k), choice: choice, converged: true}
	cumulantsOf(p, c.skew, c.kurt)
	c.se3 = standardErrors(p, c.skew)
	c.n, _ = p.Dims()
	if choice == CumulantsBoth {
		for j := 0; j < k; j++ {
			c.contrast += c.skew[j]*c.skew[j]/12 + c.kurt[j]*c.kurt[j]/48
		}
	}
	return c
}

// logCoshContrastOf returns the log cosh negentropy of the directions
// v on the whitened samples y: sum_j (E[log cosh(p_j)] - E[log
// cosh(z)])^2, p_j = y v_j and z standard Gaussian.
func logCoshContrastOf(y, v *mat.Dense) float64 {
	_, k := v.Dims()
	var p mat.Dense
	p.Mul(y, v)
	g := make([]float64, k)
	nSamples, _ := p.Dims()
	for s := 0; s < nSamples; s++ {
		for j, x := range p.RawRow(s) {
			g[j] += logCosh(x)
		}
	}
	var out float64
	for _, gj := range g {
		d := gj/float64(nSamples) - gaussLogCosh
		out += d * d
	}
	return out
}

// standardErrors returns the standard error of the sample skewness of
// each column of p (N samples in rows, centred and of unit variance),
// by the delta method with the column's skewness m3: with the sample
// mean and variance estimated too, the influence of one sample is p^3 -
// m3 - 3p - (3/2) m3 (p^2 - 1), and the standard error is its root mean
// square over sqrt(N) (sqrt(6/N) for a Gaussian column, 7.9/sqrt(N) for
// a Laplace).
func standardErrors(p *mat.Dense, skew []float64) []float64 {
	nSamples, k := p.Dims()
	se := make([]float64, k)
	for s := 0; s < nSamples; s++ {
		for j, x := range p.RawRow(s) {
			m3 := skew[j]
			x2 := x * x
			i3 := x2*x - m3 - 3*x - 1.5*m3*(x2-1)
			se[j] += i3 * i3
		}
	}
	n := float64(nSamples)
	for j := range se {
		se[j] = math.Sqrt(se[j]/n) / math.Sqrt(n)
	}
	return se
}

// observedComponents finds the noise directions of LearnObservedBN by
// the cumulants that o.Cumulants selects (see CumulantsAuto).
func (e *eca) observedComponents(ctx context.Context, rng *rand.Rand, third ThirdMoments) (*components, error) {
	o := e.opts
	fm, fourthAvail := third.(FourthMoments)
	want := o.Cumulants
	if (want == CumulantsFourth || want == CumulantsBoth) && !fourthAvail {
		return nil, fmt.Errorf("%w: DAGOptions.Cumulants = %v needs FourthMoments (such as SampleThird); %T gives third moments only", ErrBadOption, want, third)
	}
	var y *mat.Dense
	loadY := func() error {
		if y != nil {
			return nil
		}
		var err error
		y, err = loadWhitened(ctx, fm, e.w, o, "LearnObservedBN")
		return err
	}
	if wt, ok := third.(WhitenedThirdMoments); ok && want == CumulantsAuto && fourthAvail && o.Method == ECATensor {
		// Screen the whitened third moment before its decomposition.
		if err := loadY(); err != nil {
			return nil, err
		}
		progress(o.Progress, "whitened third moment", 0, 1)
		t, diag, err := wt.Whitened(ctx, e.w)
		if err != nil {
			return nil, err
		}
		if thirdTooWeak(t, y) {
			want = CumulantsFourth
		} else {
			e.third = heldThird{ThirdMoments: wt, t: t, diag: diag}
		}
	}
	if want == CumulantsAuto || want == CumulantsThird {
		v, eig, err := e.thirdOrder(ctx, rng)
		if err != nil {
			return nil, err
		}
		_, k := v.Dims()
		c := &components{v: v, skew: eig, kurt: make([]float64, k), choice: CumulantsThird, iters: e.iters, converged: true}
		for j := range c.kurt {
			c.kurt[j] = math.NaN()
		}
		if want == CumulantsAuto && fourthAvail {
			if err := loadY(); err != nil {
				return nil, err
			}
			m := newComponents(y, v, CumulantsThird)
			c.kurt, c.se3, c.n = m.kurt, m.se3, m.n
		}
		if want == CumulantsThird || !fourthAvail || c.skewed() {
			if err := checkSkewed(eig); err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	if err := loadY(); err != nil {
		return nil, err
	}
	c, err := fourthOrder(ctx, y, e.w, rng, o)
	if err != nil || want == CumulantsFourth || want == CumulantsAuto && !c.skewHelps() {
		return c, err
	}
	return fixedPointFrom(ctx, y, c, o, nil)
}

// thirdTooWeak reports whether the whitened third moment t of the
// whitened samples y (N x k) is too weak for every noise to be skewed:
// whether N ||t||_F^2 - E|y|^6 < N k b^2 / 2, b = max(MinSkewness,
// SkewnessSigmas sqrt(6/N)) the least skewness that counts. With
// independent noises of skewness s_i, E[N ||t||_F^2] is about N sum_i
// s_i^2 + E|y|^6 (the squared norm of the mean plus the variance of the
// sample mean of the y_s^(x)3), so k noises of skewness at least b give
// at least twice the bound, while symmetric noises give 0 with a
// standard deviation of about sqrt(12 k^3) for Gaussian-like data (1225
// at k = 50, against a bound of 108 k = 5400).
func thirdTooWeak(t *tensor3.Sym, y *mat.Dense) bool {
	nSamples, k := y.Dims()
	var fro2 float64
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			for c := b; c < k; c++ {
				mult := 6.0
				switch {
				case a == b && b == c:
					mult = 1
				case a == b || b == c:
					mult = 3
				}
				v := t.At(a, b, c)
				fro2 += mult * v * v
			}
		}
	}
	var m6 float64
	for s := 0; s < nSamples; s++ {
		row := y.RawRow(s)
		r2 := kernels.Dot(row, row)
		m6 += r2 * r2 * r2
	}
	n := float64(nSamples)
	m6 /= n
	b := math.Max(MinSkewness, SkewnessSigmas*math.Sqrt(6/n))
	return n*fro2-m6 < n*float64(k)*b*b/2
}

// skewHelps reports whether some noise is not kurtic and every such
// noise is skewed: the case for both cumulants.
func (c *components) skewHelps() bool {
	some := false
	for j, k := range c.kurt {
		if math.Abs(k) >= c.bound4(j) {
			continue
		}
		if !(math.Abs(c.skew[j]) >= c.bound3(j)) {
			return false
		}
		some = true
	}
	return some
}

// skewed reports whether every noise is skewed (see Cumulants).
func (c *components) skewed() bool {
	for j, s := range c.skew {
		if !(math.Abs(s) >= c.bound3(j)) {
			return false
		}
	}
	return true
}

// kurtic reports whether every noise is kurtic (see Cumulants).
func (c *components) kurtic() bool {
	for j, k := range c.kurt {
		if !(math.Abs(k) >= c.bound4(j)) {
			return false
		}
	}
	return true
}

// bound3 is the least |skewness| of noise j that counts as skewed:
// max(MinSkewness, SkewnessSigmas sqrt(6/N) spread_j^(3/2),
// measuredSigmas se3_j).
func (c *components) bound3(j int) float64 {
	b := MinSkewness
	if c.n > 0 {
		g := SkewnessSigmas * math.Sqrt(6/float64(c.n))
		if c.spread != nil {
			g *= math.Pow(c.spread[j], 1.5)
		}
		b = math.Max(b, g)
	}
	if c.se3 != nil {
		b = math.Max(b, measuredSigmas*c.se3[j])
	}
	return b
}

// bound4 is the least |excess kurtosis| of noise j that counts as
// kurtic: max(MinKurtosis, KurtosisSigmas sqrt(24/N) spread_j^2).
func (c *components) bound4(j int) float64 {
	if c.n == 0 {
		return MinKurtosis
	}
	g := KurtosisSigmas * math.Sqrt(24/float64(c.n))
	if c.spread != nil {
		g *= c.spread[j] * c.spread[j]
	}
	return math.Max(MinKurtosis, g)
}

// fixedPointFrom iterates the negentropy contrast from the fourth-order
// solution c, corrected for the observation noise nt when not nil.
func fixedPointFrom(ctx context.Context, y *mat.Dense, c *components, o *DAGOptions, nt *noiseTerms) (*components, error) {
	v, it, conv, err := iterate(ctx, y, nil, c.v, negentropyContrast, o, fourthTol, nil, nt)
	if err != nil {
		return nil, err
	}
	var out *components
	if nt != nil {
		if out, err = nt.components(y, v, CumulantsBoth); err != nil {
			return nil, err
		}
	} else {
		out = newComponents(y, v, CumulantsBoth)
	}
	out.converged = conv
	out.iters = c.iters + it
	return out, nil
}

// byVariable returns c with its skewness, kurtosis and the standard
// errors of the skewness indexed by variable instead of component: match[v] is the
// component of variable v.
func (c *components) byVariable(match []int) *components {
	out := *c
	perm := func(x []float64) []float64 {
		if x == nil {
			return nil
		}
		y := make([]float64, len(match))
		for i, m := range match {
			y[i] = x[m]
		}
		return y
	}
	out.skew, out.kurt, out.se3, out.spread = perm(c.skew), perm(c.kurt), perm(c.se3), perm(c.spread)
	return &out
}

// observedOrder finds the causal order of a fully observed BN from C =
// (W^+)^T V = G P D, the columns of G = (I - Lambda)^{-1} permuted (P)
// and scaled (D), by the steps of ICA-LiNGAM on its inverse W = C^{-1}
// = D^{-1} P^T (I - Lambda), whose rows are the rows of I - Lambda,
// scaled and permuted:
//
//   - match each row of W (component) to a variable by the assignment
//     minimising sum 1/|W_rv| over the matched entries: the support of
//     I - Lambda, triangular with a unit diagonal in a causal order,
//     admits no perfect matching but the diagonal, and the diagonal
//     entries of a row are its largest in the usual scalings;
//   - scale each row to a unit entry at its variable: B = I -
//     (row-normalised W) estimates Lambda, with sampling noise on its
//     zeros;
//   - set B's entries to zero from the smallest magnitude up (the least
//     number of them, found by bisection) until the graph of the
//     remaining entries (j -> i for B_ij != 0) has no cycle, and return
//     its topological order (among the variables whose remaining
//     parents are all placed, the one of least index first).
//
// before, when not nil, is prior knowledge: before[v] lists variables
// that must come ahead of v (DAGOptions.precedence), which the
// topological order honours as further edges; they must be acyclic.
//
// It returns order (order[t]: the variable at position t) and match
// (match[v]: the column of C of variable v), or an error matching
// ErrRankDeficient if C is singular. CausalOrder, which LearnDAG uses,
// works on C itself; on random DAGs of 20 variables (expected degree 4)
// and 50 (degree 2 and 4), weights +-[0.5, 2], N = 5000, with
// exponential, chi-squared, Poisson, uniform and Laplace noises (45
// models, 3 per size, degree and family), this rule misordered no edge
// where CausalOrder misordered edges in 12 models (up to 13 of about
// 100).
func observedOrder(c *mat.Dense, before [][]int) (order, match []int, err error) {
	k := checkSquare("observedOrder", c)
	if err := checkFinite("C", c); err != nil {
		return nil, nil, fmt.Errorf("linear: %w", err)
	}
	w, err := inverse(c)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: C is singular: %v", ErrRankDeficient, err)
	}
	cost := mat.Zeros(k, k) // rows: components (rows of W); columns: variables
	for r := 0; r < k; r++ {
		for v := 0; v < k; v++ {
			cost.Set(r, v, 1/math.Max(math.Abs(w.At(r, v)), 1e-300))
		}
	}
	comp2var, _ := assign.Hungarian(cost)
	match = make([]int, k)
	b := mat.Zeros(k, k) // b[v][u]: the coefficient of x_u in x_v's equation
	for r, v := range comp2var {
		match[v] = r
		d := w.At(r, v)
		for u := 0; u < k; u++ {
			if u != v {
				b.Set(v, u, -w.At(r, u)/d)
			}
		}
	}
	type entry struct {
		v, u int
		abs  float64
	}
	entries := make([]entry, 0, k*(k-1))
	for v := 0; v < k; v++ {
		for u := 0; u < k; u++ {
			if u != v {
				entries = append(entries, entry{v, u, math.Abs(b.At(v, u))})
			}
		}
	}
	slices.SortStableFunc(entries, func(x, y entry) int { return cmp.Compare(x.abs, y.abs) })
	keep := make([]bool, k*k)
	// topo returns the topological order of the entries from z on, or
	// nil if they have a cycle.
	topo := func(z int) []int {
		clear(keep)
		for _, e := range entries[z:] {
			keep[e.v*k+e.u] = true
		}
		placed := make([]bool, k)
		out := make([]int, 0, k)
		for len(out) < k {
			next := -1
			for v := 0; v < k && next < 0; v++ {
				if placed[v] {
					continue
				}
				root := true
				for u := 0; u < k && root; u++ {
					root = placed[u] || !keep[v*k+u]
				}
				if before != nil {
					for _, u := range before[v] {
						root = root && placed[u]
					}
				}
				if root {
					next = v
				}
			}
			if next < 0 {
				return nil
			}
			placed[next] = true
			out = append(out, next)
		}
		return out
	}
	lo, hi := 0, len(entries) // topo(hi) keeps nothing: acyclic
	for lo < hi {
		mid := (lo + hi) / 2
		if topo(mid) != nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return topo(lo), match, nil
}

// observedChecks adds to d the checks of the cumulants that c (indexed
// by variable, see byVariable) chose, with N samples behind the moments
// (0: exact): for the third cumulant the skewness check of LearnDAG
// (see MinSkewness); for the fourth, that every noise is kurtic ("noise
// kurtosis"); for the fourth and both, that every noise is kurtic or
// skewed ("noise non-Gaussianity", the diagnostic of noises that
// neither cumulant separates; see Cumulants); then the convergence of
// the fixed point and the triangularity of the order (hidden: LearnDAG's
// bound MaxHiddenTriangularity and third-order checks, else
// MaxTriangularity).
func (c *components) observedChecks(d *DAG, samples int, maxIter int, hidden bool) {
	src := "exact moments"
	if samples > 0 {
		src = fmt.Sprintf("N = %d", samples)
	}
	switch c.choice {
	case CumulantsThird:
		if hidden {
			d.hiddenChecks(samples)
		} else {
			d.dagChecks(samples)
		}
		return
	case CumulantsFourth:
		ratio, at := math.Inf(1), -1
		for j, k := range c.kurt {
			if r := math.Abs(k) / c.bound4(j); r < ratio || math.IsNaN(k) {
				ratio, at = r, j
			}
		}
		least := math.Abs(c.kurt[at])
		d.add(atLeast("noise kurtosis", least, c.bound4(at),
			fmt.Sprintf("least |excess kurtosis| of the recovered noises %.3g (noise %d), bound %.3g for %s", least, at, c.bound4(at), src)))
		fallthrough
	case CumulantsBoth:
		least, at := math.Inf(1), -1
		for j, s := range c.skew {
			z := math.Max(math.Abs(s)/c.bound3(j), math.Abs(c.kurt[j])/c.bound4(j))
			if z < least || math.IsNaN(z) {
				least, at = z, j
			}
		}
		d.add(atLeast("noise non-Gaussianity", least, 1,
			fmt.Sprintf("least over the recovered noises of max(|skewness|/bound, |excess kurtosis|/bound) %.3g: noise %d, skewness %.3g (bound %.3g), excess kurtosis %.3g (bound %.3g), for %s; below 1, neither the third nor the fourth cumulants separate that noise (a Gaussian one, say)", least, at, c.skew[at], c.bound3(at), c.kurt[at], c.bound4(at), src)))
	}
	conv := 0.0
	if c.converged {
		conv = 1
	}
	d.add(atLeast("fixed-point convergence", conv, 1,
		fmt.Sprintf("the fixed point of the %v cumulants moved every direction by at most max(DAGOptions.Tol, %g) within DAGOptions.MaxIter = %d steps: %v (%d steps in all)", c.choice, fourthTol, maxIter, c.converged, c.iters)))
	if hidden {
		d.add(hiddenTriangularity(d.Triangularity))
	} else {
		d.add(atMost("triangularity", d.Triangularity, MaxTriangularity,
			fmt.Sprintf("share of C~^{-1}'s off-diagonal mass above the diagonal in the learned order %.3g", d.Triangularity)))
	}
}

// tanhFast returns tanh(x) with an absolute error below 1e-15 (a few
// units in the last place; NaN for NaN), about twice as fast as
// math.Tanh: with x0 the multiple of 1/64 nearest to a = min(|x|, 20)
// and d = a - x0 (|d| <= 1/128), tanh(a) = (t0 + td)/(1 + t0 td) for t0
// = tanh(x0) from a table and td = tanh(d) from its odd Taylor
// polynomial to d^7 (remainder below 1e-21); 1 - tanh(20) = 8.5e-18 is
// below half a unit in the last place of 1. The log cosh polish
// evaluates it once per sample and direction at every step.
func tanhFast(x float64) float64 {
	a := math.Abs(x)
	if a > 20 {
		a = 20
	}
	i := int(a*64 + 0.5)
	d := a - float64(i)*(1.0/64)
	d2 := d * d
	td := d * (1 - d2*(1.0/3-d2*(2.0/15-d2*(17.0/315))))
	t0 := tanhTable[i&2047]
	return math.Copysign((t0+td)/(1+t0*td), x)
}

// tanhTable[i] is tanh(i/64) for i <= 1280 (and 1 beyond, where the
// index of a NaN may land).
var tanhTable = func() (t [2048]float64) {
	for i := range t {
		t[i] = math.Tanh(float64(i) / 64)
	}
	return t
}()

// variableStart returns the orthonormal matrix nearest to the matrix
// whose column i is W^T e_i normalised, the whitened direction of
// variable i: the noise directions when Lambda = 0.
func variableStart(w *mat.Dense) (*mat.Dense, error) {
	n, k := w.Dims()
	m := mat.Zeros(k, n)
	for i := 0; i < n; i++ {
		row := w.RawRow(i)
		nr := kernels.Nrm2(row)
		for j, x := range row {
			m.Set(j, i, x/nr)
		}
	}
	return symOrth(m)
}

// pairAngles is the number of rotation angles in [0, pi/2) at which
// pairwiseOptimal evaluates the contrast of each pair of directions,
// and pairMaxAngle the largest angle (mod pi/2) of a pair's best
// rotation that passes.
const (
	pairAngles   = 36
	pairMaxAngle = math.Pi / 8
)

// pairwiseOptimal reports whether no rotation of two directions by
// more than pairMaxAngle increases the kurtosis contrast of the pair,
// given the projections p (N x k) of the whitened samples on the
// directions: for p_i and p_j rotated by theta, the excess kurtosis of
// c p_i + s p_j is
//
//	c^4 m40 + 4 c^3 s m31 + 6 c^2 s^2 m22 + 4 c s^3 m13 + s^4 m04 - 3,
//
// m_ab = E[p_i^a p_j^b], which two k x k products give for all pairs;
// the contrast kurt(theta)^2 + kurt(theta + pi/2)^2 is evaluated at
// pairAngles angles, and its maximum must lie within pairMaxAngle of 0
// (mod pi/2). The spurious fixed points of the symmetric iteration mix
// directions, which such rotations unmix (Comon's pairwise
// separation); on samples the best rotation of a separated pair is off
// 0 by the sampling error only, far below pi/8 unless both noises of
// the pair are nearly mesokurtic (then the check fails, and
// fourthOrder runs further starts).
func pairwiseOptimal(p *mat.Dense) bool { return pairwiseOptimalCov(p, nil) }

// pairwiseOptimalCov is pairwiseOptimal for projections p of covariance
// cv (k x k; nil: I, the whitened case): the excess kurtosis of the
// rotated pair is then its fourth cumulant, the fourth moment less 3
// (c^2 cv_ii + 2 c s cv_ij + s^2 cv_jj)^2.
func pairwiseOptimalCov(p, cv *mat.Dense) bool {
	nSamples, k := p.Dims()
	// b_ij = sum_s p_i^2 p_j^2 and a_ij = sum_s p_i^3 p_j, block by
	// block of fpBlock samples: q holds the block's p^2, then p^3.
	a, b := mat.Zeros(k, k), mat.Zeros(k, k)
	q := make([]float64, min(fpBlock, nSamples)*k)
	ps, pd := p.Stride(), p.RawData()
	for lo := 0; lo < nSamples; lo += fpBlock {
		m := min(nSamples, lo+fpBlock) - lo
		for i := 0; i < m; i++ {
			rq := q[i*k : (i+1)*k : (i+1)*k]
			for j, x := range p.RawRow(lo + i) {
				rq[j] = x * x
			}
		}
		kernels.Syrk(true, k, m, 1, q, k, 1, b.RawData(), b.Stride())
		for i := 0; i < m; i++ {
			rq := q[i*k : (i+1)*k : (i+1)*k]
			for j, x := range p.RawRow(lo + i) {
				rq[j] *= x
			}
		}
		kernels.Gemm(true, false, k, k, m, 1, q, k, pd[lo*ps:], ps, 1, a.RawData(), a.Stride())
	}
	inv := 1 / float64(nSamples)
	var cs, sn [pairAngles]float64
	for t := range cs {
		sn[t], cs[t] = math.Sincos(float64(t) * math.Pi / (2 * pairAngles))
	}
	var m20, m11, m02 float64
	kurt := func(c, s, m40, m31, m22, m13, m04 float64) float64 {
		c2, s2 := c*c, s*s
		if cv != nil {
			v := c2*m20 + 2*c*s*m11 + s2*m02
			return c2*c2*m40 + 4*c2*c*s*m31 + 6*c2*s2*m22 + 4*c*s2*s*m13 + s2*s2*m04 - 3*v*v
		}
		return c2*c2*m40 + 4*c2*c*s*m31 + 6*c2*s2*m22 + 4*c*s2*s*m13 + s2*s2*m04 - 3
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			m40, m04 := b.At(i, i)*inv, b.At(j, j)*inv
			m31, m13, m22 := a.At(i, j)*inv, a.At(j, i)*inv, b.At(i, j)*inv
			if cv != nil {
				m20, m11, m02 = cv.At(i, i), cv.At(i, j), cv.At(j, j)
			}
			best, at := math.Inf(-1), 0
			for t := range cs {
				k1 := kurt(cs[t], sn[t], m40, m31, m22, m13, m04)
				k2 := kurt(-sn[t], cs[t], m40, m31, m22, m13, m04)
				if f := k1*k1 + k2*k2; f > best {
					best, at = f, t
				}
			}
			if !(math.IsInf(best, -1) || float64(min(at, pairAngles-at))*math.Pi/(2*pairAngles) <= pairMaxAngle) {
				return false
			}
		}
	}
	return true
}
