// Package par runs the passes of the learners over their data in
// parallel with results that do not depend on the number of goroutines:
// For and Reduce start goroutines for each pass; a Team keeps its
// goroutines ready for a run of loops too short to start them for each.
package par

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/moments-go/moments/internal/carry"
)

// Reduce cuts [0, total) into chunks of size items, runs work(acc, lo, hi)
// on every chunk with accumulators from newAcc, and merges the chunks'
// accumulators into the result strictly in chunk order: the result has
// the same bits for any number of workers, provided size depends on the
// data alone. At most about twice as many accumulators as workers are
// live at once (a worker more than that many chunks ahead of the merge
// waits). progress, if not nil, is called after each merge with the items
// merged and the total; its calls never overlap. Every chunk, even a
// lone one, is worked on an accumulator and merged, since merge may write
// elsewhere than dst (into the caller's tables). Reduce stops early and
// returns ctx.Err() when ctx is cancelled.
//
// A panic in any of the functions, on any worker, stops the other
// workers at their next chunk and is carried back: once all workers have
// returned, Reduce panics on the caller's goroutine with a *carry.Panic
// that holds the original value and the stack of the worker that
// panicked (its Error method prints both, and it unwraps to the original
// value when that is an error), so a caller can recover it.
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
		caught  carry.Catcher
	)
	stopped := func() bool { return ctx.Err() != nil || caught.Failed() }
	// wake wakes the workers that wait for the window, after a
	// cancellation or a panic: the chunk they wait for may never merge.
	wake := func() { mu.Lock(); cond.Broadcast(); mu.Unlock() }
	window := 2 * workers
	// claim waits until chunk c is inside the window and returns an
	// accumulator for it, or false if the work stopped meanwhile.
	claim := func(c int) (acc A, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		for c-merged >= window && !stopped() {
			cond.Wait()
		}
		if stopped() {
			return acc, false
		}
		if n := len(free); n > 0 {
			acc, free = free[n-1], free[:n-1]
		} else {
			acc = newAcc()
		}
		return acc, true
	}
	// finish files chunk c and merges every chunk that is now next in
	// order.
	finish := func(c int, acc A) {
		mu.Lock()
		defer mu.Unlock()
		pending[c] = acc
		for !caught.Failed() {
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
	}
	run := func() {
		defer caught.Catch(wake)
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks {
				return
			}
			acc, ok := claim(c)
			if !ok {
				return
			}
			work(acc, c*size, min((c+1)*size, total))
			finish(c, acc)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() { defer wg.Done(); run() }()
	}
	// Wake the waiters if ctx is cancelled while they wait for the window.
	stop := context.AfterFunc(ctx, wake)
	defer stop()
	run()
	wg.Wait()
	caught.Repanic()
	return result, ctx.Err()
}

// Go runs f on a goroutine of its own and returns a function that waits
// for f to end and then, if f panicked, panics on its caller's goroutine
// with a *carry.Panic, as For does.
func Go(f func()) (wait func()) {
	tk := newTask(f)
	go func() {
		defer close(tk.done)
		tk.run()
	}()
	return tk.wait
}

// task is a function run once on another goroutine (Go, Team.Go): run
// catches its panic, whoever runs it closes done once it has ended, and
// wait carries the panic back.
type task struct {
	f      func()
	done   chan struct{}
	caught carry.Catcher
}

func newTask(f func()) *task { return &task{f: f, done: make(chan struct{})} }

func (t *task) run() {
	defer t.caught.Catch(nil)
	t.f()
}

func (t *task) wait() {
	<-t.done
	t.caught.Repanic()
}

// For runs f(i) for i in [0, n) on up to workers goroutines; f must write
// only its own outputs. It returns ctx.Err() if ctx is cancelled (some
// calls may then not have run).
//
// A panic in f, on any worker, stops the other workers before their next
// call and is carried back: once all workers have returned, For panics on
// the caller's goroutine with a *carry.Panic that holds the original
// value and the stack of the worker that panicked, so a caller can
// recover it.
func For(ctx context.Context, n, workers int, f func(i int)) error {
	workers = min(max(workers, 1), n)
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		caught carry.Catcher
	)
	run := func() {
		defer caught.Catch(nil)
		for ctx.Err() == nil && !caught.Failed() {
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
	caught.Repanic()
	return ctx.Err()
}
