package linear

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// BootstrapOptions controls BootstrapObservedBN. nil or the zero value
// gives the defaults stated for each field.
type BootstrapOptions struct {
	// DAG are the options of every fit (LearnObservedBN); DAG.Seed also
	// seeds the resamples, DAG.MaxMemory bounds each fit and the
	// resamples' indices, and DAG.Progress is told the stage
	// "bootstrap" after each resample (the fits themselves report
	// nothing).
	DAG DAGOptions
	// Resamples is the number of bootstrap resamples (0: 100).
	Resamples int
	// Passes controls the passes over the samples (workers).
	Passes moments.Options
}

// BootstrapBN is the result of BootstrapObservedBN.
type BootstrapBN struct {
	// ObservedBN is the fit on all the samples.
	*ObservedBN
	// EdgeProb[i][j] is the share of the resamples whose Lambda holds
	// the edge x_j -> x_i (a non-zero Lambda[i][j]): the bootstrap
	// probability of the edge, its confidence.
	EdgeProb *mat.Dense
	// Resamples is the number of resamples fitted; Failed the number
	// whose fit returned an error (left out of EdgeProb).
	Resamples, Failed int
}

// BootstrapObservedBN fits LearnObservedBN on the samples src and on
// Resamples bootstrap resamples of them, and returns the fit with the
// bootstrap probability of every edge. A resample draws N indices
// uniformly with replacement (a multinomial count per sample, from a
// stream seeded by DAG.Seed and the resample's number) and only
// re-weights the moments: each fit makes the passes over the samples of
// the moments (Sigma and the whitened third moment), with every sample
// counted as often as it was drawn, and never copies the data. The fit on
// all samples and each resample's fit use opts.DAG, with DAG.Samples set
// to N when it is 0 (so that the pruning knows the sample count).
// Errors: those of LearnObservedBN and moments.NewSampleMoments on the
// full data; ErrBadOption for a negative Resamples; the context's error;
// a resample whose fit fails is counted in Failed, and if every
// resample fails the first error is returned.
func BootstrapObservedBN(ctx context.Context, src moments.Samples, opts *BootstrapOptions) (*BootstrapBN, error) {
	checkCtx("BootstrapObservedBN", ctx)
	var o BootstrapOptions
	if opts != nil {
		o = *opts
	}
	if o.Resamples < 0 {
		return nil, fmt.Errorf("%w: BootstrapOptions.Resamples = %d is negative", ErrBadOption, o.Resamples)
	}
	if o.Resamples == 0 {
		o.Resamples = 100
	}
	if err := o.DAG.check(); err != nil {
		return nil, err
	}
	n, p := src.NumSamples(), src.Dim()
	if err := mat.CheckMemory(fmt.Sprintf("the bootstrap indices of %d samples", n), size.Scale(8, size.Mul(n)), o.DAG.MaxMemory); err != nil {
		return nil, fmt.Errorf("linear: BootstrapObservedBN: %w", err)
	}
	if o.DAG.Samples == 0 {
		o.DAG.Samples = n
	}
	report := o.DAG.Progress
	o.DAG.Progress = nil
	fit := func(s moments.Samples) (*ObservedBN, error) {
		sm, err := moments.NewSampleMoments(ctx, s, &o.Passes)
		if err != nil {
			return nil, err
		}
		return LearnObservedBN(ctx, sm.Sigma, &SampleThird{Moments: sm, Src: s, Passes: o.Passes}, &o.DAG)
	}
	full, err := fit(src)
	if err != nil {
		return nil, err
	}
	res := &BootstrapBN{ObservedBN: full, EdgeProb: mat.Zeros(p, p), Resamples: o.Resamples}
	progress(report, "bootstrap", 0, o.Resamples)
	var first error
	idx := make([]int, n)
	for r := range o.Resamples {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(o.DAG.Seed, 0xb0075+uint64(r)))
		for t := range idx {
			idx[t] = rng.IntN(n)
		}
		slices.Sort(idx)
		bn, err := fit(&resampled{src: src, idx: idx})
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			res.Failed++
			if first == nil {
				first = fmt.Errorf("linear: BootstrapObservedBN: resample %d: %w", r, err)
			}
		} else {
			for i := 0; i < p; i++ {
				for j := 0; j < p; j++ {
					if bn.Lambda.At(i, j) != 0 {
						res.EdgeProb.Set(i, j, res.EdgeProb.At(i, j)+1)
					}
				}
			}
		}
		progress(report, "bootstrap", r+1, o.Resamples)
	}
	if res.Failed == o.Resamples {
		return nil, first
	}
	ok := float64(o.Resamples - res.Failed)
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			res.EdgeProb.Set(i, j, res.EdgeProb.At(i, j)/ok)
		}
	}
	return res, nil
}

// resampled is a bootstrap resample of src: sample t is src's sample
// idx[t] (idx sorted, so that repeats are adjacent). It is safe for
// concurrent Block calls, as the passes over samples need.
type resampled struct {
	src moments.Samples
	idx []int
}

func (r *resampled) NumSamples() int { return len(r.idx) }
func (r *resampled) Dim() int        { return r.src.Dim() }

// Block writes samples lo..hi-1: each run of consecutive source indices
// is read with one Block of src, and a repeated index copies the row
// before it.
func (r *resampled) Block(lo, hi int, dst *mat.Dense) {
	d := r.src.Dim()
	for t := lo; t < hi; {
		if t > lo && r.idx[t] == r.idx[t-1] {
			copy(dst.RawRow(t-lo), dst.RawRow(t-lo-1))
			t++
			continue
		}
		end := t + 1
		for end < hi && r.idx[end] == r.idx[end-1]+1 {
			end++
		}
		r.src.Block(r.idx[t], r.idx[end-1]+1, dst.Slice(t-lo, end-lo, 0, d))
		t = end
	}
}
