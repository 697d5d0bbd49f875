package simplex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

var inf = math.Inf(1)

// denseProblem builds a Problem from dense rows.
func denseProblem(c []float64, a [][]float64, rl, ru, cl, cu []float64) *Problem {
	m, n := len(a), len(c)
	p := &Problem{Obj: c, RowLower: rl, RowUpper: ru, ColLower: cl, ColUpper: cu,
		A: Sparse{Rows: m, Cols: n, ColStart: make([]int, n+1)}}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if a[i][j] != 0 {
				p.A.RowIndex = append(p.A.RowIndex, i)
				p.A.Value = append(p.A.Value, a[i][j])
			}
		}
		p.A.ColStart[j+1] = len(p.A.RowIndex)
	}
	return p
}

func rep(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

var methods = []struct {
	name string
	opts Options
}{
	{"dual", Options{}},
	{"dual-noscale-nopert", Options{NoScaling: true, NoPerturbation: true}},
	{"primal", Options{Method: Primal}},
}

// solveAll solves p with every method and checks the status, the
// objective (when optimal) and the optimality conditions.
func solveAll(t *testing.T, p *Problem, want Status, obj float64) {
	t.Helper()
	for _, m := range methods {
		o := m.opts
		res, err := Solve(context.Background(), p, &o)
		if res == nil {
			t.Fatalf("%s: no result, err %v", m.name, err)
		}
		if res.Status != want {
			t.Fatalf("%s: status %v (err %v), want %v", m.name, res.Status, err, want)
		}
		if (err == nil) != (want == Optimal) || (err != nil && !errors.Is(err, want.Err())) {
			t.Fatalf("%s: status %v with error %v", m.name, res.Status, err)
		}
		switch want {
		case Optimal:
			if math.Abs(res.Objective-obj) > 1e-9*(1+math.Abs(obj)) {
				t.Fatalf("%s: objective %.15g, want %.15g", m.name, res.Objective, obj)
			}
			if r := kkt(p, res, 1e-9); r.primal > 1e-9 || r.dual > 1e-9 || r.gap > 1e-9 {
				t.Fatalf("%s: not optimal: %v", m.name, r)
			}
		case Unbounded:
			checkRay(t, m.name, p, res.Ray)
		}
	}
}

// checkRay verifies that r is a direction of unboundedness of p.
func checkRay(t *testing.T, name string, p *Problem, r []float64) {
	t.Helper()
	if r == nil {
		t.Fatalf("%s: unbounded without a ray", name)
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	var cr, scale float64
	for j, v := range r {
		cr += sign * p.Obj[j] * v
		scale = math.Max(scale, math.Abs(v))
		if (p.ColLower[j] > -inf && v < -1e-9*scale) || (p.ColUpper[j] < inf && v > 1e-9*scale) {
			t.Fatalf("%s: ray leaves the bounds of column %d: %g", name, j, v)
		}
	}
	if !(cr < 0) {
		t.Fatalf("%s: ray does not decrease the objective: c^T r = %g", name, cr)
	}
	ar := p.A.MulVec(r)
	for i, v := range ar {
		if (p.RowLower[i] > -inf && v < -1e-9*scale) || (p.RowUpper[i] < inf && v > 1e-9*scale) {
			t.Fatalf("%s: ray leaves row %d: %g", name, i, v)
		}
	}
}

func TestBeale(t *testing.T) {
	// Beale's example, which cycles under Dantzig's rule with the
	// textbook ratio test.
	p := denseProblem(
		[]float64{-0.75, 20, -0.5, 6},
		[][]float64{{0.25, -8, -1, 9}, {0.5, -12, -0.5, 3}, {0, 0, 1, 0}},
		rep(-inf, 3), []float64{0, 0, 1}, rep(0, 4), rep(inf, 4))
	solveAll(t, p, Optimal, -1.25)
}

func TestFreeVariables(t *testing.T) {
	p := denseProblem(
		[]float64{1, 2, -1},
		[][]float64{{1, 1, 1}, {1, -1, 0}, {0, 1, -1}},
		[]float64{2, -inf, 0.5}, []float64{inf, 1, 0.5},
		[]float64{-inf, -inf, -3}, []float64{inf, inf, 3})
	solveAll(t, p, Optimal, -0.5)
}

func TestRangesFixedMaximize(t *testing.T) {
	// max x + y + z, 1 <= x + y <= 3 (range), y - z = 0, z fixed at 0.5,
	// x in [0, 2].
	p := denseProblem(
		[]float64{1, 1, 1},
		[][]float64{{1, 1, 0}, {0, 1, -1}},
		[]float64{1, 0}, []float64{3, 0},
		[]float64{0, -inf, 0.5}, []float64{2, inf, 0.5})
	p.Maximize = true
	solveAll(t, p, Optimal, 3)
}

func TestUnbounded(t *testing.T) {
	// min -x1 s.t. x1 - x2 <= 1, x >= 0.
	p := denseProblem([]float64{-1, 0}, [][]float64{{1, -1}}, []float64{-inf}, []float64{1}, rep(0, 2), rep(inf, 2))
	solveAll(t, p, Unbounded, 0)
	// A free variable with a cost and no rows.
	p = denseProblem([]float64{1, 0}, [][]float64{}, nil, nil, []float64{-inf, 0}, []float64{inf, 1})
	p.RowLower, p.RowUpper = []float64{}, []float64{}
	solveAll(t, p, Unbounded, 0)
	// Maximising with an unbounded direction along a free variable.
	p = denseProblem([]float64{1, 1}, [][]float64{{1, -1}}, []float64{0}, []float64{0}, []float64{-inf, -inf}, []float64{inf, inf})
	p.Maximize = true
	solveAll(t, p, Unbounded, 0)
}

func TestInfeasible(t *testing.T) {
	// x1 + x2 <= 1 and x1 + x2 >= 2.
	p := denseProblem([]float64{1, 1}, [][]float64{{1, 1}, {1, 1}}, []float64{-inf, 2}, []float64{1, inf}, rep(0, 2), rep(inf, 2))
	solveAll(t, p, Infeasible, 0)
	// Through a bound: x in [0, 1], x >= 2.
	p = denseProblem([]float64{1}, [][]float64{{1}}, []float64{2}, []float64{inf}, []float64{0}, []float64{1})
	solveAll(t, p, Infeasible, 0)
	// Primal and dual infeasible: min -x1 - x2, x1 - x2 >= 1,
	// -x1 + x2 >= 1, x >= 0.
	p = denseProblem([]float64{-1, -1}, [][]float64{{1, -1}, {-1, 1}}, []float64{1, 1}, []float64{inf, inf}, rep(0, 2), rep(inf, 2))
	solveAll(t, p, Infeasible, 0)
}

func TestTrivial(t *testing.T) {
	// No rows.
	p := denseProblem([]float64{1, -1, 0}, [][]float64{}, nil, nil, []float64{-1, -2, -inf}, []float64{3, 4, inf})
	p.RowLower, p.RowUpper = []float64{}, []float64{}
	solveAll(t, p, Optimal, -5)
	res, _ := Solve(context.Background(), p, nil)
	if b := res.Basis; b.Cols[0] != AtLower || b.Cols[1] != AtUpper || b.Cols[2] != AtZero {
		t.Errorf("basis without rows: %v", b.Cols)
	}
	// No columns: feasible and infeasible empty rows.
	p = &Problem{Obj: []float64{}, ColLower: []float64{}, ColUpper: []float64{},
		RowLower: []float64{-1, 0}, RowUpper: []float64{1, inf},
		A: Sparse{Rows: 2, Cols: 0, ColStart: []int{0}}}
	solveAll(t, p, Optimal, 0)
	p.RowLower[1] = 1
	solveAll(t, p, Infeasible, 0)
}

func TestAssignment(t *testing.T) {
	// Assignment problems are very degenerate; compare with brute force.
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{2, 4, 6} {
		cost := make([][]float64, n)
		for i := range cost {
			cost[i] = make([]float64, n)
			for j := range cost[i] {
				cost[i][j] = float64(r.IntN(5)) // many ties
			}
		}
		c := make([]float64, n*n)
		a := make([][]float64, 2*n)
		for i := range a {
			a[i] = make([]float64, n*n)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				c[i*n+j] = cost[i][j]
				a[i][i*n+j] = 1
				a[n+j][i*n+j] = 1
			}
		}
		p := denseProblem(c, a, rep(1, 2*n), rep(1, 2*n), rep(0, n*n), rep(inf, n*n))
		best := math.Inf(1)
		var perm func(k int, used []bool, s float64)
		perm = func(k int, used []bool, s float64) {
			if k == n {
				best = math.Min(best, s)
				return
			}
			for j := 0; j < n; j++ {
				if !used[j] {
					used[j] = true
					perm(k+1, used, s+cost[k][j])
					used[j] = false
				}
			}
		}
		perm(0, make([]bool, n), 0)
		solveAll(t, p, Optimal, best)
	}
}

// randomLP returns a random feasible LP with every kind of row and
// variable bound; bounded unless some variables are free or one-sided.
func randomLP(r *rand.Rand, m, n int, density float64, boxed bool) *Problem {
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			if r.Float64() < density {
				a[i][j] = math.Round(r.NormFloat64()*10) / 4
			}
		}
	}
	x0 := make([]float64, n)
	cl, cu := make([]float64, n), make([]float64, n)
	for j := range x0 {
		x0[j] = r.NormFloat64()
		switch k := r.IntN(6); {
		case boxed || k < 2:
			cl[j], cu[j] = x0[j]-r.Float64()*2, x0[j]+r.Float64()*2
		case k == 2:
			cl[j], cu[j] = x0[j]-r.Float64(), inf
		case k == 3:
			cl[j], cu[j] = -inf, x0[j]+r.Float64()
		case k == 4:
			cl[j], cu[j] = x0[j], x0[j]
		default:
			cl[j], cu[j] = -inf, inf
		}
	}
	rl, ru := make([]float64, m), make([]float64, m)
	for i := range a {
		var act float64
		for j := range x0 {
			act += a[i][j] * x0[j]
		}
		switch r.IntN(4) {
		case 0:
			rl[i], ru[i] = act, act
		case 1:
			rl[i], ru[i] = -inf, act+r.Float64()
		case 2:
			rl[i], ru[i] = act-r.Float64(), inf
		default:
			rl[i], ru[i] = act-r.Float64(), act+r.Float64()
		}
	}
	c := make([]float64, n)
	for j := range c {
		c[j] = math.Round(r.NormFloat64() * 8)
	}
	return denseProblem(c, a, rl, ru, cl, cu)
}

func TestRandomLP(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	counts := map[Status]int{}
	for trial := 0; trial < 300; trial++ {
		m, n := 1+r.IntN(25), 1+r.IntN(25)
		p := randomLP(r, m, n, 0.1+0.5*r.Float64(), trial%3 == 0)
		var ref *Result
		for _, meth := range methods {
			o := meth.opts
			res, err := Solve(context.Background(), p, &o)
			if res == nil {
				t.Fatalf("trial %d %s: %v", trial, meth.name, err)
			}
			switch res.Status {
			case Optimal:
				if rep := kkt(p, res, 1e-9); rep.primal > 1e-8 || rep.dual > 1e-8 || rep.gap > 1e-8 {
					t.Fatalf("trial %d %s: not optimal: %v", trial, meth.name, rep)
				}
			case Unbounded:
				checkRay(t, fmt.Sprintf("trial %d %s", trial, meth.name), p, res.Ray)
			default:
				t.Fatalf("trial %d %s: status %v (%v) on a feasible problem", trial, meth.name, res.Status, err)
			}
			if ref == nil {
				ref = res
				counts[res.Status]++
				continue
			}
			if res.Status != ref.Status {
				t.Fatalf("trial %d: %s says %v, dual says %v", trial, meth.name, res.Status, ref.Status)
			}
			if res.Status == Optimal && math.Abs(res.Objective-ref.Objective) > 1e-8*(1+math.Abs(ref.Objective)) {
				t.Fatalf("trial %d: %s objective %.12g, dual %.12g", trial, meth.name, res.Objective, ref.Objective)
			}
		}
	}
	t.Logf("statuses: %v", counts)
}

func TestWarmStart(t *testing.T) {
	p := readNetlib(t, "scrs8")
	res, err := Solve(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Same problem: the optimal basis is optimal at once.
	res2, err := Solve(context.Background(), p, &Options{Basis: res.Basis})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Iterations > 0 || math.Abs(res2.Objective-res.Objective) > 1e-9*math.Abs(res.Objective) {
		t.Errorf("warm start from the optimum: %d iterations, objective %g vs %g", res2.Iterations, res2.Objective, res.Objective)
	}
	// Perturbed costs: few iterations, same answer as a cold start.
	q := *p
	q.Obj = append([]float64(nil), p.Obj...)
	r := rand.New(rand.NewPCG(41, 42))
	for j := range q.Obj {
		q.Obj[j] *= 1 + 0.01*r.NormFloat64()
	}
	cold, err := Solve(context.Background(), &q, nil)
	if err != nil {
		t.Fatal(err)
	}
	warm, err := Solve(context.Background(), &q, &Options{Basis: res.Basis})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("perturbed costs: cold %d iterations, warm %d", cold.Iterations, warm.Iterations)
	if math.Abs(warm.Objective-cold.Objective) > 1e-8*math.Abs(cold.Objective) {
		t.Errorf("warm objective %.12g, cold %.12g", warm.Objective, cold.Objective)
	}
	if warm.Iterations >= cold.Iterations {
		t.Errorf("warm start took %d iterations, cold %d", warm.Iterations, cold.Iterations)
	}
	if rep := kkt(&q, warm, 1e-9); rep.primal > 1e-6 || rep.dual > 1e-6 || rep.gap > 1e-6 {
		t.Errorf("warm answer not optimal: %v", rep)
	}
	// A basis with too many basic columns is repaired.
	bad := &Basis{Cols: make([]VarStatus, p.NumCols()), Rows: make([]VarStatus, p.NumRows())}
	res3, err := Solve(context.Background(), p, &Options{Basis: bad})
	if err != nil || math.Abs(res3.Objective-res.Objective) > 1e-8*math.Abs(res.Objective) {
		t.Errorf("all-basic start: %v, objective %g", err, res3.Objective)
	}
}

func TestCancelAndLimit(t *testing.T) {
	p := readNetlib(t, "25fv47")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, p, nil)
	if !errors.Is(err, context.Canceled) || res.Status != Canceled {
		t.Errorf("cancelled: status %v, err %v", res.Status, err)
	}
	res, err = Solve(context.Background(), p, &Options{MaxIter: 50})
	if !errors.Is(err, ErrIterationLimit) || res.Status != IterationLimit || res.Iterations != 50 {
		t.Errorf("limit: status %v, err %v, %d iterations", res.Status, err, res.Iterations)
	}
}

// TestNilContext checks that Solve and L1MinBatch panic, with a message
// naming the function, on a nil context instead of running without one.
func TestNilContext(t *testing.T) {
	p := denseProblem([]float64{1, 2}, [][]float64{{1, 1}}, []float64{1}, []float64{inf}, rep(0, 2), rep(inf, 2))
	B := mat.Identity(2)
	cases := map[string]func(){
		"simplex: Solve: nil context":      func() { Solve(nil, p, nil) },
		"simplex: L1MinBatch: nil context": func() { L1MinBatch(nil, B, B, nil) },
	}
	for want, f := range cases {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); msg != want {
					t.Errorf("panic %v, want %q", r, want)
				}
			}()
			f()
		}()
	}
}

func TestInvalid(t *testing.T) {
	good := func() *Problem {
		return denseProblem([]float64{1, 2}, [][]float64{{1, 1}}, []float64{1}, []float64{inf}, rep(0, 2), rep(inf, 2))
	}
	cases := map[string]func(p *Problem){
		"NaN cost":         func(p *Problem) { p.Obj[0] = math.NaN() },
		"Inf cost":         func(p *Problem) { p.Obj[1] = inf },
		"NaN matrix":       func(p *Problem) { p.A.Value[0] = math.NaN() },
		"Inf matrix":       func(p *Problem) { p.A.Value[1] = -inf },
		"NaN bound":        func(p *Problem) { p.ColLower[0] = math.NaN() },
		"lower > upper":    func(p *Problem) { p.ColLower[1] = 3; p.ColUpper[1] = 2 },
		"row lower > up":   func(p *Problem) { p.RowUpper[0] = 0 },
		"+Inf lower":       func(p *Problem) { p.RowLower[0] = inf },
		"-Inf upper":       func(p *Problem) { p.ColUpper[0] = -inf },
		"short cost":       func(p *Problem) { p.Obj = p.Obj[:1] },
		"short bounds":     func(p *Problem) { p.RowLower = nil },
		"bad ColStart":     func(p *Problem) { p.A.ColStart = []int{0, 1} },
		"row out of range": func(p *Problem) { p.A.RowIndex[0] = 5 },
		"duplicate row": func(p *Problem) {
			p.A.ColStart = []int{0, 2, 2}
			p.A.RowIndex = []int{0, 0}
		},
		"NaN offset": func(p *Problem) { p.Offset = math.NaN() },
		"bad names":  func(p *Problem) { p.RowNames = []string{"a", "b"} },
	}
	for name, f := range cases {
		p := good()
		f(p)
		res, err := Solve(context.Background(), p, nil)
		var ie *InputError
		if res != nil || !errors.Is(err, ErrInvalid) || !errors.As(err, &ie) {
			t.Errorf("%s: result %v, err %v", name, res, err)
		}
	}
	if _, err := Solve(context.Background(), nil, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil problem: %v", err)
	}
	p := good()
	if _, err := Solve(context.Background(), p, &Options{Basis: &Basis{}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("basis of the wrong size: %v", err)
	}
}

func TestDeterministic(t *testing.T) {
	p := readNetlib(t, "e226")
	a, _ := Solve(context.Background(), p, nil)
	b, _ := Solve(context.Background(), p, nil)
	if a.Iterations != b.Iterations || a.Objective != b.Objective {
		t.Errorf("two solves differ: %d/%d iterations, %v/%v", a.Iterations, b.Iterations, a.Objective, b.Objective)
	}
	for j := range a.X {
		if a.X[j] != b.X[j] {
			t.Fatalf("x[%d] differs: %v %v", j, a.X[j], b.X[j])
		}
	}
}

// TestRandomLPHard solves random LPs that may be infeasible, unbounded,
// badly scaled or degenerate with every method, and checks that the
// methods agree and that every optimum passes the optimality checks.
func TestRandomLPHard(t *testing.T) {
	trials := 1500
	if testing.Short() {
		trials = 200
	}
	r := rand.New(rand.NewPCG(7, 100))
	counts := map[Status]int{}
	fails := 0
	for trial := 0; trial < trials; trial++ {
		m, n := 1+r.IntN(60), 1+r.IntN(60)
		p := randomLP(r, m, n, 0.05+0.5*r.Float64(), trial%3 == 0)
		if trial%5 == 2 {
			// Shift the row limits: the problem may become infeasible.
			for i := range p.RowLower {
				sh := r.NormFloat64() * 3
				p.RowLower[i] += sh
				p.RowUpper[i] += sh
			}
		}
		if trial%7 == 3 {
			// Scale the columns by powers of ten.
			for j := 0; j < n; j++ {
				f := math.Pow(10, float64(r.IntN(9)-4))
				for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
					p.A.Value[k] *= f
				}
				p.ColLower[j] /= f
				p.ColUpper[j] /= f
				p.Obj[j] *= f
			}
		}
		if trial%4 == 1 {
			// Small integer costs: dual degenerate.
			for j := range p.Obj {
				p.Obj[j] = float64(r.IntN(3) - 1)
			}
		}
		var ref *Result
		for _, meth := range methods {
			if trial%7 == 3 && meth.opts.NoScaling {
				// Without scaling the absolute tolerances do not fit
				// badly scaled data; no agreement is expected.
				continue
			}
			o := meth.opts
			res, err := Solve(context.Background(), p, &o)
			if res == nil {
				t.Fatalf("trial %d %s: %v", trial, meth.name, err)
			}
			bad := ""
			switch res.Status {
			case Optimal:
				if rep := kkt(p, res, 1e-9); rep.primal > 1e-8 || rep.dual > 1e-8 || rep.gap > 1e-8 {
					bad = rep.String()
				}
			case Unbounded:
				checkRay(t, fmt.Sprintf("trial %d %s", trial, meth.name), p, res.Ray)
			case Infeasible:
			default:
				bad = res.Status.String()
			}
			if ref != nil && res.Status != ref.Status {
				bad += " status differs " + res.Status.String() + " vs " + ref.Status.String()
			}
			if ref != nil && res.Status == Optimal && ref.Status == Optimal && math.Abs(res.Objective-ref.Objective) > 1e-7*(1+math.Abs(ref.Objective)) {
				bad += " objective differs"
			}
			if bad != "" {
				fails++
				if fails < 15 {
					t.Errorf("trial %d (%dx%d) %s: %s", trial, m, n, meth.name, bad)
				}
			}
			if ref == nil {
				ref = res
				counts[res.Status]++
			}
		}
	}
	t.Logf("statuses %v", counts)
}

// TestProgressAndEvents: Progress reports every 100 iterations, in
// order, with the method and the iteration cap; Events stays within
// maxEvents.
func TestProgressAndEvents(t *testing.T) {
	for _, name := range []string{"afiro", "adlittle", "israel", "e226"} {
		p := readNetlib(t, name)
		var calls []int
		opts := &Options{Progress: func(stage string, done, total int) {
			if stage != "primal" && stage != "dual" {
				t.Fatalf("%s: stage %q", name, stage)
			}
			if done%100 != 0 || total < done {
				t.Fatalf("%s: progress %d of %d", name, done, total)
			}
			calls = append(calls, done)
		}}
		res, err := Solve(context.Background(), p, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := res.Iterations / 100; len(calls) != want {
			t.Fatalf("%s: %d progress calls for %d iterations, want %d", name, len(calls), res.Iterations, want)
		}
		for i := 1; i < len(calls); i++ {
			if calls[i] <= calls[i-1] {
				t.Fatalf("%s: progress not increasing: %v", name, calls)
			}
		}
		if len(res.Events) > maxEvents {
			t.Fatalf("%s: %d events, over %d", name, len(res.Events), maxEvents)
		}
	}
}
