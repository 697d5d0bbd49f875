package par

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/moments-go/moments/internal/carry"
)

// TestReduceBits sums numbers of wildly different magnitudes, where the
// order of additions shows in the last bits, with 1 to 8 workers: the
// result must not change.
func TestReduceBits(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 100000)
	for i := range x {
		x[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(30)-15))
	}
	type acc struct{ s float64 }
	var first float64
	for _, w := range []int{1, 2, 3, 8} {
		var last, calls int
		got, err := Reduce(context.Background(), len(x), 997, w, func(done, total int) {
			if done <= last || total != len(x) {
				t.Fatalf("progress %d/%d after %d", done, total, last)
			}
			last = done
			calls++
		},
			func() *acc { return &acc{} },
			func(a *acc, lo, hi int) {
				for _, v := range x[lo:hi] {
					a.s += v
				}
			},
			func(dst, src *acc) { dst.s += src.s },
			func(a *acc) { a.s = 0 })
		if err != nil {
			t.Fatal(err)
		}
		if last != len(x) || calls != 101 {
			t.Fatalf("%d workers: progress ended at %d after %d calls", w, last, calls)
		}
		if w == 1 {
			first = got.s
		} else if math.Float64bits(got.s) != math.Float64bits(first) {
			t.Fatalf("%d workers: %v, 1 worker %v", w, got.s, first)
		}
	}
}

// TestReduceWindow checks that no more than about twice as many
// accumulators as workers are alive, even when the first chunk is slow.
func TestReduceWindow(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var live, most atomic.Int64
	type acc struct{}
	_, err := Reduce(context.Background(), 1000, 10, 4, nil,
		func() *acc {
			if n := live.Add(1); n > most.Load() {
				most.Store(n)
			}
			return &acc{}
		},
		func(_ *acc, lo, _ int) {
			if lo == 0 {
				for i := 0; i < 1e6; i++ {
					runtime.Gosched()
					if i > 2000 {
						break
					}
				}
			}
		},
		func(_, _ *acc) {}, func(*acc) {})
	if err != nil {
		t.Fatal(err)
	}
	if m := most.Load(); m > 2*4+2 {
		t.Fatalf("%d accumulators alive at once for 4 workers", m)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	type acc struct{}
	if _, err := Reduce(ctx, 100, 10, 2, nil, func() *acc { return &acc{} }, func(*acc, int, int) {}, func(_, _ *acc) {}, func(*acc) {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Reduce: %v", err)
	}
	if err := For(ctx, 10, 2, func(int) {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("For: %v", err)
	}
	seen := make([]int, 50)
	if err := For(context.Background(), 50, 3, func(i int) { seen[i]++ }); err != nil {
		t.Fatal(err)
	}
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("For ran %d %d times", i, c)
		}
	}
}

// catch runs f and returns what it panicked with, or nil.
func catch(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// TestWorkerPanic makes one chunk (or one index) panic under 1 to 8
// workers: the panic must reach the caller's goroutine as a *carry.Panic
// that holds the original value and a stack naming the panicking
// function, with no deadlock (the chunk that panics is the one the
// others wait on to merge, so a worker left waiting for the window would
// hang the test), and the other workers must stop early.
func TestWorkerPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	type acc struct{ s int }
	for _, w := range []int{1, 2, 3, 8} {
		for _, bad := range []int{0, 7, 99} { // first, middle and last chunk
			var ran atomic.Int64
			v := catch(func() {
				Reduce(context.Background(), 1000, 10, w, nil,
					func() *acc { return &acc{} },
					func(a *acc, lo, hi int) {
						ran.Add(1)
						if lo/10 == bad {
							panicInWork(lo)
						}
						runtime.Gosched()
						a.s += hi - lo
					},
					func(dst, src *acc) { dst.s += src.s },
					func(a *acc) { a.s = 0 })
			})
			checkPanic(t, v, fmt.Sprintf("Reduce, %d workers, chunk %d", w, bad))
			if bad == 0 && ran.Load() > int64(2*w+w) {
				t.Errorf("Reduce, %d workers: %d chunks ran after chunk 0 panicked", w, ran.Load())
			}
		}
		for _, phase := range []string{"merge", "newAcc", "progress"} {
			v := catch(func() {
				calls := 0
				Reduce(context.Background(), 1000, 10, w,
					func(int, int) {
						if phase == "progress" {
							panicInWork(-1)
						}
					},
					func() *acc {
						if calls++; phase == "newAcc" && calls > 1 {
							panicInWork(-1)
						}
						return &acc{}
					},
					func(*acc, int, int) {},
					func(dst, src *acc) {
						if phase == "merge" {
							panicInWork(-1)
						}
					},
					func(*acc) {})
			})
			checkPanic(t, v, fmt.Sprintf("Reduce, %d workers, panic in %s", w, phase))
		}
		var ran atomic.Int64
		v := catch(func() {
			For(context.Background(), 1000, w, func(i int) {
				ran.Add(1)
				if i == 3 {
					panicInWork(i)
				}
				runtime.Gosched()
			})
		})
		checkPanic(t, v, fmt.Sprintf("For, %d workers", w))
		// On one worker the calls after the panic never run. With more,
		// how many others run before they see it depends on the
		// scheduler (under qemu all 1000 can), so only one worker is
		// asserted.
		if w == 1 && ran.Load() != 4 {
			t.Errorf("For, 1 worker: %d calls ran, want 4 (a panic at 3 stops the rest)", ran.Load())
		}
	}
	// A runtime error keeps its type through the wrapping.
	v := catch(func() {
		For(context.Background(), 4, 4, func(i int) {
			var x []int
			_ = x[i+5]
		})
	})
	var re runtime.Error
	if err, ok := v.(error); !ok || !errors.As(err, &re) {
		t.Fatalf("index out of range came back as %T %v", v, v)
	}
	// The work still succeeds afterwards (no state is left behind).
	if err := For(context.Background(), 10, 3, func(int) {}); err != nil {
		t.Fatal(err)
	}
}

type workPanic struct{ at int }

//go:noinline
func panicInWork(at int) { panic(workPanic{at}) }

func checkPanic(t *testing.T, v any, what string) {
	t.Helper()
	p, ok := v.(*carry.Panic)
	if !ok {
		t.Fatalf("%s: recovered %T %v, want *carry.Panic", what, v, v)
	}
	if _, ok := p.Value.(workPanic); !ok {
		t.Fatalf("%s: original value %T %v", what, p.Value, p.Value)
	}
	if !strings.Contains(string(p.Stack), "panicInWork") || !strings.Contains(p.Error(), "panicInWork") {
		t.Fatalf("%s: the stack does not name the panicking function:\n%s", what, p.Error())
	}
}

// TestReduceMergesLoneChunk: a single chunk is still merged, for callers
// whose merge writes outside the result.
func TestReduceMergesLoneChunk(t *testing.T) {
	var out []int
	_, err := Reduce(context.Background(), 3, 10, 4, nil,
		func() []int { return make([]int, 1) },
		func(acc []int, lo, hi int) { acc[0] += hi - lo },
		func(_, src []int) { out = append(out, src[0]) },
		func(acc []int) { acc[0] = 0 })
	if err != nil || len(out) != 1 || out[0] != 3 {
		t.Fatalf("merged %v (err %v), want one chunk of 3 items", out, err)
	}
}

// TestGo: Go runs f on another goroutine, wait returns once it has
// ended, and a panic of f comes back from wait as a *carry.Panic.
func TestGo(t *testing.T) {
	gid := func() string {
		buf := make([]byte, 64)
		return strings.Fields(string(buf[:runtime.Stack(buf, false)]))[1]
	}
	caller := gid()
	var other string
	var ended atomic.Bool
	wait := Go(func() { other = gid(); ended.Store(true) })
	wait()
	if !ended.Load() || other == caller {
		t.Errorf("ended %v, on goroutine %s (the caller's is %s)", ended.Load(), other, caller)
	}
	wait = Go(func() { panic(errors.New("task failed")) })
	defer func() {
		var p *carry.Panic
		if err, ok := recover().(error); !ok || !errors.As(err, &p) || p.Error() == "" || !strings.Contains(fmt.Sprint(p.Value), "task failed") {
			t.Errorf("wait re-panicked with %v, want a *carry.Panic of the task's error", err)
		}
	}()
	wait()
}

// TestBlocks checks that Blocks covers [lo, hi) in order with ranges of
// at most rows items, and BlockRows' bounds.
func TestBlocks(t *testing.T) {
	for _, c := range []struct{ lo, hi, rows int }{{0, 0, 3}, {5, 6, 3}, {0, 9, 3}, {2, 12, 3}, {0, 1000, 256}} {
		next, calls := c.lo, 0
		Blocks(c.lo, c.hi, c.rows, func(lo, hi int) {
			if lo != next || hi <= lo || hi-lo > c.rows || hi > c.hi {
				t.Fatalf("%v: range %d..%d after %d", c, lo, hi, next)
			}
			next = hi
			calls++
		})
		if next != c.hi && !(c.lo == c.hi && calls == 0) {
			t.Fatalf("%v: ended at %d", c, next)
		}
	}
	for _, c := range []struct{ d, limit, want int }{{12, 1 << 30, 10922}, {1, 1 << 30, 131072}, {100000, 1 << 30, 256}, {12, 100, 100}, {0, 5, 5}} {
		if got := BlockRows(c.d, c.limit); got != c.want {
			t.Errorf("BlockRows(%d, %d) = %d, want %d", c.d, c.limit, got, c.want)
		}
	}
}

// TestBlocksPanics: Blocks refuses rows < 1 instead of looping forever.
func TestBlocksPanics(t *testing.T) {
	if v := catch(func() { Blocks(0, 5, 0, func(int, int) {}) }); v == nil {
		t.Fatal("no panic for rows = 0")
	}
}
