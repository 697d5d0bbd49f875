// Package par runs the passes of the learners over their data in
// parallel with results that do not depend on the number of goroutines.
package par

import (
	"context"
	"sync"
	"sync/atomic"
)

// Reduce cuts [0, total) into chunks of size items, runs work(acc, lo, hi)
// on every chunk with accumulators from newAcc, and merges the chunks'
// accumulators into the result strictly in chunk order: the result has
// the same bits for any number of workers, provided size depends on the
// data alone. At most about twice as many accumulators as workers are
// live at once (a worker more than that many chunks ahead of the merge
// waits). progress, if not nil, is called after each merge with the items
// merged and the total; its calls never overlap. Reduce stops early and
// returns ctx.Err() when ctx is cancelled.
func Reduce[A any](ctx context.Context, total, size, workers int, progress func(done, total int),
	newAcc func() A, work func(acc A, lo, hi int), merge func(dst, src A), reset func(A)) (A, error) {
	result := newAcc()
	if total == 0 {
		return result, ctx.Err()
	}
	size = max(size, 1)
	chunks := (total + size - 1) / size
	workers = min(max(workers, 1), chunks)
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		next    atomic.Int64 // next chunk to claim
		merged  int          // chunks merged so far
		pending = make(map[int]A)
		free    []A
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
			work(acc, c*size, min((c+1)*size, total))

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
				if progress != nil {
					progress(min(merged*size, total), total)
				}
			}
			cond.Broadcast()
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() { defer wg.Done(); run() }()
	}
	// Wake the waiters if ctx is cancelled while they wait for the window.
	stop := context.AfterFunc(ctx, func() { mu.Lock(); cond.Broadcast(); mu.Unlock() })
	defer stop()
	run()
	wg.Wait()
	return result, ctx.Err()
}

// For runs f(i) for i in [0, n) on up to workers goroutines; f must write
// only its own outputs. It returns ctx.Err() if ctx is cancelled (some
// calls may then not have run).
func For(ctx context.Context, n, workers int, f func(i int)) error {
	workers = min(max(workers, 1), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	run := func() {
		for ctx.Err() == nil {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			f(i)
		}
	}
	for range workers - 1 {
		wg.Add(1)
		go func() { defer wg.Done(); run() }()
	}
	run()
	wg.Wait()
	return ctx.Err()
}
