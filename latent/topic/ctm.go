package topic

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// CorrelatedRows is the least number of words whose l1 problems
// Correlated poses in each round of TWMLearn by default (see
// CorrelatedOptions.DAG).
const CorrelatedRows = 2000

// CorrelatedOptions configures Correlated. The zero value gives the
// documented defaults.
type CorrelatedOptions struct {
	// DAG configures TMLearn (linear.LearnCrossDAGEig): the TWMLearn
	// step, the tensor power method's seed, the pruning of Lambda.
	// DAG.TWM.MaxRows 0 means max(2000, 100 k) here: TWMLearn poses the
	// l1 problems of the words whose rows of the rank-k Pairs have the
	// largest norms (see linear.TWMOptions.MaxRows), so that a round
	// costs O(MaxRows n k) per simplex iteration instead of O(n^2 k);
	// set it to the vocabulary size or more for every word's problem.
	DAG linear.DAGOptions
	// Passes configures the passes over the documents.
	Passes moments.Options
	// Eigen configures the block eigensolver (svd.TopEigSym) that finds
	// the top k eigenpairs of the central Pairs through its products
	// (nil: a relative residual of 1e-8, tighter than svd's default,
	// since TWMLearn's l1 problems and the whitening use the eigenpairs
	// directly; MaxIter 60).
	Eigen *svd.TopEigOptions
	// MaxMemory bounds (bytes) what Correlated holds: the eigensolver's
	// blocks, n x (k + oversampling), twelve of them at its peak, the
	// accumulators of each pass (1 + 2 workers of them, n x (k+12) for
	// Pairs, n x (2k+2) and a k^3 tensor for the third moment) and what
	// linear.LearnCrossDAGEig holds (see
	// linear.DAGOptions.CheckMemoryEig: O(n k)). A job that would need
	// more is refused with a *mat.MemoryError before the first pass. 0
	// means mat.DefaultMaxMemory (4 GiB), negative no limit; it also
	// bounds Passes and DAG where their MaxMemory is 0.
	MaxMemory int64
}

// Correlated learns a correlated topic model (TMLearn of the topic-model
// paper, section 4) from a corpus: the topics' activities h are related
// by a linear Bayesian network h = Lambda h + eta with independent skewed
// eta, and the tokens of a document are drawn independently given h with
// E[x_v | h] = a0 + A h (synth.CorrelatedTopics is such a model). The
// columns of A must have sparse supports with the expansion property
// (linear.CheckExpansion); A need not be non-negative.
//
// It never forms a vocabulary-sized matrix: one pass gives M1; the top k
// eigenpairs of the central Pairs (n x n, the second cross cumulant,
// which carries no noise, so no DLD is needed) come from svd.TopEigSym on
// its products with n x (k + oversampling) blocks, one pass over the
// documents each (moments.DocMoments.PairsTimes); TWMLearn, the
// whitening and the hidden second moment use Pairs only through those
// eigenpairs (linear.LearnCrossDAGEig), and the whitened central third
// moment, k x k x k, comes from one more pass. Memory is O(n k); TWMLearn
// solves, in each of its k rounds, the l1 problems of the
// max(CorrelatedRows, 100 k) words of largest norm by default (each
// over the n rows of an n x k factor); the result agrees with linear.LearnCrossDAG on the dense
// Pairs up to the eigensolver's accuracy. The result is in the canonical
// form of linear.DAG: columns of A scaled to unit-variance topic
// activities, numbered in a causal order of the topics, Lambda strictly
// lower triangular. Errors: those of the passes, of the eigensolver
// (non-convergence is not an error: the last approximation is used) and
// of linear.LearnCrossDAGEig (linear.ErrTooManyFactors when 3k exceeds
// the vocabulary, linear.ErrRankDeficient when Pairs has fewer than k
// positive eigenvalues, ...).
func Correlated(ctx context.Context, src moments.Source, k int, opts *CorrelatedOptions) (*linear.DAG, error) {
	var o CorrelatedOptions
	if opts != nil {
		o = *opts
	}
	n := src.VocabSize()
	if k < 1 || k > n/3 {
		return nil, fmt.Errorf("topic: Correlated: %w: k = %d with n = %d (need 1 <= k <= n/3)", linear.ErrTooManyFactors, k, n)
	}
	if o.Passes.MaxMemory == 0 {
		o.Passes.MaxMemory = o.MaxMemory
	}
	if o.DAG.MaxMemory == 0 {
		o.DAG.MaxMemory = o.MaxMemory
	}
	if o.DAG.TWM.MaxRows == 0 {
		o.DAG.TWM.MaxRows = max(CorrelatedRows, 100*k)
	}
	eo := svd.TopEigOptions{Tol: 1e-8}
	if o.Eigen != nil {
		eo = *o.Eigen
	}
	if err := correlatedMemory(n, k, &o, &eo); err != nil {
		return nil, fmt.Errorf("topic: Correlated: %w", err)
	}
	if err := o.DAG.CheckMemoryEig(n, k); err != nil {
		return nil, fmt.Errorf("topic: Correlated: %w", err)
	}
	dm, err := moments.NewDocMoments(ctx, src, moments.Central, 0, o.Passes)
	if err != nil {
		return nil, err
	}
	eig, err := svd.TopEigSym(ctx, svd.SymOperator(n, dm.PairsTimes), k, &eo, rand.New(rand.NewPCG(o.DAG.Seed, 0xc7e16)))
	if err != nil && !errors.Is(err, svd.ErrNoConvergence) {
		return nil, fmt.Errorf("topic: Correlated: eigenpairs of Pairs: %w", err)
	}
	d, err := linear.LearnCrossDAGEig(ctx, eig.Values, eig.Vectors, dm.WhitenedTriples, k, &o.DAG)
	if err != nil {
		return nil, fmt.Errorf("topic: Correlated: %w", err)
	}
	return d, nil
}

// correlatedMemory applies the memory rule to the passes of Correlated,
// which hold what LDA's do (momentsNeed).
func correlatedMemory(n, k int, o *CorrelatedOptions, eo *svd.TopEigOptions) error {
	return mat.CheckMemory(fmt.Sprintf("the moments of %d words for k = %d", n, k), momentsNeed(n, k, o.Passes.Workers, eo), o.MaxMemory)
}
