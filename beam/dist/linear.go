package dist

import (
	"context"
	"fmt"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// CSV says where numeric or discrete samples are and how their shards
// are written: one sample a line, as linear.ReadCSV (numeric) or
// treemix.ReadCSV (discrete) reads them. Every shard may start with
// its own header line.
type CSV struct {
	// Glob matches the shards, read in the lexical order of their paths.
	Glob string
	// Comma is the field separator (0: ',').
	Comma rune
	// Header: 1 every shard starts with a header, -1 none does, 0 a
	// shard's first line is a header when a field is not a number.
	Header int
}

// SampleMoments are the moments of sharded numeric samples for the
// linear learners: the mean and Sigma (two pipelines at construction),
// Psi and the whitened third moment (one pipeline a call). It
// implements linear.WhitenedThirdMoments, so linear.LearnDAG takes it
// as its third moments. Close removes its temporary files.
type SampleMoments struct {
	// N is the number of samples, Mean their mean and Sigma their
	// covariance (divided by N), as in moments.SampleMoments.
	N     int
	Mean  []float64
	Sigma *mat.Dense

	r  *runner
	fn shardFn
}

// NewSampleMoments runs the two passes (mean, then Sigma centred by the
// mean, as moments.NewSampleMoments) over the shards of data. ctx must
// not be nil.
func NewSampleMoments(ctx context.Context, data CSV, opts *Options) (*SampleMoments, error) {
	r, err := newRunner(ctx, data.Glob, opts)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			r.close()
		}
	}()
	fn := shardFn{Comma: int32(data.Comma), Header: data.Header}
	mfn := fn
	mfn.Kind = "sample-mean"
	part, err := r.run(ctx, "mean", &mfn, 0, 0)
	if err != nil {
		return nil, err
	}
	total := int(part.Count[0])
	if total == 0 {
		return nil, fmt.Errorf("dist: %w: no samples in %q", moments.ErrBadData, data.Glob)
	}
	if d, negd := part.Max[0], -part.Max[1]; d != negd {
		return nil, fmt.Errorf("dist: %w: the shards of %q have between %d and %d variables", moments.ErrBadData, data.Glob, negd, d)
	}
	mean := part.Data
	for i := range mean {
		mean[i] *= 1 / float64(total)
	}
	cfn := fn
	cfn.Kind, cfn.Mean = "sample-cov", mean
	part, err = r.run(ctx, "covariance", &cfn, 0, len(mean)*len(mean))
	if err != nil {
		return nil, err
	}
	d := len(mean)
	sigma := unflatten(part.Data, d, d)
	sigma.Scale(1/float64(total), sigma)
	fn.Mean = mean
	ok = true
	return &SampleMoments{N: total, Mean: mean, Sigma: sigma, r: r, fn: fn}, nil
}

// Close removes the temporary files of the passes.
func (s *SampleMoments) Close() error { return s.r.close() }

// Psi returns Psi(zeta) = (1/N) sum (x - mean)(x - mean)^T <zeta, x - mean>
// for each column zeta of zetas (d x m), with one pipeline.
func (s *SampleMoments) Psi(ctx context.Context, zetas *mat.Dense) ([]*mat.Dense, error) {
	d := len(s.Mean)
	if r, _ := zetas.Dims(); r != d {
		panic(fmt.Sprintf("dist: Psi: zetas has %d rows for samples of dimension %d", r, d))
	}
	_, m := zetas.Dims()
	path, size, err := s.r.putMatrix(ctx, "zetas", zetas)
	if err != nil {
		return nil, err
	}
	defer removeFile(ctx, path)
	fn := s.fn
	fn.Kind, fn.MatPath = "sample-psi", path
	part, err := s.r.run(ctx, "psi", &fn, size, m*d*d)
	if err != nil {
		return nil, err
	}
	out := make([]*mat.Dense, m)
	for j := range out {
		p := unflatten(part.Data[j*d*d:(j+1)*d*d], d, d)
		p.Symmetrize()
		p.Scale(1/float64(s.N), p)
		out[j] = p
	}
	return out, nil
}

// Whitened returns (1/N) sum_s y_s(x)y_s(x)y_s with y_s = W^T (x_s - mean)
// and the centred diagonal third moments E[(x_i - mean_i)^3] (the
// noise third moments of the ECA tensor route), with one pipeline.
func (s *SampleMoments) Whitened(ctx context.Context, w *mat.Dense) (*tensor3.Sym, []float64, error) {
	n, k := w.Dims()
	if n != len(s.Mean) {
		panic(fmt.Sprintf("dist: Whitened: W has %d rows for samples of dimension %d", n, len(s.Mean)))
	}
	path, size, err := s.r.putMatrix(ctx, "w", w)
	if err != nil {
		return nil, nil, err
	}
	defer removeFile(ctx, path)
	fn := s.fn
	fn.Kind, fn.MatPath = "sample-third", path
	part, err := s.r.run(ctx, "third", &fn, size, tensor3.PackedLen(k)+n)
	if err != nil {
		return nil, nil, err
	}
	pl := tensor3.PackedLen(k)
	t := tensor3.New(k, part.Data[:pl:pl])
	t.Scale(1/float64(s.N), t)
	diag := part.Data[pl:]
	for j := range diag {
		diag[j] /= float64(s.N)
	}
	return t, diag, nil
}

var _ linear.WhitenedThirdMoments = (*SampleMoments)(nil)

// NumSamples returns N: the linear learners size their data-driven
// pruning of Lambda by it (linear.SampleCount), as they do for the
// in-process moments.
func (s *SampleMoments) NumSamples() int { return s.N }

var _ linear.SampleCount = (*SampleMoments)(nil)

// LearnDAG learns a linear Bayesian network with k hidden variables
// from sharded samples, as linear.LearnDAG does on the moments of
// samples in memory. ctx must not be nil.
func LearnDAG(ctx context.Context, data CSV, k int, dopts *linear.DAGOptions, opts *Options) (*linear.DAG, error) {
	sm, err := NewSampleMoments(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	defer sm.Close()
	return linear.LearnDAG(ctx, sm.Sigma, sm, k, dopts)
}

// LearnCoefficients learns the coefficient matrix of k hidden variables
// from sharded samples, as linear.LearnCoefficients does from Sigma.
// ctx must not be nil.
func LearnCoefficients(ctx context.Context, data CSV, k int, lopts *linear.Options, opts *Options) (*linear.Coefficients, error) {
	sm, err := NewSampleMoments(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	defer sm.Close()
	return linear.LearnCoefficients(ctx, sm.Sigma, k, lopts)
}
