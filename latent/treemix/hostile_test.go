package treemix

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// learnAll runs Learn and EM (from a random start) on x with r
// components, turning a panic into a test failure.
func learnAll(t *testing.T, name string, x *Data, r int) (learnErr, emErr error) {
	t.Helper()
	defer func() {
		if v := recover(); v != nil {
			t.Fatalf("%s, r = %d: panic %v", name, r, v)
		}
	}()
	_, _, learnErr = Learn(context.Background(), Empirical(x, &Options{}), r, &LearnOptions{})
	_, _, emErr = LearnEM(context.Background(), x, randomStart(rand.New(rand.NewPCG(1, 1)), x, r), &EMOptions{})
	return
}

// TestDegenerateShapes: a one-column CSV used to give an index out of
// range in Learn. One column, zero rows, one row and constant columns
// must give clear errors (or, for EM, a model), never a panic.
func TestDegenerateShapes(t *testing.T) {
	x, err := ReadCSV(strings.NewReader("0\n1\n2\n1\n2\n0\n"), &CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	le, ee := learnAll(t, "one column", x, 1)
	if !errors.Is(le, ErrBadData) || !strings.Contains(le.Error(), "1 variables; the spectral decomposition needs at least 3") || ee != nil {
		t.Errorf("one column: Learn %v, EM %v", le, ee)
	}
	le, _ = learnAll(t, "two columns", mustRows(t, 3, [][]int{{0, 1}, {1, 2}, {2, 0}}), 1)
	if !errors.Is(le, ErrBadData) {
		t.Errorf("two columns: Learn %v", le)
	}
	for _, p := range []int{0, 1, 4} {
		le, ee := learnAll(t, "zero rows", NewData(0, p, 3), 2)
		if !errors.Is(le, ErrBadData) || !errors.Is(ee, ErrBadData) {
			t.Errorf("zero rows, %d columns: Learn %v, EM %v", p, le, ee)
		}
	}
	if _, err := ReadCSV(strings.NewReader("a,b,c\n"), &CSVOptions{}); !errors.Is(err, ErrBadData) {
		t.Errorf("header only: %v", err)
	}
	le, ee = learnAll(t, "one row", mustRows(t, 3, [][]int{{0, 1, 2, 1}}), 2)
	if le == nil || ee != nil {
		t.Errorf("one row: Learn %v, EM %v", le, ee)
	}
	// A constant column among others, and all columns constant.
	r := rand.New(rand.NewPCG(3, 3))
	rows := make([][]int, 200)
	for i := range rows {
		rows[i] = []int{r.IntN(3), 0, r.IntN(3), r.IntN(3)}
	}
	// (any outcome but a panic will do: Learn finds a model, EM stops at
	// its cap)
	le, ee = learnAll(t, "constant column", mustRows(t, 3, rows), 2)
	t.Logf("a constant column: Learn %v, EM %v", le, ee)
	x, err = ReadCSV(strings.NewReader("0,0,0\n0,0,0\n"), &CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if le, _ = learnAll(t, "all constant", x, 1); !errors.Is(le, ErrFewStates) {
		t.Errorf("all constant: Learn %v", le)
	}
}

func mustRows(t *testing.T, d int, rows [][]int) *Data {
	t.Helper()
	x, err := FromRows(d, rows)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestBadOptions: NaN, infinite or negative option values are errors
// naming the option.
func TestBadOptions(t *testing.T) {
	ctx := context.Background()
	x := mustRows(t, 3, [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 0, 0}})
	src := Empirical(x, &Options{})
	nan := math.NaN()
	for _, c := range []struct {
		o    RankOptions
		want string
	}{
		{RankOptions{Xi: nan}, "RankOptions.Xi = NaN"},
		{RankOptions{XiScale: -1}, "RankOptions.XiScale = -1"},
		{RankOptions{MinCount: math.Inf(1)}, "RankOptions.MinCount = +Inf"},
	} {
		if _, err := LearnUnionGraph(ctx, src, 2, &c.o); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LearnUnionGraph %q: %v", c.want, err)
		}
	}
	if _, err := LearnComponents(ctx, src, CompleteGraph(3), 2, &SpectralOptions{MinCount: nan}); !errors.Is(err, ErrBadOption) {
		t.Errorf("LearnComponents with a NaN MinCount: %v", err)
	}
	if _, _, err := Learn(ctx, src, 2, &LearnOptions{Spectral: SpectralOptions{MaxSeparator: -1}}); !errors.Is(err, ErrBadOption) {
		t.Errorf("Learn with MaxSeparator -1: %v", err)
	}
	start := randomStart(rand.New(rand.NewPCG(1, 1)), x, 2)
	for _, o := range []EMOptions{{Tol: nan}, {Prior: math.Inf(1)}, {MaxIter: -1}} {
		if _, _, err := LearnEM(ctx, x, start, &o); !errors.Is(err, ErrBadOption) {
			t.Errorf("EM %+v: %v", o, err)
		}
	}
	m := randomGraphMixture(rand.New(rand.NewPCG(1, 99)), 16, 3, 2, 2, 2, GenOptions{})
	_, rep, err := Learn(ctx, Exact(m), 2, &LearnOptions{Rank: RankOptions{Eta: 4, Candidates: -1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []MarkovOptions{{Threshold: nan}, {MinMass: 2}, {Statistic: 7}, {MaxNeighborhood: -1}} {
		if _, _, err := rep.Components.MarkovGraphs(ctx, &o); !errors.Is(err, ErrBadOption) {
			t.Errorf("MarkovGraphs %+v: %v", o, err)
		}
	}
	// r < 1 and a reference node out of range are bad arguments.
	if _, err := LearnUnionGraph(ctx, src, 0, nil); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "r = 0") {
		t.Errorf("LearnUnionGraph with r = 0: %v", err)
	}
	if _, err := LearnComponents(ctx, src, CompleteGraph(3), 0, nil); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "r = 0") {
		t.Errorf("LearnComponents with r = 0: %v", err)
	}
	if _, err := LearnComponents(ctx, src, NewGraph(3), 2, &SpectralOptions{Reference: []int{3}}); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "SpectralOptions.Reference: node 3") {
		t.Errorf("LearnComponents with reference node 3 of 3 variables: %v", err)
	}
	// A negative Workers is refused wherever Options are checked (it
	// used to mean GOMAXPROCS, silently).
	neg := Options{Workers: -1}
	const wantWorkers = "Options.Workers = -1"
	for name, err := range map[string]error{
		"LearnUnionGraph": func() error { _, err := LearnUnionGraph(ctx, src, 2, &RankOptions{Options: neg}); return err }(),
		"LearnComponents": func() error {
			_, err := LearnComponents(ctx, src, NewGraph(3), 2, &SpectralOptions{Options: neg})
			return err
		}(),
		"Learn":         func() error { _, _, err := Learn(ctx, src, 2, &LearnOptions{Options: neg}); return err }(),
		"LearnEM":       func() error { _, _, err := LearnEM(ctx, x, start, &EMOptions{Options: neg}); return err }(),
		"Count":         func() error { _, err := Count(ctx, x, [][]int{{0}}, &neg); return err }(),
		"Empirical":     func() error { _, err := Empirical(x, &neg).Joints(ctx, [][]int{{0}}); return err }(),
		"LogLikelihood": func() error { _, err := start.LogLikelihood(ctx, x, &neg); return err }(),
		"Posteriors":    func() error { _, err := start.Posteriors(ctx, x, &neg); return err }(),
	} {
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), wantWorkers) {
			t.Errorf("%s with Workers -1: %v", name, err)
		}
	}
	// A weight floor above 1/k would make the generator loop forever.
	func() {
		defer func() {
			if v := recover(); v == nil || !strings.Contains(v.(string), "GenOptions.MinWeight = 0.6") {
				t.Errorf("RandomTreeMixture with MinWeight 0.6 for 2 components: %v", v)
			}
		}()
		randomTreeMixture(rand.New(rand.NewPCG(2, 2)), 5, 3, 2, GenOptions{MinWeight: 0.6})
	}()
}

// TestExactNaN: the exact tables of a mixture with a NaN weight are an
// error, not NaN tables fed to the learners.
func TestExactNaN(t *testing.T) {
	m := randomTreeMixture(rand.New(rand.NewPCG(2, 2)), 5, 3, 2, GenOptions{})
	m.Weights[0] = math.NaN()
	if _, _, err := Learn(context.Background(), Exact(m), 2, &LearnOptions{}); !errors.Is(err, ErrBadData) {
		t.Fatalf("Learn on a mixture with a NaN weight: %v", err)
	}
}

// TestInvalidMixture: every way a Mixture can fail Validate is an error
// matching ErrBadData, from Validate, from LearnEM (which returns it as
// is) and from the tables of Exact.
func TestInvalidMixture(t *testing.T) {
	ctx := context.Background()
	x := mustRows(t, 3, [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 0, 0}})
	for _, c := range []struct {
		name  string
		spoil func(m *Mixture)
		want  string
	}{
		{"no states", func(m *Mixture) { m.States = 0 }, "0 states"},
		{"a weight too few", func(m *Mixture) { m.Weights = m.Weights[:1] }, "1 weights for 2 networks"},
		{"a NaN weight", func(m *Mixture) { m.Weights[0] = math.NaN() }, "weights: entry NaN"},
		{"weights not summing to 1", func(m *Mixture) { m.Weights[0] += 0.1 }, "weights: entries sum to"},
		{"a node short", func(m *Mixture) { m.Nets[1].CPT = m.Nets[1].CPT[:2] }, "network 1 has 3 nodes and 2 tables"},
		{"a parent out of range", func(m *Mixture) { m.Nets[0].Parents[1] = []int{5} }, "node 1 has parent 5"},
		{"a node its own parent", func(m *Mixture) { m.Nets[0].Parents[2] = []int{2} }, "node 2 has parent 2"},
		{"a cycle", func(m *Mixture) {
			m.Nets[0].Parents[1], m.Nets[0].Parents[2] = []int{2}, []int{1}
		}, "form a cycle"},
		{"a table too short", func(m *Mixture) { m.Nets[0].CPT[0] = m.Nets[0].CPT[0][:2] }, "table of node 0 has 2 entries, want 3"},
		{"a negative entry", func(m *Mixture) { m.Nets[1].CPT[2][0] = -0.5 }, "network 1, node 2: entry -0.5"},
	} {
		m := RandomStart(x, 2, 1)
		if err := m.Validate(); err != nil {
			t.Fatalf("the random start fails Validate: %v", err)
		}
		c.spoil(m)
		err := m.Validate()
		if !errors.Is(err, ErrBadData) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate gives %v, want ErrBadData with %q", c.name, err, c.want)
		}
		if _, _, err := LearnEM(ctx, x, m, nil); !errors.Is(err, ErrBadData) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: LearnEM gives %v, want ErrBadData with %q", c.name, err, c.want)
		}
		if _, err := Exact(m).Joints(ctx, [][]int{{0}}); !errors.Is(err, ErrBadData) {
			t.Errorf("%s: Exact gives %v, want ErrBadData", c.name, err)
		}
	}
}
