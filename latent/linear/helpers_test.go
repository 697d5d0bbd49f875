package linear

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/mat"
)

// alignCols is eval.AlignColumns: est's columns matched, ordered and
// signed to agree with truth's.
var alignCols = eval.AlignColumns

// canonical scales the columns of a by s (the standard deviations of
// the hidden variables), the canonical form of the linear-BN paper.
func canonical(a *mat.Dense, s []float64) *mat.Dense {
	out := a.Clone()
	r, _ := out.Dims()
	for i := 0; i < r; i++ {
		row := out.RawRow(i)
		for j := range row {
			row[j] *= s[j]
		}
	}
	return out
}

func diagSqrt(m *mat.Dense) []float64 {
	n, _ := m.Dims()
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Sqrt(m.At(i, i))
	}
	return d
}

func checkClose(t *testing.T, what string, truth, est *mat.Dense, tol float64) {
	t.Helper()
	if e := mattest.MaxRelErr(truth, est); !(e <= tol) {
		t.Errorf("%s: max relative error %.3g > %.3g", what, e, tol)
	} else {
		t.Logf("%s: max relative error %.3g", what, e)
	}
}

// permuteRows returns m with row i replaced by signs[i] * row perm[i].
func permuteRows(m *mat.Dense, perm []int, signs []float64) *mat.Dense {
	_, c := m.Dims()
	out := mat.Zeros(len(perm), c)
	for i, p := range perm {
		for j := 0; j < c; j++ {
			out.Set(i, j, signs[i]*m.At(p, j))
		}
	}
	return out
}

// rowScale returns diag(1/s) m.
func rowScale(m *mat.Dense, s []float64) *mat.Dense {
	out := m.Clone()
	r, _ := out.Dims()
	for i := 0; i < r; i++ {
		row := out.RawRow(i)
		for j := range row {
			row[j] /= s[i]
		}
	}
	return out
}

// randomOrthogonal returns the k x k orthogonal factor (symOrth) of a
// matrix of k*k standard normal draws from r, row by row.
func randomOrthogonal(t *testing.T, r *rand.Rand, k int) *mat.Dense {
	t.Helper()
	g := mat.Zeros(k, k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			g.Set(i, j, r.NormFloat64())
		}
	}
	v, err := symOrth(g)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
