package topic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/latent/moments"
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
// spectral model of k topics from train and scores it by the
// document-completion log-likelihood per token of the documents of
// valid (which should be distinct from train): each document's tokens,
// taken in the order of their word ids, go alternately to an observed
// half, from which Model.Infer estimates the topic proportions, and an
// evaluated half, scored as Model.LogLikelihood scores words (topics
// mixed with SmoothFloor of the uniform distribution). Scoring the words
// the proportions were fitted to would favour ever smaller alpha0. It
// returns the alpha0 with the highest score
// (the smaller alpha0 on a tie) and every score. An alpha0 whose
// learning fails (most often a WhiteningError) is skipped; if all fail,
// the error joins theirs. It makes len(grid) spectral fits. ctx must not
// be nil.
func SelectAlpha0(ctx context.Context, train, valid moments.Source, k int, grid []float64, opts *Options) (float64, []Alpha0Score, error) {
	if grid == nil {
		grid = Alpha0Grid
	}
	if len(grid) == 0 {
		return 0, nil, fmt.Errorf("topic: SelectAlpha0: %w: empty grid", ErrBadOption)
	}
	best := -1
	scores := make([]Alpha0Score, len(grid))
	for i, a0 := range grid {
		scores[i] = Alpha0Score{Alpha0: a0, LogLik: math.Inf(-1)}
		res, err := LearnLDA(ctx, train, k, a0, opts)
		if err != nil {
			if ctx.Err() != nil {
				return 0, nil, ctx.Err()
			}
			scores[i].Err = err
			continue
		}
		ll, tokens := completionLogLik(&res.Model, valid)
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
