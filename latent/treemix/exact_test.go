package treemix

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/mat"
)

// matchComponents returns perm with est component perm[h] matched to
// true component h, by the l1 distance of the reference tables and the
// weights.
func matchComponents(truth, est *Mixture, ref int) []int {
	r := len(truth.Weights)
	cost := mat.Zeros(r, r)
	for h := range r {
		th := truth.ComponentMarginal(h, []int{ref}).P
		for g := range r {
			eh := est.ComponentMarginal(g, []int{ref}).P
			var c float64
			for s := range th {
				c += math.Abs(th[s] - eh[s])
			}
			cost.Set(h, g, c+math.Abs(truth.Weights[h]-est.Weights[g]))
		}
	}
	perm, _ := eval.Assign(cost)
	return perm
}

func TestExactRecovery(t *testing.T) {
	cases := []struct {
		r, p, d int
		seed    uint64
		edges   bool
	}{
		{2, 10, 3, 1, false},
		{2, 12, 4, 2, true},
		{3, 10, 4, 3, true},
		{2, 15, 3, 4, false},
		{2, 20, 4, 5, true},
		{3, 20, 4, 6, true},
	}
	if slowTarget() {
		cases = cases[:4]
	}
	ctx := context.Background()
	for _, c := range cases {
		m := randomTreeMixture(rand.New(rand.NewPCG(c.seed, 77)), c.p, c.d, c.r, GenOptions{})
		src := Exact(m)
		rt, err := LearnUnionGraph(ctx, src, c.r, &RankOptions{})
		if err != nil {
			t.Fatal(err)
		}
		union := m.UnionGraph()
		if !rt.Graph.Equal(union) {
			p, rec, _ := EdgeScores(union, rt.Graph)
			t.Fatalf("%+v: union graph differs: precision %.3f recall %.3f\n got %v\nwant %v", c, p, rec, rt.Graph, union)
		}
		comp, err := LearnComponents(ctx, src, rt.Graph, c.r, &SpectralOptions{EdgesOnly: c.edges})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if len(comp.Demixed) > len(comp.Pairs)/4 {
			t.Errorf("%+v: %d of %d pairs without a witness", c, len(comp.Demixed), len(comp.Pairs))
		}
		est := comp.Mixture()
		ref := comp.Reference
		if union.Degree(ref) != 0 {
			t.Fatalf("reference %d is not isolated", ref)
		}
		perm := matchComponents(m, est, ref)
		for h := range c.r {
			g := perm[h]
			if e := math.Abs(m.Weights[h] - est.Weights[g]); e > 1e-9 {
				t.Errorf("%+v: weight %d off by %g", c, h, e)
			}
			if !est.Nets[g].Graph().Equal(m.Nets[h].Graph()) {
				t.Errorf("%+v: tree %d differs:\n got %v\nwant %v", c, h, est.Nets[g].Graph(), m.Nets[h].Graph())
				continue
			}
			for key, ts := range comp.Pairs {
				want := m.ComponentMarginal(h, []int{key[0], key[1]})
				if e := maxDiff(ts[g].P, want.P); e > 1e-9 {
					t.Errorf("%+v: pair %v of component %d off by %g", c, key, h, e)
				}
			}
			all := make([]int, c.p)
			for v := range all {
				all[v] = v
			}
			if c.p <= 10 {
				if e := maxDiff(est.ComponentMarginal(g, all).P, m.ComponentMarginal(h, all).P); e > 1e-9 {
					t.Errorf("%+v: component %d off by %g", c, h, e)
				}
			}
		}
	}
}

func TestExactGraphMixture(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		r, p, d, deg, parents int
		seed                  uint64
	}{
		{2, 16, 3, 2, 2, 1},
		{2, 20, 3, 3, 2, 2},
	}
	if slowTarget() {
		cases = cases[:1]
	}
	for _, c := range cases {
		m := randomGraphMixture(rand.New(rand.NewPCG(c.seed, 99)), c.p, c.d, c.r, c.deg, c.parents, GenOptions{})
		src := Exact(m)
		union := m.UnionGraph()
		rt, err := LearnUnionGraph(ctx, src, c.r, &RankOptions{Eta: 2 * c.deg, Candidates: -1})
		if err != nil {
			t.Fatal(err)
		}
		if !rt.Graph.Equal(union) {
			t.Fatalf("%+v: union graph\n got %v\nwant %v", c, rt.Graph, union)
		}
		comp, err := LearnComponents(ctx, src, rt.Graph, c.r, &SpectralOptions{})
		if err != nil {
			t.Fatal(err)
		}
		est := comp.Mixture()
		perm := matchComponents(m, est, comp.Reference)
		graphs, untested, err := comp.MarkovGraphs(ctx, &MarkovOptions{MaxNeighborhood: 6})
		if err != nil {
			t.Fatal(err)
		}
		tv, _, err := comp.MarkovGraphs(ctx, &MarkovOptions{MaxNeighborhood: 6, Statistic: MaxTV})
		if err != nil {
			t.Fatal(err)
		}
		if len(untested) > union.NumEdges()/4 {
			t.Errorf("%+v: %d of %d edges untested", c, len(untested), union.NumEdges())
		}
		for h := range c.r {
			g := perm[h]
			if e := math.Abs(m.Weights[h] - est.Weights[g]); e > 1e-9 {
				t.Errorf("%+v: weight %d off by %g", c, h, e)
			}
			for key, ts := range comp.Pairs {
				if e := maxDiff(ts[g].P, m.ComponentMarginal(h, key[:]).P); e > 1e-9 {
					t.Errorf("%+v: pair %v of component %d off by %g", c, key, h, e)
				}
			}
			want := m.Nets[h].Graph()
			for _, e := range untested {
				want.Add(e[0], e[1])
			}
			if !graphs[g].Equal(want) {
				t.Errorf("%+v: Markov graph %d\n got %v\nwant %v", c, h, graphs[g], want)
			}
			if !tv[g].Equal(want) {
				t.Errorf("%+v: Markov graph %d (MaxTV)\n got %v\nwant %v", c, h, tv[g], want)
			}
		}
		t.Logf("%+v: %d pairs, %d demixed; %d of %d edges untested", c, len(comp.Pairs), len(comp.Demixed), len(untested), union.NumEdges())
	}
}

func TestDecomposeTriple(t *testing.T) {
	ctx := context.Background()
	m := randomTreeMixture(rand.New(rand.NewPCG(8, 8)), 12, 3, 2, GenOptions{})
	comp, err := LearnComponents(ctx, Exact(m), m.UnionGraph(), 2, &SpectralOptions{EdgesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	est := comp.Mixture()
	perm := matchComponents(m, est, comp.Reference)
	var target []int
	for v := range 12 {
		if v != comp.Reference && len(target) < 3 {
			target = append(target, v)
		}
	}
	tabs, _, err := comp.Decompose(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	for h := range 2 {
		if e := maxDiff(tabs[perm[h]].P, m.ComponentMarginal(h, target).P); e > 1e-9 {
			t.Errorf("component %d: P(Y_A | H) off by %g", h, e)
		}
	}
	if _, _, err := comp.Decompose(ctx, []int{comp.Reference}); err == nil {
		t.Error("the reference accepted as a target")
	}
}
