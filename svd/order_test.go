package svd

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestSweepOrderCache checks that schedules are shared between calls of
// one size, that the cache keeps to its bound, and that every schedule
// holds each pair of rows exactly once.
func TestSweepOrderCache(t *testing.T) {
	for _, c := range []struct {
		r, bs int
		rr    bool
	}{{2, 2, false}, {7, 3, false}, {40, 6, false}, {65, 19, false}, {9, 0, true}, {32, 0, true}} {
		s := sweepOrder(c.r, c.bs, c.rr)
		if s2 := sweepOrder(c.r, c.bs, c.rr); s2 != s {
			t.Errorf("r=%d bs=%d rr=%v: a second call made a new schedule", c.r, c.bs, c.rr)
		}
		seen := make(map[[2]int]bool)
		for _, plan := range s.plans {
			rows := plan.Rows()
			for i := 0; i < len(rows); i += 2 {
				p, q := rows[i], rows[i+1]
				if p >= q || q >= c.r || seen[[2]int{p, q}] {
					t.Fatalf("r=%d bs=%d rr=%v: bad or repeated pair (%d, %d)", c.r, c.bs, c.rr, p, q)
				}
				seen[[2]int{p, q}] = true
			}
		}
		if len(seen) != c.r*(c.r-1)/2 || s.pairs != len(seen) {
			t.Errorf("r=%d bs=%d rr=%v: %d pairs (counted %d), want %d", c.r, c.bs, c.rr, len(seen), s.pairs, c.r*(c.r-1)/2)
		}
	}
	// Sizes whose schedules together exceed the bound push the oldest out.
	big := sweepOrder(700, 8, false) // 244650 pairs
	sweepOrder(701, 8, false)
	sweepOrder(702, 8, false)
	orderCache.Lock()
	pairs, n := 0, len(orderCache.list)
	for _, s := range orderCache.list {
		pairs += s.pairs
	}
	kept := slices.Contains(orderCache.list, big)
	total := orderCache.pairs
	orderCache.Unlock()
	if pairs != total || total > orderCachePairs || kept {
		t.Errorf("cache of %d schedules holds %d pairs (counted %d), bound %d; oldest kept: %v", n, total, pairs, orderCachePairs, kept)
	}
}

// TestConcurrentFactorize runs factorizations of one size (which share
// their schedule) in parallel, and checks that each gives exactly the
// result it gives alone.
func TestConcurrentFactorize(t *testing.T) {
	const n, workers = 72, 4
	as := make([]*mat.Dense, workers)
	want := make([]*SVD, workers)
	for w := range as {
		r := rand.New(rand.NewPCG(71, uint64(w)))
		as[w] = mat.Zeros(n, n)
		for i := range as[w].RawData() {
			as[w].RawData()[i] = r.NormFloat64()
		}
		var err error
		if want[w], err = Factorize(as[w], nil); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	got := make([]*SVD, workers)
	errs := make([]error, workers)
	for w := range as {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				got[w], errs[w] = Factorize(as[w], nil)
			}
		}()
	}
	wg.Wait()
	for w := range as {
		if errs[w] != nil {
			t.Fatal(errs[w])
		}
		if !slices.Equal(got[w].S, want[w].S) || !slices.Equal(got[w].U.RawData(), want[w].U.RawData()) || !slices.Equal(got[w].V.RawData(), want[w].V.RawData()) {
			t.Errorf("worker %d: result differs from the serial one", w)
		}
	}
}
