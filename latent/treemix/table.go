package treemix

import (
	"context"
	"fmt"
	"slices"

	"github.com/moments-go/moments/internal/size"
)

// Table is a joint table (counts or probabilities) of a few variables.
// Entry P[k] belongs to the states (s_1, ..., s_m) of Vars whose
// mixed-radix value with base States is k, the first variable the most
// significant digit: k = ((s_1*d + s_2)*d + ...)*d + s_m.
type Table struct {
	Vars   []int
	States int
	P      []float64
}

// NewTable returns a table of zeros over vars (which it keeps) with d
// states each.
func NewTable(vars []int, d int) *Table {
	return &Table{Vars: vars, States: d, P: make([]float64, pow(d, len(vars)))}
}

// powSat returns d^k, or size.Max on overflow.
func powSat(d, k int) int64 {
	n := int64(1)
	for range k {
		n = size.Mul(int(n), d)
	}
	return n
}

func pow(d, k int) int {
	n := 1
	for range k {
		n *= d
	}
	return n
}

// Index returns the position of the states s (one per variable of t).
func (t *Table) Index(s ...int) int {
	if len(s) != len(t.Vars) {
		panic(fmt.Sprintf("treemix: Table.Index: %d states for %d variables", len(s), len(t.Vars)))
	}
	k := 0
	for _, v := range s {
		k = k*t.States + v
	}
	return k
}

// Sum returns the sum of the entries.
func (t *Table) Sum() float64 {
	var s float64
	for _, v := range t.P {
		s += v
	}
	return s
}

// Clone returns a deep copy of t.
func (t *Table) Clone() *Table {
	return &Table{Vars: slices.Clone(t.Vars), States: t.States, P: slices.Clone(t.P)}
}

// Add adds the entries of u, a table over the same variables, to t: the
// merge of counts from two parts of a data set.
func (t *Table) Add(u *Table) {
	if !slices.Equal(t.Vars, u.Vars) || t.States != u.States {
		panic(fmt.Sprintf("treemix: Table.Add: tables over %v and %v", t.Vars, u.Vars))
	}
	for k, v := range u.P {
		t.P[k] += v
	}
}

// Scale multiplies every entry by s.
func (t *Table) Scale(s float64) {
	for k := range t.P {
		t.P[k] *= s
	}
}

// Marginal returns the table of vars (a subset of t.Vars, in any order)
// obtained by summing out the other variables.
func (t *Table) Marginal(vars ...int) *Table {
	pos := make([]int, len(vars))
	for i, v := range vars {
		pos[i] = slices.Index(t.Vars, v)
		if pos[i] < 0 {
			panic(fmt.Sprintf("treemix: Table.Marginal: variable %d not in %v", v, t.Vars))
		}
	}
	out := NewTable(slices.Clone(vars), t.States)
	m, d := len(t.Vars), t.States
	// stride of each of t's variables in out (0 if summed out)
	stride := make([]int, m)
	for i := range vars {
		s := 1
		for j := i + 1; j < len(vars); j++ {
			s *= d
		}
		stride[pos[i]] = s
	}
	states := make([]int, m)
	idx := 0
	for _, v := range t.P {
		out.P[idx] += v
		// increment the mixed-radix counter, last variable fastest
		for j := m - 1; j >= 0; j-- {
			states[j]++
			idx += stride[j]
			if states[j] < d {
				break
			}
			idx -= d * stride[j]
			states[j] = 0
		}
	}
	return out
}

// Source supplies the joint probability tables that the rank test and
// the spectral decomposition read. Empirical frequencies (Empirical) and
// the exact marginals of a model (Exact) are interchangeable.
type Source interface {
	// Dims returns the number of variables p and of states d.
	Dims() (p, d int)
	// Samples returns the number of samples behind the tables, or 0 if
	// they are exact probabilities.
	Samples() int
	// Joints returns, for each set of distinct variables, the table of
	// their joint probabilities, with Vars equal to the set.
	Joints(ctx context.Context, sets [][]int) ([]*Table, error)
}

// maxPassCells bounds the cells of the tables one counting pass fills
// at once (each live accumulator holds that many 32-bit counters).
const maxPassCells = 1 << 22

// Count returns the joint counts over all samples of x of each set of
// variables. All tables are filled in one pass over the data (more than
// one only if they hold more than about four million cells in all),
// cut into fixed chunks that run in parallel; counts are integers, so
// the result never depends on the number of workers. Tables from
// different parts of a data set merge with Table.Add. It panics if a set
// names a variable out of range or twice; options out of range give
// ErrBadOption. nil opts means the defaults; ctx must not be nil.
func Count(ctx context.Context, x *Data, sets [][]int, opts *Options) ([]*Table, error) {
	o := valueOf(opts)
	if err := o.check(); err != nil {
		return nil, err
	}
	var need, cells int64
	for _, s := range sets {
		c := powSat(x.d, len(s))
		cells = size.Add(cells, c)
		need = size.Add(need, tableBytes(len(s)), size.Scale(8, c))
	}
	// Each live accumulator of a pass holds up to maxPassCells counters.
	need = size.Add(need, size.Scale(1+2*o.workers(), size.Scale(4, min(maxPassCells, cells))))
	if err := o.checkMemory(fmt.Sprintf("the %d tables of counts", len(sets)), need); err != nil {
		return nil, fmt.Errorf("treemix: Count: %w", err)
	}
	out := make([]*Table, len(sets))
	for i, s := range sets {
		seen := make(map[int]bool, len(s))
		for _, v := range s {
			if v < 0 || v >= x.p || seen[v] {
				panic(fmt.Sprintf("treemix: Count: set %v: bad or repeated variable for %d variables", s, x.p))
			}
			seen[v] = true
		}
		out[i] = NewTable(slices.Clone(s), x.d)
	}
	// Visit the sets in lexicographic order so that consecutive sets
	// share prefixes whose codes are computed once.
	order := make([]int, len(sets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(sets[a], sets[b]) })
	for start := 0; start < len(order); {
		end, cells := start, 0
		for end < len(order) && (end == start || cells+len(out[order[end]].P) <= maxPassCells) {
			cells += len(out[order[end]].P)
			end++
		}
		if err := countPass(ctx, x, out, order[start:end], cells, o); err != nil {
			return nil, err
		}
		start = end
	}
	return out, nil
}

type countAcc struct {
	hist  []uint32
	codes [][]int32 // prefix codes per depth
}

func countPass(ctx context.Context, x *Data, out []*Table, order []int, cells int, opts Options) error {
	offs := make([]int, len(order))
	depth := 0
	for k, i := range order {
		if k > 0 {
			offs[k] = offs[k-1] + len(out[order[k-1]].P)
		}
		depth = max(depth, len(out[i].Vars))
	}
	// Counts are integers, so the chunking cannot change the result: use
	// few, large chunks, since merging a chunk costs a pass over all the
	// cells.
	rows := max(chunkRows(x.n), (x.n+15)/16)
	newAcc := func() *countAcc {
		a := &countAcc{hist: make([]uint32, cells), codes: make([][]int32, depth+1)}
		for i := range a.codes {
			a.codes[i] = make([]int32, rows)
		}
		return a
	}
	d := int32(x.d)
	work := func(a *countAcc, lo, hi int) {
		n := hi - lo
		var prev []int
		for k, i := range order {
			vars := out[i].Vars
			common := 0
			for common < len(prev)-1 && common < len(vars)-1 && prev[common] == vars[common] {
				common++
			}
			// codes[j] holds the code of vars[:j]
			for j := common; j < len(vars)-1; j++ {
				src, dst, col := a.codes[j][:n], a.codes[j+1][:n], x.x[vars[j]*x.n+lo:vars[j]*x.n+hi]
				for r := range dst {
					dst[r] = src[r]*d + int32(col[r])
				}
			}
			prev = vars
			h := a.hist[offs[k] : offs[k]+len(out[i].P)]
			last := x.x[vars[len(vars)-1]*x.n+lo : vars[len(vars)-1]*x.n+hi]
			if len(vars) == 1 {
				for _, s := range last {
					h[s]++
				}
				continue
			}
			pre := a.codes[len(vars)-1][:n]
			last = last[:len(pre)]
			r := 0
			for ; r+4 <= len(pre); r += 4 { // unrolled: the hot loop of every pass
				h[pre[r]*d+int32(last[r])]++
				h[pre[r+1]*d+int32(last[r+1])]++
				h[pre[r+2]*d+int32(last[r+2])]++
				h[pre[r+3]*d+int32(last[r+3])]++
			}
			for ; r < len(pre); r++ {
				h[pre[r]*d+int32(last[r])]++
			}
		}
	}
	// merge moves the counts of src into the tables (float64, which
	// cannot overflow where uint32 could); the result accumulator itself
	// stays empty.
	merge := func(_, src *countAcc) {
		for k, i := range order {
			t := out[i].P
			for j, c := range src.hist[offs[k] : offs[k]+len(t)] {
				t[j] += float64(c)
			}
		}
	}
	reset := func(a *countAcc) { clear(a.hist) }
	_, err := reduceChunks(ctx, x.n, rows, opts, "count", newAcc, work, merge, reset)
	return err
}

// Empirical returns the Source of the empirical frequencies of x: each
// table is Count's divided by the number of samples. Its Joints returns
// an error matching ErrBadData if x has no samples. nil opts means the
// defaults.
func Empirical(x *Data, opts *Options) Source { return &empirical{x: x, opts: valueOf(opts)} }

type empirical struct {
	x    *Data
	opts Options
}

func (e *empirical) Dims() (p, d int) { return e.x.p, e.x.d }
func (e *empirical) Samples() int     { return e.x.n }
func (e *empirical) Joints(ctx context.Context, sets [][]int) ([]*Table, error) {
	if e.x.n == 0 {
		// Samples() == 0 would otherwise pass for exact tables.
		return nil, fmt.Errorf("treemix: %w: no samples", ErrBadData)
	}
	ts, err := Count(ctx, e.x, sets, &e.opts)
	if err != nil {
		return nil, err
	}
	if e.x.n > 0 {
		for _, t := range ts {
			t.Scale(1 / float64(e.x.n))
		}
	}
	return ts, nil
}

// sortedCopy returns the variables of s in increasing order.
func sortedCopy(s []int) []int {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
