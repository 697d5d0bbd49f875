package moments

import (
	"context"
	"runtime"

	"github.com/moments-go/moments/latent/internal/par"
)

// Options controls a pass over the data. The zero value uses GOMAXPROCS
// goroutines and no progress reports.
type Options struct {
	// Workers bounds the goroutines of a pass; 0 means GOMAXPROCS.
	// Results never depend on it.
	Workers int
	// Progress, if not nil, is called after each chunk with the number
	// of items (documents or samples) done and the total. Calls may come
	// from several goroutines, but never two at once.
	Progress func(done, total int)
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

// reduce runs par.Reduce with chunks of chunkSize(total) items: the
// result is the same bits for any number of workers.
func reduce[A any](ctx context.Context, total int, opts Options, newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	return par.Reduce(ctx, total, chunkSize(total), opts.workers(), opts.Progress, newAcc, work, merge, reset)
}
