package moments

import (
	"context"
	"errors"
	"fmt"

	"github.com/moments-go/moments/internal/par"
	memsize "github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// SampleMoments are the second moments of single-view samples, centred
// by the sample mean: Sigma = (1/N) sum (x - mean) (x - mean)^T. N, Mean
// and Sigma are the number of samples, their mean and Sigma.
type SampleMoments struct {
	N     int
	Mean  []float64
	Sigma *mat.Dense

	src  Samples
	opts Options
}

// blockRows is par.BlockRows, the samples the sample passes load at
// once; tests make it small to load chunks in many blocks.
var blockRows = par.BlockRows

// blockAcc is the per-chunk state of the sample passes.
type blockAcc struct {
	block *mat.Dense // a block of the chunk's samples, centred
	sum   *mat.Dense // accumulated matrix (Sigma or one Psi per zeta)
	sums  []*mat.Dense
	vec   []float64
	n     int
}

// NewSampleMoments makes two passes over src: the mean, then Sigma.
// opts nil means the defaults; the moments keep a copy of it for Psi.
// An src without samples is an error matching ErrBadData, a negative
// opts.Workers one matching ErrBadOption.
// ctx must not be nil; the passes stop with ctx.Err() once it is done.
func NewSampleMoments(ctx context.Context, src Samples, opts *Options) (*SampleMoments, error) {
	o, err := opts.resolve("NewSampleMoments")
	if err != nil {
		return nil, err
	}
	total, d := src.NumSamples(), src.Dim()
	if total == 0 {
		return nil, fmt.Errorf("moments: NewSampleMoments: %w: no samples", ErrBadData)
	}
	size := chunkSize(total)
	rows := blockRows(d, size)
	// Each accumulator holds a block of samples (a chunk is loaded in
	// blocks of rows samples) and the d x d sum; each worker forms one
	// Gram matrix at a time.
	need := memsize.Add(memsize.Scale(o.accs(total, size), memsize.Add(memsize.Float64s(rows, d), memsize.Float64s(d, d), memsize.Float64s(d))),
		memsize.Scale(o.workers(), memsize.Float64s(d, d)))
	if err := o.check(fmt.Sprintf("the moments of %d variables", d), need); err != nil {
		return nil, fmt.Errorf("moments: NewSampleMoments: %w", err)
	}
	newBlock := func() *blockAcc {
		return &blockAcc{block: mat.Zeros(rows, d), vec: make([]float64, d)}
	}
	load := func(a *blockAcc, lo, hi int) *mat.Dense {
		b := a.block.Slice(0, hi-lo, 0, d)
		src.Block(lo, hi, b)
		return b
	}
	meanAcc, err := reduce(ctx, "mean", total, o, newBlock,
		func(a *blockAcc, lo, hi int) {
			par.Blocks(lo, hi, rows, func(lo, hi int) {
				b := load(a, lo, hi)
				for i := 0; i < hi-lo; i++ {
					kernels.Axpy(1, b.RawRow(i), a.vec)
				}
			})
			a.n += hi - lo
		},
		func(dst, src *blockAcc) { kernels.Axpy(1, src.vec, dst.vec); dst.n += src.n },
		func(a *blockAcc) { clear(a.vec); a.n = 0 })
	if err != nil {
		return nil, err
	}
	mean := append([]float64(nil), meanAcc.vec...)
	kernels.Scal(1/float64(total), mean)
	if err := checkFinite(mean); err != nil {
		return nil, fmt.Errorf("moments: NewSampleMoments: %w", err)
	}

	covAcc, err := reduce(ctx, "covariance", total, o,
		func() *blockAcc { a := newBlock(); a.sum = mat.Zeros(d, d); return a },
		func(a *blockAcc, lo, hi int) {
			var g mat.Dense // d x d, reused by the blocks
			par.Blocks(lo, hi, rows, func(lo, hi int) {
				b := load(a, lo, hi)
				center(b, mean)
				g.GramCols(b)
				a.sum.Add(a.sum, &g)
			})
		},
		func(dst, src *blockAcc) { dst.sum.Add(dst.sum, src.sum) },
		func(a *blockAcc) { a.sum.Zero() })
	if err != nil {
		return nil, err
	}
	sigma := covAcc.sum
	sigma.Scale(1/float64(total), sigma)
	return &SampleMoments{N: total, Mean: mean, Sigma: sigma, src: src, opts: o}, nil
}

// Psi returns Psi(zeta) = (1/N) sum (x - mean)(x - mean)^T <zeta, x - mean>
// for each column zeta of zetas (d x m), with one pass over the samples.
// ctx must not be nil.
func (s *SampleMoments) Psi(ctx context.Context, zetas *mat.Dense) ([]*mat.Dense, error) {
	d := len(s.Mean)
	if r, _ := zetas.Dims(); r != d {
		panic(fmt.Sprintf("moments: Psi: zetas has %d rows for samples of dimension %d", r, d))
	}
	_, m := zetas.Dims()
	total := s.N
	size := chunkSize(total)
	rows := blockRows(d, size)
	// Each accumulator holds a block of samples (a chunk is loaded in
	// blocks of rows samples) and m sums, d x d; each worker forms a
	// scaled block and a product at a time.
	need := memsize.Add(memsize.Scale(s.opts.accs(total, size), memsize.Add(memsize.Float64s(rows, d), memsize.Scale(m, memsize.Float64s(d, d)))),
		memsize.Scale(s.opts.workers(), memsize.Add(memsize.Float64s(rows, d+m), memsize.Float64s(d, d))))
	if err := s.opts.check(fmt.Sprintf("the third-moment slices of %d variables", d), need); err != nil {
		return nil, fmt.Errorf("moments: Psi: %w", err)
	}
	acc, err := reduce(ctx, "psi", total, s.opts,
		func() *blockAcc {
			a := &blockAcc{block: mat.Zeros(rows, d)}
			for j := 0; j < m; j++ {
				a.sums = append(a.sums, mat.Zeros(d, d))
			}
			return a
		},
		func(a *blockAcc, lo, hi int) {
			// The worker's scaled block and products, allocated once a
			// chunk (the memory estimate's per-worker part) and cut to
			// each block.
			zb, yb := mat.Zeros(min(rows, hi-lo), m), mat.Zeros(min(rows, hi-lo), d)
			var p mat.Dense // d x d
			par.Blocks(lo, hi, rows, func(lo, hi int) {
				b := a.block.Slice(0, hi-lo, 0, d)
				s.src.Block(lo, hi, b)
				center(b, s.Mean)
				z, y := zb.Slice(0, hi-lo, 0, m), yb.Slice(0, hi-lo, 0, d)
				z.Mul(b, zetas) // (hi-lo) x m: <zeta_j, x_i - mean>
				for j := 0; j < m; j++ {
					y.Copy(b)
					for i := 0; i < hi-lo; i++ {
						kernels.Scal(z.At(i, j), y.RawRow(i))
					}
					p.MulAT(y, b)
					a.sums[j].Add(a.sums[j], &p)
				}
			})
		},
		func(dst, src *blockAcc) {
			for j := range dst.sums {
				dst.sums[j].Add(dst.sums[j], src.sums[j])
			}
		},
		func(a *blockAcc) {
			for _, p := range a.sums {
				p.Zero()
			}
		})
	if err != nil {
		return nil, err
	}
	for _, p := range acc.sums {
		p.Symmetrize()
		p.Scale(1/float64(total), p)
	}
	return acc.sums, nil
}

// center subtracts mean from every row of b.
func center(b *mat.Dense, mean []float64) {
	r, _ := b.Dims()
	for i := 0; i < r; i++ {
		kernels.Axpy(-1, mean, b.RawRow(i))
	}
}

// ErrNotFinite reports NaN or Inf in the data; linear.ErrNotFinite is
// this value.
var ErrNotFinite = errors.New("moments: data holds NaN or Inf")

func checkFinite(x []float64) error {
	for i, v := range x {
		if v-v != 0 {
			return fmt.Errorf("%w (coordinate %d of the mean is %v)", ErrNotFinite, i, v)
		}
	}
	return nil
}
