package treemix

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// MutualInformation returns the mutual information (in nats) of the two
// variables of a joint table, which need not be normalised; negative
// entries (noisy estimates) count as zero.
func MutualInformation(t *Table) float64 {
	if len(t.Vars) != 2 {
		panic(fmt.Sprintf("treemix: MutualInformation: table over %d variables", len(t.Vars)))
	}
	d := t.States
	row := make([]float64, d)
	col := make([]float64, d)
	var total float64
	for i := range d {
		for j := range d {
			v := math.Max(t.P[i*d+j], 0)
			row[i] += v
			col[j] += v
			total += v
		}
	}
	if !(total > 0) {
		return 0
	}
	var mi float64
	for i := range d {
		for j := range d {
			v := math.Max(t.P[i*d+j], 0)
			if v > 0 {
				mi += v / total * math.Log(v*total/(row[i]*col[j]))
			}
		}
	}
	return math.Max(mi, 0)
}

// ChowLiu returns the maximum-likelihood tree (Chow and Liu, 1968) for
// the given marginals: the maximum-weight spanning forest of the pairs
// with known tables, each weighted by its mutual information, each tree
// rooted at its smallest node and directed away from it, with the
// conditional tables P(Y_v | Y_parent) = P(Y_parent, Y_v) / P(Y_parent)
// taken from the pair tables and the root tables from single.
//
// single[v] is P(Y_v) (d entries); pair(a, b), called with a < b,
// returns P(Y_a, Y_b) as a table over [a b] (need not be normalised) or
// nil when the pair is not a candidate edge. Ties in mutual information
// go to the smaller pair (a, b), so the result is deterministic. Pairs
// with zero mutual information are never joined.
func ChowLiu(d int, single [][]float64, pair func(a, b int) *Table) *Net {
	p := len(single)
	type edge struct {
		a, b int
		w    float64
		t    *Table
	}
	var edges []edge
	for a := range p {
		for b := a + 1; b < p; b++ {
			t := pair(a, b)
			if t == nil {
				continue
			}
			if w := MutualInformation(t); w > 0 {
				edges = append(edges, edge{a, b, w, t})
			}
		}
	}
	slices.SortStableFunc(edges, func(x, y edge) int { return cmp.Compare(y.w, x.w) })
	// Kruskal with union-find
	parent := make([]int, p)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	adj := make([][]int, p)
	tab := make(map[[2]int]*Table)
	for _, e := range edges {
		ra, rb := find(e.a), find(e.b)
		if ra == rb {
			continue
		}
		parent[ra] = rb
		adj[e.a] = append(adj[e.a], e.b)
		adj[e.b] = append(adj[e.b], e.a)
		tab[[2]int{e.a, e.b}] = e.t
	}
	return orient(adj, pairCPT(d, single, func(a, b int) *Table { return tab[[2]int{min(a, b), max(a, b)}] }))
}

// orient roots every tree of the forest adj at its smallest node, visits
// the nodes depth first (neighbours in increasing order) and returns the
// network whose conditional tables come from cpt(parent, child), called
// in that order with parent -1 for a root.
func orient(adj [][]int, cpt func(parent, child int) []float64) *Net {
	p := len(adj)
	net := &Net{Parents: make([][]int, p), CPT: make([][]float64, p)}
	seen := make([]bool, p)
	for root := range p {
		if seen[root] {
			continue
		}
		seen[root] = true
		net.CPT[root] = cpt(-1, root)
		stack := []int{root}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nb := slices.Clone(adj[u])
			slices.Sort(nb)
			for _, v := range nb {
				if seen[v] {
					continue
				}
				seen[v] = true
				net.Parents[v] = []int{u}
				net.CPT[v] = cpt(u, v)
				stack = append(stack, v)
			}
		}
	}
	return net
}

// pairCPT returns the tables of orient from the single-node marginals and
// the pair tables.
func pairCPT(d int, single [][]float64, pair func(a, b int) *Table) func(u, v int) []float64 {
	return func(u, v int) []float64 {
		if u < 0 {
			return normalized(single[v])
		}
		return conditional(pair(u, v), u, v, d)
	}
}

// conditional returns P(Y_v | Y_u) (d x d, row u's state) from a table
// over {u, v} in either order; negative entries count as zero and a
// parent state without mass gets the uniform row.
func conditional(t *Table, u, v, d int) []float64 {
	cpt := make([]float64, d*d)
	swap := t.Vars[0] == v
	for i := range d {
		var s float64
		for j := range d {
			x := t.P[i*d+j]
			if swap {
				x = t.P[j*d+i]
			}
			x = math.Max(x, 0)
			cpt[i*d+j] = x
			s += x
		}
		for j := range d {
			if s > 0 {
				cpt[i*d+j] /= s
			} else {
				cpt[i*d+j] = 1 / float64(d)
			}
		}
	}
	return cpt
}

// normalized returns p with negative entries set to zero, scaled to sum
// to 1 (uniform if nothing is left).
func normalized(p []float64) []float64 {
	out := make([]float64, len(p))
	var s float64
	for i, v := range p {
		out[i] = math.Max(v, 0)
		s += out[i]
	}
	for i := range out {
		if s > 0 {
			out[i] /= s
		} else {
			out[i] = 1 / float64(len(out))
		}
	}
	return out
}

// TreeEdges returns the edges {parent, child} of a forest-structured
// network as pairs (u < v) in increasing order.
func (n *Net) TreeEdges() [][2]int { return n.Graph().Edges() }
