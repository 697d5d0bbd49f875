package moments

import (
	"context"
	"fmt"
	"runtime"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// Options controls the passes over the data. Functions take a *Options,
// nil meaning the zero value: GOMAXPROCS goroutines, no progress reports
// and the default memory limit. Learners nest an Options by value in
// their own options (topic.Options.Passes, for one), where the zero
// value means the same.
type Options struct {
	// Workers bounds the goroutines of a pass; 0 means GOMAXPROCS.
	// Results never depend on it. A negative value is an error matching
	// ErrBadOption (NewDocMoments, NewSampleMoments).
	Workers int
	// Progress, if not nil, is called after each chunk of a pass with
	// the pass's stage and the number of items (documents or samples)
	// done of the total. The stages are "mean" (the pass of
	// NewDocMoments and the first of NewSampleMoments), "covariance" (the
	// second of NewSampleMoments), "pairs" (PairsTimes), "triples"
	// (WhitenedTriples) and "psi" (SampleMoments.Psi).
	Progress Progress
	// MaxMemory bounds (in bytes) what a pass may allocate for its
	// accumulators and results; a pass that would need more returns a
	// *mat.MemoryError (matching mat.ErrTooLarge) before it allocates.
	// 0 means mat.DefaultMaxMemory (4 GiB), negative no limit. See the
	// package documentation.
	MaxMemory int64
}

// resolve returns *o, or the zero Options for a nil o, and an error
// matching ErrBadOption, naming fn, for a negative Workers.
func (o *Options) resolve(fn string) (Options, error) {
	if o == nil {
		return Options{}, nil
	}
	if o.Workers < 0 {
		return Options{}, fmt.Errorf("moments: %s: %w: Options.Workers = %d is negative", fn, ErrBadOption, o.Workers)
	}
	return *o, nil
}

// accs returns how many accumulators a pass over total items in chunks
// of size holds at once at most: the result and, per par.Reduce, up to
// two per worker, never more than there are chunks.
func (o Options) accs(total, size int) int {
	chunks := (total + max(size, 1) - 1) / max(size, 1)
	return 1 + min(2*o.workers(), chunks)
}

// check applies the memory rule to a pass that needs need bytes.
func (o Options) check(what string, need int64) error {
	return mat.CheckMemory(what, need, o.MaxMemory)
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// chunkSize returns the number of items per chunk for a pass over total
// items: at most about 256 chunks, at least 256 items each. It depends on
// the size of the data alone, which is what makes results independent of
// the number of workers.
func chunkSize(total int) int {
	return max(256, (total+255)/256)
}

// wideChunk returns the documents per chunk of a pass whose accumulator
// holds a row for every word of an n-word vocabulary (the Pairs and
// Triples passes): about nnz/(20 n) chunks, so that merging the
// accumulators, n rows each, costs a small fraction of the work of the
// nnz stored counts, but at least 16 (for balance) and never fewer
// documents than chunkSize. Like chunkSize it depends on the data alone.
func wideChunk(total, nnz, n int) int {
	chunks := max(16, nnz/(20*max(n, 1)))
	return max(chunkSize(total), (total+chunks-1)/chunks)
}

// reduce runs par.Reduce with chunks of chunkSize(total) items, reporting
// progress as stage: the result is the same bits for any number of
// workers.
func reduce[A any](ctx context.Context, stage string, total int, opts Options, newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	return reduceSized(ctx, stage, total, chunkSize(total), opts, newAcc, work, merge, reset)
}

// reduceSized is reduce with chunks of size items.
func reduceSized[A any](ctx context.Context, stage string, total, size int, opts Options, newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	return par.Reduce(ctx, total, size, opts.workers(), par.Stage(opts.Progress, stage), newAcc, work, merge, reset)
}

// docPassNeed returns the bytes of a pass over the documents of src
// whose accumulators hold perAcc bytes each, plus extra.
func (o Options) docPassNeed(src Source, nnz, n int, perAcc, extra int64) int64 {
	total := src.NumDocs()
	return size.Add(size.Scale(o.accs(total, wideChunk(total, nnz, n)), perAcc), extra)
}
