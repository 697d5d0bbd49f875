package topic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// Alpha0Grid is the grid of alpha0 that SelectAlpha0 tries when given
// none.
var Alpha0Grid = []float64{0.1, 0.3, 1, 3}

// Alpha0Score is the result of one alpha0 of SelectAlpha0.
type Alpha0Score struct {
	Alpha0 float64
	// LogLik is the document-completion log-likelihood per token of the
	// validation documents under the spectral model learned with Alpha0
	// (see SelectAlpha0); -Inf when learning failed.
	LogLik float64
	// Err is the error of learning with Alpha0, if any.
	Err error
	// Basis holds the eigensolver's final block for Alpha0: orthonormal
	// Ritz vectors of Pairs, one row per word of train's vocabulary; nil
	// when learning failed. As
	// Options.Eigen.Start it warm-starts LearnLDA with Alpha0 on a corpus
	// of the same vocabulary, such as the one SplitAlpha0 split.
	Basis *mat.Dense
}

// SplitAlpha0 splits the training corpus c into the documents fit and
// valid on which SelectAlpha0 chooses alpha0 when alpha0 is not given:
// a seeded random 10% of the documents (rounded,
// at most 2000) are valid and the next 90% (at most 20000) are fit, each
// in the order of c. With too few documents to make both non-empty it
// returns nil, nil. The same c and seed give the same split.
func SplitAlpha0(c *moments.Corpus, seed uint64) (fit, valid *moments.Corpus) {
	const maxFit, maxValid = 20000, 2000
	docs := c.NumDocs()
	nv := min((docs+5)/10, maxValid)
	nf := min(docs-nv, maxFit)
	if nv == 0 || nf == 0 {
		return nil, nil
	}
	perm := rand.New(rand.NewPCG(seed+1, 0xa1fa0)).Perm(docs)
	pick := func(p []int) *moments.Corpus {
		p = slices.Clone(p)
		slices.Sort(p)
		return c.Subset(p)
	}
	return pick(perm[nv : nv+nf]), pick(perm[:nv])
}

// SelectAlpha0 chooses the sum of the Dirichlet parameters of LDA from
// the data: for each alpha0 of grid (nil means Alpha0Grid) it learns the
// spectral model of k topics from train, as LearnLDA does, and scores it
// by the document-completion log-likelihood per token of the documents
// of valid (which should be distinct from train): each document's
// tokens, taken in the order of their word ids, go alternately to an
// observed half, from which Model.Infer estimates the topic proportions,
// and an evaluated half, scored as Model.LogLikelihood scores words
// (topics mixed with SmoothFloor of the uniform distribution). Scoring
// the words the proportions were fitted to would favour ever smaller
// alpha0. It returns the alpha0 with the highest score (the smaller
// alpha0 on a tie) and every score. An alpha0 whose learning fails (most
// often a WhiteningError) is skipped; if all fail, the error joins
// theirs. ctx must not be nil.
//
// The fits share their work: the first moment takes one pass over train
// for the whole grid, and since the Pairs of two alpha0 differ only by a
// multiple of M1 M1^T, a change of rank one, each eigensolve after the
// first starts from the previous one's final block (Alpha0Score.Basis)
// with M1 in place of its last column, which holds most of the new
// eigenvectors; it then needs a few block products rather than the
// ten or more of a random start. The convergence test is the one every
// solve passes (see svd.TopEigSym): the warm start saves products, not
// accuracy. Options.Eigen.Start, if set, starts the first solve.
func SelectAlpha0(ctx context.Context, train, valid moments.Source, k int, grid []float64, opts *Options) (float64, []Alpha0Score, error) {
	if grid == nil {
		grid = Alpha0Grid
	}
	if len(grid) == 0 {
		return 0, nil, fmt.Errorf("topic: SelectAlpha0: %w: empty grid", ErrBadOption)
	}
	if err := opts.check(); err != nil {
		return 0, nil, err
	}
	o := opts.resolve()
	n := train.VocabSize()
	src, old, err := o.prepare(train, k)
	if err != nil {
		return 0, nil, err
	}
	// Each fit sets its own alpha0 (a bad one fails that fit alone).
	dm, err := moments.NewDocMoments(ctx, src, moments.LDA, 1, &o.Passes)
	if err != nil {
		return 0, nil, err
	}
	eo := *WithSampleTol(&o, src.NumDocs()).Eigen
	fitOpts := o
	fitOpts.Eigen = &eo
	if eo.Start != nil {
		fitOpts = *restrictStart(&fitOpts, old, n)
		eo = *fitOpts.Eigen
		fitOpts.Eigen = &eo
	}
	best := -1
	scores := make([]Alpha0Score, len(grid))
	for i, a0 := range grid {
		scores[i] = Alpha0Score{Alpha0: a0, LogLik: math.Inf(-1)}
		d := *dm
		d.Alpha0 = a0
		res, eig, err := learnLDAMoments(ctx, docMoments{&d}, k, a0, &fitOpts)
		if eig != nil {
			// Whether or not learning went on to succeed, the eigenpairs
			// of this Pairs start the next solve.
			eo.Start = warmStart(eig.Basis, dm.M1)
		}
		if err != nil {
			if ctx.Err() != nil {
				return 0, nil, ctx.Err()
			}
			scores[i].Err = err
			continue
		}
		scores[i].Basis = expandRows(eig.Basis, old, n)
		model := res.Model
		model.Topics = expandRows(res.Topics, old, n)
		ll, tokens := completionLogLik(&model, valid)
		if tokens > 0 {
			scores[i].LogLik = ll / float64(tokens)
		}
		if best < 0 || scores[i].LogLik > scores[best].LogLik {
			best = i
		}
	}
	if best < 0 {
		errs := make([]error, len(scores))
		for i, s := range scores {
			errs[i] = s.Err
		}
		return 0, scores, fmt.Errorf("topic: SelectAlpha0: no alpha0 of %v learns: %w", grid, errors.Join(errs...))
	}
	return grid[best], scores, nil
}

// warmStart returns the starting block for the eigensolve of a Pairs
// that differs from the one whose final block is basis by a multiple of
// m1 m1^T: basis with m1 in place of its last column (the Ritz vector of
// smallest Ritz value, the least converged), or basis with m1 appended
// when it has a single column.
func warmStart(basis *mat.Dense, m1 []float64) *mat.Dense {
	n, l := basis.Dims()
	keep := max(l-1, 1)
	out := mat.Zeros(n, keep+1)
	for i := 0; i < n; i++ {
		row := out.RawRow(i)
		copy(row, basis.RawRow(i)[:keep])
		row[keep] = m1[i]
	}
	return out
}

// completionLogLik returns the document-completion log-likelihood of the
// documents of src under r (see SelectAlpha0) and the tokens it scores.
func completionLogLik(r *Model, src moments.Source) (ll float64, tokens int) {
	n, _ := r.Topics.Dims()
	floor := SmoothFloor / float64(n)
	var obs, eva moments.Doc
	src.Range(0, src.NumDocs(), func(_ int, d moments.Doc) {
		obs.Words, obs.Counts = obs.Words[:0], obs.Counts[:0]
		eva.Words, eva.Counts = eva.Words[:0], eva.Counts[:0]
		odd := false // whether the next token is evaluated
		for t, w := range d.Words {
			c := d.Counts[t]
			// c tokens alternate from the current parity.
			ce := c / 2
			if odd && c%2 == 1 {
				ce++
			}
			if co := c - ce; co > 0 {
				obs.Words, obs.Counts = append(obs.Words, w), append(obs.Counts, co)
			}
			if ce > 0 {
				eva.Words, eva.Counts = append(eva.Words, w), append(eva.Counts, ce)
			}
			if c%2 == 1 {
				odd = !odd
			}
		}
		theta := r.Infer(obs, 0)
		r.addLogLikelihood(eva, theta, floor, &ll, &tokens)
	})
	return ll, tokens
}
