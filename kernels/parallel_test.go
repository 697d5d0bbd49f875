package kernels

import (
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/carry"
)

// TestParallelPanic makes one worker of parallel panic, for 2 to 8
// workers and each worker in turn (worker 0 runs on the caller's
// goroutine): the caller must recover a *carry.Panic with the original
// value and the panicking worker's stack, after all workers returned.
func TestParallelPanic(t *testing.T) {
	for _, w := range []int{2, 3, 8} {
		for bad := range w {
			done := make([]bool, w)
			v := func() (v any) {
				defer func() { v = recover() }()
				parallel(w, func(i int) {
					if i == bad {
						panicInWorker(i)
					}
					done[i] = true
				})
				return nil
			}()
			p, ok := v.(*carry.Panic)
			if !ok || p.Value != bad || !strings.Contains(string(p.Stack), "panicInWorker") {
				t.Fatalf("%d workers, worker %d panics: recovered %T %v", w, bad, v, v)
			}
			for i, d := range done {
				if d == (i == bad) {
					t.Fatalf("%d workers, worker %d panics: worker %d done = %v", w, bad, i, d)
				}
			}
		}
	}
}

//go:noinline
func panicInWorker(i int) { panic(i) }
