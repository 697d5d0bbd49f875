package kernels

import (
	"fmt"
	"math"
)

// JacobiPlan is a schedule of JacobiSteps (pairs of rows grouped into
// steps of disjoint pairs) prepared for repeated use: a Jacobi sweep
// runs the same schedule every time. What the preparation buys is speed.
// Where a pair of the next step has a row that the current step rotates,
// and its other row is final by then (not in the current step, or in a
// pair of it that comes earlier), the AVX-512 kernel computes the next
// pair's dot product while it rotates the current pair, from the rotated
// row still in registers, instead of reading both rows again: a step
// whose pairs all rotate reads each row once instead of twice. On the
// other paths Steps is JacobiSteps.
//
// A plan does not change once made: one plan may be run by several
// goroutines at once (on different data).
type JacobiPlan struct {
	rows, steps []int
	maxRow      int
	// fuse holds five numbers per pair i while the plan is made: where
	// the dot product of the rotated row p of pair i with another row
	// goes (the index in cs of the s of a pair of the next step; -1 for
	// none) and that other row, the same for row q, and 1 when the dot
	// product of pair i itself is computed on its own at the start of
	// its step (0 when an earlier pair forms it). The kernel keeps the
	// dot product of a pair in its s slot of cs until it computes the
	// pair's rotation.
	fuse []int32
	// groups holds the schedule as the kernel reads it: records of
	// planGroup numbers, one per group of up to 8 pairs of one step (see
	// planGroup*), made from rows, steps and fuse.
	groups []int32
	fused  int // dot products formed in the rotation of another pair
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

// NewJacobiPlan prepares the schedule (rows, steps) of JacobiSteps; the
// plan keeps both slices, which must not change after. It panics if the
// counts in steps do not add up to len(rows)/2, if a row index is
// negative or above 2^31-1, or if a step holds a row twice.
func NewJacobiPlan(rows, steps []int) *JacobiPlan {
	if len(rows)%2 != 0 {
		panic(fmt.Sprintf("kernels: NewJacobiPlan: odd number of row indices %d", len(rows)))
	}
	np := 0
	for _, c := range steps {
		if c < 0 {
			panic(fmt.Sprintf("kernels: NewJacobiPlan: step of %d pairs", c))
		}
		np += c
	}
	if 2*np != len(rows) || len(rows) > math.MaxInt32 {
		panic(fmt.Sprintf("kernels: NewJacobiPlan: steps of %d pairs in all, but %d row indices", np, len(rows)))
	}
	maxRow := -1
	for _, r := range rows {
		if r < 0 || r > math.MaxInt32 {
			panic(fmt.Sprintf("kernels: NewJacobiPlan: row %d", r))
		}
		maxRow = max(maxRow, r)
	}
	p := &JacobiPlan{rows: rows, steps: steps, maxRow: maxRow, fuse: make([]int32, 5*np)}
	for i := 0; i < np; i++ {
		f := p.fuse[5*i : 5*i+5]
		f[0], f[2], f[4] = -1, -1, 1
	}
	// pos[r] is one more than the position of row r's pair in the
	// current step, when at[r] is that step's number plus one.
	pos := make([]int32, 2*(maxRow+1))
	pos, at := pos[:maxRow+1], pos[maxRow+1:]
	start := 0
	for s, c := range steps {
		for i := start; i < start+c; i++ {
			for _, r := range rows[2*i : 2*i+2] {
				if at[r] == int32(s+1) {
					panic(fmt.Sprintf("kernels: NewJacobiPlan: row %d twice in step %d", r, s))
				}
				at[r], pos[r] = int32(s+1), int32(i+1)
			}
		}
		if s+1 < len(steps) {
			p.planNext(start+c, steps[s+1], int32(s+1), pos, at)
		}
		start += c
	}
	p.makeGroups()
	p.fuse = nil
	return p
}

// makeGroups writes the group records from rows, steps and fuse.
func (p *JacobiPlan) makeGroups() {
	ng := 0
	for _, c := range p.steps {
		ng += (c + 7) / 8
	}
	p.groups = make([]int32, ng*planGroup)
	g, i := p.groups, 0
	for _, c := range p.steps {
		for c > 0 {
			cnt := min(c, 8)
			g[planCount] = int32(cnt)
			for l := 0; l < cnt; l++ {
				f := p.fuse[5*(i+l) : 5*(i+l)+5]
				g[planP+l], g[planQ+l] = int32(p.rows[2*(i+l)]), int32(p.rows[2*(i+l)+1])
				if f[4] != 0 {
					g[planOwn] |= 1 << l
				} else {
					p.fused++
				}
				if f[0] >= 0 {
					g[planHasP] |= 1 << l
					g[planToP+l], g[planWithP+l] = f[0], f[1]
				}
				if f[2] >= 0 {
					g[planHasQ] |= 1 << l
					g[planToQ+l], g[planWithQ+l] = f[2], f[3]
				}
			}
			g, i, c = g[planGroup:], i+cnt, c-cnt
		}
	}
}

// planNext assigns the dot product of each pair of the step that starts
// at pair j0 (c pairs) to the pair of the previous step (stamp s in at)
// that rotates its later row, when there is one.
func (p *JacobiPlan) planNext(j0, c int, s int32, pos, at []int32) {
	for j := j0; j < j0+c; j++ {
		a, b := p.rows[2*j], p.rows[2*j+1]
		var ia, ib int32
		if at[a] == s {
			ia = pos[a]
		}
		if at[b] == s {
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
		slot := int32(0)
		if p.rows[2*i+1] == mine {
			slot = 2
		}
		p.fuse[5*i+slot], p.fuse[5*i+slot+1] = int32(2*j+1), int32(other)
		p.fuse[5*j+4] = 0
	}
}

// Steps runs the plan on x as JacobiSteps(x, n, ld, rows, steps, sq, tol,
// cs) does, with the same results up to the rounding of the dot products
// (the fused ones are summed in another order), and panics where it
// would.
func (p *JacobiPlan) Steps(x []float64, n, ld int, sq []float64, tol float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	if n < 0 || ld < max(n, 1) {
		panic(fmt.Sprintf("kernels: JacobiPlan.Steps: row length %d with stride %d", n, ld))
	}
	if len(cs) < len(p.rows) {
		panic(fmt.Sprintf("kernels: JacobiPlan.Steps: %d row indices and %d rotation slots", len(p.rows), len(cs)))
	}
	if r := p.maxRow; r >= 0 && (r >= len(sq) || r*ld+n > len(x)) {
		panic(fmt.Sprintf("kernels: JacobiPlan.Steps: row %d out of range (%d norms, len(x) = %d, stride %d)", r, len(sq), len(x), ld))
	}
	if len(p.rows) == 0 {
		return 0, 0, 0, 0
	}
	return jacobiPlanRun(p, x, n, ld, sq, tol*tol, cs[:len(p.rows)])
}
