package linear

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/mat"
)

// ObservedBN is a learned fully observed linear Bayesian network x =
// Lambda x + eta (independent, non-Gaussian eta), in the variables' own
// labels and units.
type ObservedBN struct {
	// Lambda is n x n: Lambda[i][j] is the coefficient of x_j in the
	// equation of x_i. By default (DAGOptions.Pruning) it holds the
	// parents chosen by SparseLambda, with the least-squares coefficients
	// on them; with PruneNone, the dense estimate that
	// DAGOptions.LambdaFromSecond selects.
	Lambda *mat.Dense
	// LambdaSecond (ordinary least squares of each variable on its
	// predecessors in Order, Remark 4.4) and LambdaThird (I - diag(C~)
	// C~^{-1}, C~ the noise directions in Order from whichever cumulant
	// found them, see Cumulants) are both estimates, in the same labels.
	LambdaSecond, LambdaThird *mat.Dense
	// StdErr[i][j] is the standard error of the least-squares
	// coefficient of x_j in the equation of x_i, on Lambda's support (0
	// elsewhere): |Lambda_ij| / StdErr_ij is the edge's z-score, a
	// confidence computed from Sigma and the number of samples N; NaN on
	// the support where it cannot be computed (N <= the number of x_i's
	// parents); nil with PruneNone or without a sample count.
	StdErr *mat.Dense
	// Order is the causal order found: Order[0] is a root.
	Order []int
	// EtaVar are the variances of the noises eta (from the Cholesky
	// factor in Order).
	EtaVar []float64
	// Skewness[i] is the skewness of eta_i up to sign, from the noise
	// direction matched to x_i: the eigenvalue of the whitened third
	// moment (with CumulantsThird) or measured on the whitened samples.
	Skewness []float64
	// Kurtosis[i] is the excess kurtosis of eta_i measured along its
	// noise direction on the whitened samples (NaN when the moments are
	// not FourthMoments or DAGOptions.Cumulants is CumulantsThird).
	Kurtosis []float64
	// Cumulants are the cumulants that separated the noises:
	// CumulantsThird, CumulantsFourth or CumulantsBoth (see
	// DAGOptions.Cumulants; never CumulantsAuto).
	Cumulants Cumulants
	// Triangularity measures how far C~^{-1} is from triangular in Order
	// (see DAG.Triangularity).
	Triangularity float64
	// Iterations counts the fixed-point steps of the third cumulant
	// (plus the ECA iterations when the pairwise check sent it to ECA)
	// or of all starts (fourth, both).
	Iterations int
	// Verdict holds the identifiability checks of the estimate (the
	// skewness of the recovered noises, which the third cumulant needs
	// away from zero; their excess kurtosis for the fourth; either for
	// both; the convergence of the fourth-order fixed point; the
	// triangularity of the order), with Warnings for those that fail.
	Verdict
}

// LearnObservedBN learns a fully observed linear BN x = Lambda x + eta
// with independent non-Gaussian noises from Sigma = E[x x^T] and the
// third moments, and the fourth when the moments are FourthMoments
// (Remark 4.3 of the topic-model paper, 3.9 of the linear-BN paper; the
// problem of ICA-LiNGAM and DirectLiNGAM): x = G eta with G = (I -
// Lambda)^{-1}, so with W whitening Sigma the whitened third cumulant
// is sum_i s_i v_i^(x)3 and the fourth sum_i k_i v_i^(x)4 over the
// orthonormal v_i = W^T g_i sd(eta_i) (s_i, k_i the skewness and excess
// kurtosis of eta_i). The fixed point of the third cumulant's
// contraction T(I, u, u), or ECA of the third when that fails (no DLD:
// there is no observation noise), or the fixed point of the fourth
// cumulant's contraction E[(u.y)^3 y] - 3u over the whitened samples y
// (see Cumulants), gives
// C = (W^+)^T V, G up to the permutation and scale of its columns.
// Skewed noises need only third moments; symmetric ones (uniform,
// Laplace) need the fourth; DAGOptions.Cumulants chooses, by default
// per data set, and ObservedBN.Cumulants reports the choice.
//
// The order comes from C^{-1}, whose rows are those of I - Lambda
// scaled and permuted (the rule of ICA-LiNGAM): each row is matched to
// a variable by the assignment minimising the sum of 1/|C^{-1}_rv| (the
// triangular support of I - Lambda admits only its diagonal as a
// perfect matching), scaled to a unit entry there, and B = I - (the
// scaled rows) estimates Lambda; B's entries are then set to zero from
// the smallest magnitude up, as few as possible, until the graph j -> i
// of the remaining entries B_ij has no cycle, and its topological order
// is the causal order (CausalOrder, which LearnDAG uses on C, misorders
// edges of dense random DAGs that this rule orders exactly). Given the
// order and the matching, Lambda follows as in LearnDAG, and the rule of
// DAGOptions.Pruning finds its zeros (SparseLambda on Sigma, with the
// sample count of the moments or DAGOptions.Samples). Prior knowledge
// (DAGOptions.Required, Forbidden, PartialOrder) constrains the order
// and the pruning. opts.Options (DLD, TWM) are not used. Errors:
// ErrRankDeficient if Sigma is not positive definite, ErrNotFinite,
// ErrNoConvergence, ErrBadOption for bad options or knowledge, or when
// Cumulants asks for fourth moments that third does not give.
func LearnObservedBN(ctx context.Context, sigma *mat.Dense, third ThirdMoments, opts *DAGOptions) (*ObservedBN, error) {
	checkCtx("LearnObservedBN", ctx)
	n := checkSquare("LearnObservedBN", sigma)
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	if err := o.checkKnowledge("LearnObservedBN", n, true); err != nil {
		return nil, err
	}
	if err := checkSampleThird("LearnObservedBN", third, n); err != nil {
		return nil, err
	}
	o.Samples, o.observed = samplesOf(third, &o), true
	if err := mat.CheckMemory(fmt.Sprintf("the moments of %d variables", n), o.observedNeed(n), o.MaxMemory); err != nil {
		return nil, fmt.Errorf("linear: LearnObservedBN: %w", err)
	}
	if err := checkFinite("Sigma", sigma); err != nil {
		return nil, fmt.Errorf("linear: LearnObservedBN: %w", err)
	}
	w, winvT, _, err := whiten(sigma, n)
	if err != nil {
		return nil, err
	}
	e := &eca{w: w, winvT: winvT, third: third, opts: &o}
	samples := o.Samples
	comp, err := e.observedComponents(ctx, rand.New(rand.NewPCG(o.Seed, 0x0b5)), third)
	if err != nil {
		return nil, err
	}
	var c mat.Dense
	c.Mul(winvT, comp.v)
	order, match, err := observedOrder(&c, o.precedence(n))
	if err != nil {
		return nil, err
	}
	d, err := dagFromMatch(&c, comp.skew, sigma, &o, order, match)
	if err != nil {
		return nil, err
	}
	byVar := comp.byVariable(match)
	// Back to the variables' labels.
	unperm := func(l *mat.Dense) *mat.Dense {
		out := mat.Zeros(n, n)
		for i, oi := range d.Order {
			for j, oj := range d.Order {
				out.Set(oi, oj, l.At(i, j))
			}
		}
		return out
	}
	res := &ObservedBN{
		Lambda:        unperm(d.Lambda),
		LambdaSecond:  unperm(d.LambdaSecond),
		LambdaThird:   unperm(d.LambdaThird),
		Order:         d.Order,
		EtaVar:        make([]float64, n),
		Skewness:      byVar.skew,
		Kurtosis:      byVar.kurt,
		Cumulants:     comp.choice,
		Triangularity: d.Triangularity,
		Iterations:    comp.iters,
	}
	for i, oi := range d.Order {
		res.EtaVar[oi] = d.EtaVar[i]
	}
	if d.StdErr != nil {
		res.StdErr = unperm(d.StdErr)
	}
	byVar.observedChecks(d, samples, o.MaxIter, false)
	res.Verdict = d.Verdict
	return res, nil
}
