package treemix

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	in := "# comment\nA, B,C\n0,1,2\n\n 2 ,0,1\n1,1,1\n"
	x, err := ReadCSV(strings.NewReader(in), &CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, p, d := x.Dims()
	if n != 3 || p != 3 || d != 3 || !slices.Equal(x.Names, []string{"A", "B", "C"}) {
		t.Fatalf("dims %d %d %d names %v", n, p, d, x.Names)
	}
	if x.At(1, 0) != 2 || x.At(2, 2) != 1 || !slices.Equal(x.Row(0, nil), []int{0, 1, 2}) {
		t.Fatalf("wrong values %v %v %v", x.Row(0, nil), x.Row(1, nil), x.Row(2, nil))
	}
	var b strings.Builder
	if err := WriteCSV(&b, x); err != nil {
		t.Fatal(err)
	}
	if b.String() != "A,B,C\n0,1,2\n2,0,1\n1,1,1\n" {
		t.Fatalf("WriteCSV: %q", b.String())
	}
	bad := []struct {
		in          string
		opts        CSVOptions
		line, field int
	}{
		{"0,1\n1,x\n", CSVOptions{}, 2, 2},
		{"0,1\n1,-1\n", CSVOptions{}, 2, 2},
		{"0,1\n1\n", CSVOptions{}, 2, 0},
		{"0,1\n\n1,3\n", CSVOptions{States: 3}, 3, 2},
		{"0,1\n1,300\n", CSVOptions{}, 2, 2},
		{"a,b\n", CSVOptions{}, 1, 0},
		{"0;1\n1,2\n", CSVOptions{Comma: ';'}, 2, 0},
	}
	for _, c := range bad {
		_, err := ReadCSV(strings.NewReader(c.in), &c.opts)
		var de *DataError
		if !errors.As(err, &de) || !errors.Is(err, ErrBadData) || de.Line != c.line || de.Field != c.field {
			t.Errorf("%q: error %v, want line %d field %d", c.in, err, c.line, c.field)
		}
	}
	y, err := ReadCSV(strings.NewReader("1;2\n3;0\n"), &CSVOptions{Comma: ';', States: 5, Header: -1})
	if err != nil || y.d != 5 || y.At(1, 0) != 3 {
		t.Fatal(err, y)
	}
}

func TestDataTransforms(t *testing.T) {
	x, _ := FromRows(0, [][]int{{0, 5, 9, 1}, {3, 2, 0, 7}})
	b := x.Threshold(4)
	if !slices.Equal(b.Row(0, nil), []int{0, 1, 1, 0}) || b.d != 2 {
		t.Fatal(b.Row(0, nil))
	}
	g, err := b.Group(3)
	if err != nil || g.p != 2 || g.d != 8 || !slices.Equal(g.Row(0, nil), []int{3, 0}) || !slices.Equal(g.Row(1, nil), []int{0, 1}) {
		t.Fatal(err, g.Row(0, nil), g.Row(1, nil))
	}
	if _, err := x.Group(3); err == nil {
		t.Fatal("10^3 states accepted")
	}
	s := x.Select([]int{3, 0})
	if !slices.Equal(s.Row(1, nil), []int{7, 3}) {
		t.Fatal(s.Row(1, nil))
	}
	if _, err := FromRows(3, [][]int{{0, 3}}); !errors.Is(err, ErrBadData) {
		t.Fatal(err)
	}
	tr, te := x.split(rand.New(rand.NewPCG(1, 2)), 0.5)
	if tr.n != 1 || te.n != 1 {
		t.Fatal(tr.n, te.n)
	}
}

func randomData(r *rand.Rand, n, p, d int) *Data {
	x := NewData(n, p, d)
	for i := range x.x {
		x.x[i] = uint8(r.IntN(d))
	}
	return x
}

func TestCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := randomData(r, 3000, 7, 3)
	var sets [][]int
	for range 60 {
		k := 1 + r.IntN(4)
		sets = append(sets, r.Perm(7)[:k])
	}
	sets = append(sets, []int{1, 2}, []int{1, 2, 3}, []int{1, 2, 3, 4}, []int{1, 2})
	ctx := context.Background()
	got, err := Count(ctx, x, sets, &Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for s, set := range sets {
		want := NewTable(set, 3)
		y := make([]int, len(set))
		for i := range x.n {
			for j, v := range set {
				y[j] = x.At(i, v)
			}
			want.P[want.Index(y...)]++
		}
		if !slices.Equal(got[s].P, want.P) || !slices.Equal(got[s].Vars, set) {
			t.Fatalf("set %v: counts differ", set)
		}
	}
	got3, _ := Count(ctx, x, sets, &Options{Workers: 3})
	for s := range sets {
		if !slices.Equal(got[s].P, got3[s].P) {
			t.Fatal("counts depend on workers")
		}
	}
	// merge of two halves
	idx := make([]int, x.n)
	for i := range idx {
		idx[i] = i
	}
	a, _ := Count(ctx, x.Subset(idx[:1000]), sets, &Options{})
	b, _ := Count(ctx, x.Subset(idx[1000:]), sets, &Options{})
	for s := range sets {
		a[s].Add(b[s])
		if !slices.Equal(a[s].P, got[s].P) {
			t.Fatal("merged counts differ")
		}
	}
	// marginals of a table
	m := got[len(sets)-2].Marginal(4, 2)
	w, _ := Count(ctx, x, [][]int{{4, 2}}, &Options{})
	if !slices.Equal(m.P, w[0].P) {
		t.Fatal("Marginal differs from Count")
	}
}

// bruteMarginal enumerates every configuration.
func bruteMarginal(m *Mixture, vars []int) *Table {
	p, d, _ := m.Dims()
	out := NewTable(vars, d)
	y := make([]int, p)
	sub := make([]int, len(vars))
	for k := 0; k < pow(d, p); k++ {
		c := k
		for v := p - 1; v >= 0; v-- {
			y[v] = c % d
			c /= d
		}
		for j, v := range vars {
			sub[j] = y[v]
		}
		out.P[out.Index(sub...)] += math.Exp(m.LogProb(y))
	}
	return out
}

func maxDiff(a, b []float64) float64 {
	var e float64
	for i := range a {
		e = math.Max(e, math.Abs(a[i]-b[i]))
	}
	return e
}

func TestMarginalAndSample(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	models := []*Mixture{
		randomTreeMixture(r, 6, 3, 2, GenOptions{}),
		randomGraphMixture(r, 6, 3, 2, 3, 2, GenOptions{}),
	}
	for mi, m := range models {
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, vars := range [][]int{{0}, {2, 5}, {5, 1, 3}, {0, 1, 2, 3}, {4, 0, 3, 2, 1, 5}} {
			got := m.Marginal(vars)
			want := bruteMarginal(m, vars)
			if e := maxDiff(got.P, want.P); e > 1e-13 {
				t.Fatalf("model %d vars %v: exact marginal off by %g", mi, vars, e)
			}
		}
		x, hidden := m.sample(rand.New(rand.NewPCG(7, 8)), 100000)
		emp, _ := Empirical(x, &Options{}).Joints(context.Background(), [][]int{{1, 4}})
		if e := maxDiff(emp[0].P, m.Marginal([]int{1, 4}).P); e > 0.01 {
			t.Fatalf("model %d: sample frequencies off by %g", mi, e)
		}
		var c0 int
		for _, h := range hidden {
			if h == 0 {
				c0++
			}
		}
		if math.Abs(float64(c0)/1e5-m.Weights[0]) > 0.01 {
			t.Fatal("hidden frequencies off")
		}
		// posteriors and log-likelihood
		ll, err := m.LogLikelihood(context.Background(), x, &Options{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		ll1, _ := m.LogLikelihood(context.Background(), x, &Options{Workers: 1})
		if ll != ll1 {
			t.Fatal("log-likelihood depends on workers")
		}
		var want float64
		y := make([]int, 6)
		for i := range x.n {
			want += m.LogProb(x.Row(i, y))
		}
		if math.Abs(ll-want) > 1e-9*math.Abs(want) {
			t.Fatal(ll, want)
		}
		post, _ := m.Posteriors(context.Background(), x.Subset([]int{0, 1, 2}), &Options{})
		for i := range 3 {
			q := m.Posterior(x.Row(i, y), nil)
			if e := maxDiff(q, post.RawRow(i)); e > 1e-12 || math.Abs(q[0]+q[1]-1) > 1e-12 {
				t.Fatal("posteriors differ")
			}
		}
	}
}

func TestChowLiuExact(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	m := randomTreeMixture(r, 9, 3, 1, GenOptions{})
	m.Nets[0] = withoutIsolation(r, m.Nets[0], 3)
	single := make([][]float64, 9)
	for v := range single {
		single[v] = m.Marginal([]int{v}).P
	}
	net := ChowLiu(3, single, func(a, b int) *Table { return m.Marginal([]int{a, b}) })
	if !net.Graph().Equal(m.Nets[0].Graph()) {
		t.Fatalf("Chow-Liu tree %v, want %v", net.Graph(), m.Nets[0].Graph())
	}
	got := &Mixture{States: 3, Weights: []float64{1}, Nets: []*Net{net}}
	for _, vars := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8}} {
		if e := maxDiff(got.Marginal(vars).P, m.Marginal(vars).P); e > 1e-14 {
			t.Fatalf("Chow-Liu model differs by %g", e)
		}
	}
}

// withoutIsolation attaches every isolated node of a forest to node
// (v+1) mod p with a random table.
func withoutIsolation(r *rand.Rand, n *Net, d int) *Net {
	g := n.Graph()
	for v := range n.Parents {
		if g.Degree(v) == 0 {
			u := (v + 1) % len(n.Parents)
			n.Parents[v] = []int{u}
			n.CPT[v] = randomRows(r, d, d, GenOptions{})
		}
	}
	return n
}

func TestSeparator(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		n := 4 + r.IntN(6)
		g := NewGraph(n)
		for u := range n {
			for v := u + 1; v < n; v++ {
				if r.Float64() < 0.35 {
					g.Add(u, v)
				}
			}
		}
		perm := r.Perm(n)
		a := perm[:1+r.IntN(2)]
		c := perm[len(perm)-1]
		excl := []int{}
		if r.IntN(2) == 0 {
			excl = append(excl, perm[len(perm)-2])
		}
		sep, ok := g.separator(a, c, excl, n)
		best := bruteSeparator(g, a, c, excl)
		if ok != (best >= 0) || (ok && len(sep) != best) {
			t.Fatalf("trial %d: separator %v ok=%v, brute force size %d; graph %v a=%v c=%d excl=%v", trial, sep, ok, best, g, a, c, excl)
		}
		if ok && !separates(g, a, c, sep, excl) {
			t.Fatalf("trial %d: %v does not separate", trial, sep)
		}
	}
}

func separates(g *Graph, a []int, c int, sep, excl []int) bool {
	gone := make([]bool, g.n)
	for _, v := range sep {
		gone[v] = true
	}
	for _, v := range excl {
		gone[v] = true
	}
	seen := make([]bool, g.n)
	stack := slices.Clone(a)
	for _, v := range a {
		seen[v] = true
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v == c {
			return false
		}
		for _, u := range g.Neighbors(v) {
			if !seen[u] && !gone[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return true
}

func bruteSeparator(g *Graph, a []int, c int, excl []int) int {
	var cand []int
	for v := range g.n {
		if v != c && !slices.Contains(a, v) && !slices.Contains(excl, v) {
			cand = append(cand, v)
		}
	}
	for _, v := range a {
		if g.Has(v, c) {
			return -1
		}
	}
	best := -1
	for mask := 0; mask < 1<<len(cand); mask++ {
		var s []int
		for i, v := range cand {
			if mask>>i&1 == 1 {
				s = append(s, v)
			}
		}
		if (best < 0 || len(s) < best) && separates(g, a, c, s, excl) {
			best = len(s)
		}
	}
	return best
}

func TestEM(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	m := randomTreeMixture(r, 8, 3, 2, GenOptions{})
	x, _ := m.sample(rand.New(rand.NewPCG(15, 16)), 5000)
	init := randomStart(rand.New(rand.NewPCG(17, 18)), x, 2)
	ctx := context.Background()
	fit, res, err := LearnEM(ctx, x, init, &EMOptions{Options: Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// OnPass sees every pass, numbered from 1, with the value Trace
	// keeps and the gain over the previous pass (+Inf for the first).
	var passes []int
	var lls, changes []float64
	onPass := func(pass int, ll, change float64) {
		passes, lls, changes = append(passes, pass), append(lls, ll), append(changes, change)
	}
	fit3, res3, _ := LearnEM(ctx, x, init, &EMOptions{Options: Options{Workers: 3}, OnPass: onPass})
	if !slices.Equal(lls, res3.Trace) || len(passes) != res3.Iterations+1 {
		t.Fatalf("OnPass saw %v over %d passes, the trace is %v after %d iterations", lls, len(passes), res3.Trace, res3.Iterations)
	}
	for i, p := range passes {
		want := math.Inf(1)
		if i > 0 {
			want = lls[i] - lls[i-1]
		}
		if p != i+1 || changes[i] != want {
			t.Fatalf("pass %d: OnPass(%d, %v, %v), want number %d and change %v", i, p, lls[i], changes[i], i+1, want)
		}
	}
	if !res3.Converged || !(changes[len(changes)-1] < 1e-6) {
		t.Fatalf("converged %v with the last change %v (Tol 1e-6)", res3.Converged, changes[len(changes)-1])
	}
	if res.MeanLogLik != res3.MeanLogLik || !slices.Equal(fit.Weights, fit3.Weights) {
		t.Fatal("EM depends on the number of workers")
	}
	for i := 1; i < len(res.Trace); i++ {
		if res.Trace[i] < res.Trace[i-1]-1e-3 {
			t.Fatalf("log-likelihood fell: %v", res.Trace)
		}
	}
	truth, _ := m.LogLikelihood(ctx, x, &Options{})
	if res.MeanLogLik < truth/float64(x.n)-0.05 {
		t.Fatalf("EM reached %g, the true model has %g", res.MeanLogLik, truth/float64(x.n))
	}
	if err := fit.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestRandomStartK: k < 1 is a programmer error that RandomStart names
// (it used to panic in make with "len out of range", found by
// FuzzTreemixEM).
func TestRandomStartK(t *testing.T) {
	x := NewData(3, 2, 2)
	for _, k := range []int{0, -6} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "RandomStart: k = ") {
					t.Errorf("k = %d: panic %q", k, msg)
				}
			}()
			randomStart(rand.New(rand.NewPCG(1, 2)), x, k)
		}()
	}
}

// TestReadCSVBOM reads CSV files that start with a UTF-8 byte order
// mark: without a header the first sample must survive, with a header
// the first name must not carry the mark.
func TestReadCSVBOM(t *testing.T) {
	x, err := ReadCSV(strings.NewReader("\ufeff0,1\n1,1\n"), &CSVOptions{})
	if n, _, _ := x.Dims(); err != nil || x.Names != nil || n != 2 || !slices.Equal(x.Row(0, nil), []int{0, 1}) {
		t.Fatalf("no header: %v %v", x, err)
	}
	x, err = ReadCSV(strings.NewReader("\ufeffA,B\n0,1\n"), &CSVOptions{})
	if n, _, _ := x.Dims(); err != nil || !slices.Equal(x.Names, []string{"A", "B"}) || n != 1 {
		t.Fatalf("header: %q %v", x.Names, err)
	}
}

// TestSeeded: the seeded public generators and samplers are their
// generator-taking versions on the documented streams, and the same seed
// gives the same bits.
func TestSeeded(t *testing.T) {
	m := RandomTreeMixture(6, 3, 2, &GenOptions{Seed: 9})
	if m2 := randomTreeMixture(rand.New(rand.NewPCG(9, genStream)), 6, 3, 2, GenOptions{Seed: 9}); !reflect.DeepEqual(m, m2) {
		t.Fatal("RandomTreeMixture differs from randomTreeMixture on its stream")
	}
	if g1, g2 := RandomGraphMixture(6, 3, 2, 3, 2, &GenOptions{Seed: 4}), RandomGraphMixture(6, 3, 2, 3, 2, &GenOptions{Seed: 4}); !reflect.DeepEqual(g1, g2) {
		t.Fatal("RandomGraphMixture: same seed, different mixtures")
	}
	x, h := m.Sample(500, 3)
	y, h2 := m.sample(rand.New(rand.NewPCG(3, sampleStream)), 500)
	if !reflect.DeepEqual(x, y) || !reflect.DeepEqual(h, h2) {
		t.Fatal("Sample differs from sample on its stream")
	}
	a, b := x.Split(0.7, 5)
	c, d := x.split(rand.New(rand.NewPCG(5, splitStream)), 0.7)
	if !reflect.DeepEqual(a, c) || !reflect.DeepEqual(b, d) || a.n != 350 {
		t.Fatal("Split differs from split on its stream, or has the wrong size")
	}
	if s1, s2 := RandomStart(x, 2, 8), randomStart(rand.New(rand.NewPCG(8, startStream)), x, 2); !reflect.DeepEqual(s1, s2) {
		t.Fatal("RandomStart differs from randomStart on its stream")
	}
}

// TestCountOneChunk: data of one chunk count like any other: every table
// sums to N and matches a direct count.
func TestCountOneChunk(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	for _, n := range []int{1, 300, 512} {
		x := randomData(r, n, 4, 3)
		sets := [][]int{{0}, {0, 1}, {2, 3, 1}}
		tabs, err := Count(context.Background(), x, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range sets {
			want := NewTable(s, 3)
			y := make([]int, 4)
			idx := make([]int, len(s))
			for row := range n {
				x.Row(row, y)
				for j, v := range s {
					idx[j] = y[v]
				}
				want.P[want.Index(idx...)]++
			}
			if !slices.Equal(tabs[i].P, want.P) || tabs[i].Sum() != float64(n) {
				t.Fatalf("n = %d, set %v: %v, want %v", n, s, tabs[i].P, want.P)
			}
		}
	}
}
