package simplex

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPresolveReductions: small problems where each reduction applies,
// solved with and without presolve by both methods: the same status and
// objective (1e-9 relative) and, when optimal, a primal and dual
// solution of the original problem that passes kkt within 1e-9 and a
// basis that starts a warm solve needing no iteration. The singleton
// rows hold their columns at the optimum, so postsolve must give those
// rows the columns' reduced costs; the forcing rows need a dual that
// keeps the reduced costs of all their columns of the right sign (or
// zero when none needs one); the doubleton cases cover both
// postsolve rules (the substituted column basic, or nonbasic at the
// bound that held the kept column), bounds that meet (the reduced
// cost's sign says which side holds), maximisation, a substitution that
// fills in and makes the next row a doubleton, and bounds that cross.
func TestPresolveReductions(t *testing.T) {
	ninf := math.Inf(-1)
	cases := []struct {
		name string
		p    *Problem
		want Status
	}{
		{"singleton rows hold the optimum", denseProblem([]float64{-1, -2, 1},
			[][]float64{{2, 0, 0}, {0, -1, 0}, {1, 1, 1}, {0, 0, 3}},
			[]float64{ninf, -5, ninf, 1}, []float64{4, inf, 10, inf},
			[]float64{0, 0, 0}, []float64{inf, inf, inf}), Optimal},
		{"fixed and empty columns, empty row", denseProblem([]float64{1, -1, 2, 3, 0},
			[][]float64{{1, 1, 1, 0, 0}, {1, 0, -1, 0, 0}, {0, 0, 0, 0, 0}},
			[]float64{1, ninf, -1}, []float64{6, 2, 1},
			[]float64{0, 0, 1.5, -2, -1}, []float64{inf, 4, 1.5, 5, 1}), Optimal},
		{"redundant row", denseProblem([]float64{-1, -1},
			[][]float64{{1, 1}, {1, -1}, {1, 0}},
			[]float64{ninf, ninf, ninf}, []float64{3, 10, 2},
			[]float64{0, 0}, []float64{2, 2}), Optimal},
		{"maximise with singleton rows", func() *Problem {
			p := denseProblem([]float64{3, 1},
				[][]float64{{1, 0}, {0, 2}, {1, 1}},
				[]float64{ninf, ninf, ninf}, []float64{2, 3, 3},
				[]float64{0, 0}, []float64{inf, inf})
			p.Maximize = true
			return p
		}(), Optimal},
		{"doubleton whose kept column a later round fixes", denseProblem([]float64{-2, -1},
			[][]float64{{-1, 2}, {-2, 3}},
			[]float64{1, 0}, []float64{1, 0},
			[]float64{ninf, ninf}, []float64{inf, 2}), Optimal},
		{"empty row out of its limits", denseProblem([]float64{1, 1},
			[][]float64{{1, 1}, {0, 0}},
			[]float64{0, 1}, []float64{5, 2},
			[]float64{0, 0}, []float64{1, 1}), Infeasible},
		{"crossing singleton rows", denseProblem([]float64{1, 1},
			[][]float64{{1, 0}, {2, 0}, {1, 1}},
			[]float64{3, ninf, 0}, []float64{inf, 4, 10},
			[]float64{0, 0}, []float64{inf, inf}), Infeasible},
		{"activity range", denseProblem([]float64{1, 1, 1},
			[][]float64{{1, 1, 1}, {1, -1, 0}},
			[]float64{7, ninf}, []float64{inf, 1},
			[]float64{0, 0, 0}, []float64{2, 2, 2}), Infeasible},
		// Forcing rows (row 0 in each).
		{"forcing row at its upper limit holds the optimum", denseProblem([]float64{-1, -2, 1},
			[][]float64{{1, 1, 0}, {1, 1, 1}, {-1, 0, 1}},
			[]float64{ninf, 1, ninf}, []float64{0, inf, 5},
			[]float64{0, 0, 0}, []float64{inf, inf, inf}), Optimal},
		{"forcing row with a zero dual", denseProblem([]float64{1, 2, 1},
			[][]float64{{1, 1, 0}, {1, 1, 1}, {1, 0, -1}},
			[]float64{ninf, 1, ninf}, []float64{-3, inf, 5},
			[]float64{-3, 0, 0}, []float64{4, 4, inf}), Optimal},
		{"forcing equality at its lower limit", denseProblem([]float64{1, -1, 1},
			[][]float64{{1, 2, 0}, {1, 1, 1}, {0, 1, -1}},
			[]float64{6, 2, ninf}, []float64{6, 10, 3},
			[]float64{0, 0, 0}, []float64{2, 2, inf}), Optimal},
		{"maximise, forcing row at its lower limit", func() *Problem {
			p := denseProblem([]float64{1, 3, -1},
				[][]float64{{1, -1, 0}, {1, 1, 1}, {0, 1, 1}},
				[]float64{4, ninf, 1}, []float64{inf, 10, inf},
				[]float64{0, -2, 0}, []float64{2, 5, inf})
			p.Maximize = true
			return p
		}(), Optimal},
		// Doubleton equations (row 0 in each).
		{"doubleton, substituted column basic", denseProblem([]float64{-1, -1, 1},
			[][]float64{{1, 2, 0}, {1, 1, 1}, {1, 0, -1}},
			[]float64{4, ninf, -1}, []float64{4, 3, inf},
			[]float64{0, 0, 0}, []float64{inf, inf, inf}), Optimal},
		{"doubleton, kept column at a bound of the other", denseProblem([]float64{1, 0, 1},
			[][]float64{{1, -1, 0}, {1, 0, 1}},
			[]float64{0, 1}, []float64{0, inf},
			[]float64{0, 2, 0}, []float64{10, 5, inf}), Optimal},
		// (Bounds that meet make the row forcing, unless a bound came
		// from a singleton row, as x0 >= 2 here.)
		{"doubleton, bounds meet, the other's holds", denseProblem([]float64{-1, 0, 1},
			[][]float64{{1, 1, 0}, {1, 0, 1}, {1, 0, 0}},
			[]float64{3, ninf, 2}, []float64{3, 10, inf},
			[]float64{0, 1, 0}, []float64{5, 4, inf}), Optimal},
		{"doubleton, bounds meet, its own holds", denseProblem([]float64{1, 0, 1},
			[][]float64{{1, 1, 0}, {1, 0, 1}, {1, 0, 0}},
			[]float64{3, ninf, 2}, []float64{3, 10, inf},
			[]float64{0, 1, 0}, []float64{5, 4, inf}), Optimal},
		{"maximise, chained doubletons with fill", func() *Problem {
			p := denseProblem([]float64{1, 2, -1, 1},
				[][]float64{{1, 1, 0, 0}, {0, 1, -2, 0}, {1, 0, 1, 1}, {0, 1, 0, 1}},
				[]float64{2, 1, ninf, ninf}, []float64{2, 1, 4, 3},
				[]float64{0, -1, ninf, 0}, []float64{3, 3, inf, inf})
			p.Maximize = true
			return p
		}(), Optimal},
		{"doubleton with crossing bounds", denseProblem([]float64{1, 1, 1},
			[][]float64{{1, 1, 0}, {1, 0, 1}},
			[]float64{10, 0}, []float64{10, 5},
			[]float64{0, 0, 0}, []float64{3, 4, 1}), Infeasible},
	}
	for _, c := range cases {
		if ps := presolve(c.p); ps == nil && presolveDoubletons(c.p) == nil {
			t.Fatalf("%s: presolve reduced nothing", c.name)
		}
		var objs []float64
		for _, meth := range []Method{Dual, Primal} {
			for _, off := range []bool{false, true} {
				res, err := Solve(context.Background(), c.p, &Options{Method: meth, NoPresolve: off})
				if res == nil || res.Status != c.want || (err == nil) != (c.want == Optimal) || (err != nil && !errors.Is(err, c.want.Err())) {
					t.Fatalf("%s %v presolve off %v: %v, %v; want %v", c.name, meth, off, res, err, c.want)
				}
				if c.want != Optimal {
					continue
				}
				if rep := kkt(c.p, res, 1e-9); rep.primal > 1e-9 || rep.dual > 1e-9 || rep.gap > 1e-9 {
					t.Fatalf("%s %v presolve off %v: not optimal: %v", c.name, meth, off, rep)
				}
				objs = append(objs, res.Objective)
				// The basis is one of the original problem: it starts
				// a warm solve that needs no iteration.
				warm, err := Solve(context.Background(), c.p, &Options{Basis: res.Basis})
				if err != nil || warm.Iterations != 0 {
					t.Fatalf("%s %v presolve off %v: warm start from the basis: %v after %d iterations", c.name, meth, off, err, warm.Iterations)
				}
			}
		}
		for k := 1; k < len(objs); k++ {
			if o := objs[k]; math.Abs(o-objs[0]) > 1e-9*(1+math.Abs(objs[0])) {
				t.Fatalf("%s: objectives %v", c.name, objs)
			}
		}
	}
}

// TestPresolveNetlib: every NETLIB problem gives the same status and the
// same optimum (1e-9 relative) with presolve and without, and presolve's
// solution passes kkt within 1e-6 (TestNetlib checks the default, with
// presolve, against the reference values).
func TestPresolveNetlib(t *testing.T) {
	for _, ref := range netlibRef {
		if ref.big && testing.Short() {
			continue
		}
		p := readNetlib(t, ref.name)
		with, err1 := Solve(context.Background(), p, nil)
		without, err2 := Solve(context.Background(), p, &Options{NoPresolve: true})
		if with.Status != without.Status || (err1 == nil) != (err2 == nil) {
			t.Fatalf("%s: %v with presolve, %v without", ref.name, with.Status, without.Status)
		}
		if with.Status != Optimal {
			continue
		}
		if d := math.Abs(with.Objective - without.Objective); d > 1e-9*math.Max(1, math.Abs(without.Objective)) {
			t.Errorf("%s: objective %.12e with presolve, %.12e without", ref.name, with.Objective, without.Objective)
		}
		if rep := kkt(p, with, 1e-9); rep.primal > 1e-6 || rep.dual > 1e-6 || rep.gap > 1e-6 {
			t.Errorf("%s: not optimal after postsolve: %v", ref.name, rep)
		}
	}
}

// infeasibleSet are NETLIB infeasible problems looked for in the
// project's shared data (../../shared/data/netlib from the package, as
// the repository sits beside shared/); those absent are skipped.
var infeasibleSet = []string{"woodinfe", "ceria3d", "gran", "gosh", "pilot4i", "cplex1"}

// TestInfeasibleSet: every infeasible problem found is Infeasible with
// both methods, with presolve and without.
func TestInfeasibleSet(t *testing.T) {
	found := 0
	for _, name := range infeasibleSet {
		path := filepath.Join("..", "..", "shared", "data", "netlib", name+".mps")
		f, err := os.Open(path)
		if err != nil {
			path = filepath.Join(netlibDir, name+".mps")
			if f, err = os.Open(path); err != nil {
				continue
			}
		}
		p, err := ReadMPS(f, nil)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found++
		for _, meth := range []Method{Dual, Primal} {
			for _, off := range []bool{false, true} {
				res, err := Solve(context.Background(), p, &Options{Method: meth, NoPresolve: off})
				if !errors.Is(err, ErrInfeasible) || res.Status != Infeasible {
					t.Fatalf("%s %v presolve off %v: %v, %v", name, meth, off, res.Status, err)
				}
				var by string
				for _, e := range res.Events {
					if strings.HasPrefix(e, "presolve: infeasible") {
						by = " (" + e + ")"
					}
				}
				t.Logf("%s %v presolve off %v: infeasible after %d iterations%s", name, meth, off, res.Iterations, by)
			}
		}
	}
	if found == 0 {
		t.Fatal("no infeasible problem found")
	}
}

// TestPresolveZeroCostLeft: a problem whose objective is the first
// equation's left side. The presolve substitutes both equations (doubleton
// equations) into the objective, which leaves x2 on no row with a cost
// that is zero in exact arithmetic and a rounding error here; the rest of
// the solve must take it as zero (Optimal, objective 300, as without the
// presolve), not as an unbounded ray along which the objective does not
// move. FuzzSolve found it.
func TestPresolveZeroCostLeft(t *testing.T) {
	inf := math.Inf(1)
	p := denseProblem([]float64{10, 12, 12, 12, 12, 12},
		[][]float64{{10, 12, 12, 12, 0, 0}, {12, 12, 22, 0, 0, 0}},
		[]float64{12, 12}, []float64{12, 12},
		[]float64{-inf, 12, 12, 12, 12, 12}, []float64{12, 12, inf, inf, 12, 12})
	p.Maximize = true
	for _, o := range []Options{{}, {Method: Primal}, {NoPerturbation: true}, {NoPresolve: true}} {
		res, err := Solve(context.Background(), p, &o)
		if err != nil || res.Status != Optimal {
			t.Fatalf("%+v: status %v, err %v, want Optimal", o, res.Status, err)
		}
		if math.Abs(res.Objective-300) > 1e-12*300 {
			t.Fatalf("%+v: objective %v, want 300", o, res.Objective)
		}
	}
}
