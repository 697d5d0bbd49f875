package treemix

import "context"

// LearnOptions controls Learn. The zero value (and nil) uses the
// defaults of the stages.
type LearnOptions struct {
	// Options (workers, progress) apply to every stage whose own
	// Options are zero.
	Options
	Rank     RankOptions
	Spectral SpectralOptions
}

// Report holds the intermediate results of Learn.
type Report struct {
	// Rank is LearnUnionGraph's result: the union graph and its
	// separators.
	Rank *RankResult
	// Components is LearnComponents' result, from which the
	// returned mixture was built (and which estimates the component
	// Markov graphs: Components.MarkovGraphs).
	Components *Components
}

// Learn runs the whole spectral method on the tables of src: the union
// graph by LearnUnionGraph, the weights and pairwise marginals of the r
// components by LearnComponents, and the Chow–Liu tree of every
// component (Components.Mixture). The result is a mixture of trees in
// which the reference node is an isolated root. Refine it with LearnEM
// on the data if wanted. nil opts means the defaults; ctx must not be
// nil.
func Learn(ctx context.Context, src Source, r int, opts *LearnOptions) (*Mixture, *Report, error) {
	o := valueOf(opts)
	if err := o.Options.check(); err != nil {
		return nil, nil, err
	}
	if o.Rank.Options.isZero() {
		o.Rank.Options = o.Options
	}
	if o.Spectral.Options.isZero() {
		o.Spectral.Options = o.Options
	}
	rep := &Report{}
	var err error
	rep.Rank, err = LearnUnionGraph(ctx, src, r, &o.Rank)
	if err != nil {
		return nil, rep, err
	}
	rep.Components, err = LearnComponents(ctx, src, rep.Rank.Graph, r, &o.Spectral)
	if err != nil {
		return nil, rep, err
	}
	return rep.Components.Mixture(), rep, nil
}
