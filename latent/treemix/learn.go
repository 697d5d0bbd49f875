package treemix

import "context"

// LearnOptions controls Learn. The zero value uses the defaults of the
// stages.
type LearnOptions struct {
	// Options (workers, progress) apply to every stage whose own
	// Options are zero.
	Options
	Rank     RankOptions
	Spectral SpectralOptions
}

// Report holds the intermediate results of Learn.
type Report struct {
	// Rank is RankTest's result: the union graph and its separators.
	Rank *RankResult
	// Components is FindMixtureComponents' result, from which the
	// returned mixture was built (and which estimates the component
	// Markov graphs: Components.MarkovGraphs).
	Components *Components
}

// Learn runs the whole spectral method on the tables of src: the union
// graph by RankTest, the weights and pairwise marginals of the r
// components by FindMixtureComponents, and the Chow–Liu tree of every
// component (Components.Mixture). The result is a mixture of trees in
// which the reference node is an isolated root. Refine it with EM on the
// data if wanted.
func Learn(ctx context.Context, src Source, r int, opts LearnOptions) (*Mixture, *Report, error) {
	if opts.Rank.Options.isZero() {
		opts.Rank.Options = opts.Options
	}
	if opts.Spectral.Options.isZero() {
		opts.Spectral.Options = opts.Options
	}
	rep := &Report{}
	var err error
	rep.Rank, err = RankTest(ctx, src, r, opts.Rank)
	if err != nil {
		return nil, rep, err
	}
	rep.Components, err = FindMixtureComponents(ctx, src, rep.Rank.Graph, r, opts.Spectral)
	if err != nil {
		return nil, rep, err
	}
	return rep.Components.Mixture(), rep, nil
}
