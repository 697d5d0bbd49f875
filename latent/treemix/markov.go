package treemix

import (
	"context"
	"math"
	"slices"
)

// MarkovStatistic selects the conditional-independence statistic of
// MarkovGraphs.
type MarkovStatistic int

const (
	// CMI is the conditional mutual information
	// I(Y_a; Y_b | Y_rest, H = h) in nats: every configuration of the
	// other neighbours counts with its probability, which makes it
	// robust to sampling noise (the default).
	CMI MarkovStatistic = iota
	// MaxTV is the statistic of Appendix A.1 (after Bresler, Mossel and
	// Sly): the largest l1 distance between P(Y_a | Y_b = k, Y_rest = y,
	// H = h) and P(Y_a | Y_b = l, Y_rest = y, H = h) over the states k, l
	// and the configurations y of mass at least MinMass. Exact on exact
	// tables, but a maximum over rare configurations: noisy on samples.
	MaxTV
)

// MarkovOptions controls Components.MarkovGraphs. The zero value uses
// the conditional mutual information with its default threshold and
// tests the neighbourhoods of at most 5 nodes.
type MarkovOptions struct {
	// Statistic selects the test; the zero value is CMI.
	Statistic MarkovStatistic
	// Threshold on the statistic: an edge whose statistic exceeds it
	// belongs to the component's graph. 0 means, for CMI, 1e-10 for
	// exact tables and 0.1 nats for sampled ones; for MaxTV (at most
	// 2), 1e-6 and 0.2.
	Threshold float64
	// MinMass: for MaxTV, configurations whose probability under the
	// component is below MinMass are not compared; 0 means 1e-9 for
	// exact tables and 20/N for sampled ones.
	MinMass float64
	// MaxNeighborhood bounds the closed neighbourhoods decomposed (with
	// a witness their tables have d^(|N[a]| + |S| + 2) cells); the edges
	// of a node with a larger one are tested from the other end only, or
	// kept. 0 means 5.
	MaxNeighborhood int
}

// MarkovGraphs estimates the Markov graph of every component
// (Appendix A.1 of Anandkumar et al.) from the union graph used for c. For each
// node a (not the reference) it decomposes the closed neighbourhood
// N[a] with the shared diagonaliser, which gives P(Y_N[a] | H = h) for
// every h, and for each neighbour b measures the dependence of Y_a on
// Y_b given the other neighbours rest = N(a) \ {b} under component h
// (see MarkovStatistic): zero when Y_a and Y_b are independent given
// rest, that is when the edge is not in G_h (the local Markov property).
// The edge {a, b} belongs to G_h when the statistic from a's side or
// from b's side exceeds Threshold. The
// graphs use the labels of c. A neighbourhood without a witness within
// the separator bound is demixed through the reference node, as in
// LearnComponents. Edges that could be tested from neither side
// (both neighbourhoods too large) are kept in every component and listed
// in untested. nil opts means the defaults; ctx must not be nil.
func (c *Components) MarkovGraphs(ctx context.Context, opts *MarkovOptions) (graphs []*Graph, untested [][2]int, err error) {
	o := valueOf(opts)
	if err := o.check(); err != nil {
		return nil, nil, err
	}
	dc := c.dec
	r, p, d := dc.r, dc.p, dc.d
	n := float64(dc.src.Samples())
	tau, minMass := o.Threshold, o.MinMass
	if tau == 0 {
		switch {
		case o.Statistic == MaxTV && n > 0:
			tau = 0.2
		case o.Statistic == MaxTV:
			tau = 1e-6
		case n > 0:
			tau = 0.1
		default:
			tau = 1e-10
		}
	}
	if minMass == 0 {
		minMass = 1e-9
		if n > 0 {
			minMass = 20 / n
		}
	}
	maxN := o.MaxNeighborhood
	if maxN == 0 {
		maxN = 5
	}
	var targets [][]int
	var centre []int
	for a := range p {
		if a == dc.ref || dc.g.Degree(a) == 0 || dc.g.Degree(a)+1 > maxN {
			continue
		}
		targets = append(targets, sortedCopy(append(dc.g.Neighbors(a), a)))
		centre = append(centre, a)
	}
	tabs, _, err := dc.decompose(ctx, targets)
	if err != nil {
		return nil, nil, err
	}
	// stat[h][a*p+b]: the statistic of b from a's side (-1: untested)
	stat := make([][]float64, r)
	for h := range r {
		stat[h] = make([]float64, p*p)
		for i := range stat[h] {
			stat[h][i] = -1
		}
	}
	for i, t := range targets {
		if tabs[i] == nil {
			continue
		}
		a := centre[i]
		for h := range r {
			for _, b := range t {
				if b != a {
					stat[h][a*p+b] = localDependence(tabs[i][h], a, b, d, o.Statistic, minMass)
				}
			}
		}
	}
	graphs = make([]*Graph, r)
	for h := range r {
		graphs[h] = NewGraph(p)
		for _, e := range dc.g.Edges() {
			a, b := e[0], e[1]
			s1, s2 := stat[h][a*p+b], stat[h][b*p+a]
			if s1 < 0 && s2 < 0 && h == 0 {
				untested = append(untested, e)
			}
			if (s1 < 0 && s2 < 0) || math.Max(s1, s2) > tau {
				graphs[h].Add(a, b)
			}
		}
	}
	return graphs, untested, nil
}

// localDependence returns the statistic of MarkovGraphs for the table t
// of a closed neighbourhood of a.
func localDependence(t *Table, a, b, d int, kind MarkovStatistic, minMass float64) float64 {
	var rest []int
	for _, v := range t.Vars {
		if v != a && v != b {
			rest = append(rest, v)
		}
	}
	// u is over [rest..., b, a]: block y of d*d entries is P(y, b, a)
	u := t.Marginal(append(append(slices.Clone(rest), b), a)...)
	nr := pow(d, len(rest))
	if kind == CMI {
		var total float64
		for _, x := range u.P {
			total += math.Max(x, 0)
		}
		if !(total > 0) {
			return 0
		}
		var cmi float64
		pa := make([]float64, d)
		pb := make([]float64, d)
		for y := range nr {
			blk := u.P[y*d*d : (y+1)*d*d]
			var py float64
			clear(pa)
			clear(pb)
			for k := range d {
				for j := range d {
					x := math.Max(blk[k*d+j], 0)
					py += x
					pb[k] += x
					pa[j] += x
				}
			}
			for k := range d {
				for j := range d {
					if x := math.Max(blk[k*d+j], 0); x > 0 {
						cmi += x / total * math.Log(x*py/(pb[k]*pa[j]))
					}
				}
			}
		}
		return math.Max(cmi, 0)
	}
	worst := 0.0
	cond := make([][]float64, d)
	for y := range nr {
		for k := range d {
			row := u.P[(y*d+k)*d : (y*d+k+1)*d]
			var s float64
			for _, x := range row {
				s += x
			}
			cond[k] = nil
			if s >= minMass && s > 0 {
				cond[k] = make([]float64, d)
				for j, x := range row {
					cond[k][j] = x / s
				}
			}
		}
		for k := range d {
			for l := k + 1; l < d; l++ {
				if cond[k] == nil || cond[l] == nil {
					continue
				}
				var dist float64
				for j := range d {
					dist += math.Abs(cond[k][j] - cond[l][j])
				}
				worst = math.Max(worst, dist)
			}
		}
	}
	return worst
}
