package eval

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/mat"
)

// Dist is the distance between factor matrices of the linear-model
// papers, invariant to the permutation and scale of the estimated columns:
//
//	dist(A, Â) = (1/||A||_F^2) sum_i min_j ||A e_i - nu_ij Â e_j||^2
//
// with nu_ij = <A e_i, Â e_j> / ||Â e_j||^2 the best scale. Each true
// column takes its nearest estimated column (columns may be reused, as in
// the papers); zero estimated columns are skipped. The scale of every
// column is free, so dist can read 0 for an estimate whose columns are
// all wrong in scale: read it beside RelError. An all-zero truth (a
// Lambda with no edge) makes the formula 0/0; Dist then returns 0 if
// the estimate is zero too and 1, the largest value dist takes
// otherwise, if it is not.
func Dist(a, est *mat.Dense) float64 {
	n, k := a.Dims()
	ne, ke := est.Dims()
	if n != ne {
		panic(fmt.Sprintf("eval: Dist: A is %dx%d but Â is %dx%d", n, k, ne, ke))
	}
	var g, ae, ee mat.Dense
	g.MulAT(a, est)  // <A e_i, Â e_j>
	ae.GramCols(a)   // ||A e_i||^2 on the diagonal
	ee.GramCols(est) // ||Â e_j||^2 on the diagonal
	ai, ej := make([]float64, n), make([]float64, n)
	var total, norm float64
	for i := 0; i < k; i++ {
		aa := ae.At(i, i)
		norm += aa
		// The nearest column by ||a - nu e||^2 = |a|^2 - <a,e>^2/|e|^2,
		// then its residual computed directly: the formula cancels
		// catastrophically when the fit is close, and the point of Dist
		// is often to show that it is.
		best, bestJ := aa, -1
		for j := 0; j < ke; j++ {
			if e := ee.At(j, j); e > 0 {
				if r := aa - g.At(i, j)*g.At(i, j)/e; r < best {
					best, bestJ = r, j
				}
			}
		}
		if bestJ < 0 {
			total += aa
			continue
		}
		a.Col(ai, i)
		est.Col(ej, bestJ)
		nu := g.At(i, bestJ) / ee.At(bestJ, bestJ)
		var r float64
		for t := range ai {
			d := ai[t] - nu*ej[t]
			r += d * d
		}
		total += r
	}
	if norm == 0 {
		if est.NormMax() == 0 {
			return 0
		}
		return 1
	}
	return total / norm
}

// RelError is the relative Frobenius error ||est - truth||_F /
// ||truth||_F of an estimate already aligned to the truth (columns
// matched, signed and in the same units: the canonical form of the
// linear models, see package report). Unlike Dist it rescales nothing,
// so it cannot flatter a column that is right only up to its scale. For
// an all-zero truth it returns ||est||_F, the absolute error in the
// truth's units.
func RelError(truth, est *mat.Dense) float64 {
	tr, tc := truth.Dims()
	er, ec := est.Dims()
	if tr != er || tc != ec {
		panic(fmt.Sprintf("eval: RelError: truth is %dx%d but the estimate is %dx%d", tr, tc, er, ec))
	}
	var d mat.Dense
	d.Sub(est, truth)
	if nt := truth.NormFrob(); nt > 0 {
		return d.NormFrob() / nt
	}
	return d.NormFrob()
}

// Support compares the support of an estimated factor matrix est with
// that of the truth a after matching columns (perm[j] is the column of
// est matched to column j of a), and returns the precision and recall of
// the estimated non-zeros. An estimated entry counts as non-zero if its
// absolute value exceeds tau times the largest absolute value in its
// column (tau = 0: any non-zero, the raw support; 0.1 is the usual
// threshold). A true entry is non-zero if it is not exactly 0.
func Support(a, est *mat.Dense, perm []int, tau float64) (precision, recall float64) {
	n, k := a.Dims()
	if len(perm) != k {
		panic(fmt.Sprintf("eval: Support: %d matches for %d columns", len(perm), k))
	}
	var tp, fp, fn float64
	for j, pj := range perm {
		var colMax float64
		for i := 0; i < n; i++ {
			colMax = math.Max(colMax, math.Abs(est.At(i, pj)))
		}
		for i := 0; i < n; i++ {
			truth := a.At(i, j) != 0
			e := math.Abs(est.At(i, pj))
			got := e > tau*colMax && e != 0
			switch {
			case got && truth:
				tp++
			case got:
				fp++
			case truth:
				fn++
			}
		}
	}
	precision, recall = 1, 1
	if tp+fp > 0 {
		precision = tp / (tp + fp)
	}
	if tp+fn > 0 {
		recall = tp / (tp + fn)
	}
	return precision, recall
}

// MatchColumns matches each column of a to a distinct column of est
// (k <= k' columns) maximising the sum of |cosine| similarities, the
// matching to use with Support and for signed, scaled factors.
func MatchColumns(a, est *mat.Dense) []int {
	_, k := a.Dims()
	_, ke := est.Dims()
	var g, ae, ee mat.Dense
	g.MulAT(a, est)
	ae.GramCols(a)
	ee.GramCols(est)
	cost := mat.Zeros(k, ke)
	for i := 0; i < k; i++ {
		for j := 0; j < ke; j++ {
			d := math.Sqrt(ae.At(i, i) * ee.At(j, j))
			if d > 0 {
				cost.Set(i, j, -math.Abs(g.At(i, j))/d)
			}
		}
	}
	perm, _ := Assign(cost)
	return perm
}

// AlignColumns matches the columns of est to those of truth
// (MatchColumns) and returns est with its columns in truth's order and
// signed to agree with them, the permutation (column j of the result is
// column perm[j] of est) and the signs.
func AlignColumns(truth, est *mat.Dense) (aligned *mat.Dense, perm []int, signs []float64) {
	perm = MatchColumns(truth, est)
	r, k := truth.Dims()
	aligned = mat.Zeros(r, k)
	signs = make([]float64, k)
	for j, p := range perm {
		var dot float64
		for i := 0; i < r; i++ {
			dot += truth.At(i, j) * est.At(i, p)
		}
		signs[j] = 1
		if dot < 0 {
			signs[j] = -1
		}
		for i := 0; i < r; i++ {
			aligned.Set(i, j, signs[j]*est.At(i, p))
		}
	}
	return aligned, perm, signs
}
