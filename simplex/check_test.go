package simplex

import (
	"fmt"
	"math"
)

// kkt measures, from the original data of p alone, how far res is from
// an optimal primal-dual pair: bound and row violations of x, sign
// violations of the duals y and of d = c - A^T y (recomputed here),
// complementarity, and the gap between c^T x and the dual objective.
// Violations are relative: a bound violation is divided by 1 + |bound|
// (+ the row's sum |a_ij x_j| for rows), a dual violation by 1 + |c_j| +
// sum |a_ij y_i| (1 + |y_i| for rows).
type kktReport struct {
	primal, dual, gap float64
	where             string
}

func (k kktReport) String() string {
	return fmt.Sprintf("primal %.2g, dual %.2g, gap %.2g (%s)", k.primal, k.dual, k.gap, k.where)
}

func kkt(p *Problem, res *Result, atTol float64) kktReport {
	m, n := p.A.Rows, p.A.Cols
	var rep kktReport
	note := func(kind string, v *float64, e float64, format string, args ...any) {
		if e > *v {
			*v = e
			rep.where = kind + " " + fmt.Sprintf(format, args...)
		}
	}
	x, y := res.X, res.RowDuals
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	// Activities and |A||x| row sums.
	act := make([]float64, m)
	absAct := make([]float64, m)
	aty := make([]float64, n)
	absATy := make([]float64, n)
	for j := 0; j < n; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			i, a := p.A.RowIndex[k], p.A.Value[k]
			act[i] += a * x[j]
			absAct[i] += math.Abs(a * x[j])
			aty[j] += a * y[i]
			absATy[j] += math.Abs(a * y[i])
		}
	}
	viol := func(v, lo, up, scale float64) float64 {
		var e float64
		if v < lo {
			e = (lo - v) / (scale + math.Abs(lo))
		} else if v > up {
			e = (v - up) / (scale + math.Abs(up))
		}
		return e
	}
	for j := 0; j < n; j++ {
		note("column", &rep.primal, viol(x[j], p.ColLower[j], p.ColUpper[j], 1), "%d", j)
	}
	for i := 0; i < m; i++ {
		note("row", &rep.primal, viol(act[i], p.RowLower[i], p.RowUpper[i], 1+absAct[i]), "%d", i)
	}
	// Which bound is active: within atTol relative.
	near := func(v, b, scale float64) bool {
		return !math.IsInf(b, 0) && math.Abs(v-b) <= atTol*(scale+math.Abs(b))
	}
	dualObj := 0.0
	for j := 0; j < n; j++ {
		d := sign * (p.Obj[j] - aty[j])
		scale := 1 + math.Abs(p.Obj[j]) + absATy[j]
		atLo, atUp := near(x[j], p.ColLower[j], 1), near(x[j], p.ColUpper[j], 1)
		var e float64
		switch {
		case atLo && atUp:
		case atLo:
			e = math.Max(0, -d) / scale
		case atUp:
			e = math.Max(0, d) / scale
		default:
			e = math.Abs(d) / scale
		}
		note("reduced cost", &rep.dual, e, "%d (d=%g, x=%g in [%g, %g])", j, d, x[j], p.ColLower[j], p.ColUpper[j])
		switch {
		case d > 0 && !math.IsInf(p.ColLower[j], 0):
			dualObj += d * p.ColLower[j]
		case d < 0 && !math.IsInf(p.ColUpper[j], 0):
			dualObj += d * p.ColUpper[j]
		default:
			dualObj += d * x[j]
		}
	}
	for i := 0; i < m; i++ {
		yi := sign * y[i]
		scale := 1 + absAct[i]
		atLo, atUp := near(act[i], p.RowLower[i], scale), near(act[i], p.RowUpper[i], scale)
		var e float64
		switch {
		case atLo && atUp:
		case atLo:
			e = math.Max(0, -yi) / (1 + math.Abs(yi))
		case atUp:
			e = math.Max(0, yi) / (1 + math.Abs(yi))
		default:
			e = math.Abs(yi) / (1 + math.Abs(yi))
		}
		note("row dual", &rep.dual, e, "%d (y=%g, act=%g in [%g, %g])", i, yi, act[i], p.RowLower[i], p.RowUpper[i])
		switch {
		case yi > 0 && !math.IsInf(p.RowLower[i], 0):
			dualObj += yi * p.RowLower[i]
		case yi < 0 && !math.IsInf(p.RowUpper[i], 0):
			dualObj += yi * p.RowUpper[i]
		default:
			dualObj += yi * act[i]
		}
	}
	primalObj := 0.0
	for j := 0; j < n; j++ {
		primalObj += sign * p.Obj[j] * x[j]
	}
	rep.gap = math.Abs(primalObj-dualObj) / (1 + math.Abs(primalObj))
	return rep
}
