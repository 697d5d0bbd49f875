package lq

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// TestPivotedPanels checks the panel factorization, which only matrices
// with more than unblockedMax rows and columns reach, against the
// factorization one reflector at a time: the usual ratios, a decreasing
// diagonal, and the same diagonal (and so the same pivots) as the
// unblocked one to 1e-10 where the pivots are well separated. Low rank
// and graded matrices make the norm downdates cancel, which ends panels
// early and recomputes norms.
func TestPivotedPanels(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	noisy := func(a *mat.Dense, s float64) *mat.Dense {
		for i := range a.RawData() {
			a.RawData()[i] += s * rnd.NormFloat64()
		}
		return a
	}
	graded := func(a *mat.Dense) *mat.Dense {
		m, _ := a.Dims()
		for i := 0; i < m; i++ {
			row := a.RawRow(i)
			for j := range row {
				row[j] *= math.Pow(10, -12*float64(rnd.IntN(m))/float64(m))
			}
		}
		return a
	}
	for _, c := range []struct {
		name  string
		a     *mat.Dense
		exact bool // compare the diagonal with the unblocked one
	}{
		{"gaussian 150x120", mattest.RandDense(rnd, 150, 120), true},
		{"gaussian 120x150", mattest.RandDense(rnd, 120, 150), true},
		{"gaussian 200x200", mattest.RandDense(rnd, 200, 200), true},
		{"gaussian 300x100", mattest.RandDense(rnd, 300, 100), true},
		{"gaussian 100x300", mattest.RandDense(rnd, 100, 300), true},
		{"gaussian 97x97", mattest.RandDense(rnd, 97, 97), true},
		{"rank 40 of 200x180", lowRank(rnd, 200, 180, 40), false},
		{"rank 70 of 160x160 plus 1e-12", noisy(lowRank(rnd, 160, 160, 70), 1e-12), false},
		{"graded rows 180x140", graded(mattest.RandDense(rnd, 180, 140)), false},
	} {
		m, n := c.a.Dims()
		f, err := FactorizePivoted(c.a)
		if err != nil {
			t.Fatal(err)
		}
		// The reference: the same matrix one reflector at a time.
		w, _ := prepare(c.a, false)
		ref := newPivoting(&house.Reflectors{A: w.RawData(), Lda: n, M: m, N: n, Tau: make([]float64, min(m, n))}, make([]int, m))
		ref.rows(0)

		var l, q mat.Dense
		f.L(&l)
		f.Q(&q)
		pa := mat.Zeros(m, n)
		for i, p := range f.Perm() {
			pa.SetRow(i, c.a.RawRow(p))
		}
		var lq mat.Dense
		lq.Mul(&l, &q)
		lq.Sub(&lq, pa)
		if r := testutil.Scaled(lq.Norm1(), c.a.Norm1(), n); bad(r) {
			t.Errorf("%s: ||PᵀA - LQ|| ratio %.3g", c.name, r)
		}
		if r := mattest.OrthRowsRatio(&q); bad(r) {
			t.Errorf("%s: ||I - QQᵀ|| ratio %.3g", c.name, r)
		}
		k := min(m, n)
		for i := 1; i < k; i++ {
			if d0, d1 := math.Abs(l.At(i-1, i-1)), math.Abs(l.At(i, i)); d1 > d0*(1+1e-6) {
				t.Errorf("%s: |L[%d][%d]| = %v > |L[%d][%d]| = %v", c.name, i, i, d1, i-1, i-1, d0)
			}
		}
		if c.exact {
			for i := 0; i < k; i++ {
				got, want := math.Abs(l.At(i, i)), math.Abs(w.At(i, i))
				if math.Abs(got-want) > 1e-10*want {
					t.Fatalf("%s: |L[%d][%d]| = %v, one reflector at a time %v", c.name, i, i, got, want)
				}
			}
		}
	}
}
