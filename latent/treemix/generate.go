package treemix

import (
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/sample"
)

// GenOptions controls the random mixtures. The zero value (and nil) gives
// tables of strength 0.5, concentration 1 and weights from a symmetric
// Dirichlet(5).
type GenOptions struct {
	// Strength in [0, 1) mixes every conditional row with a point mass
	// on a state chosen by a random permutation of the parent's states,
	// row = (1 - Strength) Dirichlet + Strength e_sigma(parent state),
	// which keeps the tables far from rank-deficient; 0 means 0.5, a
	// negative value means no point mass.
	Strength float64
	// Concentration is the Dirichlet parameter of the random part of
	// every table; 0 means 1.
	Concentration float64
	// WeightConcentration is the symmetric Dirichlet parameter of the
	// mixing weights; 0 means 5.
	WeightConcentration float64
	// MinWeight is a floor on every mixing weight (the weights are
	// redrawn until they all reach it); 0 means 0.5/r. The generators
	// panic on a MinWeight above 1/r (no weights reach it), on a Strength
	// of 1 or more, and on NaN, infinite or negative values (other than
	// a negative Strength).
	MinWeight float64
	// Seed seeds the generator of the mixture: the same seed and
	// options give the same mixture.
	Seed uint64
}

// The streams of the generators seeded by a Seed (the second word of
// their PCG state), one per use, so that equal seeds of different uses
// give unrelated draws.
const (
	genStream    = 0x6e6e
	sampleStream = 0x5a5a
	splitStream  = 0x5b5b
	startStream  = 0x5c5c
)

// rng returns the generator of o.Seed.
func (o GenOptions) rng() *rand.Rand { return rand.New(rand.NewPCG(o.Seed, genStream)) }

func (o GenOptions) strength() float64 {
	switch {
	case o.Strength < 0:
		return 0
	case o.Strength == 0:
		return 0.5
	}
	return o.Strength
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// randomRows returns rows conditional distributions over d states, each
// (1-s) Dirichlet(alpha) + s e_sigma(row).
func randomRows(r *rand.Rand, rows, d int, opts GenOptions) []float64 {
	s := opts.strength()
	alpha := make([]float64, d)
	for i := range alpha {
		alpha[i] = orDefault(opts.Concentration, 1)
	}
	out := make([]float64, rows*d)
	row := make([]float64, d)
	perm := r.Perm(d)
	for c := range rows {
		sample.Dirichlet(r, alpha, row)
		for j := range d {
			out[c*d+j] = (1 - s) * row[j]
		}
		// a permutation per block of d rows keeps the point masses
		// distinct for the states of one parent
		if c%d == 0 && c > 0 {
			perm = r.Perm(d)
		}
		out[c*d+perm[c%d]] += s
	}
	return out
}

func randomWeights(r *rand.Rand, k int, opts GenOptions) []float64 {
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = orDefault(opts.WeightConcentration, 5)
	}
	floor := orDefault(opts.MinWeight, 0.5/float64(k))
	w := make([]float64, k)
	for {
		sample.Dirichlet(r, alpha, w)
		if slices.Min(w) >= floor {
			return w
		}
	}
}

// RandomTreeMixture returns a random mixture of k trees over p
// variables with d states: one node, chosen at random, is isolated in
// every component (the reference node of the spectral method, depending
// on the hidden component alone); each component is an independent
// uniformly random spanning tree of the other p-1 nodes (a random
// Prüfer sequence), rooted at its smallest node. It panics unless
// p >= 2, d >= 2 and k >= 1. nil opts means the defaults (seed 0).
func RandomTreeMixture(p, d, k int, opts *GenOptions) *Mixture {
	o := valueOf(opts)
	return randomTreeMixture(o.rng(), p, d, k, o)
}

// randomTreeMixture is RandomTreeMixture with the generator r.
func randomTreeMixture(r *rand.Rand, p, d, k int, opts GenOptions) *Mixture {
	if p < 2 || d < 2 || k < 1 {
		panic("treemix: RandomTreeMixture: need p >= 2, d >= 2, k >= 1")
	}
	opts.check("RandomTreeMixture", k)
	ref := r.IntN(p)
	var others []int
	for v := range p {
		if v != ref {
			others = append(others, v)
		}
	}
	m := &Mixture{States: d, Weights: randomWeights(r, k, opts)}
	for range k {
		adj := make([][]int, p)
		for _, e := range randomTree(r, len(others)) {
			a, b := others[e[0]], others[e[1]]
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
		net := orient(adj, func(u, _ int) []float64 {
			if u < 0 {
				return randomRows(r, 1, d, opts)
			}
			return randomRows(r, d, d, opts)
		})
		m.Nets = append(m.Nets, net)
	}
	return m
}

// randomTree returns the edges of a uniformly random labelled tree on
// n nodes, decoded from a random Prüfer sequence.
func randomTree(r *rand.Rand, n int) [][2]int {
	if n < 2 {
		return nil
	}
	seq := make([]int, n-2)
	for i := range seq {
		seq[i] = r.IntN(n)
	}
	degree := make([]int, n)
	for i := range degree {
		degree[i] = 1
	}
	for _, v := range seq {
		degree[v]++
	}
	var edges [][2]int
	for _, v := range seq {
		for u := range n {
			if degree[u] == 1 {
				edges = append(edges, [2]int{u, v})
				degree[u]--
				degree[v]--
				break
			}
		}
	}
	var last []int
	for u := range n {
		if degree[u] == 1 {
			last = append(last, u)
		}
	}
	return append(edges, [2]int{last[0], last[1]})
}

// RandomGraphMixture returns a random mixture of k Bayesian networks
// over p variables with d states whose Markov graphs have degree at most
// maxDegree: in a random node order each node takes up to maxParents
// parents among the earlier nodes, drawn at random among those that keep
// every degree within maxDegree and that are joined to the parents
// already taken. The parents of a node thus form a clique: the networks
// have no v-structure, their Markov graphs are their skeletons (chordal
// graphs, with triangles when maxParents >= 2), and every edge is a
// direct dependence that no separator removes, as the rank test's
// condition (A3) requires. One node, chosen at random, is isolated in
// every component. It panics
// unless p >= 2, d >= 2, k >= 1, maxDegree >= 1 and maxParents >= 1.
// nil opts means the defaults (seed 0).
func RandomGraphMixture(p, d, k, maxDegree, maxParents int, opts *GenOptions) *Mixture {
	o := valueOf(opts)
	return randomGraphMixture(o.rng(), p, d, k, maxDegree, maxParents, o)
}

// randomGraphMixture is RandomGraphMixture with the generator r.
func randomGraphMixture(r *rand.Rand, p, d, k, maxDegree, maxParents int, opts GenOptions) *Mixture {
	if p < 2 || d < 2 || k < 1 || maxDegree < 1 || maxParents < 1 {
		panic("treemix: RandomGraphMixture: bad sizes")
	}
	opts.check("RandomGraphMixture", k)
	ref := r.IntN(p)
	m := &Mixture{States: d, Weights: randomWeights(r, k, opts)}
	for range k {
		net := &Net{Parents: make([][]int, p), CPT: make([][]float64, p)}
		g := NewGraph(p)
		order := r.Perm(p)
		var placed []int
		for _, v := range order {
			if v == ref {
				net.CPT[v] = randomRows(r, 1, d, opts)
				continue
			}
			var ps []int
			want := 1 + r.IntN(maxParents)
			for _, c := range permuted(r, placed) {
				if len(ps) == want || g.Degree(v)+1 > maxDegree {
					break
				}
				if g.Degree(c)+1 > maxDegree {
					continue
				}
				clique := true
				for _, q := range ps {
					clique = clique && g.Has(q, c)
				}
				if clique {
					g.Add(c, v)
					ps = append(ps, c)
				}
			}
			slices.Sort(ps)
			net.Parents[v] = ps
			net.CPT[v] = randomRows(r, pow(d, len(ps)), d, opts)
			placed = append(placed, v)
		}
		m.Nets = append(m.Nets, net)
	}
	return m
}

func permuted(r *rand.Rand, s []int) []int {
	out := slices.Clone(s)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
