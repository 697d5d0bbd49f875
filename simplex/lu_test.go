package simplex

import (
	"math"
	"math/rand/v2"
	"testing"
)

// denseCols is a test basis: column p has entries idx[p]/val[p].
type denseCols struct {
	m   int
	idx [][]int
	val [][]float64
}

func (d *denseCols) col(p int) ([]int, []float64) { return d.idx[p], d.val[p] }

func (d *denseCols) dense() [][]float64 {
	b := make([][]float64, d.m)
	for i := range b {
		b[i] = make([]float64, d.m)
	}
	for p := 0; p < d.m; p++ {
		for k, i := range d.idx[p] {
			b[i][p] = d.val[p][k]
		}
	}
	return b
}

func randSparseCol(r *rand.Rand, m int, density float64) ([]int, []float64) {
	var idx []int
	var val []float64
	for i := 0; i < m; i++ {
		if r.Float64() < density {
			idx = append(idx, i)
			val = append(val, r.NormFloat64())
		}
	}
	if len(idx) == 0 {
		idx = append(idx, r.IntN(m))
		val = append(val, 1+r.Float64())
	}
	return idx, val
}

// randBasis returns a random sparse basis with some unit columns.
func randBasis(r *rand.Rand, m int, density, unitFrac float64) *denseCols {
	d := &denseCols{m: m, idx: make([][]int, m), val: make([][]float64, m)}
	perm := r.Perm(m)
	for p := 0; p < m; p++ {
		if r.Float64() < unitFrac {
			d.idx[p] = []int{perm[p]}
			d.val[p] = []float64{1}
			continue
		}
		idx, val := randSparseCol(r, m, density)
		// Keep it likely nonsingular: put a large element on perm[p].
		found := false
		for k, i := range idx {
			if i == perm[p] {
				val[k] += 4
				found = true
			}
		}
		if !found {
			idx = append(idx, perm[p])
			val = append(val, 4)
		}
		d.idx[p], d.val[p] = idx, val
	}
	return d
}

// permute reorders the columns of d so that input position p lands at
// rowOf[p], replacing singular positions by unit columns.
func (d *denseCols) permute(rowOf, singular []int) *denseCols {
	e := &denseCols{m: d.m, idx: make([][]int, d.m), val: make([][]float64, d.m)}
	sing := map[int]bool{}
	for _, p := range singular {
		sing[p] = true
	}
	for p := 0; p < d.m; p++ {
		if sing[p] {
			e.idx[rowOf[p]] = []int{rowOf[p]}
			e.val[rowOf[p]] = []float64{1}
		} else {
			e.idx[rowOf[p]] = d.idx[p]
			e.val[rowOf[p]] = d.val[p]
		}
	}
	return e
}

func checkSolves(t *testing.T, f *luFactor, d *denseCols, r *rand.Rand, what string) {
	t.Helper()
	m := d.m
	b := d.dense()
	// ftran: B x = rhs.
	rhs := make([]float64, m)
	for i := range rhs {
		rhs[i] = r.NormFloat64()
	}
	x := append([]float64(nil), rhs...)
	f.ftran(x, false)
	var res, scale float64
	for i := 0; i < m; i++ {
		s := -rhs[i]
		for j := 0; j < m; j++ {
			s += b[i][j] * x[j]
		}
		res = math.Max(res, math.Abs(s))
		scale = math.Max(scale, math.Abs(rhs[i]))
	}
	if xs := maxAbs(x) * normInf(b); res > 1e-10*(scale+xs) {
		t.Fatalf("%s: ftran residual %g (|rhs| %g, |B||x| %g)", what, res, scale, xs)
	}
	// btran: B^T z = e.
	z := append([]float64(nil), rhs...)
	f.btran(z)
	res = 0
	for j := 0; j < m; j++ {
		s := -rhs[j]
		for i := 0; i < m; i++ {
			s += b[i][j] * z[i]
		}
		res = math.Max(res, math.Abs(s))
	}
	if zs := maxAbs(z) * normInf(b); res > 1e-10*(scale+zs) {
		t.Fatalf("%s: btran residual %g (|rhs| %g, |B||z| %g)", what, res, scale, zs)
	}
}

func TestLUFactorSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range []int{1, 2, 3, 5, 10, 30, 100, 300} {
		for _, dens := range []float64{0.02, 0.1, 0.5} {
			for _, unit := range []float64{0, 0.5, 0.9} {
				d := randBasis(r, m, dens, unit)
				var f luFactor
				rowOf, sing := f.factor(m, d.col)
				if len(sing) > 0 {
					t.Logf("m=%d dens=%v unit=%v: %d singular positions", m, dens, unit, len(sing))
				}
				e := d.permute(rowOf, sing)
				checkSolves(t, &f, e, r, "factor")
			}
		}
	}
}

func TestLUSingular(t *testing.T) {
	// Two equal columns and a zero column.
	d := &denseCols{m: 4,
		idx: [][]int{{0, 1}, {0, 1}, {2}, {}},
		val: [][]float64{{1, 2}, {1, 2}, {3}, {}},
	}
	var f luFactor
	rowOf, sing := f.factor(4, d.col)
	if len(sing) != 2 {
		t.Fatalf("singular positions %v, want two", sing)
	}
	e := d.permute(rowOf, sing)
	checkSolves(t, &f, e, rand.New(rand.NewPCG(3, 4)), "singular")
}

func TestLUUpdates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{1, 4, 20, 150} {
		for _, dens := range []float64{0.05, 0.3} {
			d := randBasis(r, m, dens, 0.5)
			var f luFactor
			rowOf, sing := f.factor(m, d.col)
			d = d.permute(rowOf, sing)
			for it := 0; it < 60; it++ {
				idx, val := randSparseCol(r, m, dens)
				x := make([]float64, m)
				for k, i := range idx {
					x[i] = val[k]
				}
				f.ftran(x, true)
				p := r.IntN(m)
				if math.Abs(x[p]) < 1e-3 {
					// pick the largest instead
					for i := range x {
						if math.Abs(x[i]) > math.Abs(x[p]) {
							p = i
						}
					}
				}
				if !f.update(p, x[p]) {
					t.Fatalf("m=%d it=%d: update refused (alpha %g)", m, it, x[p])
				}
				d.idx[p], d.val[p] = idx, val
				checkSolves(t, &f, d, r, "update")
			}
		}
	}
}

func maxAbs(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

func normInf(b [][]float64) float64 {
	var m float64
	for _, row := range b {
		var s float64
		for _, v := range row {
			s += math.Abs(v)
		}
		m = math.Max(m, s)
	}
	return m
}
