package simplex

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/moments-go/moments/internal/testutil/lptest"
)

// familyMethods are the methods TestFreeLPFamily runs.
var familyMethods = []Method{Dual, Primal}

// freeLP returns lptest.FreeLP(seed, n) (the random sparse family with
// free variables, 5n rows, feasible and bounded by construction, sparse
// objective) as a Problem.
func freeLP(seed uint64, n int) *Problem {
	g := lptest.FreeLP(seed, n)
	return &Problem{
		Name:     fmt.Sprintf("freelp%d", n),
		Obj:      g.Obj,
		A:        Sparse{Rows: g.Rows, Cols: g.Cols, ColStart: g.ColStart, RowIndex: g.RowIndex, Value: g.Value},
		RowLower: g.RowLower,
		RowUpper: g.RowUpper,
		ColLower: g.ColLower,
		ColUpper: g.ColUpper,
	}
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
