package svd

import (
	"sync"

	"github.com/moments-go/moments/internal/jacobi"
)

// schedule is the order of a sweep of rowJacobi over r rows: the
// kernels' plans of the parts of the sweep, each holding its pairs of
// rows and their steps. The row-cyclic order has one part per
// block row of bs rows (scheduleBlockRow), the round-robin order one part
// in all. A schedule never changes once made, so Factorize and EigSym
// calls on matrices of one size share it (see sweepOrder).
type schedule struct {
	r, bs int
	rr    bool
	plans []*jacobi.Plan
	pairs int
}

// The schedules made last, most recent last, up to orderCachePairs pairs
// in all (about 36 bytes each: 18 MB): making one costs about as much as
// a tenth of a sweep, which is a few percent of a factorization of a few
// hundred rows, and the learners factorize matrices of one size many
// times.
var orderCache struct {
	sync.Mutex
	list  []*schedule
	pairs int
}

const orderCachePairs = 1 << 19

// sweepOrder returns the schedule of r rows in blocks of bs rows (or in
// the round-robin order), from the cache when it is there.
func sweepOrder(r, bs int, rr bool) *schedule {
	if rr {
		bs = 0
	}
	c := &orderCache
	c.Lock()
	for i, s := range c.list {
		if s.r == r && s.bs == bs && s.rr == rr {
			copy(c.list[i:], c.list[i+1:])
			c.list[len(c.list)-1] = s
			c.Unlock()
			return s
		}
	}
	c.Unlock()
	s := newSchedule(r, bs, rr)
	if s.pairs > orderCachePairs {
		return s
	}
	c.Lock()
	c.list = append(c.list, s)
	c.pairs += s.pairs
	for c.pairs > orderCachePairs {
		c.pairs -= c.list[0].pairs
		c.list = c.list[1:]
	}
	c.Unlock()
	return s
}

func newSchedule(r, bs int, rr bool) *schedule {
	s := &schedule{r: r, bs: bs, rr: rr, pairs: r * (r - 1) / 2}
	if rr {
		rows, steps := scheduleRoundRobin(r)
		s.plans = []*jacobi.Plan{jacobi.NewPlan(rows, steps)}
		return s
	}
	// The block rows in two slabs of the exact sizes: r(r-1)/2 pairs,
	// and bi-1+(r-1-i0) steps for the block row of bi rows from i0.
	nsteps := 0
	for i0 := 0; i0 < r; i0 += bs {
		nsteps += min(i0+bs, r) - i0 - 1 + r - 1 - i0
	}
	rows, steps := make([]int, 0, r*(r-1)), make([]int, 0, nsteps)
	for i0 := 0; i0 < r; i0 += bs {
		r0, s0 := len(rows), len(steps)
		rows, steps = scheduleBlockRow(rows, steps, r, i0, min(i0+bs, r))
		br, bst := rows[r0:len(rows):len(rows)], steps[s0:len(steps):len(steps)]
		s.plans = append(s.plans, jacobi.NewPlan(br, bst))
	}
	return s
}

// scheduleBlockRow appends to rows and steps the pairs (p, q) with p in
// [i0, i1) and p < q < r in the row-cyclic order (p ascending, then q
// ascending), executed as a wavefront: a pair depends only on the pairs
// before it that share a row, which lie on earlier anti-diagonals
// p + q = const of the (p, q) grid, and the pairs of one anti-diagonal
// are disjoint. Every step therefore holds up to i1-i0 independent
// pairs, and the result is that of the plain row-cyclic loop.
func scheduleBlockRow(rows, steps []int, r, i0, i1 int) ([]int, []int) {
	bi := i1 - i0
	last := r - 1 - i0 // largest q - i0
	for w := 1; w <= bi-1+last; w++ {
		n := 0
		for t := max(0, w-last); t <= min(bi-1, (w-1)/2); t++ {
			rows = append(rows, i0+t, i0+w-t)
			n++
		}
		steps = append(steps, n)
	}
	return rows, steps
}

// scheduleRoundRobin returns the round-robin order of r rows: r-1 steps
// (r when r is odd) in which every row is in one pair.
func scheduleRoundRobin(r int) (rows, steps []int) {
	nb := r + r&1 // a dummy row r when r is odd
	perm := make([]int, nb)
	for i := range perm {
		perm[i] = i
	}
	for step := 0; step < nb-1; step++ {
		n := 0
		for i := 0; i < nb/2; i++ {
			p, q := perm[i], perm[nb-1-i]
			if p >= r || q >= r {
				continue
			}
			rows = append(rows, min(p, q), max(p, q))
			n++
		}
		steps = append(steps, n)
		// Keep perm[0], rotate the others by one place.
		last := perm[nb-1]
		copy(perm[2:], perm[1:nb-1])
		perm[1] = last
	}
	return rows, steps
}
