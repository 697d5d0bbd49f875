package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// bdcLimit bounds the scaled residuals of bidiagSVD:
// ||B - U S Vᵀ||_1 / (||B||_1 n eps), ||I - UᵀU||_1 / (n eps),
// ||I - VᵀV||_1 / (n eps), and max_i |s_i - ref_i| / (n eps s_1) against
// the reference values (tgkValues) and between values-only and vectors.
const bdcLimit = 10

// bidiagCase returns the diagonal and superdiagonal of an n x n upper
// bidiagonal test matrix of the given kind, seeded by n and the kind.
func bidiagCase(kind string, n int) (d, e []float64) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(len(kind))*7919+uint64(kind[0])))
	d = make([]float64, n)
	e = make([]float64, max(n-1, 0))
	for i := range d {
		d[i] = r.NormFloat64()
	}
	for i := range e {
		e[i] = r.NormFloat64()
	}
	switch kind {
	case "random":
	case "graded": // 10^-i down the diagonal (to 1e-250)
		for i := range d {
			g := math.Pow(10, -float64(min(i, 250)))
			d[i] *= g
			if i < len(e) {
				e[i] *= g
			}
		}
	case "rgraded": // 10^-i up the diagonal (to 1e-250)
		for i := range d {
			g := math.Pow(10, -float64(min(n-1-i, 250)))
			d[i] *= g
			if i < len(e) {
				e[i] *= g
			}
		}
	case "smooth": // 10^-15 spread smoothly over the matrix
		for i := range d {
			g := math.Pow(10, -15*float64(i)/float64(max(n-1, 1)))
			d[i] = math.Abs(d[i]) * g
			if i < len(e) {
				e[i] *= g
			}
		}
	case "clustered": // all values near 1, many equal
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			if i%3 == 0 {
				e[i] *= 1e-9
			} else {
				e[i] = 0
			}
		}
	case "near": // d = 1 with a tiny coupling: a tight cluster
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			e[i] *= 1e-12
		}
	case "zerod": // zero diagonal entries
		for i := range d {
			if i%5 == 2 || i == n-1 {
				d[i] = 0
			}
		}
	case "zeroe": // zero superdiagonal entries: splits
		for i := range e {
			if i%7 == 3 {
				e[i] = 0
			}
		}
	case "ones": // d = e = 1: the values 2cos(kπ/(2n+1)), distinct
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			e[i] = 1
		}
	case "wilkinson": // d_i = |i - (n-1)/2|, e = 1: close pairs of values
		for i := range d {
			d[i] = math.Abs(float64(i) - float64(n-1)/2)
		}
		for i := range e {
			e[i] = 1
		}
	case "zero":
		clear(d)
		clear(e)
	case "huge": // near the overflow threshold
		for i := range d {
			d[i] *= 1e300
		}
		for i := range e {
			e[i] *= 1e300
		}
	default:
		panic("bidiagCase: unknown kind " + kind)
	}
	return d, e
}

// bidiagDense returns B as a dense matrix.
func bidiagDense(d, e []float64) *mat.Dense {
	n := len(d)
	b := mat.Zeros(n, n)
	for i := 0; i < n; i++ {
		b.Set(i, i, d[i])
		if i < n-1 {
			b.Set(i, i+1, e[i])
		}
	}
	return b
}

// tgkValues returns the singular values of B in descending order as the
// n largest eigenvalues of the Golub-Kahan matrix, the 2n x 2n symmetric
// tridiagonal with zero diagonal and off-diagonal d0, e0, d1, e1, ...,
// whose eigenvalues are ±s_i: a reference that shares no code with
// bidiagSVD. Up to n = 100 the eigenvalues are those of the Jacobi method
// (EigSym, EigJacobi) on the dense matrix, beyond by the implicit QL
// method (tql), whose errors reach a few n eps ||B||.
func tgkValues(t *testing.T, d, e []float64) []float64 {
	n := len(d)
	if n == 0 {
		return nil
	}
	// Scaled by a power of two near 1/max|B| (exact), so that the
	// squares do not overflow.
	var bmax float64
	for _, x := range append(slices.Clone(d), e...) {
		bmax = max(bmax, math.Abs(x))
	}
	_, ex := math.Frexp(bmax)
	td := make([]float64, 2*n)
	te := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		te[2*i] = math.Ldexp(d[i], -ex)
		if i < n-1 {
			te[2*i+1] = math.Ldexp(e[i], -ex)
		}
	}
	if n <= 100 {
		a := mat.Zeros(2*n, 2*n)
		for i := 0; i < 2*n-1; i++ {
			a.Set(i, i+1, te[i])
			a.Set(i+1, i, te[i])
		}
		eig, err := EigSym(a, &EigOptions{Method: EigJacobi})
		if err != nil {
			t.Fatal(err)
		}
		copy(td, eig.Values)
	} else if !tql(td, te, nil, 0, 0, 100) {
		t.Fatal("tql did not converge on the Golub-Kahan matrix")
	}
	slices.Sort(td)
	slices.Reverse(td)
	for i := range td {
		td[i] = math.Ldexp(td[i], ex)
	}
	return td[:n]
}

// checkBidiag runs bidiagSVD with vectors and values only on (d, e) and
// checks the order, the residual, the orthogonality and the values, as
// bdcLimit says.
func checkBidiag(t *testing.T, d0, e0 []float64) {
	t.Helper()
	n := len(d0)
	b := bidiagDense(d0, e0)
	ref := tgkValues(t, d0, e0)
	d := slices.Clone(d0)
	e := slices.Clone(e0)
	ut := make([]float64, n*n)
	vt := make([]float64, n*n)
	if !bidiagSVD(d, e, ut, vt, n) {
		t.Fatal("bidiagSVD did not converge")
	}
	dv := slices.Clone(d0)
	ev := slices.Clone(e0)
	if !bidiagSVD(dv, ev, nil, nil, n) {
		t.Fatal("bidiagSVD (values only) did not converge")
	}
	for i := 0; i < n; i++ {
		if !(d[i] >= 0) || (i > 0 && d[i] > d[i-1]) {
			t.Fatalf("values not nonnegative and descending at %d: %v", i, d[:min(n, 8)])
		}
		if !(dv[i] >= 0) || (i > 0 && dv[i] > dv[i-1]) {
			t.Fatalf("values only: not nonnegative and descending at %d", i)
		}
	}
	if n == 0 {
		return
	}
	var s1 float64
	if n > 0 {
		s1 = ref[0]
	}
	scale := float64(n) * eps * s1
	var errRef, errVal float64
	for i := 0; i < n; i++ {
		errRef = max(errRef, math.Abs(d[i]-ref[i]))
		errVal = max(errVal, math.Abs(dv[i]-d[i]))
	}
	if s1 == 0 {
		if errRef != 0 || errVal != 0 {
			t.Fatalf("zero matrix: values %v, values only %v", d, dv)
		}
	} else {
		if r := errRef / scale; !(r <= bdcLimit) {
			t.Errorf("values vs reference: %.3g n eps s1, limit %d", r, bdcLimit)
		}
		if r := errVal / scale; !(r <= bdcLimit) {
			t.Errorf("values only vs with vectors: %.3g n eps s1, limit %d", r, bdcLimit)
		}
	}
	u := mat.New(n, n, ut).T()
	v := mat.New(n, n, vt).T()
	_, ex := math.Frexp(b.NormMax())
	resid, norm := mattest.FactorResidual(b, u, d, v, ex)
	if norm == 0 {
		norm = 1
	}
	t.Logf("residual %.3g, orthogonality %.3g %.3g, values %.3g, values only %.3g",
		resid/norm/float64(n)/eps, mattest.OrthColsRatio(u), mattest.OrthColsRatio(v), errRef/scale, errVal/scale)
	if r := mattest.OrthColsRatio(u); !(r <= bdcLimit) {
		t.Errorf("||I - UᵀU|| = %.3g n eps, limit %d", r, bdcLimit)
	}
	if r := mattest.OrthColsRatio(v); !(r <= bdcLimit) {
		t.Errorf("||I - VᵀV|| = %.3g n eps, limit %d", r, bdcLimit)
	}
	if r := resid / norm / float64(n) / eps; !(r <= bdcLimit) {
		t.Errorf("||B - U S Vᵀ|| / (||B|| n eps) = %.3g, limit %d", r, bdcLimit)
	}
}

func TestBidiagSVD(t *testing.T) {
	kinds := []string{"random", "graded", "rgraded", "smooth", "clustered", "near", "zerod", "zeroe", "ones", "wilkinson", "zero", "huge"}
	for _, n := range []int{0, 1, 2, 3, 25, 26, 51, 100, 500} {
		for _, kind := range kinds {
			if n == 500 && testing.Short() && kind != "random" {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", kind, n), func(t *testing.T) {
				d, e := bidiagCase(kind, n)
				checkBidiag(t, d, e)
			})
		}
	}
}

// TestBidiagSVDOneSide: with only one side asked for, that side is the
// same as when both are (the other is computed in scratch).
func TestBidiagSVDOneSide(t *testing.T) {
	const n = 120
	d0, e0 := bidiagCase("random", n)
	d, e := slices.Clone(d0), slices.Clone(e0)
	ut, vt := make([]float64, n*n), make([]float64, n*n)
	if !bidiagSVD(d, e, ut, vt, n) {
		t.Fatal("no convergence")
	}
	d1, e1 := slices.Clone(d0), slices.Clone(e0)
	vt1 := make([]float64, n*n)
	if !bidiagSVD(d1, e1, nil, vt1, n) || !slices.Equal(d1, d) || !slices.Equal(vt1, vt) {
		t.Fatal("right vectors alone differ from both")
	}
	d2, e2 := slices.Clone(d0), slices.Clone(e0)
	ut2 := make([]float64, n*n)
	if !bidiagSVD(d2, e2, ut2, nil, n) || !slices.Equal(d2, d) || !slices.Equal(ut2, ut) {
		t.Fatal("left vectors alone differ from both")
	}
}

// TestBidiagSVDNotFinite: NaN or Inf in B is reported as false.
func TestBidiagSVDNotFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		d, e := bidiagCase("random", 40)
		e[17] = bad
		if bidiagSVD(d, e, make([]float64, 1600), make([]float64, 1600), 40) {
			t.Errorf("e[17] = %v: converged", bad)
		}
	}
}

// TestBdQR checks the leaf method on its own, on blocks larger than a
// leaf, with the same limits.
func TestBdQR(t *testing.T) {
	for _, kind := range []string{"random", "graded", "zerod", "zeroe", "clustered"} {
		const n = 60
		d0, e0 := bidiagCase(kind, n)
		d, e := slices.Clone(d0), slices.Clone(e0)
		ut, vt := mat.Identity(n), mat.Identity(n)
		if !bdQR(d, append(e, 0), ut.RawData(), n, n, vt.RawData(), n, n) {
			t.Fatalf("%s: no convergence", kind)
		}
		u, v := ut.T(), vt.T()
		if r := max(mattest.OrthColsRatio(u), mattest.OrthColsRatio(v)); !(r <= bdcLimit) {
			t.Errorf("%s: orthogonality %.3g n eps", kind, r)
		}
		b := bidiagDense(d0, e0)
		resid, norm := mattest.FactorResidual(b, u, d, v, 0)
		if r := resid / norm / n / eps; !(r <= bdcLimit) {
			t.Errorf("%s: residual %.3g", kind, r)
		}
	}
}

// TestBidiagSVDMixed draws 60 matrices of random order (26 to 160) whose
// entries mix Gaussian values, zeros, repeats and scales spread over 30
// orders of magnitude, so that merges meet zero middle rows, zero
// couplings, tiny and equal poles at every level.
func TestBidiagSVDMixed(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2026))
	for c := 0; c < 60; c++ {
		n := 26 + r.IntN(135)
		d := make([]float64, n)
		e := make([]float64, n-1)
		pick := func() float64 {
			switch r.IntN(6) {
			case 0:
				return 0
			case 1:
				return 1
			case 2:
				return math.Ldexp(r.NormFloat64(), -r.IntN(100))
			default:
				return r.NormFloat64()
			}
		}
		for i := range d {
			d[i] = pick()
		}
		for i := range e {
			e[i] = pick()
		}
		t.Run(fmt.Sprintf("case=%d/n=%d", c, n), func(t *testing.T) { checkBidiag(t, d, e) })
	}
}

// TestBidiagSVDWorkers: the result has the same bits for 1, 2, 3, 8 and
// 64 workers (GOMAXPROCS 64; the halves, each with its part of the
// scratch, the secular equations and GEMM in parallel, and the top merge
// on a team, whose products are cut into pieces of rows). The random
// case keeps most poles at the top merge, so that its products have
// several pieces; the ones case deflates many; at n = 60 the top merge
// has fewer poles than 64 workers (which once divided by zero).
func TestBidiagSVDWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(64))
	for _, c := range []struct {
		kind string
		n    int
	}{{"ones", 400}, {"random", 400}, {"random", 60}, {"random", 120}} {
		kind, n := c.kind, c.n
		d0, e0 := bidiagCase(kind, n)
		run := func(workers int) (d, ut, vt []float64) {
			defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(workers))
			d, e := slices.Clone(d0), slices.Clone(e0)
			ut, vt = make([]float64, n*n), make([]float64, n*n)
			if !bidiagSVD(d, e, ut, vt, n) {
				t.Fatalf("%s, n = %d: no convergence", kind, n)
			}
			return d, ut, vt
		}
		d1, u1, v1 := run(1)
		for _, w := range []int{2, 3, 8, 64} {
			dw, uw, vw := run(w)
			if !slices.Equal(d1, dw) || !slices.Equal(u1, uw) || !slices.Equal(v1, vw) {
				t.Fatalf("%s, n = %d: one worker and %d give different bits", kind, n, w)
			}
		}
	}
}

// TestBDCSplit: bdcVectors on B scaled by 2^40 and bdcSplit's parts in
// either order, the first half on a goroutine of its own or not, give
// bidiagSVD's bits on B scaled back by 2^40 (bidiagSVD's scaling by a
// power of two carries through the divide and conquer, whose leaves and
// merges scale themselves); so do the parts with one worker and with
// several.
func TestBDCSplit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
	for _, c := range []struct {
		kind string
		n    int
	}{{"random", 260}, {"clustered", 200}, {"graded", 120}, {"ones", 61}} {
		kind, n := c.kind, c.n
		d0, e0 := bidiagCase(kind, n)
		want, wantU, wantV := slices.Clone(d0), make([]float64, n*n), make([]float64, n*n)
		if !bidiagSVD(want, slices.Clone(e0), wantU, wantV, n) {
			t.Fatalf("%s, n = %d: no convergence", kind, n)
		}
		scaled := func() (d, e []float64) {
			d, e = slices.Clone(d0), slices.Clone(e0)
			for i := range d {
				d[i] = math.Ldexp(d[i], 40)
			}
			for i := range e {
				e[i] = math.Ldexp(e[i], 40)
			}
			return d, e
		}
		check := func(how string, d, ut, vt []float64) {
			t.Helper()
			for i := range d {
				d[i] = math.Ldexp(d[i], -40)
			}
			if !slices.Equal(d, want) || !slices.Equal(ut, wantU) || !slices.Equal(vt, wantV) {
				t.Fatalf("%s, n = %d, %s: not bidiagSVD's bits", kind, n, how)
			}
		}
		for _, workers := range []int{1, 4} {
			kernels.SetMaxWorkers(workers)
			d, e := scaled()
			ut, vt := make([]float64, n*n), make([]float64, n*n)
			if !bdcVectors(d, e, ut, vt, n, nil) {
				t.Fatalf("%s, n = %d: bdcVectors did not converge", kind, n)
			}
			check(fmt.Sprintf("bdcVectors on %d workers", workers), d, ut, vt)
			for _, order := range []string{"first, second", "second, first", "at once"} {
				d, e := scaled()
				// Garbage where the parts clear, and in the scratch.
				ut, vt := slices.Repeat([]float64{7}, n*n), slices.Repeat([]float64{-3}, n*n)
				s := newBDCSplit(d, e, ut, vt, n, slices.Repeat([]float64{5}, 4*n*n))
				var ok1, ok2 bool
				switch order {
				case "first, second":
					ok1 = s.first()
					ok2 = s.second()
				case "second, first":
					ok2 = s.second()
					ok1 = s.first()
				default:
					done := make(chan struct{})
					go func() { ok1 = s.first(); close(done) }()
					ok2 = s.second()
					<-done
				}
				if !ok1 || !ok2 {
					t.Fatalf("%s, n = %d, %s: no convergence", kind, n, order)
				}
				s.finish()
				check(fmt.Sprintf("%s on %d workers", order, workers), d, ut, vt)
			}
		}
	}
}

// TestBidiagValuesRelative: the values alone (dqds) have high relative
// accuracy on graded matrices, whose smallest values are 1e-90 of the
// largest: Π s_i = Π |d_i| exactly, and the ratio of the two products,
// formed with the exponents apart (no underflow) in 2n roundings, is
// checked to be 1 within 10 n eps (an absolute error of eps*s_1 in the
// small values would be off by orders of magnitude).
func TestBidiagValuesRelative(t *testing.T) {
	for _, n := range []int{30, 200} {
		for _, kind := range []string{"graded-rows", "graded-cols"} {
			r := rand.New(rand.NewPCG(uint64(n), 99))
			d := make([]float64, n)
			e := make([]float64, n-1)
			for i := range d {
				g := math.Pow(10, -90*float64(i)/float64(n-1))
				if kind == "graded-cols" {
					g = math.Pow(10, -90*float64(n-1-i)/float64(n-1))
				}
				d[i] = (1 + r.Float64()) * g
				if i < n-1 {
					e[i] = r.NormFloat64() * g
				}
			}
			d0 := slices.Clone(d)
			if !bidiagSVD(d, e, nil, nil, n) {
				t.Fatalf("%s n=%d: no convergence", kind, n)
			}
			ratio, ex := 1.0, 0
			for i := range d {
				var k int
				ratio, k = math.Frexp(ratio * d[i] / d0[i])
				ex += k
			}
			ratio = math.Ldexp(ratio, ex)
			if r := math.Abs(ratio-1) / (float64(n) * eps); !(r <= 10) {
				t.Errorf("%s n=%d: Π s_i / Π |d_i| - 1 = %.3g n eps", kind, n, r)
			}
		}
	}
}

// TestDqdsConverges: dqds itself (not the QR method it falls back on)
// converges within its budget on every kind of test matrix (its accuracy
// is checked through bidiagSVD by checkBidiag and
// TestBidiagValuesRelative).
func TestDqdsConverges(t *testing.T) {
	for _, kind := range []string{"random", "graded", "rgraded", "smooth", "clustered", "near", "zeroe", "ones", "huge"} {
		for _, n := range []int{2, 3, 26, 300} {
			d0, e0 := bidiagCase(kind, n)
			d, e := slices.Clone(d0), slices.Clone(e0)
			_, ex := math.Frexp(max(slices.Max(d), -slices.Min(d)))
			for i := range d {
				d[i] = math.Ldexp(d[i], -ex)
			}
			for i := range e {
				e[i] = math.Ldexp(e[i], -ex)
			}
			if !dqdsValues(d, e) {
				t.Errorf("%s n=%d: dqds did not converge", kind, n)
			}
		}
	}
}
