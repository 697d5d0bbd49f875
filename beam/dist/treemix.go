package dist

import (
	"context"
	"fmt"
	"slices"

	"github.com/moments-go/moments/latent/treemix"
)

// Tables are the joint probability tables of sharded discrete samples:
// a treemix.Source whose Joints runs one pipeline that counts every
// requested table in every shard (treemix.Count) and adds the counts.
// Counts are integers, so the tables are the same bits as
// treemix.Empirical's on the concatenated samples. Close removes the
// temporary files.
type Tables struct {
	n, p, d int
	r       *runner
	fn      shardFn
}

// NewTables runs the first pass over the shards of data: the number of
// samples, of variables and of states (states plus one, the largest
// state in any shard plus one when states is 0). ctx must not be nil.
func NewTables(ctx context.Context, data CSV, states int, opts *Options) (*Tables, error) {
	if states < 0 {
		return nil, fmt.Errorf("dist: %w: states = %d", treemix.ErrBadOption, states)
	}
	r, err := newRunner(ctx, data.Glob, opts)
	if err != nil {
		return nil, err
	}
	fn := shardFn{Kind: "tm-dims", Comma: int32(data.Comma), Header: data.Header, States: states}
	part, err := r.run(ctx, "dims", &fn, 0, 0)
	if err != nil {
		r.close()
		return nil, err
	}
	n := int(part.Count[0])
	if n == 0 {
		r.close()
		return nil, fmt.Errorf("dist: %w: no samples in %q", treemix.ErrBadData, data.Glob)
	}
	p, negp, d := int(part.Max[0]), -int(part.Max[1]), int(part.Max[2])
	if p != negp {
		r.close()
		return nil, fmt.Errorf("dist: %w: the shards of %q have between %d and %d variables", treemix.ErrBadData, data.Glob, negp, p)
	}
	if states > 0 {
		d = states
	}
	fn.Kind, fn.States = "tm-count", d
	return &Tables{n: n, p: p, d: d, r: r, fn: fn}, nil
}

// Close removes the temporary files of the passes.
func (t *Tables) Close() error { return t.r.close() }

// Dims returns the number of variables and of states.
func (t *Tables) Dims() (p, d int) { return t.p, t.d }

// Samples returns the number of samples.
func (t *Tables) Samples() int { return t.n }

// Joints returns the joint frequencies of each set of variables, with
// one pipeline. It panics if a set names a variable out of range or
// twice, as treemix.Count does.
func (t *Tables) Joints(ctx context.Context, sets [][]int) ([]*treemix.Table, error) {
	if len(sets) == 0 {
		return nil, nil
	}
	for _, s := range sets {
		for i, v := range s {
			if v < 0 || v >= t.p || slices.Contains(s[:i], v) {
				panic(fmt.Sprintf("dist: Joints: set %v: bad or repeated variable for %d variables", s, t.p))
			}
		}
	}
	fn := t.fn
	fn.Sets = sets
	cells := 0
	for _, s := range sets {
		c := 1
		for range s {
			c *= t.d
		}
		cells += c
	}
	part, err := t.r.run(ctx, "count", &fn, 0, cells)
	if err != nil {
		return nil, err
	}
	out := make([]*treemix.Table, len(sets))
	off := 0
	for i, s := range sets {
		tb := treemix.NewTable(slices.Clone(s), t.d)
		copy(tb.P, part.Data[off:off+len(tb.P)])
		off += len(tb.P)
		tb.Scale(1 / float64(t.n))
		out[i] = tb
	}
	return out, nil
}

var _ treemix.Source = (*Tables)(nil)

// LearnTreemix learns a mixture of r trees from sharded discrete
// samples, as treemix.Learn does on treemix.Empirical of the samples in
// memory; the tables are the same bits, so the mixture is too. ctx
// must not be nil.
func LearnTreemix(ctx context.Context, data CSV, states, r int, lopts *treemix.LearnOptions, opts *Options) (*treemix.Mixture, *treemix.Report, error) {
	t, err := NewTables(ctx, data, states, opts)
	if err != nil {
		return nil, nil, err
	}
	defer t.Close()
	return treemix.Learn(ctx, t, r, lopts)
}
