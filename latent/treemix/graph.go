package treemix

import (
	"fmt"
	"slices"
	"sync"
)

// Graph is an undirected simple graph on the nodes 0..n-1.
type Graph struct {
	n   int
	adj []bool // n x n, symmetric
}

// NewGraph returns the graph on n nodes without edges.
func NewGraph(n int) *Graph { return &Graph{n: n, adj: make([]bool, n*n)} }

// CompleteGraph returns the graph on n nodes with every edge.
func CompleteGraph(n int) *Graph {
	g := NewGraph(n)
	for u := range n {
		for v := range n {
			g.adj[u*n+v] = u != v
		}
	}
	return g
}

// NumNodes returns the number of nodes.
func (g *Graph) NumNodes() int { return g.n }

func (g *Graph) check(u, v int) {
	if u < 0 || v < 0 || u >= g.n || v >= g.n {
		panic(fmt.Sprintf("treemix: Graph: edge (%d, %d) out of range for %d nodes", u, v, g.n))
	}
}

// Add adds the edge {u, v} (u != v).
func (g *Graph) Add(u, v int) {
	g.check(u, v)
	if u == v {
		panic(fmt.Sprintf("treemix: Graph.Add: loop at %d", u))
	}
	g.adj[u*g.n+v], g.adj[v*g.n+u] = true, true
}

// Remove removes the edge {u, v} if present.
func (g *Graph) Remove(u, v int) {
	g.check(u, v)
	g.adj[u*g.n+v], g.adj[v*g.n+u] = false, false
}

// Has reports whether {u, v} is an edge.
func (g *Graph) Has(u, v int) bool {
	g.check(u, v)
	return g.adj[u*g.n+v]
}

// Neighbors returns the neighbours of v in increasing order.
func (g *Graph) Neighbors(v int) []int {
	g.check(v, v)
	var out []int
	for u, ok := range g.adj[v*g.n : (v+1)*g.n] {
		if ok {
			out = append(out, u)
		}
	}
	return out
}

// Degree returns the number of neighbours of v.
func (g *Graph) Degree(v int) int {
	g.check(v, v)
	k := 0
	for _, ok := range g.adj[v*g.n : (v+1)*g.n] {
		if ok {
			k++
		}
	}
	return k
}

// Edges returns the edges {u, v} as pairs with u < v, in increasing
// order.
func (g *Graph) Edges() [][2]int {
	var out [][2]int
	for u := range g.n {
		for v := u + 1; v < g.n; v++ {
			if g.adj[u*g.n+v] {
				out = append(out, [2]int{u, v})
			}
		}
	}
	return out
}

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int {
	k := 0
	for _, ok := range g.adj {
		if ok {
			k++
		}
	}
	return k / 2
}

// Clone returns a copy of g.
func (g *Graph) Clone() *Graph { return &Graph{n: g.n, adj: slices.Clone(g.adj)} }

// Union adds the edges of h (a graph on as many nodes) to g.
func (g *Graph) Union(h *Graph) {
	if h.n != g.n {
		panic(fmt.Sprintf("treemix: Graph.Union: %d and %d nodes", g.n, h.n))
	}
	for k, ok := range h.adj {
		g.adj[k] = g.adj[k] || ok
	}
}

// Equal reports whether g and h have the same nodes and edges.
func (g *Graph) Equal(h *Graph) bool { return g.n == h.n && slices.Equal(g.adj, h.adj) }

// Isolated returns the nodes without neighbours.
func (g *Graph) Isolated() []int {
	var out []int
	for v := range g.n {
		if g.Degree(v) == 0 {
			out = append(out, v)
		}
	}
	return out
}

// String lists the edges.
func (g *Graph) String() string { return fmt.Sprint(g.Edges()) }

// EdgeScores compares the edges of est with those of truth (graphs on
// as many nodes): precision (the fraction of est's edges in truth),
// recall (the fraction of truth's edges in est) and their harmonic mean
// F1. An empty graph has precision (or recall) 1 by convention.
func EdgeScores(truth, est *Graph) (precision, recall, f1 float64) {
	if truth.n != est.n {
		panic(fmt.Sprintf("treemix: EdgeScores: %d and %d nodes", truth.n, est.n))
	}
	var tp, ne, nt int
	for k := range truth.adj {
		if est.adj[k] {
			ne++
			if truth.adj[k] {
				tp++
			}
		}
		if truth.adj[k] {
			nt++
		}
	}
	precision, recall = 1, 1
	if ne > 0 {
		precision = float64(tp) / float64(ne)
	}
	if nt > 0 {
		recall = float64(tp) / float64(nt)
	}
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	return precision, recall, f1
}

// sepScratch holds the work arrays of separator for a split graph of m
// nodes: the planner calls it for every candidate witness of every
// target, from several goroutines, and fresh m x m arrays each time made
// the decomposition allocate far more than its data.
type sepScratch struct {
	capa, flow, prev, queue []int
	reach                   []bool
}

var sepScratchPool sync.Pool

// getSepScratch returns zeroed capacity and flow arrays of m x m and
// work arrays of m from the pool.
func getSepScratch(m int) *sepScratch {
	sc, _ := sepScratchPool.Get().(*sepScratch)
	if sc == nil || cap(sc.capa) < m*m || cap(sc.prev) < m {
		sc = &sepScratch{capa: make([]int, m*m), flow: make([]int, m*m),
			prev: make([]int, m), queue: make([]int, 0, m), reach: make([]bool, m)}
		return sc
	}
	sc.capa, sc.flow = sc.capa[:m*m], sc.flow[:m*m]
	clear(sc.capa)
	clear(sc.flow)
	sc.prev, sc.reach, sc.queue = sc.prev[:m], sc.reach[:m], sc.queue[:0]
	return sc
}

// separator returns a smallest set of nodes, none in a, none in
// exclude, and not c, whose removal disconnects every node of a from c
// in g, or ok = false if there is none (c is a or a neighbour of a) or
// it has more than limit nodes. Of the smallest separators it returns
// the one closest to a. It is a unit-capacity max-flow on the
// split-node graph (Menger's theorem), one augmenting path per unit.
func (g *Graph) separator(a []int, c int, exclude []int, limit int) (sep []int, ok bool) {
	n := g.n
	const inf = 1 << 30
	inA := make([]bool, n)
	for _, v := range a {
		inA[v] = true
	}
	if inA[c] {
		return nil, false
	}
	for _, v := range a {
		if g.adj[v*n+c] {
			return nil, false
		}
	}
	blocked := make([]bool, n)
	for _, v := range exclude {
		blocked[v] = true
	}
	// Vertex v is split into in(v) = 2v and out(v) = 2v+1 joined by an
	// arc of capacity 1 (infinite for the nodes of a); edge {u, v} gives
	// arcs out(u) -> in(v) and out(v) -> in(u) of infinite capacity.
	// Sources: out(a) for a in a; sink: in(c). Excluded nodes are left
	// out of the graph.
	m := 2 * n
	sc := getSepScratch(m)
	defer sepScratchPool.Put(sc)
	capa, flow, prev, reach := sc.capa, sc.flow, sc.prev, sc.reach
	for v := range n {
		if blocked[v] && !inA[v] && v != c {
			continue
		}
		if inA[v] {
			capa[(2*v)*m+2*v+1] = inf
		} else if v != c {
			capa[(2*v)*m+2*v+1] = 1
		}
		for u := range n {
			if g.adj[v*n+u] && !(blocked[u] && !inA[u] && u != c) {
				capa[(2*v+1)*m+2*u] = inf
			}
		}
	}
	bfs := func() bool {
		clear(reach)
		for i := range prev {
			prev[i] = -1
		}
		queue := sc.queue[:0]
		for _, v := range a {
			reach[2*v+1] = true
			queue = append(queue, 2*v+1)
		}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			if x == 2*c {
				return true
			}
			for y := range m {
				if !reach[y] && capa[x*m+y]-flow[x*m+y] > 0 {
					reach[y], prev[y] = true, x
					queue = append(queue, y)
				}
			}
		}
		return false
	}
	for units := 0; ; units++ {
		if !bfs() {
			break
		}
		if units >= limit {
			return nil, false
		}
		for y := 2 * c; prev[y] >= 0; y = prev[y] {
			x := prev[y]
			flow[x*m+y]++
			flow[y*m+x]--
		}
	}
	for v := range n {
		if reach[2*v] && !reach[2*v+1] && !inA[v] && v != c {
			sep = append(sep, v)
		}
	}
	return sep, true
}
