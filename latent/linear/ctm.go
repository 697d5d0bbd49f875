package linear

import (
	"context"
	"errors"
	"fmt"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// CorrelatedTopicsRows is the least number of words whose l1 problems
// LearnCorrelatedTopics poses in each round of LearnTWM by default (see
// CorrelatedTopicsOptions.DAG).
const CorrelatedTopicsRows = 2000

// CorrelatedTopicsOptions configures LearnCorrelatedTopics. nil, or the
// zero value, gives the documented defaults.
type CorrelatedTopicsOptions struct {
	// DAG configures LearnCrossDAGEig: the LearnTWM step, the
	// seed of the eigensolver's sketch and of the tensor power method,
	// the pruning of Lambda. DAG.TWM.MaxRows 0 means max(2000, 100 k)
	// here: LearnTWM poses the l1 problems of the words whose rows of the
	// rank-k Pairs have the largest norms (see TWMOptions.MaxRows), so
	// that a round costs O(MaxRows n k) per simplex iteration instead of
	// O(n^2 k); set it to the vocabulary size or more for every word's
	// problem.
	DAG DAGOptions
	// Passes configures the passes over the documents (workers, progress;
	// see moments.Options for the stages they report).
	Passes moments.Options
	// Eigen configures the block eigensolver (svd.TopEigSym) that finds
	// the top k eigenpairs of the central Pairs through its products
	// (nil: a relative residual of 1e-8, tighter than svd's default,
	// since LearnTWM's l1 problems and the whitening use the eigenpairs
	// directly; MaxIter 60). Its Seed is ignored: the eigensolver's
	// start is seeded by DAG.Seed.
	Eigen *svd.TopEigOptions
	// MaxMemory bounds (bytes) what LearnCorrelatedTopics holds: the
	// passes and the eigensolver (moments.SpectralMemory) and what
	// LearnCrossDAGEig holds (see DAGOptions.CheckMemoryEig: O(n k)). A
	// job that would need more is refused with a *mat.MemoryError
	// before the first pass. 0 means mat.DefaultMaxMemory (4 GiB),
	// negative no limit; it also bounds Passes and DAG where their
	// MaxMemory is 0.
	MaxMemory int64
}

// LearnCorrelatedTopics learns a correlated topic model (the method of
// Anandkumar, Hsu, Javanmard and Kakade, "Learning Topic Models and
// Latent Bayesian Networks Under Expansion Constraints", section 4, run
// by LearnCrossDAGEig) from a corpus. The topics' activities h are related by a linear Bayesian
// network h = Lambda h + eta with independent skewed eta, and the tokens
// of a document are drawn independently given h with E[x_v | h] = a0 + A
// h. The columns of A must have sparse supports with the expansion
// property (CheckExpansion); A need not be non-negative.
//
// With x1, x2, x3 three distinct tokens of a document (as one-hot
// vectors) and M1 = E[x1], the central Pairs E[x1 x2^T] - M1 M1^T equals
// A E[(h - Eh)(h - Eh)^T] A^T: distinct tokens are independent given h,
// so Pairs carries no noise and no DLD step is needed, and LearnTWM
// recovers the columns of A from its column space. The whitened central
// third moment then gives the causal order and Lambda as in
// LearnCrossDAG.
//
// It never forms a vocabulary-sized matrix: one pass gives M1; the top k
// eigenpairs of the central Pairs (n x n) come from svd.TopEigSym on its
// products with n x (k + oversampling) blocks, one pass over the
// documents each (moments.DocMoments.PairsTimes); LearnTWM, the
// whitening and the hidden second moment use Pairs only through those
// eigenpairs (LearnCrossDAGEig), and the whitened central third moment,
// k x k x k, comes from one more pass. Memory is O(n k); LearnTWM
// solves, in each of its k rounds, the l1 problems of the
// max(CorrelatedTopicsRows, 100 k) words of largest norm by default
// (each over the n rows of an n x k factor); the result agrees with
// LearnCrossDAG on the dense Pairs up to the eigensolver's accuracy. The
// result is in the canonical form of DAG: columns of A scaled to
// unit-variance topic activities, numbered in a causal order of the
// topics, Lambda strictly lower triangular.
//
// ctx must not be nil. Errors: those of the passes, of the eigensolver
// (non-convergence is not an error: the last approximation is used) and
// of LearnCrossDAGEig (ErrTooManyFactors when 3k exceeds the vocabulary,
// ErrRankDeficient when Pairs has fewer than k positive eigenvalues,
// ...).
func LearnCorrelatedTopics(ctx context.Context, src moments.Source, k int, opts *CorrelatedTopicsOptions) (*DAG, error) {
	var o CorrelatedTopicsOptions
	if opts != nil {
		o = *opts
	}
	n := src.VocabSize()
	if k < 1 || k > n/3 {
		return nil, fmt.Errorf("linear: LearnCorrelatedTopics: %w: k = %d with n = %d (need 1 <= k <= n/3)", ErrTooManyFactors, k, n)
	}
	if o.Passes.MaxMemory == 0 {
		o.Passes.MaxMemory = o.MaxMemory
	}
	if o.DAG.MaxMemory == 0 {
		o.DAG.MaxMemory = o.MaxMemory
	}
	if o.DAG.TWM.MaxRows == 0 {
		o.DAG.TWM.MaxRows = max(CorrelatedTopicsRows, 100*k)
	}
	eo := svd.TopEigOptions{Tol: 1e-8}
	if o.Eigen != nil {
		eo = *o.Eigen
	}
	eo.Seed = o.DAG.Seed
	if err := mat.CheckMemory(fmt.Sprintf("the moments of %d words for k = %d", n, k),
		moments.SpectralMemory(n, k, o.Passes.Workers, &eo), o.MaxMemory); err != nil {
		return nil, fmt.Errorf("linear: LearnCorrelatedTopics: %w", err)
	}
	if err := o.DAG.CheckMemoryEig(n, k); err != nil {
		return nil, fmt.Errorf("linear: LearnCorrelatedTopics: %w", err)
	}
	dm, err := moments.NewDocMoments(ctx, src, moments.Central, 0, &o.Passes)
	if err != nil {
		return nil, err
	}
	eig, err := svd.TopEigSym(ctx, svd.SymOperator(n, dm.PairsTimes), k, &eo)
	if err != nil && !errors.Is(err, svd.ErrNoConvergence) {
		return nil, fmt.Errorf("linear: LearnCorrelatedTopics: eigenpairs of Pairs: %w", err)
	}
	d, err := LearnCrossDAGEig(ctx, eig.Values, eig.Vectors, dm.WhitenedTriples, k, &o.DAG)
	if err != nil {
		return nil, fmt.Errorf("linear: LearnCorrelatedTopics: %w", err)
	}
	return d, nil
}
