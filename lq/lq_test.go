package lq

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// ratioLimit is the largest LAPACK-style scaled residual accepted; the
// LAPACK test suite uses 30-50, and well-implemented factorizations stay
// below 10.
const ratioLimit = 50

// shapes is the grid of matrix shapes: empty, vectors, square, wide and
// tall, sizes around the block size.
var shapes = [][2]int{
	{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {5, 3},
	{10, 10}, {25, 25}, {31, 33}, {33, 31}, {32, 32}, {40, 100}, {100, 40}, {70, 70},
	// Blocked factorizations and products (more than 64 reflectors, long
	// reflectors), and the tall and wide shapes of the SVD grid.
	{100, 100}, {150, 130}, {130, 150}, {300, 20}, {20, 300}, {400, 40},
}

var conds = []float64{1, 1e3, 1e8, 1e15}

// grid calls f for every shape, mode and condition number of the test
// grid (fewer in -short runs), with a deterministic seed per case.
func grid(t *testing.T, f func(t *testing.T, a *mat.Dense, sv []float64)) {
	sh := shapes
	if testing.Short() {
		sh = shapes[:13]
	}
	for si, s := range sh {
		for _, mode := range fuzz.Modes {
			for ci, cond := range conds {
				tm := fuzz.TestMatrix{Rows: s[0], Cols: s[1], Mode: mode, Cond: cond}
				rnd := rand.New(rand.NewPCG(uint64(si), uint64(int(mode)*10+ci)))
				a, sv := tm.Generate(rnd)
				t.Run(tm.String(), func(t *testing.T) { f(t, a, sv) })
			}
		}
	}
}

// worstRatio is the largest ratio any check saw, printed with -v.
var worstRatio float64

// bad reports whether a ratio fails (NaN fails) and records it.
func bad(r float64) bool {
	if r > worstRatio || r != r {
		worstRatio = r
	}
	return !(r <= ratioLimit)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if testing.Verbose() {
		fmt.Printf("worst LAPACK-style ratio in lq tests: %.3g\n", worstRatio)
	}
	os.Exit(code)
}

func TestLQ(t *testing.T) {
	grid(t, func(t *testing.T, a *mat.Dense, _ []float64) {
		m, n := a.Dims()
		f, err := Factorize(a)
		if err != nil {
			t.Fatal(err)
		}
		var l, q, qf mat.Dense
		f.L(&l)
		f.Q(&q)
		f.QFull(&qf)
		k := min(m, n)
		if r, c := l.Dims(); r != m || c != k {
			t.Fatalf("L is %dx%d, want %dx%d", r, c, m, k)
		}
		for i := 0; i < m; i++ {
			for j := i + 1; j < k; j++ {
				if l.At(i, j) != 0 {
					t.Fatalf("L[%d][%d] = %v above the diagonal", i, j, l.At(i, j))
				}
			}
		}
		var lq mat.Dense
		lq.Mul(&l, &q)
		lq.Sub(&lq, a)
		if r := testutil.Scaled(lq.Norm1(), a.Norm1(), n); bad(r) {
			t.Errorf("||A - LQ|| ratio %.3g", r)
		}
		if r := mattest.OrthRowsRatio(&q); bad(r) {
			t.Errorf("||I - QQᵀ|| ratio %.3g", r)
		}
		if r := mattest.OrthRowsRatio(&qf); bad(r) {
			t.Errorf("||I - Q_full Q_fullᵀ|| ratio %.3g", r)
		}
		// MulQ and MulQT agree with the explicit Q_full.
		rnd := rand.New(rand.NewPCG(7, 7))
		c := mattest.RandDense(rnd, n, 3)
		var want, got mat.Dense
		want.Mul(&qf, c)
		f.MulQ(&got, c)
		got.Sub(&got, &want)
		if r := testutil.Scaled(got.Norm1(), c.Norm1(), n); bad(r) {
			t.Errorf("MulQ ratio %.3g", r)
		}
		want.Reset()
		got.Reset()
		want.MulAT(&qf, c)
		f.MulQT(c, c) // in place
		got.Sub(c, &want)
		if r := testutil.Scaled(got.Norm1(), want.Norm1(), n); bad(r) {
			t.Errorf("MulQT ratio %.3g", r)
		}
	})
}

func TestQR(t *testing.T) {
	grid(t, func(t *testing.T, a *mat.Dense, _ []float64) {
		m, n := a.Dims()
		f, err := FactorizeQR(a)
		if err != nil {
			t.Fatal(err)
		}
		var r, q mat.Dense
		f.R(&r)
		f.Q(&q)
		k := min(m, n)
		if rr, rc := r.Dims(); rr != k || rc != n {
			t.Fatalf("R is %dx%d, want %dx%d", rr, rc, k, n)
		}
		for i := 0; i < k; i++ {
			for j := 0; j < i; j++ {
				if r.At(i, j) != 0 {
					t.Fatalf("R[%d][%d] = %v below the diagonal", i, j, r.At(i, j))
				}
			}
		}
		var qr mat.Dense
		qr.Mul(&q, &r)
		qr.Sub(&qr, a)
		if x := testutil.Scaled(qr.Norm1(), a.Norm1(), m); bad(x) {
			t.Errorf("||A - QR|| ratio %.3g", x)
		}
		if x := mattest.OrthRowsRatio(q.T()); bad(x) {
			t.Errorf("||I - QᵀQ|| ratio %.3g", x)
		}
		var qf, qtq mat.Dense
		f.QFull(&qf)
		qtq.MulAT(&qf, a) // Q_fullᵀ A = [R; 0]
		f.MulQT(a.Clone(), a)
		var got mat.Dense
		f.MulQT(&got, a)
		got.Sub(&got, &qtq)
		if x := testutil.Scaled(got.Norm1(), a.Norm1(), m); bad(x) {
			t.Errorf("MulQT ratio %.3g", x)
		}
		var back mat.Dense
		f.MulQ(&back, &qtq)
		back.Sub(&back, a)
		if x := testutil.Scaled(back.Norm1(), a.Norm1(), m); bad(x) {
			t.Errorf("MulQ ratio %.3g", x)
		}
	})
}

func TestPivotedLQ(t *testing.T) {
	grid(t, func(t *testing.T, a *mat.Dense, sv []float64) {
		m, n := a.Dims()
		f, err := FactorizePivoted(a)
		if err != nil {
			t.Fatal(err)
		}
		var l, q mat.Dense
		f.L(&l)
		f.Q(&q)
		pa := mat.Zeros(m, n)
		seen := make([]bool, m)
		for i, p := range f.Perm() {
			if seen[p] {
				t.Fatalf("Perm %v is not a permutation", f.Perm())
			}
			seen[p] = true
			pa.SetRow(i, a.RawRow(p))
		}
		var lq mat.Dense
		lq.Mul(&l, &q)
		lq.Sub(&lq, pa)
		if r := testutil.Scaled(lq.Norm1(), a.Norm1(), n); bad(r) {
			t.Errorf("||PᵀA - LQ|| ratio %.3g", r)
		}
		if r := mattest.OrthRowsRatio(&q); bad(r) {
			t.Errorf("||I - QQᵀ|| ratio %.3g", r)
		}
		// The diagonal decreases, up to the rounding of the norm
		// downdates.
		for i := 1; i < min(m, n); i++ {
			if d0, d1 := math.Abs(l.At(i-1, i-1)), math.Abs(l.At(i, i)); d1 > d0*(1+1e-6) {
				t.Errorf("|L[%d][%d]| = %v > |L[%d][%d]| = %v", i, i, d1, i-1, i-1, d0)
			}
		}
	})
}

// TestRank builds matrices of known rank r and checks that the pivoted
// factorization and the least-squares solver find r.
func TestRank(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ m, n, r int }{{5, 5, 0}, {6, 4, 1}, {4, 6, 2}, {30, 20, 7}, {20, 30, 20}, {50, 50, 49}} {
		a := lowRank(rnd, c.m, c.n, c.r)
		f, err := FactorizePivoted(a)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Rank(0); got != c.r {
			t.Errorf("%dx%d of rank %d: Rank = %d", c.m, c.n, c.r, got)
		}
		var x mat.Dense
		rank, err := LeastSquares(&x, a, mattest.RandDense(rnd, c.m, 2), 0)
		if err != nil || rank != c.r {
			t.Errorf("%dx%d of rank %d: LeastSquares rank %d, %v", c.m, c.n, c.r, rank, err)
		}
		cs, _ := ColSpace(a, 0)
		rs, _ := RowSpace(a, 0)
		if r1, c1 := cs.Dims(); r1 != c.m || c1 != c.r {
			t.Errorf("ColSpace is %dx%d, want %dx%d", r1, c1, c.m, c.r)
		}
		if r1, c1 := rs.Dims(); r1 != c.r || c1 != c.n {
			t.Errorf("RowSpace is %dx%d, want %dx%d", r1, c1, c.r, c.n)
		}
		if c.r > 0 {
			// A = P_col A and A = A P_row: the bases span the spaces.
			var p, pa mat.Dense
			p.MulBT(cs, cs)
			pa.Mul(&p, a)
			pa.Sub(&pa, a)
			if x := testutil.Scaled(pa.Norm1(), a.Norm1(), c.m); bad(x) {
				t.Errorf("ColSpace projection ratio %.3g", x)
			}
			p.Reset()
			pa.Reset()
			p.MulAT(rs, rs)
			pa.Mul(a, &p)
			pa.Sub(&pa, a)
			if x := testutil.Scaled(pa.Norm1(), a.Norm1(), c.n); bad(x) {
				t.Errorf("RowSpace projection ratio %.3g", x)
			}
			if x := mattest.OrthRowsRatio(cs.T()); bad(x) {
				t.Errorf("ColSpace orthonormality ratio %.3g", x)
			}
			if x := mattest.OrthRowsRatio(rs); bad(x) {
				t.Errorf("RowSpace orthonormality ratio %.3g", x)
			}
		}
	}
}

func lowRank(rnd *rand.Rand, m, n, r int) *mat.Dense {
	var a mat.Dense
	a.Mul(mattest.RandDense(rnd, m, r), mattest.RandDense(rnd, r, n))
	if a.IsEmpty() {
		return mat.Zeros(m, n)
	}
	return &a
}

// TestSolve checks the full-rank solvers: the least-squares residual is
// orthogonal to the range of A, and the minimum-norm solution lies in the
// row space of A and solves the system.
func TestSolve(t *testing.T) {
	grid(t, func(t *testing.T, a *mat.Dense, sv []float64) {
		m, n := a.Dims()
		if m == 0 || n == 0 || sv[len(sv)-1]/sv[0] < 1e-10 {
			return // only well-posed problems
		}
		rnd := rand.New(rand.NewPCG(uint64(m), uint64(n)))
		b := mattest.RandDense(rnd, m, 2)
		var x mat.Dense
		if m >= n {
			f, _ := FactorizeQR(a)
			if err := f.Solve(&x, b); err != nil {
				t.Fatal(err)
			}
		} else {
			f, _ := Factorize(a)
			if err := f.Solve(&x, b); err != nil {
				t.Fatal(err)
			}
		}
		checkLeastSquares(t, a, b, &x, sv[len(sv)-1]/sv[0])
		// The general solver agrees.
		var y mat.Dense
		if _, err := LeastSquares(&y, a, b, 0); err != nil {
			t.Fatal(err)
		}
		checkLeastSquares(t, a, b, &y, sv[len(sv)-1]/sv[0])
	})
}

// checkLeastSquares checks the normal equations Aᵀ(AX - B) = 0 and, for
// wide A, that X is in the row space (X = Aᵀ Y for the Y solving A Aᵀ Y = B,
// tested as: X is orthogonal to the null space, via the LQ's Q_full).
func checkLeastSquares(t *testing.T, a, b, x *mat.Dense, rcond float64) {
	t.Helper()
	m, n := a.Dims()
	var r, g mat.Dense
	r.Mul(a, x)
	r.Sub(&r, b)
	g.MulAT(a, &r)
	// ||Aᵀ r|| <= ~eps ||A|| (||A|| ||X|| + ||B||) ... scaled by ||A||^2 ||X||.
	bound := a.Norm1() * (a.Norm1()*x.Norm1() + b.Norm1())
	if v := testutil.Scaled(g.Norm1(), bound, max(m, n)); bad(v) {
		t.Errorf("normal equations ratio %.3g (cond %.1e)", v, 1/rcond)
	}
	if m < n {
		f, _ := Factorize(a)
		var qx mat.Dense
		f.MulQ(&qx, x) // Q_full X: rows m.. must vanish
		tail := qx.Slice(m, n, 0, 2)
		if v := testutil.Scaled(tail.Norm1(), x.Norm1(), n) * rcond; bad(v) {
			t.Errorf("minimum-norm solution has a null-space part: ratio %.3g", v)
		}
	}
}

// TestPseudoInverse checks the four Penrose conditions on rank-deficient
// matrices.
func TestPseudoInverse(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ m, n, r int }{{1, 1, 1}, {4, 4, 0}, {8, 5, 3}, {5, 8, 3}, {40, 30, 30}, {30, 40, 12}} {
		t.Run(fmt.Sprintf("%dx%d-rank%d", c.m, c.n, c.r), func(t *testing.T) {
			a := lowRank(rnd, c.m, c.n, c.r)
			var x mat.Dense
			rank, err := PseudoInverse(&x, a, 0)
			if err != nil || rank != c.r {
				t.Fatalf("rank %d, err %v", rank, err)
			}
			checkPenrose(t, a, &x)
		})
	}
}

// checkPenrose checks the four Penrose conditions on the pseudo-inverse
// x of a, as ratios scaled by the norms of a and x.
func checkPenrose(t *testing.T, a, x *mat.Dense) {
	t.Helper()
	var ax, xa, axa, xax mat.Dense
	ax.Mul(a, x)
	xa.Mul(x, a)
	axa.Mul(&ax, a)
	xax.Mul(&xa, x)
	axa.Sub(&axa, a)
	xax.Sub(&xax, x)
	m, n := a.Dims()
	an, xn, k := a.Norm1(), x.Norm1(), max(m, n)
	for name, v := range map[string]float64{
		"AXA = A": testutil.Scaled(axa.Norm1(), an*an*xn, k),
		"XAX = X": testutil.Scaled(xax.Norm1(), xn*xn*an, k),
		"AX sym":  testutil.Scaled(mattest.Asym(&ax), an*xn, k),
		"XA sym":  testutil.Scaled(mattest.Asym(&xa), an*xn, k),
	} {
		if bad(v) {
			t.Errorf("%s: ratio %.3g", name, v)
		}
	}
}

func TestErrors(t *testing.T) {
	bad := mat.FromRows([][]float64{{1, math.NaN()}, {0, 1}})
	inf := mat.FromRows([][]float64{{1, 2}, {math.Inf(-1), 1}})
	for _, a := range []*mat.Dense{bad, inf} {
		if _, err := Factorize(a); !errors.Is(err, ErrNotFinite) {
			t.Errorf("Factorize: %v", err)
		}
		if _, err := FactorizeQR(a); !errors.Is(err, ErrNotFinite) {
			t.Errorf("FactorizeQR: %v", err)
		}
		if _, err := FactorizePivoted(a); !errors.Is(err, ErrNotFinite) {
			t.Errorf("FactorizePivoted: %v", err)
		}
		var x mat.Dense
		if _, err := LeastSquares(&x, a, mat.Identity(2), 0); !errors.Is(err, ErrNotFinite) {
			t.Errorf("LeastSquares: %v", err)
		}
		if _, err := LeastSquares(&x, mat.Identity(2), a, 0); !errors.Is(err, ErrNotFinite) {
			t.Errorf("LeastSquares (B): %v", err)
		}
	}
	sing := mat.FromRows([][]float64{{1, 2}, {2, 4}, {3, 6}})
	f, _ := FactorizeQR(sing)
	var x mat.Dense
	if err := f.Solve(&x, mat.Zeros(3, 1)); !errors.Is(err, ErrSingular) {
		t.Errorf("QR.Solve of a rank-1 matrix: %v", err)
	}
	g, _ := Factorize(mat.Zeros(2, 3))
	if err := g.Solve(&x, mat.Zeros(2, 1)); !errors.Is(err, ErrSingular) {
		t.Errorf("LQ.Solve of zero: %v", err)
	}
}

// TestZeroAndIdentity: exact inputs give exact factors.
func TestZeroAndIdentity(t *testing.T) {
	for _, n := range []int{1, 5, 40} {
		f, _ := Factorize(mat.Identity(n))
		var l, q mat.Dense
		f.L(&l)
		f.Q(&q)
		if !mat.Equal(&l, mat.Identity(n)) || !mat.Equal(&q, mat.Identity(n)) {
			t.Errorf("n=%d: LQ of I is not I*I", n)
		}
		z, _ := FactorizePivoted(mat.Zeros(n, n+2))
		var lz mat.Dense
		z.L(&lz)
		if lz.NormMax() != 0 || z.Rank(0) != 0 {
			t.Errorf("n=%d: LQ of zero has L = %v, rank %d", n, lz.NormMax(), z.Rank(0))
		}
	}
}

// rangeSolvers are the three solvers of TestSolveRange, for a square A.
var rangeSolvers = []struct {
	name  string
	solve func(a, b *mat.Dense) (*mat.Dense, error)
}{
	{"LQ.Solve", func(a, b *mat.Dense) (*mat.Dense, error) { return solveBy(Factorize(a))(b) }},
	{"QR.Solve", func(a, b *mat.Dense) (*mat.Dense, error) { return solveBy(FactorizeQR(a))(b) }},
	{"LeastSquares", func(a, b *mat.Dense) (*mat.Dense, error) {
		var x mat.Dense
		_, err := LeastSquares(&x, a, b, 0)
		return &x, err
	}},
}

// solveBy returns the solve by f of a factorization's result (f, err).
func solveBy[F interface{ Solve(dst, b *mat.Dense) error }](f F, err error) func(b *mat.Dense) (*mat.Dense, error) {
	return func(b *mat.Dense) (*mat.Dense, error) {
		if err != nil {
			return nil, err
		}
		var x mat.Dense
		return &x, f.Solve(&x, b)
	}
}

// TestSolveRange checks the solvers where the solve of the scaled factor
// overflows though the answer is in range: a matrix whose entries near
// the top of the range are scaled down by 2^-1024 (so that its small
// singular value becomes subnormal, and its inverse, scaled, past the
// range), a right-hand side near the top of the range, and a triangular
// factor whose updates overflow on their own (condition number 1e600).
// The answers are exact up to a few roundings; the limit is 8 eps
// relative, entry by entry. Where the answer itself is past the range,
// the solvers return ErrRange.
func TestSolveRange(t *testing.T) {
	huge, tiny := 0x1.8p1023, 0x1p-20+0x1p-40
	check := func(t *testing.T, got, want *mat.Dense) {
		t.Helper()
		r, c := want.Dims()
		if gr, gc := got.Dims(); gr != r || gc != c {
			t.Fatalf("result is %dx%d, want %dx%d", gr, gc, r, c)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				g, w := got.At(i, j), want.At(i, j)
				if !(math.Abs(g-w) <= 8*eps*math.Abs(w)) {
					t.Errorf("entry (%d, %d) = %v, want %v", i, j, g, w)
				}
			}
		}
	}
	t.Run("pseudo-inverse, subnormal pivot", func(t *testing.T) {
		// A (9x5) holds huge, 2^1000 and tiny at permuted places, with
		// signs; its pseudo-inverse holds their inverses at the
		// transposed places.
		a, want := mat.Zeros(9, 5), mat.Zeros(5, 9)
		for _, e := range []struct {
			i, j int
			v    float64
		}{{4, 2, huge}, {0, 4, -0x1p1000}, {7, 0, tiny}} {
			a.Set(e.i, e.j, e.v)
			want.Set(e.j, e.i, 1/e.v)
		}
		var x mat.Dense
		rank, err := PseudoInverse(&x, a, 5e-324)
		if err != nil || rank != 3 {
			t.Fatalf("rank %d, err %v", rank, err)
		}
		check(t, &x, want)
	})
	t.Run("triangle of condition 1e600", func(t *testing.T) {
		// L = [[1e-300, 0], [1e300, 1e300]]: L⁻¹ = [[1e300, 0], [-1e300,
		// 1e-300]], whose plain solve forms 1e300*1e300. No rank decision
		// keeps such a triangle, so solveScaled is called on it directly,
		// in both orientations, with exp = 0 and with exp = -2 (A was
		// scaled up by 4).
		for _, exp := range []int{0, -2} {
			for _, upper := range []bool{false, true} {
				l := []float64{1e-300, 0, 1e300, 1e300}
				x := mat.Zeros(2, 2)
				if err := solveScaled(2, l, 2, upper, mat.Identity(2), x, exp); err != nil {
					t.Fatal(err)
				}
				want := mat.FromRows([][]float64{{1 / 1e-300, 0}, {-1e300 / (1e-300 * 1e300), 1 / 1e300}})
				if upper { // (Lᵀ)⁻¹ = (L⁻¹)ᵀ
					want = want.T()
				}
				want.ScalePow2(-exp, want)
				check(t, x, want)
			}
		}
	})
	t.Run("no bits flushed", func(t *testing.T) {
		// L = [[1, 0, 0], [2^1000, 2^1000, 0], [0, 0, 1]] and B = (2^1000,
		// 0, 2^-20/3): the plain solve of row 1 forms 2^1000*2^1000, and
		// row 2, x2 = b2, depends on nothing else; a fallback that
		// rescaled the whole column flushed bits of x2 (found by review).
		// A second column, (2^-18, 2^11, 2^11), which the plain solve
		// gets right, must keep its bits.
		l := []float64{1, 0, 0, 0x1p1000, 0x1p1000, 0, 0, 0, 1}
		third := 0x1p-20 / 3
		b := mat.FromRows([][]float64{{0x1p1000, 0x1p-18}, {0, 0x1p11}, {third, 0x1p11}})
		want := mat.FromRows([][]float64{{0x1p1000, 0x1p-18}, {-0x1p1000, 0x1p-989 - 0x1p-18}, {third, 0x1p11}})
		x := mat.Zeros(3, 2)
		if err := solveScaled(3, l, 3, false, b, x, 0); err != nil {
			t.Fatal(err)
		}
		check(t, x, want)
		// Lᵀ = [[1, 2^1000, 0], [0, 2^1000, 0], [0, 0, 1]]: solved from
		// the last row up, x1 = b1/2^1000, x0 = b0 - 2^1000*x1.
		b = mat.FromRows([][]float64{{0, 0x1p11}, {0x1p1000, 0x1p-18}, {third, 0x1p11}})
		want = mat.FromRows([][]float64{{-0x1p1000, 0x1p11 - 0x1p-18}, {1, 0x1p-1018}, {third, 0x1p11}})
		x = mat.Zeros(3, 2)
		if err := solveScaled(3, l, 3, true, b, x, 0); err != nil {
			t.Fatal(err)
		}
		check(t, x, want)
	})
	t.Run("long chain", func(t *testing.T) {
		// A lower triangle of 38 rows, condition about 2^1600: A[0][0]
		// = 2^455, A[1][0] = A[1][1] = A[2][2] = 2^500, and A[j][j-1] =
		// 2^500, A[j][j] = 2^455 from j = 3; B = (2^1015, 0, 2^-480,
		// 0, ...). X = (2^560, -2^560, 2^-980, then each entry -2^45
		// times the one before): the plain solve overflows at the last
		// row, and a fallback that rescaled whole columns flushed
		// 2^-980 to zero and all the entries after it (found by review).
		const k = 38
		a, b, want := mat.Zeros(k, k), mat.Zeros(k, 1), mat.Zeros(k, 1)
		a.Set(0, 0, 0x1p455)
		a.Set(1, 0, 0x1p500)
		a.Set(1, 1, 0x1p500)
		a.Set(2, 2, 0x1p500)
		b.Set(0, 0, 0x1p1015)
		b.Set(2, 0, 0x1p-480)
		want.Set(0, 0, 0x1p560)
		want.Set(1, 0, -0x1p560)
		want.Set(2, 0, 0x1p-980)
		for j := 3; j < k; j++ {
			a.Set(j, j-1, 0x1p500)
			a.Set(j, j, 0x1p455)
			want.Set(j, 0, -0x1p45*want.At(j-1, 0))
		}
		f, err := Factorize(a)
		if err != nil {
			t.Fatal(err)
		}
		var x mat.Dense
		if err := f.Solve(&x, b); err != nil {
			t.Fatal(err)
		}
		check(t, &x, want)
		// The same system with rows and columns reversed: an upper
		// triangle, which QR.Solve solves by Lᵀ.
		rev := func(m *mat.Dense) *mat.Dense {
			r, c := m.Dims()
			out := mat.Zeros(r, c)
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					jj := j
					if c == k {
						jj = k - 1 - j
					}
					out.Set(k-1-i, jj, m.At(i, j))
				}
			}
			return out
		}
		g, err := FactorizeQR(rev(a))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Solve(&x, rev(b)); err != nil {
			t.Fatal(err)
		}
		check(t, &x, rev(want))
	})
	t.Run("subnormal right-hand side, matrix scaled up", func(t *testing.T) {
		// A = 0.75*2^-998 is scaled up before factoring; B = 2^-1074
		// must not be flushed in the scaled solve (it lost 25% before).
		f, err := Factorize(mat.FromRows([][]float64{{0.75 * 0x1p-998}}))
		if err != nil {
			t.Fatal(err)
		}
		var x mat.Dense
		if err := f.Solve(&x, mat.FromRows([][]float64{{0x1p-1074}})); err != nil {
			t.Fatal(err)
		}
		check(t, &x, mat.FromRows([][]float64{{0x1p-1074 / (0.75 * 0x1p-998)}}))
	})
	t.Run("norm past 2^512", func(t *testing.T) {
		// The rank test summed squares and called 2^512*I singular.
		a := mat.FromRows([][]float64{{0x1p900, 0}, {0, 0x1p900}})
		b := mat.FromRows([][]float64{{0x1p900}, {0x1p899}})
		want := mat.FromRows([][]float64{{1}, {0.5}})
		for _, sv := range rangeSolvers {
			x, err := sv.solve(a, b)
			if err != nil {
				t.Fatalf("%s: %v", sv.name, err)
			}
			check(t, x, want)
		}
	})
	t.Run("pivot rounded to zero", func(t *testing.T) {
		// Three rows near 1.4e-76, two of them equal, and one 9e-308
		// e_0: with rcond = 5e-324, rcond*|L[0][0]| underflows, every
		// nonzero pivot is kept, and one rounds to zero in the second
		// factorization, which panicked (found by fuzzing). The rank
		// ends there, and the result is a pseudo-inverse of that rank.
		c := 1.398043286095289e-76
		a := mat.Zeros(9, 8)
		for i := 0; i < 3; i++ {
			for j := 0; j < 8; j++ {
				a.Set(i, j, c)
			}
		}
		a.Set(0, 0, 1.398043286095311e-76)
		a.Set(0, 1, 1.4010794391029393e-76)
		a.Set(3, 0, 9.005004792076203e-308)
		var x mat.Dense
		rank, err := PseudoInverse(&x, a, 5e-324)
		if err != nil || rank < 2 || rank > 4 {
			t.Fatalf("rank %d, err %v", rank, err)
		}
		checkPenrose(t, a, &x)
	})
	t.Run("ErrRange", func(t *testing.T) {
		// Columns 1 and 2 are equal, so A has rank 2, but rcond =
		// 5e-324 keeps the rounding error of a third pivot (about 1e-323
		// at this scale): the pseudo-inverse of rank 3 is past the
		// range. (An input of FuzzPseudoInverse gave NaN here.)
		a := mat.FromRows([][]float64{
			{9.00501328006052e-308, 1.7765824089018436e-307, 1.7765824089018436e-307},
			{9.005021801198729e-308, 1.7765824089018436e-307, 1.7765824089018436e-307},
			{1.9956949210346207e-307, 0, 0},
		})
		x := mat.Zeros(1, 1)
		rank, err := PseudoInverse(x, a, 5e-324)
		if !errors.Is(err, ErrRange) || rank != 3 {
			t.Fatalf("rank %d, err %v; want rank 3 and ErrRange", rank, err)
		}
		if r, c := x.Dims(); r != 1 || c != 1 || x.At(0, 0) != 0 {
			t.Errorf("dst changed to %v", x)
		}
		// A right-hand side at the top of the range, and a solution 4
		// times past it.
		for _, sv := range rangeSolvers {
			_, err := sv.solve(mat.FromRows([][]float64{{0.25, 0}, {0, 1}}), mat.FromRows([][]float64{{math.MaxFloat64}, {1}}))
			if !errors.Is(err, ErrRange) {
				t.Errorf("%s: err %v, want ErrRange", sv.name, err)
			}
		}
	})
	// A = diag(huge, huge*2^-40): the factor scaled by 2^-1024 has the
	// diagonal 1.5 and 1.5*2^-41, so the solve with b = 2^1000 passes
	// 2^1024 before it is scaled back.
	a := mat.FromRows([][]float64{{huge, 0}, {0, huge * 0x1p-40}})
	b := mat.FromRows([][]float64{{0x1p1000}, {0x1p1000}})
	want := mat.FromRows([][]float64{{0x1p1000 / huge}, {0x1p1000 / (huge * 0x1p-40)}})
	for _, sv := range rangeSolvers {
		t.Run(sv.name, func(t *testing.T) {
			x, err := sv.solve(a, b)
			if err != nil {
				t.Fatal(err)
			}
			check(t, x, want)
		})
	}
}
