package simplex

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPresolveRandomTiny solves many tiny LPs (1 to 4 rows, 2 to 5
// columns, small integer data, free, one-sided, boxed and fixed columns,
// mostly equality rows so that doubleton equations and forcing rows
// come up often, minimised and maximised) with presolve and without:
// the statuses and objectives must agree, and the presolved answer's
// postsolved x, duals and reduced costs must satisfy the KKT conditions
// of the original problem within 1e-9 (see kkt). Wrong duals after a
// doubleton substitution whose kept column later sat at the removed
// column's bound were found this way.
func TestPresolveRandomTiny(t *testing.T) {
	const lps = 20000
	rnd := rand.New(rand.NewPCG(22, 17))
	inf := math.Inf(1)
	small := func() float64 { return float64(rnd.IntN(7) - 3) }
	bounds := func() (float64, float64) {
		switch rnd.IntN(5) {
		case 0:
			return -inf, inf
		case 1:
			return small(), inf
		case 2:
			return -inf, small()
		case 3:
			v := small()
			return v, v
		}
		l := small()
		return l, l + float64(rnd.IntN(4))
	}
	ctx := context.Background()
	bad := 0
	for trial := 0; trial < lps; trial++ {
		m, n := 1+rnd.IntN(4), 2+rnd.IntN(4)
		a := make([][]float64, m)
		for i := range a {
			a[i] = make([]float64, n)
			for j := range a[i] {
				if rnd.IntN(3) > 0 {
					a[i][j] = small()
				}
			}
		}
		c := make([]float64, n)
		cl, cu := make([]float64, n), make([]float64, n)
		for j := range c {
			c[j] = small()
			cl[j], cu[j] = bounds()
		}
		rl, ru := make([]float64, m), make([]float64, m)
		for i := range rl {
			if rnd.IntN(3) > 0 {
				v := small()
				rl[i], ru[i] = v, v
			} else {
				rl[i], ru[i] = bounds()
			}
		}
		p := denseProblem(c, a, rl, ru, cl, cu)
		p.Maximize = rnd.IntN(2) == 0
		// Solve's error is nil exactly when the status is Optimal;
		// the statuses are compared below.
		with, _ := Solve(ctx, p, nil)
		without, _ := Solve(ctx, p, &Options{NoPresolve: true})
		if with == nil || without == nil {
			t.Fatalf("LP %d: no result", trial)
		}
		if with.Status != without.Status {
			t.Errorf("LP %d: status %v with presolve, %v without", trial, with.Status, without.Status)
			bad++
		} else if with.Status == Optimal {
			if d := math.Abs(with.Objective - without.Objective); d > 1e-9*(1+math.Abs(without.Objective)) {
				t.Errorf("LP %d: objective %v with presolve, %v without", trial, with.Objective, without.Objective)
				bad++
			}
			if r := kkt(p, with, 1e-9); r.primal > 1e-9 || r.dual > 1e-9 || r.gap > 1e-9 {
				t.Errorf("LP %d (events %q): KKT %v", trial, with.Events, r)
				bad++
			}
		}
		if bad >= 10 {
			t.Fatal("stopping after 10 failures")
		}
	}
}
