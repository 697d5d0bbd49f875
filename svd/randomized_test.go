package svd

import (
	"context"
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

// decaying returns an m x n matrix with singular values 1, 1/2, 1/4, ...
// (decaying geometrically), and those values.
func decaying(m, n int, rnd *rand.Rand) (*mat.Dense, []float64) {
	d := make([]float64, min(m, n))
	for i := range d {
		d[i] = math.Pow(0.5, float64(i))
	}
	return fuzz.Latms(rnd, m, n, d), d
}

// ctx is the context of the tests that do not cancel.
var ctx = context.Background()

func TestRandomized(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, s := range [][2]int{{200, 60}, {60, 200}, {120, 120}} {
		a, d := decaying(s[0], s[1], rnd)
		k := 8
		r, err := Randomized(ctx, DenseOperator(a), k, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.S) != k {
			t.Fatalf("%d values", len(r.S))
		}
		for i := 0; i < k; i++ {
			// With 10 extra directions and 2 power iterations the top
			// values of a spectrum halving at each step are exact to
			// rounding.
			if math.Abs(r.S[i]-d[i]) > 1e-12 {
				t.Errorf("%v: S[%d] = %v, want %v", s, i, r.S[i], d[i])
			}
		}
		if x := mattest.OrthColsRatio(r.U); !(x <= ratioLimit) {
			t.Errorf("U orthogonality %.3g", x)
		}
		if x := mattest.OrthColsRatio(r.V); !(x <= ratioLimit) {
			t.Errorf("V orthogonality %.3g", x)
		}
		// ||A - U S Vᵀ|| is about the (k+1)-th singular value.
		us := r.U.Clone()
		for i := 0; i < s[0]; i++ {
			for j := 0; j < k; j++ {
				us.Set(i, j, us.At(i, j)*r.S[j])
			}
		}
		var res mat.Dense
		res.MulBT(us, r.V)
		res.Sub(&res, a)
		if e := res.NormFrob(); e > 1.01*fuzz.ExactNorm(d[k:]) {
			t.Errorf("%v: error %v, optimal %v", s, e, fuzz.ExactNorm(d[k:]))
		}
	}
}

// TestRangeFinderFunc uses a matrix-free symmetric operator: a low-rank
// plus diagonal "moment" matrix applied without forming it.
func TestRangeFinderFunc(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 1))
	n, k := 300, 5
	f := mat.Zeros(n, k) // M = F Fᵀ + 1e-3 I
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			f.Set(i, j, rnd.NormFloat64())
		}
	}
	op := SymOperator(n, func(_ context.Context, x *mat.Dense) (*mat.Dense, error) {
		var ftx, y mat.Dense
		ftx.MulAT(f, x)
		y.Mul(f, &ftx)
		y.AddScaled(&y, 1e-3, x)
		return &y, nil
	})
	e, err := RandomizedEigSym(ctx, op, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	var g mat.Dense
	g.GramCols(f)
	want, err := EigSym(&g, &EigOptions{ValuesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < k; i++ {
		if w := want.Values[i] + 1e-3; math.Abs(e.Values[i]-w) > 1e-9*w {
			t.Errorf("eigenvalue %d: %v, want %v", i, e.Values[i], w)
		}
	}
	// M v = λ v for each returned pair.
	mv, err := op.Mul(ctx, e.Vectors)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < k; j++ {
		var r float64
		for i := 0; i < n; i++ {
			r = math.Max(r, math.Abs(mv.At(i, j)-e.Values[j]*e.Vectors.At(i, j)))
		}
		if r > 1e-9*e.Values[0] {
			t.Errorf("pair %d: residual %v", j, r)
		}
	}
	if x := mattest.OrthColsRatio(e.Vectors); !(x <= ratioLimit) {
		t.Errorf("orthogonality %.3g", x)
	}
	// RangeFinder alone, with no power iterations, needs only Mul.
	q, err := RangeFinder(ctx, Operator{Rows: n, Cols: n, Mul: op.Mul}, k, &RandomizedOptions{PowerIters: -1, Oversample: -1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, c := q.Dims(); c != k {
		t.Errorf("RangeFinder gave %d columns, want %d", c, k)
	}
}

// TestRandomizedEigSymIndefinite keeps the eigenvalues of largest
// magnitude, of both signs.
func TestRandomizedEigSymIndefinite(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 8))
	n := 100
	d := make([]float64, n)
	for i := range d {
		d[i] = 1e-6 * float64(i+1)
	}
	d[0], d[1], d[2] = 10, -8, 5
	a := fuzz.LatmsSym(rnd, d)
	e, err := RandomizedEigSym(ctx, DenseOperator(a), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{10, 5, -8}
	for i := range want {
		if math.Abs(e.Values[i]-want[i]) > 1e-9 {
			t.Errorf("values %v, want %v", e.Values, want)
			break
		}
	}
}

func TestRandomizedDeterministic(t *testing.T) {
	a, _ := decaying(80, 50, rand.New(rand.NewPCG(1, 1)))
	r1, _ := Randomized(ctx, DenseOperator(a), 5, &RandomizedOptions{Seed: 2})
	r2, _ := Randomized(ctx, DenseOperator(a), 5, &RandomizedOptions{Seed: 2})
	if !slices.Equal(r1.S, r2.S) || !mat.Equal(r1.U, r2.U) || !mat.Equal(r1.V, r2.V) {
		t.Error("same seed, different results")
	}
	r3, _ := Randomized(ctx, DenseOperator(a), 5, &RandomizedOptions{Seed: 3})
	if mat.Equal(r1.U, r3.U) {
		t.Error("Seed 2 and Seed 3 give the same bits: the seed is not used")
	}
}

func TestRandomizedErrors(t *testing.T) {
	bad := mat.Identity(4)
	bad.Set(1, 1, math.NaN())
	if _, err := Randomized(ctx, DenseOperator(bad), 2, &RandomizedOptions{Seed: 1}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("k > min(m, n) did not panic")
		}
	}()
	RangeFinder(ctx, DenseOperator(mat.Zeros(3, 5)), 4, &RandomizedOptions{Seed: 1})
}

func TestPseudoInverseAndSolve(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	for _, c := range []struct{ m, n, r int }{{6, 4, 4}, {4, 6, 4}, {10, 8, 3}, {8, 10, 0}, {30, 30, 29}} {
		var a mat.Dense
		if c.r == 0 {
			a = *mat.Zeros(c.m, c.n)
		} else {
			x, y := mat.Zeros(c.m, c.r), mat.Zeros(c.r, c.n)
			for i := 0; i < c.m; i++ {
				for j := 0; j < c.r; j++ {
					x.Set(i, j, rnd.NormFloat64())
				}
			}
			for i := 0; i < c.r; i++ {
				for j := 0; j < c.n; j++ {
					y.Set(i, j, rnd.NormFloat64())
				}
			}
			a.Mul(x, y)
		}
		var p mat.Dense
		rank, err := PseudoInverse(&p, &a, 0)
		if err != nil || rank != c.r {
			t.Fatalf("%v: rank %d, %v", c, rank, err)
		}
		// Penrose conditions.
		var ap, pa, apa, pap mat.Dense
		ap.Mul(&a, &p)
		pa.Mul(&p, &a)
		apa.Mul(&ap, &a)
		pap.Mul(&pa, &p)
		apa.Sub(&apa, &a)
		pap.Sub(&pap, &p)
		an, pn := a.Norm1(), p.Norm1()
		k := max(c.m, c.n)
		for _, v := range []float64{
			testutil.Scaled(apa.Norm1(), an*an*pn, k), testutil.Scaled(pap.Norm1(), pn*pn*an, k),
			testutil.Scaled(mattest.Asym(&ap), an*pn, k), testutil.Scaled(mattest.Asym(&pa), an*pn, k),
		} {
			record("pinv Penrose", v)
			if !(v <= ratioLimit) {
				t.Errorf("%v: Penrose ratio %.3g", c, v)
			}
		}
		// Solve agrees with P*B.
		b := mat.Zeros(c.m, 2)
		for i := 0; i < c.m; i++ {
			b.Set(i, 0, rnd.NormFloat64())
			b.Set(i, 1, rnd.NormFloat64())
		}
		s, _ := Factorize(&a, nil)
		var x, px mat.Dense
		if _, err := s.Solve(&x, b, 0); err != nil {
			t.Fatal(err)
		}
		px.Mul(&p, b)
		px.Sub(&px, &x)
		if v := testutil.Scaled(px.Norm1(), pn*b.Norm1(), k); !(v <= ratioLimit) {
			t.Errorf("%v: Solve differs from pinv*B: ratio %.3g", c, v)
		}
	}
}
