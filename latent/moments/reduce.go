package moments

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
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

// reduce cuts [0, total) into chunks of chunkSize(total) items, runs
// work(acc, lo, hi) for every chunk on accumulators from newAcc, and
// merges the chunks' accumulators into one in the order of the chunks:
// the result is the same bits for any number of workers. At most about
// twice as many accumulators as workers exist at once. It stops early,
// returning ctx.Err(), when ctx is cancelled.
func reduce[A any](ctx context.Context, total int, opts Options, newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	result := newAcc()
	if total == 0 {
		return result, ctx.Err()
	}
	size := chunkSize(total)
	chunks := (total + size - 1) / size
	workers := min(opts.workers(), chunks)

	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		next    atomic.Int64 // next chunk to claim
		merged  int          // chunks merged so far
		pending = make(map[int]A)
		free    []A
		done    int
	)
	window := 2 * workers
	run := func() {
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks {
				return
			}
			mu.Lock()
			for c-merged >= window && ctx.Err() == nil {
				cond.Wait()
			}
			var acc A
			if n := len(free); n > 0 {
				acc, free = free[n-1], free[:n-1]
			} else {
				acc = newAcc()
			}
			mu.Unlock()
			if ctx.Err() != nil {
				return
			}
			lo, hi := c*size, min((c+1)*size, total)
			work(acc, lo, hi)

			mu.Lock()
			pending[c] = acc
			for {
				a, ok := pending[merged]
				if !ok {
					break
				}
				delete(pending, merged)
				merge(result, a)
				reset(a)
				free = append(free, a)
				merged++
				done += size
				if opts.Progress != nil {
					opts.Progress(min(done, total), total)
				}
			}
			cond.Broadcast()
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() { defer wg.Done(); run() }()
	}
	// Wake waiters if ctx is cancelled while they wait for the window.
	stop := context.AfterFunc(ctx, func() { mu.Lock(); cond.Broadcast(); mu.Unlock() })
	defer stop()
	run()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return result, err
	}
	return result, nil
}
