package topic

import (
	"context"
	"fmt"
	"runtime"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// MaxCorrelatedVocab is the largest vocabulary Correlated accepts: it
// forms the n x n second cross cumulant and solves n l1 problems of n
// variables (TWMLearn), which beyond a few thousand words costs more
// memory and time than a corpus of that size justifies; restrict the
// vocabulary first (for instance to the words of largest document
// frequency).
const MaxCorrelatedVocab = 4000

// CorrelatedOptions configures Correlated. The zero value gives the
// documented defaults.
type CorrelatedOptions struct {
	// DAG configures TMLearn (linear.LearnCrossDAG): the TWMLearn step,
	// the tensor power method's seed, the pruning of Lambda.
	DAG linear.DAGOptions
	// Passes configures the passes over the documents.
	Passes moments.Options
	// MaxMemory bounds (bytes) what Correlated holds: the n x n Pairs
	// with the accumulators of its pass (1 + 2 workers of them, n x
	// (n+1) each) and the matrices of linear.LearnCrossDAG. A job that
	// would need more is refused with a *mat.MemoryError before the
	// first pass. 0 means mat.DefaultMaxMemory (4 GiB), negative no
	// limit; it also bounds Passes and DAG where their MaxMemory is 0.
	MaxMemory int64
}

// Correlated learns a correlated topic model (TMLearn of the topic-model
// paper, section 4) from a corpus: the topics' activities h are related
// by a linear Bayesian network h = Lambda h + eta with independent skewed
// eta, and the tokens of a document are drawn independently given h with
// E[x_v | h] = a0 + A h (synth.CorrelatedTopics is such a model). The
// columns of A must have sparse supports with the expansion property
// (linear.CheckExpansion); A need not be non-negative. It makes three
// passes over the documents: M1, the central Pairs (n x n) and the
// whitened central third moment, whose cross cumulants carry no noise
// (so no DLD is needed), then runs linear.LearnCrossDAG. The result is in
// the canonical form of linear.DAG: columns of A scaled to unit-variance
// topic activities, numbered in a causal order of the topics, Lambda
// strictly lower triangular. Errors: a vocabulary above
// MaxCorrelatedVocab, those of the passes and of linear.LearnCrossDAG
// (linear.ErrTooManyFactors when 3k exceeds the vocabulary, ...).
func Correlated(ctx context.Context, src moments.Source, k int, opts *CorrelatedOptions) (*linear.DAG, error) {
	var o CorrelatedOptions
	if opts != nil {
		o = *opts
	}
	n := src.VocabSize()
	if n > MaxCorrelatedVocab {
		return nil, fmt.Errorf("topic: Correlated: a vocabulary of %d words (at most %d: restrict it first)", n, MaxCorrelatedVocab)
	}
	if o.Passes.MaxMemory == 0 {
		o.Passes.MaxMemory = o.MaxMemory
	}
	if o.DAG.MaxMemory == 0 {
		o.DAG.MaxMemory = o.MaxMemory
	}
	workers := o.Passes.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	pass := size.Add(size.Float64s(n, n+1), size.Scale(1+2*workers, size.Float64s(n, n+1)))
	if err := mat.CheckMemory(fmt.Sprintf("the moments of %d words", n), pass, o.MaxMemory); err != nil {
		return nil, fmt.Errorf("topic: Correlated: %w", err)
	}
	if err := o.DAG.Options.CheckMemory(n); err != nil {
		return nil, fmt.Errorf("topic: Correlated: %w", err)
	}
	dm, err := moments.NewDocMoments(ctx, src, moments.Central, 0, o.Passes)
	if err != nil {
		return nil, err
	}
	pairs, err := dm.PairsTimes(ctx, mat.Identity(n))
	if err != nil {
		return nil, err
	}
	d, err := linear.LearnCrossDAG(ctx, pairs, dm.WhitenedTriples, k, &o.DAG)
	if err != nil {
		return nil, fmt.Errorf("topic: Correlated: %w", err)
	}
	return d, nil
}
