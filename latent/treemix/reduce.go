package treemix

import (
	"context"
	"runtime"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// Options controls the passes over the data; every learner's options
// embed it. The zero value (and a nil *Options) uses GOMAXPROCS
// goroutines, reports no progress and applies mat.DefaultMaxMemory.
type Options struct {
	// Workers bounds the goroutines of a pass; 0 means GOMAXPROCS, a
	// negative value is an error matching ErrBadOption. Results never
	// depend on it.
	Workers int
	// Progress, if not nil, is called as a long computation advances,
	// with a short description of the stage, the work done and the
	// total (in units of the stage). Calls never overlap.
	Progress moments.Progress
	// MaxMemory bounds (bytes) what a stage holds: the tables of counts
	// of a pass (Count, each level of LearnUnionGraph), the pair tables of LearnEM.
	// A stage that would need more is refused with a *mat.MemoryError
	// before it allocates them. 0 means mat.DefaultMaxMemory (4 GiB),
	// negative no limit.
	MaxMemory int64
}

// valueOf returns *opts, or the zero value (the documented defaults) if
// opts is nil.
func valueOf[T any](opts *T) T {
	if opts == nil {
		var zero T
		return zero
	}
	return *opts
}

func (o Options) isZero() bool { return o.Workers == 0 && o.Progress == nil && o.MaxMemory == 0 }

// checkMemory applies the memory rule to a stage that needs need bytes.
func (o Options) checkMemory(what string, need int64) error {
	return mat.CheckMemory(what, need, o.MaxMemory)
}

// tableBytes is the memory of a Table over m variables with d states
// beyond its cells: the struct, its variables and the bookkeeping of
// the pass that fills it.
func tableBytes(m int) int64 { return int64(96 + 16*m) }

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// chunkRows is the number of samples per chunk of a pass over n samples:
// at most about 128 chunks, at least 512 samples each. It depends on n
// alone, so that the chunks, and with them every floating-point sum, are
// the same for any number of workers.
func chunkRows(n int) int { return max(512, (n+127)/128) }

// reduce cuts [0, total) into chunks of chunkRows(total) items, runs
// work(acc, lo, hi) on every chunk with accumulators from newAcc, and
// merges the chunk accumulators into the result in chunk order, so the
// result has the same bits for any number of workers. At most about
// twice as many accumulators as workers are live at once. It returns
// ctx.Err() if ctx is cancelled.
func reduce[A any](ctx context.Context, total int, opts Options, stage string, newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	return reduceChunks(ctx, total, chunkRows(total), opts, stage, newAcc, work, merge, reset)
}

// reduceChunks is reduce with chunks of the given size (which must
// depend on the data alone where the merge rounds).
func reduceChunks[A any](ctx context.Context, total, size int, opts Options, stage string, newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	return par.Reduce(ctx, total, size, opts.workers(), par.Stage(opts.Progress, stage), newAcc, work, merge, reset)
}

// parallelFor runs f(i) for i in [0, n) on up to opts.workers()
// goroutines; f must write only its own outputs. It returns ctx.Err()
// if ctx is cancelled (some calls may then not have run).
func parallelFor(ctx context.Context, n int, opts Options, f func(i int)) error {
	return par.For(ctx, n, opts.workers(), f)
}
