package simplex

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// familyMethods are the methods TestFreeLPFamily runs.
var familyMethods = []Method{Dual, Primal}

// freeLP returns a member of the random sparse family with free
// variables: n free columns and 5n rows of 2 to 5 entries each (uniform
// in +-[0.1, 1] at random columns). It is feasible by construction: every
// row holds at a random point x0 (N(0, 100) entries), a third of the row
// limits exactly. It is bounded by construction: c = A^T y for row
// multipliers y whose signs fit the rows' finite limits (y_i <= 0 on a <=
// row, >= 0 on a >= row), so y is dual feasible. y is nonzero on only
// m/500 rows, so c is sparse and the problem dually degenerate, the
// hard case for a dual simplex method (the stalling family).
// Rows are <=, >= or ranges in the proportions 2:2:1.
func freeLP(seed uint64, n int) *Problem {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	m := 5 * n
	rowsOf := make([][]int, n)
	valsOf := make([][]float64, n)
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = 10 * r.NormFloat64()
	}
	act := make([]float64, m)
	for i := 0; i < m; i++ {
		k := 2 + r.IntN(4)
		for _, j := range r.Perm(n)[:k] {
			v := 0.1 + 0.9*r.Float64()
			if r.IntN(2) == 0 {
				v = -v
			}
			rowsOf[j] = append(rowsOf[j], i)
			valsOf[j] = append(valsOf[j], v)
			act[i] += v * x0[j]
		}
	}
	p := &Problem{
		Name:     "freelp",
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
	}
	A := Sparse{Rows: m, Cols: n, ColStart: make([]int, n+1)}
	for j := 0; j < n; j++ {
		A.RowIndex = append(A.RowIndex, rowsOf[j]...)
		A.Value = append(A.Value, valsOf[j]...)
		A.ColStart[j+1] = len(A.RowIndex)
		p.ColLower[j], p.ColUpper[j] = math.Inf(-1), math.Inf(1)
	}
	p.A = A
	slack := func() float64 {
		if r.IntN(3) == 0 {
			return 0
		}
		return r.ExpFloat64()
	}
	kind := make([]int, m)
	for i := 0; i < m; i++ {
		switch kind[i] = r.IntN(5); {
		case kind[i] < 2:
			p.RowLower[i], p.RowUpper[i] = math.Inf(-1), act[i]+slack()
		case kind[i] < 4:
			p.RowLower[i], p.RowUpper[i] = act[i]-slack(), math.Inf(1)
		default:
			p.RowLower[i], p.RowUpper[i] = act[i]-slack(), act[i]+slack()
		}
	}
	y := make([]float64, m)
	for _, i := range r.Perm(m)[:max(1, m/500)] {
		w := 0.5 + r.ExpFloat64()
		switch {
		case kind[i] < 2:
			y[i] = -w
		case kind[i] < 4:
			y[i] = w
		case r.IntN(2) == 0:
			y[i] = -w
		default:
			y[i] = w
		}
	}
	p.Obj = A.MulVecT(y)
	return p
}

// freeLPSizes are the column counts of the family in the tests (rows
// 5x columns); -short runs keep the first.
var freeLPSizes = []int{300, 400, 500, 600}

// TestFreeLPFamily solves every member of the free-variable family with
// both methods: each must be optimal, satisfy the optimality conditions
// within 1e-9 (kkt, relative) and the two objectives must agree within
// 1e-9 relative. Before the logical variables' costs were perturbed the
// dual method stalled on these (the member with 300 columns, seed 1,
// reached no optimum in 86 000 iterations).
func TestFreeLPFamily(t *testing.T) {
	sizes := freeLPSizes
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		p := freeLP(1, n)
		var objs []float64
		for _, meth := range familyMethods {
			start := time.Now()
			res, err := Solve(context.Background(), p, &Options{Method: meth})
			if err != nil {
				t.Fatalf("n=%d %v: status %v after %d iterations: %v", n, meth, res.Status, res.Iterations, err)
			}
			rep := kkt(p, res, 1e-9)
			t.Logf("n=%d %v: objective %.12g, %d iterations, %v; KKT %v", n, meth, res.Objective, res.Iterations, time.Since(start), rep)
			if rep.primal > 1e-9 || rep.dual > 1e-9 || rep.gap > 1e-9 {
				t.Errorf("n=%d %v: not optimal: %v", n, meth, rep)
			}
			objs = append(objs, res.Objective)
		}
		for _, o := range objs[1:] {
			if math.Abs(o-objs[0]) > 1e-9*math.Max(1, math.Abs(objs[0])) {
				t.Errorf("n=%d: objectives differ: %v", n, objs)
			}
		}
	}
}
