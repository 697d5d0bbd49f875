package treemix

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// slowTarget reports whether to run the long tests with fewer samples:
// under -short, and on arm64 (CI runs it under qemu).
func slowTarget() bool { return testing.Short() || runtime.GOARCH != "amd64" }

func TestSampledRecovery(t *testing.T) {
	ctx := context.Background()
	type tol struct {
		n               int
		unionF1, treeF1 float64
		weight          float64
	}
	tols := []tol{{20000, 0.9, 0.7, 0.05}, {100000, 0.95, 0.95, 0.02}}
	if slowTarget() {
		tols = tols[:1]
	}
	for seed := uint64(1); seed <= 2; seed++ {
		m := randomTreeMixture(rand.New(rand.NewPCG(seed, 1)), 20, 4, 2, GenOptions{})
		full, _ := m.sample(rand.New(rand.NewPCG(seed, 2)), tols[len(tols)-1].n)
		for _, tl := range tols {
			x := full.Subset(seq(tl.n))
			src := Empirical(x, &Options{})
			est, rep, err := Learn(ctx, src, 2, &LearnOptions{Spectral: SpectralOptions{EdgesOnly: true}})
			if err != nil {
				t.Fatal(err)
			}
			_, _, f1 := EdgeScores(m.UnionGraph(), rep.Rank.Graph)
			if f1 < tl.unionF1 {
				t.Errorf("seed %d N %d: union-graph F1 %.3f < %.2f", seed, tl.n, f1, tl.unionF1)
			}
			perm := matchComponents(m, est, rep.Components.Reference)
			for h := range 2 {
				g := perm[h]
				if e := math.Abs(m.Weights[h] - est.Weights[g]); e > tl.weight {
					t.Errorf("seed %d N %d: weight %d off by %.4f > %.3f", seed, tl.n, h, e, tl.weight)
				}
				if _, _, f := EdgeScores(m.Nets[h].Graph(), est.Nets[g].Graph()); f < tl.treeF1 {
					t.Errorf("seed %d N %d: tree %d F1 %.3f < %.2f", seed, tl.n, h, f, tl.treeF1)
				}
			}
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestWorkersDeterminism(t *testing.T) {
	ctx := context.Background()
	m := randomTreeMixture(rand.New(rand.NewPCG(3, 1)), 12, 4, 2, GenOptions{})
	x, _ := m.sample(rand.New(rand.NewPCG(3, 2)), 20000)
	var first *Mixture
	var firstRank *RankResult
	for _, w := range []int{1, 2, 5} {
		opts := Options{Workers: w}
		est, rep, err := Learn(ctx, Empirical(x, &opts), 2, &LearnOptions{Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first, firstRank = est, rep.Rank
			continue
		}
		if !rep.Rank.Graph.Equal(firstRank.Graph) || !slices.Equal(est.Weights, first.Weights) {
			t.Fatalf("workers %d: results differ", w)
		}
		for h := range est.Nets {
			for v := range est.Nets[h].CPT {
				if !slices.Equal(est.Nets[h].CPT[v], first.Nets[h].CPT[v]) {
					t.Fatalf("workers %d: tables differ", w)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	m := randomTreeMixture(rand.New(rand.NewPCG(4, 1)), 8, 3, 2, GenOptions{})
	src := Exact(m)
	if _, err := LearnUnionGraph(ctx, src, 3, &RankOptions{}); !errors.Is(err, ErrFewStates) {
		t.Errorf("d <= r: %v", err)
	}
	if _, err := LearnComponents(ctx, src, m.UnionGraph(), 3, &SpectralOptions{}); !errors.Is(err, ErrFewStates) {
		t.Errorf("d <= r: %v", err)
	}
	// no isolated node
	g := m.UnionGraph()
	ref := g.Isolated()[0]
	g.Add(ref, (ref+1)%8)
	if _, err := LearnComponents(ctx, src, g, 2, &SpectralOptions{}); !errors.Is(err, ErrNoReference) {
		t.Errorf("no isolated node: %v", err)
	}
	if _, err := LearnComponents(ctx, src, g, 2, &SpectralOptions{Reference: []int{(ref + 1) % 8}}); !errors.Is(err, ErrNoReference) {
		t.Errorf("reference not isolated: %v", err)
	}
	// Isolate cuts the edge and recovers the weights exactly
	comp, err := LearnComponents(ctx, src, g, 2, &SpectralOptions{Reference: []int{ref}, Isolate: true})
	if err != nil {
		t.Fatal(err)
	}
	w := slices.Clone(comp.Weights)
	slices.Sort(w)
	mw := slices.Clone(m.Weights)
	slices.Sort(mw)
	if maxDiff(w, mw) > 1e-9 {
		t.Errorf("weights %v, want %v", comp.Weights, m.Weights)
	}
	// a reference with no view of H: constant node
	x, _ := m.sample(rand.New(rand.NewPCG(4, 2)), 3000)
	c := x.Col(ref)
	for i := range c {
		c[i] = 0
	}
	if _, err := LearnComponents(ctx, Empirical(x, &Options{}), m.UnionGraph(), 2, &SpectralOptions{Reference: []int{ref}}); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("constant reference: %v", err)
	}
	// cancelled context
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := LearnUnionGraph(cctx, Empirical(x, &Options{}), 2, &RankOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// EM: data and model must match
	y := NewData(10, 5, 3)
	if _, _, err := LearnEM(ctx, y, m, &EMOptions{}); !errors.Is(err, ErrBadData) {
		t.Errorf("EM on mismatched data: %v", err)
	}
	if _, _, err := LearnEM(ctx, x, m, &EMOptions{MaxIter: 1, Tol: -1}); !errors.Is(err, ErrNoConvergence) {
		t.Errorf("EM cap: %v", err)
	}
}

func TestSampledMarkovGraphs(t *testing.T) {
	if slowTarget() {
		t.Skip("long: 10^5 samples and separators of up to 4 nodes")
	}
	ctx := context.Background()
	m := randomGraphMixture(rand.New(rand.NewPCG(1, 99)), 16, 4, 2, 2, 2, GenOptions{})
	x, _ := m.sample(rand.New(rand.NewPCG(1, 2)), 100000)
	src := Empirical(x, &Options{})
	rt, err := LearnUnionGraph(ctx, src, 2, &RankOptions{Eta: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, f := EdgeScores(m.UnionGraph(), rt.Graph); f < 0.95 {
		t.Errorf("union F1 %.3f", f)
	}
	comp, err := LearnComponents(ctx, src, rt.Graph, 2, &SpectralOptions{})
	if err != nil {
		t.Fatal(err)
	}
	graphs, _, err := comp.MarkovGraphs(ctx, &MarkovOptions{})
	if err != nil {
		t.Fatal(err)
	}
	perm := matchComponents(m, comp.Mixture(), comp.Reference)
	for h := range 2 {
		if _, _, f := EdgeScores(m.Nets[h].Graph(), graphs[perm[h]]); f < 0.9 {
			t.Errorf("component %d: Markov graph F1 %.3f", h, f)
		}
	}
}
