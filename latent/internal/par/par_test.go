package par

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
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
