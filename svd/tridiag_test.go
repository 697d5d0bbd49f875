package svd

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// tridiagLimit bounds the scaled residuals of the tridiagonal method:
// ||A*V - V*Λ||_1 / (n eps ||A||_1), ||VᵀV - I||_1 / (n eps) and
// max |λ_i - want_i| / (n eps max|want|).
const tridiagLimit = 10

// checkEigOpts runs EigSym(a, opts) and checks the residual, the
// orthogonality, the order and (when want is not nil) the eigenvalues,
// each scaled as tridiagLimit says; it returns the decomposition.
func checkEigOpts(t *testing.T, a *mat.Dense, want []float64, opts *EigOptions) *Eigen {
	t.Helper()
	n, _ := a.Dims()
	e, err := EigSym(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Values) != n {
		t.Fatalf("%d eigenvalues, want %d", len(e.Values), n)
	}
	for i := 1; i < n; i++ {
		if !(e.Values[i] <= e.Values[i-1]) {
			t.Fatalf("eigenvalues not decreasing at %d: %v > %v", i, e.Values[i], e.Values[i-1])
		}
	}
	if n == 0 {
		return e
	}
	// A*V - V*Λ, in a copy scaled by a power of two near 1/max|A|.
	_, ex := math.Frexp(a.NormMax())
	var as, av mat.Dense
	as.ScalePow2(-ex, symmetricFromUpper(a))
	av.Mul(&as, e.Vectors)
	for i := 0; i < n; i++ {
		row := av.RawRow(i)
		vrow := e.Vectors.RawRow(i)
		for j := range row {
			row[j] -= vrow[j] * math.Ldexp(e.Values[j], -ex)
		}
	}
	nrm := as.Norm1()
	if nrm == 0 {
		nrm = 1
	}
	res := av.Norm1() / nrm / float64(n) / eps
	orth := mattest.OrthColsRatio(e.Vectors)
	record("tridiag residual", res)
	record("tridiag orthogonality", orth)
	if !(res <= tridiagLimit) {
		t.Errorf("||AV - VΛ|| ratio %.3g", res)
	}
	if !(orth <= tridiagLimit) {
		t.Errorf("||VᵀV - I|| ratio %.3g", orth)
	}
	if want != nil {
		big := math.Max(math.Abs(want[0]), math.Abs(want[n-1]))
		var w float64
		for i := range want {
			w = math.Max(w, math.Abs(e.Values[i]-want[i]))
		}
		if big > 0 {
			w /= big
		}
		v := w / float64(n) / eps
		record("tridiag values (absolute)", v)
		if !(v <= tridiagLimit) {
			t.Errorf("eigenvalues: ratio %.3g", v)
		}
	}
	vo := *opts
	vo.ValuesOnly = true
	vals, err := EigSym(a, &vo)
	if err != nil || vals.Vectors != nil {
		t.Fatalf("ValuesOnly: %v, vectors %v", err, vals.Vectors != nil)
	}
	// The values alone come from the QL method, those with the vectors
	// from divide and conquer above its leaf size: they agree to the
	// accuracy of either.
	var dv, big float64
	for i, v := range vals.Values {
		dv = math.Max(dv, math.Abs(v-e.Values[i]))
		big = math.Max(big, math.Abs(v))
	}
	if big > 0 {
		dv /= big
	}
	if r := dv / float64(n) / eps; !(r <= tridiagLimit) {
		t.Errorf("ValuesOnly differs: ratio %.3g", r)
	}
	return e
}

// symmetricFromUpper returns the symmetric matrix of a's upper triangle.
func symmetricFromUpper(a *mat.Dense) *mat.Dense {
	s, ok := symmetricCopy(a, 0)
	if !ok {
		panic("symmetricFromUpper: not finite")
	}
	return s
}

// withSpectrum returns Q*diag(d)*Qᵀ for a random orthogonal Q, and d
// sorted decreasingly.
func withSpectrum(rnd *rand.Rand, d []float64) (*mat.Dense, []float64) {
	a := fuzz.LatmsSym(rnd, d)
	want := slices.Clone(d)
	slices.SortFunc(want, func(x, y float64) int { return cmp.Compare(y, x) })
	return a, want
}

var tridiagOpts = &EigOptions{Method: EigTridiagonal}

// TestEigTridiagonalSpectra: random symmetric matrices, ±1 in equal
// halves, clusters, graded spectra and diagonal matrices, for n = 1, 2, 3,
// 50, 200 and 500.
func TestEigTridiagonalSpectra(t *testing.T) {
	sizes := []int{1, 2, 3, 50, 200, 500}
	if testing.Short() {
		sizes = sizes[:5]
	}
	for _, n := range sizes {
		rnd := rand.New(rand.NewPCG(uint64(n), 17))
		t.Run(fmt.Sprintf("random/n=%d", n), func(t *testing.T) {
			a := mattest.RandDense(rnd, n, n)
			checkEigOpts(t, a, nil, tridiagOpts)
		})
		t.Run(fmt.Sprintf("pm1/n=%d", n), func(t *testing.T) {
			d := make([]float64, n)
			for i := range d {
				d[i] = 1
				if i%2 == 1 {
					d[i] = -1
				}
			}
			a, want := withSpectrum(rnd, d)
			checkEigOpts(t, a, want, tridiagOpts)
		})
		t.Run(fmt.Sprintf("clustered/n=%d", n), func(t *testing.T) {
			// Three clusters of width 1e-12 around 1, -1 and 1e-3.
			d := make([]float64, n)
			for i := range d {
				d[i] = []float64{1, -1, 1e-3}[i%3] + 1e-12*rnd.Float64()
			}
			a, want := withSpectrum(rnd, d)
			checkEigOpts(t, a, want, tridiagOpts)
		})
		t.Run(fmt.Sprintf("graded/n=%d", n), func(t *testing.T) {
			d := make([]float64, n)
			for i := range d {
				d[i] = math.Pow(10, -20*float64(i)/float64(max(n-1, 1)))
				if i%2 == 1 {
					d[i] = -d[i]
				}
			}
			a, want := withSpectrum(rnd, d)
			checkEigOpts(t, a, want, tridiagOpts)
		})
		t.Run(fmt.Sprintf("diagonal/n=%d", n), func(t *testing.T) {
			a := mat.Zeros(n, n)
			d := make([]float64, n)
			for i := range d {
				d[i] = math.Ldexp(rnd.NormFloat64(), -3*i%60)
				a.Set(i, i, d[i])
			}
			want := slices.Clone(d)
			slices.SortFunc(want, func(x, y float64) int { return cmp.Compare(y, x) })
			checkEigOpts(t, a, want, tridiagOpts)
		})
	}
}

// TestEigTridiagonalGrid runs the tridiagonal method on the dlatms-style
// grid of TestEigSymGrid.
func TestEigTridiagonalGrid(t *testing.T) {
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
					case 1:
						for i := range d {
							if rnd.IntN(2) == 0 {
								d[i] = -d[i]
							}
						}
					case 2:
						for i := range d {
							d[i] *= -1e280
						}
					}
					a, want := withSpectrum(rnd, d)
					name := fuzz.TestMatrix{Rows: n, Cols: n, Mode: mode, Cond: cond}.String()
					t.Run(name, func(t *testing.T) { checkEigOpts(t, a, want, tridiagOpts) })
				}
			}
		}
	}
}

// TestEigTridiagonalSpecial: the zero matrix, n = 0, NaN input, a bad
// Method, and EigAuto's choice.
func TestEigTridiagonalSpecial(t *testing.T) {
	for _, n := range []int{0, 1, 5, 130} {
		e, err := EigSym(mat.Zeros(n, n), tridiagOpts)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(e.Vectors, mat.Identity(n)) || slices.ContainsFunc(e.Values, func(x float64) bool { return x != 0 }) {
			t.Errorf("zero %dx%d: values %v, vectors not the identity", n, n, e.Values)
		}
	}
	a := mat.Identity(4)
	a.Set(1, 3, math.NaN())
	if _, err := EigSym(a, tridiagOpts); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	b := mat.Identity(200)
	b.Set(0, 199, math.Inf(-1))
	if _, err := EigSym(b, nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf at n = 200: %v", err)
	}
	for _, m := range []EigMethod{-1, EigTridiagonal + 1} {
		if _, err := EigSym(a, &EigOptions{Method: m}); !errors.Is(err, ErrBadOption) {
			t.Errorf("Method %d: %v", m, err)
		}
	}
	// EigAuto: Jacobi below TridiagonalMin (which finds a positive
	// definite matrix so), the tridiagonal method from there on.
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{TridiagonalMin - 1, TridiagonalMin} {
		g := mattest.RandDense(rnd, n, n+2)
		var p mat.Dense
		p.GramRows(g)
		e := checkEigOpts(t, &p, nil, &EigOptions{})
		if jac := n < TridiagonalMin; e.PSD != jac || (e.Sweeps > 0) != jac {
			t.Errorf("n = %d: PSD %v, %d sweeps: wrong method", n, e.PSD, e.Sweeps)
		}
	}
}

// TestTridiagDC checks divide and conquer on tridiagonal matrices that
// stress its deflation and root finding: Wilkinson's W+ (pairs of
// eigenvalues equal to many digits), glued copies of it, a constant
// diagonal with tiny couplings, couplings that are exactly zero, graded
// entries and a random matrix. ||T*Z - Z*Λ||_1 / (n eps ||T||_1) and
// ||ZᵀZ - I||_1 / (n eps) must be at most tridiagLimit.
func TestTridiagDC(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 1))
	type tcase struct {
		name string
		d, e []float64
	}
	var cases []tcase
	wilk := func(m int) ([]float64, []float64) {
		d := make([]float64, 2*m+1)
		e := make([]float64, 2*m+1)
		for i := range d {
			d[i] = math.Abs(float64(i - m))
			e[i] = 1
		}
		return d, e
	}
	d, e := wilk(50)
	cases = append(cases, tcase{"wilkinson101", d, e})
	{
		var gd, ge []float64
		for g := 0; g < 8; g++ {
			d, e := wilk(10)
			e[len(e)-1] = 1e-10
			gd, ge = append(gd, d...), append(ge, e...)
		}
		cases = append(cases, tcase{"glued", gd, ge})
	}
	for _, c := range []struct {
		name string
		n    int
		f    func(i int) (float64, float64)
	}{
		{"tiny-couplings", 150, func(i int) (float64, float64) { return 1, 1e-14 * rnd.Float64() }},
		{"split", 120, func(i int) (float64, float64) {
			if i%17 == 0 {
				return rnd.NormFloat64(), 0
			}
			return rnd.NormFloat64(), rnd.NormFloat64()
		}},
		{"graded", 100, func(i int) (float64, float64) {
			return math.Pow(10, -float64(i)/5), math.Pow(10, -float64(i)/5-0.1)
		}},
		{"random", 700, func(i int) (float64, float64) { return rnd.NormFloat64(), rnd.NormFloat64() }},
		{"equal", 90, func(i int) (float64, float64) { return 2, 1 }},
	} {
		d := make([]float64, c.n)
		e := make([]float64, c.n)
		for i := range d {
			d[i], e[i] = c.f(i)
		}
		cases = append(cases, tcase{c.name, d, e})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.d)
			c.e[n-1] = 0
			tm := mat.Zeros(n, n)
			for i := 0; i < n; i++ {
				tm.Set(i, i, c.d[i])
				if i+1 < n {
					tm.Set(i, i+1, c.e[i])
					tm.Set(i+1, i, c.e[i])
				}
			}
			lam := slices.Clone(c.d)
			zt := make([]float64, n*n)
			if !tridiagDC(lam, slices.Clone(c.e), zt, n) {
				t.Fatal("no convergence")
			}
			z := mat.New(n, n, zt).T() // columns are the eigenvectors
			var tz mat.Dense
			tz.Mul(tm, z)
			for i := 0; i < n; i++ {
				row, zr := tz.RawRow(i), z.RawRow(i)
				for j := range row {
					row[j] -= zr[j] * lam[j]
				}
			}
			res := tz.Norm1() / tm.Norm1() / float64(n) / eps
			orth := mattest.OrthColsRatio(z)
			record("dc residual", res)
			record("dc orthogonality", orth)
			if !(res <= tridiagLimit) || !(orth <= tridiagLimit) {
				t.Errorf("n = %d: residual ratio %.3g, orthogonality ratio %.3g", n, res, orth)
			}
		})
	}
}

// TestSecularScaled: the rank-one eigenproblem scaled by 2^-300 (d and
// rho; exactly) has the same eigenvectors and the eigenvalues scaled,
// which exercises the guarded products of the Gu-Eisenstat vectors.
func TestSecularScaled(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	const K = 60
	d := make([]float64, K)
	z := make([]float64, K)
	x := 0.0
	for i := range d {
		x += 1e-3 + rnd.Float64()/K
		d[i] = x
		z[i] = rnd.NormFloat64() / math.Sqrt(K)
	}
	pos := make([]int, K)
	for i := range pos {
		pos[i] = i
	}
	lam, ut := make([]float64, K), make([]float64, K*K)
	secularVectors(d, z, 0.7, lam, ut, pos)
	ds := make([]float64, K)
	for i := range d {
		ds[i] = math.Ldexp(d[i], -300)
	}
	lams, uts := make([]float64, K), make([]float64, K*K)
	secularVectors(ds, z, math.Ldexp(0.7, -300), lams, uts, pos)
	var dl, dv float64
	for i := range lam {
		dl = math.Max(dl, math.Abs(math.Ldexp(lams[i], 300)-lam[i])/math.Abs(lam[i]))
	}
	for i := range ut {
		dv = math.Max(dv, math.Abs(uts[i]-ut[i]))
	}
	u := mat.New(K, K, ut)
	if orth := mattest.OrthColsRatio(u.T()); !(orth <= tridiagLimit) || !(dl <= 100*eps) || !(dv <= 100*eps) {
		t.Errorf("orthogonality ratio %.3g; scaled: values differ by %.3g eps, vectors by %.3g eps", orth, dl/eps, dv/eps)
	}
}

// TestReduceTridiagPanels checks the reduction and the back-transformation
// directly at orders around the panel width (tridiagBlock, also the
// block of the back-transformation), where the last panel is partial or
// empty, and at 450, where the product with the
// trailing matrix switches from its upper triangle and band to the full
// square (symvFull): with Qᵀ = I*Qᵀ from applyRight,
// ||QᵀQ - I||_1 / (n eps) and ||Qᵀ*A*Q - T||_1 / (n eps ||A||_1) must be
// at most tridiagLimit; and applyRight told of rows with trailing zeros
// (ends) must give what it gives without being told, to within rounding.
func TestReduceTridiagPanels(t *testing.T) {
	for _, n := range []int{3, 4, 5, 31, 32, 33, 34, 35, 36, 64, 66, 67, 98, 129, 450} {
		rnd := rand.New(rand.NewPCG(uint64(n), 23))
		a := symmetricFromUpper(mattest.RandDense(rnd, n, n))
		tr := reduceTridiag(a.Clone().RawData(), n)
		qt := mat.Identity(n)
		tr.applyRight(n, qt.RawData(), n, nil)
		var aq, qaq mat.Dense
		aq.Mul(a, qt.T())
		qaq.Mul(qt, &aq)
		for i := 0; i < n; i++ {
			qaq.Set(i, i, qaq.At(i, i)-tr.d[i])
			if i+1 < n {
				qaq.Set(i, i+1, qaq.At(i, i+1)-tr.e[i])
				qaq.Set(i+1, i, qaq.At(i+1, i)-tr.e[i])
			}
		}
		res := qaq.Norm1() / a.Norm1() / float64(n) / eps
		orth := mattest.OrthColsRatio(qt)
		record("tridiag reduction residual", res)
		if !(res <= tridiagLimit) || !(orth <= tridiagLimit) {
			t.Errorf("n = %d: ||QᵀAQ - T|| ratio %.3g, ||QᵀQ - I|| ratio %.3g", n, res, orth)
		}
		// Rows with trailing zeros: row i ends at n - i*n/(n+1) (non-increasing).
		c := mat.Zeros(n, n)
		ends := make([]int, n)
		for i := range ends {
			ends[i] = n - i*n/(n+1)
			for j := 0; j < ends[i]; j++ {
				c.Set(i, j, rnd.NormFloat64())
			}
		}
		c2 := c.Clone()
		tr.applyRight(n, c.RawData(), n, ends)
		tr.applyRight(n, c2.RawData(), n, nil)
		var diff mat.Dense
		diff.Sub(c, c2)
		if d := diff.NormMax() / c2.NormMax(); !(d <= float64(n)*eps) {
			t.Errorf("n = %d: applyRight with ends differs by %.3g relative", n, d)
		}
	}
}
