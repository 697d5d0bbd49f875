// Package lptest generates the linear programs of the simplex tests and
// benchmarks, as plain arrays (package simplex's tests cannot import a
// package that imports simplex): the random sparse family with free
// variables.
package lptest

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// LP is minimise Obj^T x subject to RowLower <= A x <= RowUpper,
// ColLower <= x <= ColUpper, with A (Rows x Cols) in compressed column
// form: the entries of column j are Value[k] in row RowIndex[k] for
// ColStart[j] <= k < ColStart[j+1].
type LP struct {
	Rows, Cols         int
	ColStart, RowIndex []int
	Value, Obj         []float64
	RowLower, RowUpper []float64
	ColLower, ColUpper []float64
}

// FreeLP returns a member of the random sparse family with free
// variables: n free columns and 5n rows of 2 to 5 entries each (uniform
// in +-[0.1, 1] at random columns). It is feasible by construction: every
// row holds at a random point x0 (N(0, 100) entries), a third of the row
// limits exactly. It is bounded by construction: c = A^T y for row
// multipliers y whose signs fit the rows' finite limits (y_i <= 0 on a <=
// row, >= 0 on a >= row), so y is dual feasible. y is nonzero on only
// m/500 rows, so c is sparse and the problem dually degenerate, the
// hard case for a dual simplex method. Rows are <=, >= or ranges in the
// proportions 2:2:1. The same seed and n give the same problem. n must
// be at least 5 (a row may hold 5 entries); FreeLP panics otherwise.
func FreeLP(seed uint64, n int) *LP {
	if n < 5 {
		panic(fmt.Sprintf("lptest: FreeLP with n = %d columns (need n >= 5)", n))
	}
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
	p := &LP{
		Rows:     m,
		Cols:     n,
		ColStart: make([]int, n+1),
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
	}
	for j := 0; j < n; j++ {
		p.RowIndex = append(p.RowIndex, rowsOf[j]...)
		p.Value = append(p.Value, valsOf[j]...)
		p.ColStart[j+1] = len(p.RowIndex)
		p.ColLower[j], p.ColUpper[j] = math.Inf(-1), math.Inf(1)
	}
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
	p.Obj = make([]float64, n)
	for j := 0; j < n; j++ {
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			p.Obj[j] += p.Value[k] * y[p.RowIndex[k]]
		}
	}
	return p
}
