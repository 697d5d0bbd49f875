package linear

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/mat"
)

// ObservedBN is a learned fully observed linear Bayesian network x =
// Lambda x + eta (independent, skewed eta), in the variables' own labels
// and units.
type ObservedBN struct {
	// Lambda is n x n: Lambda[i][j] is the coefficient of x_j in the
	// equation of x_i. By default (DAGOptions.Pruning) it holds the
	// parents chosen by SparseLambda, with the least-squares coefficients
	// on them; with PruneNone, the dense estimate that
	// DAGOptions.LambdaFromSecond selects.
	Lambda *mat.Dense
	// LambdaSecond (ordinary least squares of each variable on its
	// predecessors in Order, Remark 4.4) and LambdaThird (I - diag(C~)
	// C~^{-1} from the third moments) are both estimates, in the same
	// labels.
	LambdaSecond, LambdaThird *mat.Dense
	// StdErr[i][j] is the standard error of the least-squares
	// coefficient of x_j in the equation of x_i, on Lambda's support (0
	// elsewhere): |Lambda_ij| / StdErr_ij is the edge's z-score, a
	// confidence computed from Sigma and the number of samples (nil with
	// PruneNone or without a sample count).
	StdErr *mat.Dense
	// Order is the causal order found: Order[0] is a root.
	Order []int
	// EtaVar are the variances of the noises eta (from the Cholesky
	// factor in Order).
	EtaVar []float64
	// Skewness[i] is the eigenvalue of the whitened third moment matched
	// to x_i: the skewness of eta_i up to sign.
	Skewness []float64
	// Triangularity measures how far C~^{-1} is from triangular in Order
	// (see DAG.Triangularity).
	Triangularity float64
	// Iterations counts the ECA iterations.
	Iterations int
	// Verdict holds the identifiability checks of the estimate (the
	// skewness of the recovered noises, which ECA needs away from zero,
	// and the triangularity of the order), with Warnings for those that
	// fail.
	Verdict
}

// LearnObservedBN learns a fully observed linear BN x = Lambda x + eta
// with independent noises of non-zero skewness from Sigma = E[x x^T] and
// the third moments (Remark 4.3 of the topic-model paper, 3.9 of the
// linear-BN paper; the problem of ICA-LiNGAM and DirectLiNGAM): x = G eta
// with G = (I - Lambda)^{-1}, so ECA on Sigma and the third moments (no
// DLD: there is no observation noise) gives G up to the permutation and
// scale of its columns; CausalOrder and the formulas of LearnDAG give the
// order and Lambda, whose zeros the rule of DAGOptions.Pruning finds
// (SparseLambda on Sigma, with the sample count of the third moments or
// DAGOptions.Samples). Prior knowledge (DAGOptions.Required, Forbidden,
// PartialOrder) constrains the order and the pruning.
// opts.Options (DLD, TWM) are not used. Errors: ErrRankDeficient if
// Sigma is not positive definite, ErrNotFinite, ErrNoConvergence,
// ErrBadOption for bad options or knowledge.
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
	v, eig, err := e.run(ctx, rand.New(rand.NewPCG(o.Seed, 0x0b5)))
	if err != nil {
		return nil, err
	}
	if err := checkSkewed(eig); err != nil {
		return nil, err
	}
	var c mat.Dense
	c.Mul(winvT, v)
	d, err := dagFromC(&c, eig, sigma, &o)
	if err != nil {
		return nil, err
	}
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
		Skewness:      make([]float64, n),
		Triangularity: d.Triangularity,
		Iterations:    e.iters,
	}
	for i, oi := range d.Order {
		res.EtaVar[oi] = d.EtaVar[i]
		res.Skewness[oi] = d.Skewness[i]
	}
	if d.StdErr != nil {
		res.StdErr = unperm(d.StdErr)
	}
	d.dagChecks(samplesOf(third, &o))
	res.Verdict = d.Verdict
	return res, nil
}
