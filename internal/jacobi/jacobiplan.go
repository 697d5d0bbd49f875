package jacobi

import (
	"fmt"
	"math"
)

// Plan is a schedule of Steps (pairs of rows grouped into
// steps of disjoint pairs) prepared for repeated use: a Jacobi sweep
// runs the same schedule every time. What the preparation buys is speed.
// Where a pair of the next step has a row that the current step rotates,
// and its other row is final by then (not in the current step, or in a
// pair of it that comes earlier), the AVX-512 kernel computes the next
// pair's dot product while it rotates the current pair, from the rotated
// row still in registers, instead of reading both rows again: a step
// whose pairs all rotate reads each row once instead of twice. On the
// other paths Steps is Steps.
//
// A plan does not change once made: one plan may be run by several
// goroutines at once (on different data).
type Plan struct {
	rows, steps []int
	maxRow      int
	// groups holds the schedule as the kernel reads it: records of
	// planGroup numbers, one per group of up to 8 pairs of one step (see
	// planGroup*). The kernel keeps the dot product of a pair in its s
	// slot of cs until it computes the pair's rotation.
	groups []int32
}

// The record of a group of up to 8 pairs of one step: the number of
// pairs; bit masks of the pairs whose dot product is computed on its
// own, of those that form a dot product with their row p, and with
// their row q; then eight of each: the rows p, the rows q, the rows the
// rotated p and q are multiplied with, and the indices in cs where those
// dot products go. Unused entries are 0.
const (
	planCount = iota
	planOwn
	planHasP
	planHasQ
	planP
	planQ     = planP + 8
	planWithP = planQ + 8
	planWithQ = planWithP + 8
	planToP   = planWithQ + 8
	planToQ   = planToP + 8
	planGroup = planToQ + 8
)

// NewPlan prepares the schedule (rows, steps) of Steps; the
// plan keeps both slices, which must not change after. It panics if the
// counts in steps do not add up to len(rows)/2, if a row index is
// negative or above 2^31-1, or if a step holds a row twice.
func NewPlan(rows, steps []int) *Plan {
	if len(rows)%2 != 0 {
		panic(fmt.Sprintf("jacobi: NewPlan: odd number of row indices %d", len(rows)))
	}
	np := 0
	for _, c := range steps {
		if c < 0 {
			panic(fmt.Sprintf("jacobi: NewPlan: step of %d pairs", c))
		}
		np += c
	}
	if 2*np != len(rows) || len(rows) > math.MaxInt32 {
		panic(fmt.Sprintf("jacobi: NewPlan: steps of %d pairs in all, but %d row indices", np, len(rows)))
	}
	maxRow := -1
	for _, r := range rows {
		if r < 0 || r > math.MaxInt32 {
			panic(fmt.Sprintf("jacobi: NewPlan: row %d", r))
		}
		maxRow = max(maxRow, r)
	}
	p := &Plan{rows: rows, steps: steps, maxRow: maxRow}
	at := p.makeGroups(np)
	// pos[r] is one more than the position of row r's pair in the
	// current step, when seen[r] is that step's number plus one.
	pos := make([]int32, 2*(maxRow+1))
	pos, seen := pos[:maxRow+1], pos[maxRow+1:]
	start := 0
	for s, c := range steps {
		for i := start; i < start+c; i++ {
			for _, r := range rows[2*i : 2*i+2] {
				if seen[r] == int32(s+1) {
					panic(fmt.Sprintf("jacobi: NewPlan: row %d twice in step %d", r, s))
				}
				seen[r], pos[r] = int32(s+1), int32(i+1)
			}
		}
		if s+1 < len(steps) {
			p.planNext(start+c, steps[s+1], int32(s+1), pos, seen, at)
		}
		start += c
	}
	return p
}

// makeGroups writes the group records of the pairs, every pair's dot
// product computed on its own, and returns where each pair sits: pair i
// is lane at[i]%8 of record at[i]/8.
func (p *Plan) makeGroups(np int) (at []int) {
	ng := 0
	for _, c := range p.steps {
		ng += (c + 7) / 8
	}
	p.groups = make([]int32, ng*planGroup)
	at = make([]int, np)
	g, i := 0, 0
	for _, c := range p.steps {
		for c > 0 {
			cnt := min(c, 8)
			r := p.groups[g : g+planGroup]
			r[planCount], r[planOwn] = int32(cnt), 1<<cnt-1
			for l := 0; l < cnt; l++ {
				r[planP+l], r[planQ+l] = int32(p.rows[2*(i+l)]), int32(p.rows[2*(i+l)+1])
				at[i+l] = g/planGroup*8 + l
			}
			g, i, c = g+planGroup, i+cnt, c-cnt
		}
	}
	return at
}

// planNext assigns the dot product of each pair of the step that starts
// at pair j0 (c pairs) to the pair of the previous step (stamp s in
// seen) that rotates its later row, when there is one: that pair's
// record gets the row to multiply with and the place in cs, and pair j
// leaves the mask of those computed on their own.
func (p *Plan) planNext(j0, c int, s int32, pos, seen []int32, at []int) {
	for j := j0; j < j0+c; j++ {
		a, b := p.rows[2*j], p.rows[2*j+1]
		var ia, ib int32
		if seen[a] == s {
			ia = pos[a]
		}
		if seen[b] == s {
			ib = pos[b]
		}
		if ia == ib {
			// Neither row in the previous step, or both in one pair.
			continue
		}
		i, mine, other := ia-1, a, b
		if ib > ia {
			i, mine, other = ib-1, b, a
		}
		r, l := p.groups[at[i]/8*planGroup:], at[i]%8
		has, with, to := planHasP, planWithP, planToP
		if p.rows[2*i+1] == mine {
			has, with, to = planHasQ, planWithQ, planToQ
		}
		r[has] |= 1 << l
		r[with+l], r[to+l] = int32(other), int32(2*j+1)
		rj := p.groups[at[j]/8*planGroup:]
		rj[planOwn] &^= 1 << (at[j] % 8)
	}
}

// Rows returns the pairs of the plan's schedule (rows[2i], rows[2i+1]),
// the slice given to NewPlan.
func (p *Plan) Rows() []int { return p.rows }

// Steps runs the plan on x as Steps(x, n, ld, rows, steps, sq, tol,
// cs) does, with the same results up to the rounding of the dot products
// (the fused ones are summed in another order), and panics where it
// would.
func (p *Plan) Steps(x []float64, n, ld int, sq []float64, tol float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	return cur().planSteps(p, x, n, ld, sq, tol, cs)
}

// planSteps is Plan.Steps on im.
func (im *impl) planSteps(p *Plan, x []float64, n, ld int, sq []float64, tol float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	if n < 0 || ld < max(n, 1) {
		panic(fmt.Sprintf("jacobi: Plan.Steps: row length %d with stride %d", n, ld))
	}
	if len(cs) < len(p.rows) {
		panic(fmt.Sprintf("jacobi: Plan.Steps: %d row indices and %d rotation slots", len(p.rows), len(cs)))
	}
	if r := p.maxRow; r >= 0 && (r >= len(sq) || r*ld+n > len(x)) {
		panic(fmt.Sprintf("jacobi: Plan.Steps: row %d out of range (%d norms, len(x) = %d, stride %d)", r, len(sq), len(x), ld))
	}
	if len(p.rows) == 0 {
		return 0, 0, 0, 0
	}
	tol2, cs := tol*tol, cs[:len(p.rows)]
	if im.plan != nil && n > 0 && n%8 == 0 && ld < 1<<28 {
		return im.plan(x, n, ld, p.groups, sq, tol2, cs)
	}
	return im.steps(x, n, ld, p.rows, p.steps, sq, tol2, cs)
}
