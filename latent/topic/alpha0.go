package topic

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/moments-go/moments/latent/moments"
)

// Alpha0Grid is the grid of alpha0 that SelectAlpha0 tries when given
// none.
var Alpha0Grid = []float64{0.1, 0.3, 1, 3}

// Alpha0Score is the result of one alpha0 of SelectAlpha0.
type Alpha0Score struct {
	Alpha0 float64
	// LogLik is the plug-in log-likelihood per token of the validation
	// documents (Result.LogLikelihood divided by their tokens) under the
	// spectral model learned with Alpha0; -Inf when learning failed.
	LogLik float64
	// Err is the error of learning with Alpha0, if any.
	Err error
}

// SelectAlpha0 chooses the sum of the Dirichlet parameters of LDA from
// the data: for each alpha0 of grid (nil means Alpha0Grid) it learns the
// spectral model of k topics from train and scores it by the
// log-likelihood per token of the documents of valid (which should be
// distinct from train). It returns the alpha0 with the highest score
// (the smaller alpha0 on a tie) and every score. An alpha0 whose
// learning fails (most often a WhiteningError) is skipped; if all fail,
// the error joins theirs. It makes len(grid) spectral fits.
func SelectAlpha0(ctx context.Context, train, valid moments.Source, k int, grid []float64, opts *Options) (float64, []Alpha0Score, error) {
	if grid == nil {
		grid = Alpha0Grid
	}
	if len(grid) == 0 {
		return 0, nil, fmt.Errorf("topic: SelectAlpha0: empty grid")
	}
	best := -1
	scores := make([]Alpha0Score, len(grid))
	for i, a0 := range grid {
		scores[i] = Alpha0Score{Alpha0: a0, LogLik: math.Inf(-1)}
		res, err := LDA(ctx, train, k, a0, opts)
		if err != nil {
			if ctx.Err() != nil {
				return 0, nil, ctx.Err()
			}
			scores[i].Err = err
			continue
		}
		ll, tokens := res.LogLikelihood(valid, 0)
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
