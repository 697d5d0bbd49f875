package linear

import (
	"context"
	"errors"
	"fmt"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// CrossTriples gives the whitened third cross moment of a multi-view
// model: for W n x k, the k x k x k tensor Triples(W, W, W), where
// Triples is the third cumulant of three conditionally independent views
// x1, x2, x3 (for documents: moments.DocMoments.WhitenedTriples with the
// Central variant).
type CrossTriples func(ctx context.Context, w *mat.Dense) (*tensor3.Sym, error)

// crossThird adapts CrossTriples to the tensor route of the ECA step,
// which is the only route LearnCrossDAG takes: cross moments carry no
// observation noise, so no slice Psi(zeta) is ever needed.
type crossThird struct{ f CrossTriples }

var errNoSlices = errors.New("linear: cross moments give no slices Psi(zeta)")

func (c crossThird) Psi(context.Context, *mat.Dense) ([]*mat.Dense, error) {
	return nil, errNoSlices
}

func (c crossThird) Whitened(ctx context.Context, w *mat.Dense) (*tensor3.Sym, []float64, error) {
	t, err := c.f(ctx, w)
	return t, nil, err
}

// LearnCrossDAG learns A and Lambda of a multi-view model whose views are conditionally independent
// given the hidden variables, E[x_v | h] = A h (or a0 + A h) for every
// view v, with h = Lambda h + eta, eta independent with non-zero
// skewness, from the cross moments Pairs = A Cov(h) A^T (n x n, the
// second cross cumulant: no diagonal noise, so no DLD) and the whitened
// third cross cumulant (triples). Part 1: A = LearnTWM(Pairs) in canonical
// form (UnitVariance); Part 2: whiten Pairs and decompose the whitened
// third cumulant by the robust tensor power method (ECATensor; opts.Method
// is ignored), S = (W^+)^T V; Part 3 as LearnDAG: C = A^+ S, the causal
// order and Lambda. The correlated topic model is the case of documents,
// the views being the tokens (LearnCorrelatedTopics). The result's
// NoiseVar and NoiseThird are nil and Coefficients.DLD is nil. Errors:
// ErrTooManyFactors if 3k > n, ErrNotFinite, ErrRankDeficient, those of
// LearnTWM and of triples.
func LearnCrossDAG(ctx context.Context, pairs *mat.Dense, triples CrossTriples, k int, opts *DAGOptions) (*DAG, error) {
	checkCtx("LearnCrossDAG", ctx)
	n := checkSquare("LearnCrossDAG", pairs)
	if k < 1 || k > n/3 {
		return nil, fmt.Errorf("%w: k = %d with n = %d (need 1 <= k <= n/3)", ErrTooManyFactors, k, n)
	}
	if err := checkFinite("Pairs", pairs); err != nil {
		return nil, fmt.Errorf("linear: LearnCrossDAG: %w", err)
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	o.Method = ECATensor
	if err := o.checkKnowledge("LearnCrossDAG", k, false); err != nil {
		return nil, err
	}
	if err := o.thirdOnly("LearnCrossDAG"); err != nil {
		return nil, err
	}
	if err := o.Options.CheckMemory(n); err != nil {
		return nil, fmt.Errorf("linear: LearnCrossDAG: %w", err)
	}
	l := pairs.Clone()
	l.Symmetrize()
	progress(o.Progress, "LearnTWM", 0, 1)
	twm, err := LearnTWM(ctx, l, k, &o.TWM)
	if err != nil {
		return nil, err
	}
	a, hidden, err := UnitVariance(twm.A, l)
	if err != nil {
		return nil, err
	}
	progress(o.Progress, "LearnTWM", 1, 1)
	w, winvT, _, err := whiten(l, k)
	if err != nil {
		return nil, err
	}
	return crossFinish(ctx, a, hidden, twm, w, winvT, triples, &o)
}
