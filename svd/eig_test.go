package svd

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

var eigSizes = []int{0, 1, 2, 3, 8, 10, 17, 25, 32, 33, 40, 100}

// TestEigSymGrid checks EigSym on dlatms-style symmetric matrices: every
// mode and condition number, positive semidefinite, negative and
// indefinite spectra, and extreme norms.
func TestEigSymGrid(t *testing.T) {
	sizes := eigSizes
	if testing.Short() {
		sizes = eigSizes[:7]
	}
	for ni, n := range sizes {
		for _, mode := range fuzz.Modes {
			for ci, cond := range conds {
				for kind := 0; kind < 3; kind++ {
					rnd := rand.New(rand.NewPCG(uint64(ni), uint64(int(mode)*100+ci*10+kind)))
					d := fuzz.Spectrum(rnd, mode, n, cond)
					switch kind {
					case 1: // indefinite: random signs
						for i := range d {
							if rnd.IntN(2) == 0 {
								d[i] = -d[i]
							}
						}
					case 2: // negative definite, scaled near the range's end
						for i := range d {
							d[i] *= -1e280
						}
					}
					a := fuzz.LatmsSym(rnd, d)
					want := slices.Clone(d)
					slices.SortFunc(want, func(x, y float64) int { return -cmp.Compare(x, y) })
					name := fuzz.TestMatrix{Rows: n, Cols: n, Mode: mode, Cond: cond}.String()
					t.Run(name, func(t *testing.T) { checkEig(t, a, want) })
				}
			}
		}
	}
}

func checkEig(t *testing.T, a *mat.Dense, want []float64) *Eigen {
	t.Helper()
	n, _ := a.Dims()
	e, err := EigSym(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Values) != n {
		t.Fatalf("%d eigenvalues, want %d", len(e.Values), n)
	}
	for i := 1; i < n; i++ {
		if e.Values[i] > e.Values[i-1] {
			t.Fatalf("eigenvalues not decreasing: %v", e.Values)
		}
	}
	if n == 0 {
		return e
	}
	// Residual ||A - V Λ Vᵀ|| / (||A|| n eps), in a scaled copy.
	_, ex := math.Frexp(a.NormMax())
	resid, norm := mattest.FactorResidual(a, e.Vectors, e.Values, e.Vectors, ex)
	res := testutil.Scaled(resid, norm, n)
	orth := mattest.OrthColsRatio(e.Vectors)
	record("eig residual", res)
	record("eig orthogonality", orth)
	if !(res <= ratioLimit) {
		t.Errorf("||A - VΛVᵀ|| ratio %.3g", res)
	}
	if !(orth <= ratioLimit) {
		t.Errorf("||I - VᵀV|| ratio %.3g", orth)
	}
	if want != nil {
		big := math.Max(math.Abs(want[0]), math.Abs(want[n-1]))
		var w float64
		for i := range want {
			w = math.Max(w, math.Abs(e.Values[i]-want[i])/big)
		}
		v := w / float64(n) / eps
		record("eig values (absolute)", v)
		if !(v <= ratioLimit) {
			t.Errorf("eigenvalues: ratio %.3g\n got %v\nwant %v", v, e.Values, want)
		}
	}
	if n > 0 {
		top := e.Truncate(1)
		if top.Values[0] != e.Values[0] || !mat.Equal(top.Vectors, e.Vectors.Slice(0, n, 0, 1)) {
			t.Errorf("Truncate(1) differs")
		}
	}
	vals, err := EigSym(a, &EigOptions{ValuesOnly: true})
	if err != nil || !slices.Equal(vals.Values, e.Values) || vals.Vectors != nil {
		t.Errorf("ValuesOnly differs: %v, %v", err, vals.Values)
	}
	record("eig sweeps", float64(e.Sweeps))
	if e.Sweeps > 12 {
		t.Logf("%d sweeps (psd %v)", e.Sweeps, e.PSD)
	}
	return e
}

// TestEigSymRelative: a graded positive definite matrix A = D*BᵀB*D has
// eigenvalues (the squared singular values of B*D) that EigSym computes
// to high relative accuracy, however small.
func TestEigSymRelative(t *testing.T) {
	var worstRel float64
	for seed := uint64(0); seed < 10; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 99))
		n := 5 + int(seed%4)*4
		bd := fuzz.Graded(rnd, n+3, n, []float64{1e6, 1e12, 1e15}[seed%3])
		var a mat.Dense
		a.GramCols(bd)
		ref := fuzz.ReferenceSingularValues(bd)
		e := checkEig(t, &a, nil)
		if !e.PSD {
			t.Fatalf("seed %d: positive definite matrix not recognized", seed)
		}
		var rel float64
		for i, s := range ref {
			rel = math.Max(rel, math.Abs(e.Values[i]-s*s)/(s*s))
		}
		worstRel = math.Max(worstRel, rel/eps)
		// Forming BᵀB already perturbs each entry relatively (by about
		// n*eps of sqrt(a_ii a_jj)); the eigenvalues inherit that times
		// the scaled condition number of BᵀB.
		if !(rel <= 1e4*eps) {
			t.Errorf("seed %d: relative error %.3g eps\n got %v\nref² of %v", seed, rel/eps, e.Values, ref)
		}
	}
	record("eig graded relative/eps", worstRel)
}

// TestEigSymSemidefinite: low-rank positive semidefinite matrices keep
// their zero eigenvalues (to rounding) and get a full orthonormal basis.
func TestEigSymSemidefinite(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	for _, c := range [][2]int{{5, 0}, {6, 1}, {10, 3}, {30, 29}} {
		n, r := c[0], c[1]
		b := mat.Zeros(n, max(r, 1))
		if r > 0 {
			for i := 0; i < n; i++ {
				for j := 0; j < r; j++ {
					b.Set(i, j, rnd.NormFloat64())
				}
			}
		}
		var a mat.Dense
		a.GramRows(b)
		e := checkEig(t, &a, nil)
		if !e.PSD {
			t.Errorf("%dx%d rank %d: not recognized as semidefinite", n, n, r)
		}
		for i := r; i < n; i++ {
			if math.Abs(e.Values[i]) > 1e-12*math.Max(1, math.Abs(e.Values[0])) {
				t.Errorf("%dx%d rank %d: eigenvalue %d = %v", n, n, r, i, e.Values[i])
			}
		}
	}
	// An indefinite matrix with a zero diagonal.
	e := checkEig(t, mat.FromRows([][]float64{{0, 1}, {1, 0}}), []float64{1, -1})
	if e.PSD {
		t.Error("[[0 1] [1 0]] taken for semidefinite")
	}
}

func TestEigSymErrors(t *testing.T) {
	a := mat.Identity(3)
	a.Set(0, 2, math.NaN())
	if _, err := EigSym(a, nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	// Only the upper triangle is read.
	b := mat.Identity(3)
	b.Set(2, 0, math.Inf(1))
	if _, err := EigSym(b, nil); err != nil {
		t.Errorf("Inf in the lower triangle: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("non-square matrix did not panic")
		}
	}()
	EigSym(mat.Zeros(2, 3), nil)
}

// TestCompleteRows: the completion of n-1 orthonormal rows whose missing
// direction is spread over all coordinates (no unit vector keeps half of
// its norm outside their span, which an earlier version required).
func TestCompleteRows(t *testing.T) {
	for _, n := range []int{2, 5, 32, 100} {
		// Rows: an orthonormal basis of the complement of (1, ..., 1).
		w := mat.Zeros(n, n)
		for i := 0; i < n-1; i++ {
			row := w.RawRow(i)
			// Helmert basis: (1, ..., 1, -(i+1), 0, ...) normalized.
			for j := 0; j <= i; j++ {
				row[j] = 1
			}
			row[i+1] = -float64(i + 1)
			s := math.Sqrt(float64((i + 1) * (i + 2)))
			for j := range row {
				row[j] /= s
			}
		}
		have := make([]bool, n)
		for i := 0; i < n-1; i++ {
			have[i] = true
		}
		completeRows(w, have)
		if r := mattest.OrthColsRatio(w.T()); !(r <= ratioLimit) {
			t.Errorf("n=%d: rows not orthonormal after completion (ratio %.3g)", n, r)
		}
	}
}
