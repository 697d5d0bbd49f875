package svd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/mat"
)

// indefinite returns an n x n symmetric matrix whose k largest eigenvalues
// are 1, 0.9, ..., with 20 negative eigenvalues from -5 to -2 (larger in
// magnitude than every positive one) and the rest small of both signs, as
// in the empirical Pairs of real text; and its sorted spectrum.
func indefinite(n, k int, rnd *rand.Rand) (*mat.Dense, []float64) {
	d := make([]float64, n)
	for i := 0; i < k; i++ {
		d[i] = 1 - 0.1*float64(i)
	}
	for i := k; i < k+20; i++ {
		d[i] = -5 + 3*float64(i-k)/19
	}
	for i := k + 20; i < n; i++ {
		d[i] = 0.05 * (2*rnd.Float64() - 1)
	}
	a := fuzz.LatmsSym(rnd, d)
	slices.Sort(d)
	slices.Reverse(d)
	return a, d
}

// TestTopEigSymIndefinite: the randomized eigensolver keeps the negative
// eigenvalues of largest magnitude; TopEigSym finds the k algebraically
// largest, with scaled residuals and orthonormality at the tolerance.
func TestTopEigSymIndefinite(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	const n, k = 300, 8
	a, d := indefinite(n, k, rnd)
	op := DenseOperator(a)

	old, err := RandomizedEigSym(ctx, op, k, &RandomizedOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if old.Values[k-1] >= 0 {
		t.Fatalf("the old method found no negative eigenvalue (%v): the test no longer shows the difference", old.Values)
	}

	e, err := TopEigSym(ctx, op, k, &TopEigOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d products, residuals %.3g", e.Products, e.Residuals)
	if !e.Converged || e.Products < 2 {
		t.Fatalf("converged %v after %d products", e.Converged, e.Products)
	}
	norm := 5.0 // ||A||
	for i := 0; i < k; i++ {
		// Eigenvalue error is at most the squared residual over the gap
		// (0.1 here): far below 1e-8 at the default tolerance 1e-6.
		if err := math.Abs(e.Values[i] - d[i]); err > 1e-8*norm {
			t.Errorf("eigenvalue %d: %v, want %v", i, e.Values[i], d[i])
		}
	}
	// ||A V - V Lambda||_F / ||A|| and ||I - V^T V||_F / eps.
	var av, vl mat.Dense
	av.Mul(a, e.Vectors)
	vl.Mul(e.Vectors, mat.Diag(e.Values))
	av.Sub(&av, &vl)
	if r := av.NormFrob() / norm; r > 1e-5 {
		t.Errorf("relative residual %.3g, want at most 1e-5", r)
	}
	var g mat.Dense
	g.MulAT(e.Vectors, e.Vectors)
	g.Sub(&g, mat.Identity(k))
	if o := g.NormFrob() / 2.2e-16; o > 1000 {
		t.Errorf("||I - V^T V|| = %.3g eps, want at most 1000 eps", o)
	}
	if len(e.Block) < k || e.Block[k-1] != e.Values[k-1] {
		t.Errorf("block %v does not start with the values", e.Block)
	}

	// Same seed, same bits.
	e2, _ := TopEigSym(ctx, op, k, &TopEigOptions{Seed: 5})
	if !slices.Equal(e.Values, e2.Values) || !mat.Equal(e.Vectors, e2.Vectors) {
		t.Error("same seed, different results")
	}
	// The Seed names the starting block: another one starts elsewhere,
	// which shows in the last bits of the converged vectors.
	e3, _ := TopEigSym(ctx, op, k, &TopEigOptions{Seed: 6})
	if mat.Equal(e.Vectors, e3.Vectors) {
		t.Error("Seed 5 and Seed 6 give the same bits: the seed is not used")
	}
}

// TestTopEigSymSmall covers a block as large as the matrix and a
// negative definite matrix.
func TestTopEigSymSmall(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	d := []float64{-1, -2, -3, -4, -5, -6}
	a := fuzz.LatmsSym(rnd, d)
	e, err := TopEigSym(ctx, DenseOperator(a), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.Values[0]+1) > 1e-12 || math.Abs(e.Values[1]+2) > 1e-12 {
		t.Errorf("values %v, want [-1 -2]", e.Values)
	}
}

func TestTopEigSymErrors(t *testing.T) {
	bad := mat.Identity(4)
	bad.Set(1, 1, math.NaN())
	if _, err := TopEigSym(ctx, DenseOperator(bad), 2, &TopEigOptions{Seed: 1}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	// Options out of range are errors naming the option, never silent
	// defaults, and no product is made.
	calls := 0
	counted := Operator{Rows: 4, Cols: 4, Mul: func(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
		calls++
		return x.Clone(), nil
	}}
	for _, c := range []struct {
		name string
		o    TopEigOptions
	}{
		{"TopEigOptions.MaxIter", TopEigOptions{MaxIter: -1}},
		{"TopEigOptions.Tol", TopEigOptions{Tol: math.NaN()}},
		{"TopEigOptions.Tol", TopEigOptions{Tol: -1e-6}},
		{"TopEigOptions.Tol", TopEigOptions{Tol: math.Inf(1)}},
		{"TopEigOptions.Tol", TopEigOptions{Tol: 1}},
	} {
		e, err := TopEigSym(ctx, counted, 2, &c.o)
		if !errors.Is(err, ErrBadOption) || e != nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%+v: result %v, err %v, want ErrBadOption naming %s", c.o, e, err, c.name)
		}
	}
	if calls != 0 {
		t.Errorf("%d products made for bad options, want 0", calls)
	}
	// One step cannot converge on a dense spectrum: the error says so
	// and the approximation still comes back.
	a, _ := indefinite(300, 8, rand.New(rand.NewPCG(9, 9)))
	e, err := TopEigSym(ctx, DenseOperator(a), 8, &TopEigOptions{MaxIter: 1, Oversample: -1, Seed: 1})
	if !errors.Is(err, ErrNoConvergence) || e == nil || e.Converged {
		t.Errorf("MaxIter 1: err %v, result %v", err, e)
	}
}

// TestTopEigSymDropsDirections: on an operator of low rank the new
// search directions lose columns in the first round of orthAgainst, and
// the second round must start from the smaller block (the reused
// products panicked with "MulAT: destination is 13x20, result is
// 13x14" on the 33-word vocabulary of a small corpus).
func TestTopEigSymDropsDirections(t *testing.T) {
	for _, rank := range []int{1, 2, 4, 8, 14, 16, 18} {
		n := 33
		r := rand.New(rand.NewPCG(uint64(rank), 7))
		b := mat.Zeros(n, rank)
		for i := 0; i < n; i++ {
			for j := 0; j < rank; j++ {
				b.Set(i, j, r.NormFloat64())
			}
		}
		a := mat.Zeros(n, n)
		a.MulBT(b, b)
		a.Symmetrize()
		k := min(3, rank)
		e, err := TopEigSym(ctx, DenseOperator(a), k, &TopEigOptions{Seed: 1})
		if err != nil {
			t.Fatalf("rank %d: %v", rank, err)
		}
		full, err := EigSym(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < k; j++ {
			if d := e.Values[j] - full.Values[j]; d > 1e-10*full.Values[0] || -d > 1e-10*full.Values[0] {
				t.Errorf("rank %d: value %d is %v, want %v", rank, j, e.Values[j], full.Values[j])
			}
		}
	}
}

// TestOperatorErrors: an operator's error and a cancelled context come
// back from each method as they are, and no method calls the operator
// after them.
func TestOperatorErrors(t *testing.T) {
	d := make([]float64, 20)
	for i := range d {
		d[i] = float64(i + 1)
	}
	a := mat.Diag(d) // more than one product to converge
	boom := errors.New("pass failed")
	calls := 0
	failing := SymOperator(20, func(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
		calls++
		if calls == 2 {
			return nil, boom
		}
		return DenseOperator(a).Mul(ctx, x)
	})
	if _, err := TopEigSym(ctx, failing, 2, nil); err != boom {
		t.Errorf("TopEigSym: error %v, want the operator's", err)
	}
	if calls != 2 {
		t.Errorf("TopEigSym called the operator %d times, want 2 (none after its error)", calls)
	}
	calls = 0
	if _, err := RandomizedEigSym(ctx, failing, 2, nil); err != boom {
		t.Errorf("RandomizedEigSym: error %v, want the operator's", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := TopEigSym(cancelled, DenseOperator(a), 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("TopEigSym with a cancelled context: error %v, want context.Canceled", err)
	}
	if _, err := Randomized(cancelled, DenseOperator(a), 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Randomized with a cancelled context: error %v, want context.Canceled", err)
	}
	wrong := SymOperator(20, func(_ context.Context, x *mat.Dense) (*mat.Dense, error) {
		return mat.Zeros(3, 3), nil
	})
	defer func() {
		if r := recover(); r == nil {
			t.Error("a product of the wrong shape did not panic")
		}
	}()
	TopEigSym(ctx, wrong, 2, nil)
}

// TestOrthAgainst: the result is orthonormal and orthogonal to x within
// 100 eps (one round alone misses this on the dependent columns), for columns far from span x, columns within 1e-9
// of it (cancellation) and nearly dependent columns (an ill-conditioned
// SVQB), and keeps the directions of s outside span x.
func TestOrthAgainst(t *testing.T) {
	const n, kx, ks = 200, 10, 8
	r := rand.New(rand.NewPCG(21, 22))
	x, err := orthCols(gaussian(n, kx, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	noise := func(scale float64) *mat.Dense {
		g := mat.Zeros(n, ks)
		for i := 0; i < n; i++ {
			for j := 0; j < ks; j++ {
				g.Set(i, j, scale*r.NormFloat64())
			}
		}
		return g
	}
	far := noise(1)
	near := mat.Zeros(n, ks)
	near.Mul(x, gaussian(kx, ks, 3, 4))
	near.Add(near, noise(1e-9))
	dep := noise(1)
	for i := 0; i < n; i++ {
		row := dep.RawRow(i)
		row[1] = row[0] + 1e-5*r.NormFloat64()
	}
	for _, c := range []struct {
		name string
		s    *mat.Dense
	}{{"far", far}, {"near", near}, {"dependent", dep}} {
		s, err := orthAgainst(c.s.Clone(), x, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, m := s.Dims()
		if m != ks {
			t.Errorf("%s: %d columns, want %d", c.name, m, ks)
		}
		var g, xs mat.Dense
		g.MulAT(s, s)
		g.Sub(&g, mat.Identity(m))
		xs.MulAT(x, s)
		if o := g.NormFrob() / 2.2e-16; o > 100 {
			t.Errorf("%s: ||I - S^T S|| = %.3g eps, want at most 100 eps", c.name, o)
		}
		if o := xs.NormFrob() / 2.2e-16; o > 100 {
			t.Errorf("%s: ||X^T S|| = %.3g eps, want at most 100 eps", c.name, o)
		}
	}
}

// TestTopEigSymWarmStart: after a rank-one change of the operator, the
// previous solve's Basis with the changed direction in its last column
// starts a solve that converges in fewer products than a Gaussian start,
// to the same eigenvalues; a Start of fewer columns than the block is
// completed, and bad Starts are errors.
func TestTopEigSymWarmStart(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	const n, k = 300, 8
	a, _ := indefinite(n, k, rnd)
	e0, err := TopEigSym(ctx, DenseOperator(a), k, &TopEigOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Basis: orthonormal, one column per Block value, Vectors first.
	if _, l := e0.Basis.Dims(); l != len(e0.Block) || !mat.Equal(e0.Basis.Slice(0, n, 0, k), e0.Vectors) {
		t.Fatalf("Basis has %d columns for %d block values, or does not start with Vectors", l, len(e0.Block))
	}
	var g mat.Dense
	g.MulAT(e0.Basis, e0.Basis)
	g.Sub(&g, mat.Identity(len(e0.Block)))
	if o := g.NormFrob() / 2.2e-16; o > 1000 {
		t.Errorf("||I - Basis^T Basis|| = %.3g eps", o)
	}
	// a2 = a - 0.2 u u^T, u a unit vector with weight on the top
	// eigenvectors and the rest.
	u := make([]float64, n)
	for i := range u {
		u[i] = rnd.NormFloat64()
	}
	for j := 0; j < k; j++ {
		col := make([]float64, n)
		e0.Vectors.Col(col, j)
		for i := range u {
			u[i] += 3 * col[i]
		}
	}
	var nu float64
	for _, v := range u {
		nu += v * v
	}
	a2 := a.Clone()
	for i := 0; i < n; i++ {
		row := a2.RawRow(i)
		for j := range row {
			row[j] -= 0.2 * u[i] * u[j] / nu
		}
	}
	op := DenseOperator(a2)
	cold, err := TopEigSym(ctx, op, k, &TopEigOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	_, l := e0.Basis.Dims()
	start := mat.Zeros(n, l)
	start.Slice(0, n, 0, l-1).Copy(e0.Basis.Slice(0, n, 0, l-1))
	start.SetCol(l-1, u)
	warm, err := TopEigSym(ctx, op, k, &TopEigOptions{Seed: 5, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("products: cold %d, warm %d", cold.Products, warm.Products)
	// The default block: k + max(10, k/2) columns cold, k + max(5, k/4)
	// from a Start.
	if len(cold.Block) != k+10 || len(warm.Block) != k+5 {
		t.Errorf("block widths: cold %d, warm %d, want %d and %d", len(cold.Block), len(warm.Block), k+10, k+5)
	}
	if !warm.Converged || warm.Products >= cold.Products {
		t.Errorf("warm start: converged %v in %d products, cold %d", warm.Converged, warm.Products, cold.Products)
	}
	for i := 0; i < k; i++ {
		// Both within the squared residual (1e-6 relative) over the gap
		// (0.1) of the true values: 1e-10 apart at most, ||A|| about 5.
		if d := math.Abs(warm.Values[i] - cold.Values[i]); d > 5e-10 {
			t.Errorf("value %d: warm %v, cold %v", i, warm.Values[i], cold.Values[i])
		}
	}
	// Fewer columns than the block: completed by Gaussian ones.
	few, err := TopEigSym(ctx, op, k, &TopEigOptions{Seed: 5, Start: e0.Vectors.Slice(0, n, 0, 3).Clone()})
	if err != nil || !few.Converged || math.Abs(few.Values[0]-cold.Values[0]) > 5e-10 {
		t.Errorf("a 3-column Start: err %v, values %v, want %v", err, few.Values, cold.Values)
	}
	bad := start.Clone()
	bad.Set(2, 2, math.NaN())
	for _, s := range []*mat.Dense{mat.Zeros(n-1, l), bad} {
		if e, err := TopEigSym(ctx, op, k, &TopEigOptions{Start: s}); !errors.Is(err, ErrBadOption) || e != nil || !strings.Contains(err.Error(), "TopEigOptions.Start") {
			t.Errorf("bad Start: result %v, err %v, want ErrBadOption naming TopEigOptions.Start", e, err)
		}
	}
}
