package treemix

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// RankOptions controls LearnUnionGraph. The zero value (and nil) searches separators of
// up to r nodes (the bound for mixtures of r trees), draws separators of
// two or more nodes from the 8 best candidates of each pair, and uses
// the default thresholds described at Xi.
type RankOptions struct {
	Options
	// Eta is the bound on the separators searched, η of Anandkumar et al.; 0
	// means r, a negative value means 0 (no separators: a mixture of
	// product distributions).
	Eta int
	// Xi, if positive, is the fixed threshold ξ of Anandkumar et al.: the effective
	// rank of M_{u,v,{S;k}} is the number of its singular values above
	// Xi. With Xi = 0 the threshold depends on the configuration: for
	// tables estimated from N samples it is XiScale*sqrt(P(Y_S = k)/N),
	// the scale of the sampling noise of that configuration's matrix;
	// for exact tables (Samples() == 0) it is 1e-9*P(Y_S = k).
	Xi float64
	// XiScale scales the default threshold for sampled tables; 0 means
	// 0.8 (the noise floor of sigma_{r+1} lies near 0.5-0.6 of the scale
	// for d = 3..6, r = 2..3; 0.8 keeps the precision near 1).
	XiScale float64
	// MinCount: configurations seen fewer than MinCount times (sampled
	// tables) carry no evidence of rank above r; 0 means d*d.
	MinCount float64
	// Candidates bounds the separators of two or more nodes: for a pair
	// {u, v} still joined after the one-node tests they are subsets of
	// the Candidates neighbours w of u most strongly dependent on u (the
	// largest level-0 statistic of {u, w}), or likewise of v. 0 means
	// 8; a negative value means all neighbours (the exhaustive search of
	// the PC algorithm).
	Candidates int
}

func (o RankOptions) eta(r int) int {
	switch {
	case o.Eta < 0:
		return 0
	case o.Eta == 0:
		return r
	}
	return o.Eta
}

// RankResult is the union graph that LearnUnionGraph estimated, with the
// evidence for it.
type RankResult struct {
	// Graph is the estimate of the union graph G_∪.
	Graph *Graph
	// Separators holds, for every pair {u, v} (u < v) declared
	// non-adjacent, the separator S that passed the test.
	Separators map[[2]int][]int
	// Tests counts the (pair, separator) candidates tested, by
	// separator size.
	Tests []int
	// Removed counts the pairs removed, by separator size.
	Removed []int
}

// LearnUnionGraph estimates the union graph of an r-component mixture
// by the rank test (Algorithm 1 of Anandkumar et al.): u and v are
// declared non-neighbours when some set S of at most Eta other nodes
// makes every matrix M_{u,v,{S;k}} = [P(Y_u = i, Y_v = j, Y_S = k)]_{ij}
// of effective rank at most r. It needs d > r (ErrFewStates otherwise);
// r < 1 or an option out of range give ErrBadOption. nil opts means the
// defaults; ctx must not be nil.
//
// The search is level by level, as in the PC algorithm: level 0 tests
// every pair with S empty; level l tests the pairs still joined with
// sets S of size l of neighbours of u, or of v, in the graph as it stood
// at the start of the level (so the result does not depend on the order
// of the pairs); from level 2 on, of the best Candidates of them, ranked
// by their level-0 dependence on u (or v). Each level reads all its
// tables in one pass over the data (Source.Joints). For a mixture of
// trees this is enough: one neighbour of u per tree, on that tree's path
// to v, separates u from v in every component. Among the sets that
// pass, the separator kept is the one whose worst configuration lies
// furthest below the threshold.
func LearnUnionGraph(ctx context.Context, src Source, r int, opts *RankOptions) (*RankResult, error) {
	o := valueOf(opts)
	p, d := src.Dims()
	if r < 1 {
		return nil, fmt.Errorf("treemix: %w: LearnUnionGraph: r = %d components, want at least 1", ErrBadOption, r)
	}
	if d <= r {
		return nil, fmt.Errorf("%w: d = %d, r = %d", ErrFewStates, d, r)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	eta := o.eta(r)
	// Before anything p x p: the statistics, the graph and its copy, and
	// the tests of level 0, one a pair (see perTest below).
	need := size.Add(size.Float64s(p, p), size.Mul(2, p, p),
		size.Scale(int(min(size.Mul(p, max(p-1, 0))/2, size.Max/2)), size.Add(600, size.Scale(8, powSat(d, 2)))))
	if err := o.checkMemory(fmt.Sprintf("the rank tests of %d variables", p), need); err != nil {
		return nil, fmt.Errorf("treemix: LearnUnionGraph: %w", err)
	}
	res := &RankResult{Graph: CompleteGraph(p), Separators: make(map[[2]int][]int)}
	th := newThreshold(src, d, o)
	// strength[u*p+v] is the level-0 statistic of {u, v}: how far
	// sigma_{r+1}(M_{u,v}) lies above the threshold.
	strength := make([]float64, p*p)
	for level := 0; level <= eta; level++ {
		g := res.Graph.Clone() // adjacency at the start of the level
		// Refuse a level whose tests and tables would pass the memory
		// limit before listing them: each test costs its entry in the
		// lists and maps (about 600 bytes: 500-560 measured at level 0 with
		// d = 2, p = 500 and 1000) and at most one table of
		// d^(level+2) cells.
		bound := testBound(g, level, o.Candidates)
		perTest := size.Add(600, size.Scale(8, powSat(d, level+2)))
		if err := o.checkMemory(fmt.Sprintf("the rank tests of level %d (up to %d of them)", level, bound),
			size.Scale(int(min(bound, size.Max/2)), perTest)); err != nil {
			return nil, fmt.Errorf("treemix: LearnUnionGraph: %w", err)
		}
		type test struct {
			u, v int
			sep  []int
		}
		var tests []test
		for _, e := range g.Edges() {
			u, v := e[0], e[1]
			switch level {
			case 0:
				tests = append(tests, test{u, v, nil})
			case 1:
				for _, w := range candidates(g, u, v) {
					tests = append(tests, test{u, v, []int{w}})
				}
			default:
				// PC: subsets of the neighbours of u, then of v
				seen := make(map[string]bool)
				for _, x := range [2][2]int{{u, v}, {v, u}} {
					cand := bestCandidates(g, x[0], x[1], strength[x[0]*p:(x[0]+1)*p], o.Candidates)
					forSubsets(cand, level, func(s []int) {
						k := fmt.Sprint(s)
						if !seen[k] {
							seen[k] = true
							tests = append(tests, test{u, v, slices.Clone(s)})
						}
					})
				}
			}
		}
		res.Tests = append(res.Tests, len(tests))
		res.Removed = append(res.Removed, 0)
		if len(tests) == 0 {
			// The graph only loses edges and a level's sets come from
			// the neighbours: no test at this level, none at any higher.
			break
		}
		// One table per distinct variable set, sorted.
		index := make(map[string]int)
		var sets [][]int
		keys := make([]int, len(tests))
		for i, t := range tests {
			set := sortedCopy(append([]int{t.u, t.v}, t.sep...))
			k := fmt.Sprint(set)
			j, ok := index[k]
			if !ok {
				j = len(sets)
				index[k] = j
				sets = append(sets, set)
			}
			keys[i] = j
		}
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("rank test, level %d", level), 0, len(tests))
		}
		tables, err := src.Joints(ctx, sets)
		if err != nil {
			return nil, err
		}
		stats := make([]float64, len(tests))
		err = parallelFor(ctx, len(tests), o.Options, func(i int) {
			t := tests[i]
			// from level 1 on, a test that fails needs no exact value
			stop := math.Inf(1)
			if level > 0 {
				stop = 1
			}
			stats[i] = th.statistic(tables[keys[i]], t.u, t.v, t.sep, r, stop)
		})
		if err != nil {
			return nil, err
		}
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("rank test, level %d", level), len(tests), len(tests))
		}
		// Decide, pair by pair, in the order of the tests.
		best := make(map[[2]int]int)
		for i, t := range tests {
			key := [2]int{t.u, t.v}
			if level == 0 {
				strength[t.u*p+t.v], strength[t.v*p+t.u] = stats[i], stats[i]
			}
			if stats[i] <= 1 {
				if j, ok := best[key]; !ok || stats[i] < stats[j] {
					best[key] = i
				}
			}
		}
		for key, i := range best {
			res.Graph.Remove(key[0], key[1])
			res.Separators[key] = tests[i].sep
			res.Removed[level]++
		}
	}
	return res, nil
}

// testBound returns an upper bound on the tests of a level of LearnUnionGraph
// on the graph g (saturating): the edges at level 0; at level 1 the
// neighbours of either end of each edge; from level 2 on the subsets of
// size level of the candidates of each end.
func testBound(g *Graph, level, candidates int) int64 {
	deg := make([]int, g.n)
	for u := range g.n {
		for v := range g.n {
			if g.adj[u*g.n+v] {
				deg[u]++
			}
		}
	}
	var n int64
	for u := range g.n {
		for v := u + 1; v < g.n; v++ {
			if !g.adj[u*g.n+v] {
				continue
			}
			n = size.Add(n, testsOfEdge(deg[u]-1, deg[v]-1, level, candidates))
		}
	}
	return n
}

// testsOfEdge bounds the tests of one edge at a level of LearnUnionGraph, its
// ends having du and dv other neighbours.
func testsOfEdge(du, dv, level, candidates int) int64 {
	switch level {
	case 0:
		return 1
	case 1:
		return int64(du + dv)
	}
	k := candidates
	if k == 0 {
		k = 8
	}
	if k > 0 {
		du, dv = min(du, k), min(dv, k)
	}
	return size.Add(binomial(du, level), binomial(dv, level))
}

// binomial returns n choose k (saturating; 0 when k > n).
func binomial(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := int64(1)
	for i := 1; i <= k; i++ {
		if c > size.Max/int64(n-k+i) {
			return size.Max
		}
		c = c * int64(n-k+i) / int64(i)
	}
	return c
}

// candidates returns the neighbours of u or v other than u and v.
func candidates(g *Graph, u, v int) []int {
	var out []int
	for w := range g.n {
		if w != u && w != v && (g.Has(u, w) || g.Has(v, w)) {
			out = append(out, w)
		}
	}
	return out
}

// bestCandidates returns the neighbours of u other than v, the k with
// the strongest level-0 dependence on u if there are more (ties to the
// smaller node), in increasing order; k = 0 means 8, k < 0 all.
func bestCandidates(g *Graph, u, v int, strength []float64, k int) []int {
	var c []int
	for _, w := range g.Neighbors(u) {
		if w != v {
			c = append(c, w)
		}
	}
	if k == 0 {
		k = 8
	}
	if k < 0 || len(c) <= k {
		return c
	}
	slices.SortStableFunc(c, func(a, b int) int { return cmp.Compare(strength[b], strength[a]) })
	c = c[:k]
	slices.Sort(c)
	return c
}

// forSubsets calls f with every subset of s of size k, in lexicographic
// order (f must not keep the slice).
func forSubsets(s []int, k int, f func([]int)) {
	if k > len(s) {
		return
	}
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	sub := make([]int, k)
	for {
		for i, j := range idx {
			sub[i] = s[j]
		}
		f(sub)
		i := k - 1
		for i >= 0 && idx[i] == len(s)-k+i {
			i--
		}
		if i < 0 {
			return
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// threshold holds what the effective-rank decisions need.
type threshold struct {
	d        int
	n        float64 // samples, 0 for exact
	xi       float64
	scale    float64
	minCount float64
}

func newThreshold(src Source, d int, opts RankOptions) *threshold {
	th := &threshold{d: d, n: float64(src.Samples()), xi: opts.Xi, scale: orDefault(opts.XiScale, 0.8), minCount: opts.MinCount}
	if th.minCount == 0 {
		th.minCount = float64(d * d)
	}
	return th
}

// level returns the threshold for a configuration of mass pk, or -1 if
// the configuration carries no evidence.
func (th *threshold) level(pk float64) float64 {
	if th.n > 0 && pk*th.n < th.minCount {
		return -1
	}
	switch {
	case th.xi > 0:
		return th.xi
	case th.n > 0:
		return th.scale * math.Sqrt(pk/th.n)
	}
	return 1e-9 * pk
}

// statistic returns max over the configurations k of S of
// sigma_{r+1}(M_{u,v,{S;k}}) / threshold_k: at most 1 means that S
// separates u and v (every matrix has effective rank <= r). It returns
// early, with a partial maximum, once that exceeds stop.
func (th *threshold) statistic(t *Table, u, v int, sep []int, r int, stop float64) float64 {
	d := th.d
	worst := 0.0
	m := mat.Zeros(d, d)
	for k := range pow(d, len(sep)) {
		pk := slice2(t, u, v, sep, k, m)
		lv := th.level(pk)
		if lv < 0 || pk <= 0 {
			continue
		}
		s, err := singularValues(m)
		if err != nil {
			return math.Inf(1)
		}
		worst = math.Max(worst, s[r]/lv)
		if worst > stop {
			break
		}
	}
	return worst
}

// slice2 writes into m (d x d) the matrix [T(Y_u = i, Y_v = j, Y_S = k)]
// of a table t over u, v, the variables of S and possibly others (summed
// out), S in configuration k (mixed radix over S in its order), and
// returns the matrix's total.
func slice2(t *Table, u, v int, sep []int, k int, m *mat.Dense) float64 {
	d := t.States
	nv := len(t.Vars)
	stride := make([]int, nv)
	s := 1
	for i := nv - 1; i >= 0; i-- {
		stride[i] = s
		s *= d
	}
	pos := func(x int) int { return slices.Index(t.Vars, x) }
	base := 0
	fixed := make([]bool, nv)
	for i := len(sep) - 1; i >= 0; i-- {
		j := pos(sep[i])
		base += (k % d) * stride[j]
		k /= d
		fixed[j] = true
	}
	pu, pv := pos(u), pos(v)
	fixed[pu], fixed[pv] = true, true
	var free []int
	for i := range nv {
		if !fixed[i] {
			free = append(free, i)
		}
	}
	m.Zero()
	data := m.RawData()
	var total float64
	nfree := pow(d, len(free))
	for i := range d {
		for j := range d {
			off := base + i*stride[pu] + j*stride[pv]
			var x float64
			for f := range nfree {
				o, c := off, f
				for q := len(free) - 1; q >= 0; q-- {
					o += (c % d) * stride[free[q]]
					c /= d
				}
				x += t.P[o]
			}
			data[i*m.Stride()+j] = x
			total += x
		}
	}
	return total
}
