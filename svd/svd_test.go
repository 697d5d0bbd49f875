package svd

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// ratioLimit is the largest LAPACK-style scaled residual accepted (the
// LAPACK test suite uses 50 for the SVD drivers).
const ratioLimit = 50

// shapes is the grid of matrix shapes: every square size from
// 0 to 40, rectangular ones (empty, vectors, wide and tall, across the
// small-matrix kernel's limit of 32 rows), 300 x 20 and 20 x 300, and
// a 100 x 100 for the general sweeps.
var shapes = func() [][2]int {
	var s [][2]int
	for n := 0; n <= 40; n++ {
		s = append(s, [2]int{n, n})
	}
	return append(s, [][2]int{
		{0, 4}, {4, 0}, {1, 6}, {6, 1}, {3, 5}, {5, 3}, {17, 9}, {9, 17},
		{65, 40}, {40, 65}, {33, 70}, {70, 33}, {300, 20}, {20, 300}, {100, 100},
	}...)
}()

var conds = []float64{1, 1e3, 1e8, 1e15}

// norms scales some matrices near the ends of the float64 range.
var norms = []float64{1, 1e-290, 1e290}

// worst collects the largest ratio seen per kind, reported at the end
// of the test binary with -v.
var worst = struct {
	sync.Mutex
	m map[string]float64
}{m: map[string]float64{}}

func record(kind string, v float64) {
	worst.Lock()
	worst.m[kind] = math.Max(worst.m[kind], v)
	worst.Unlock()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if testing.Verbose() {
		for k, v := range worst.m {
			fmt.Printf("worst %-28s %.3g\n", k, v)
		}
	}
	os.Exit(code)
}

type testCase struct {
	name string
	a    *mat.Dense
	sv   []float64 // exact singular values, decreasing
}

// gridCases returns the dlatms grid: every shape, mode and condition
// number, plus the extreme norms for a few shapes.
func gridCases() []testCase {
	var cases []testCase
	for si, s := range shapes {
		if testing.Short() && si%4 != 0 {
			continue
		}
		for _, mode := range fuzz.Modes {
			for ci, cond := range conds {
				for ni, norm := range norms {
					if ni > 0 && (si%5 != 0 || ci%2 != 0) {
						continue
					}
					tm := fuzz.TestMatrix{Rows: s[0], Cols: s[1], Mode: mode, Cond: cond, Norm: norm}
					rnd := rand.New(rand.NewPCG(uint64(si), uint64(int(mode)*100+ci*10+ni)))
					a, sv := tm.Generate(rnd)
					cases = append(cases, testCase{tm.String(), a, sv})
				}
			}
		}
	}
	return cases
}

// residualRatio returns ||A - U diag(s) Vᵀ||_1 / (||A||_1 max(m,n) eps),
// computed in a scaled copy so that norms near overflow do not overflow.
func residualRatio(a *mat.Dense, s []float64, u, v *mat.Dense) float64 {
	m, n := a.Dims()
	if len(s) == 0 {
		return 0
	}
	e := 0
	if s[0] > 0 {
		_, e = math.Frexp(s[0])
	}
	resid, norm := mattest.FactorResidual(a, u, s, v, e)
	return testutil.Scaled(resid, norm, max(m, n))
}

func TestFactorizeGrid(t *testing.T) {
	for _, tc := range gridCases() {
		t.Run(tc.name, func(t *testing.T) {
			checkSVD(t, tc.a, tc.sv)
		})
	}
}

// TestFactorizePaths runs part of the grid on every kernel path the
// machine has: the small-matrix kernel (AVX-512), the general sweeps on
// the other vector paths and the Go reference.
func TestFactorizePaths(t *testing.T) {
	cases := gridCases()
	simdtest.EachSelected(t, func(t *testing.T) {
		for i, tc := range cases {
			if i%7 == 0 {
				t.Run(tc.name, func(t *testing.T) { checkSVD(t, tc.a, tc.sv) })
			}
		}
	})
}

// TestSpecialGrid: zero and identity matrices of the grid's shapes.
func TestSpecialGrid(t *testing.T) {
	for _, s := range shapes {
		m, n := s[0], s[1]
		z := checkSVD(t, mat.Zeros(m, n), nil)
		for _, v := range z.S {
			if v != 0 {
				t.Fatalf("%dx%d zero: singular values %v", m, n, z.S)
			}
		}
		id := mat.Zeros(m, n)
		for i := 0; i < min(m, n); i++ {
			id.Set(i, i, 1)
		}
		f := checkSVD(t, id, nil)
		for _, v := range f.S {
			if v != 1 {
				t.Fatalf("%dx%d identity: singular values %v", m, n, f.S)
			}
		}
	}
}

// checkSVD checks a full factorization of a and, when sv is not nil, its
// singular values against sv.
func checkSVD(t *testing.T, a *mat.Dense, sv []float64) *SVD {
	t.Helper()
	m, n := a.Dims()
	s, err := Factorize(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := min(m, n)
	if len(s.S) != p {
		t.Fatalf("%d singular values, want %d", len(s.S), p)
	}
	if r, c := s.U.Dims(); r != m || c != p {
		t.Fatalf("U is %dx%d, want %dx%d", r, c, m, p)
	}
	if r, c := s.V.Dims(); r != n || c != p {
		t.Fatalf("V is %dx%d, want %dx%d", r, c, n, p)
	}
	for i := range s.S {
		if s.S[i] < 0 || (i > 0 && s.S[i] > s.S[i-1]) {
			t.Fatalf("singular values not decreasing and nonnegative: %v", s.S)
		}
	}
	res := residualRatio(a, s.S, s.U, s.V)
	ou, ov := mattest.OrthColsRatio(s.U), mattest.OrthColsRatio(s.V)
	record("residual", res)
	record("orthogonality U", ou)
	record("orthogonality V", ov)
	if !(res <= ratioLimit) {
		t.Errorf("||A - USVᵀ|| ratio %.3g", res)
	}
	if !(ou <= ratioLimit) {
		t.Errorf("||I - UᵀU|| ratio %.3g", ou)
	}
	if !(ov <= ratioLimit) {
		t.Errorf("||I - VᵀV|| ratio %.3g", ov)
	}
	if sv != nil && p > 0 {
		// Absolute accuracy: |s_i - sv_i| <= c * p * eps * s_1.
		var worstS float64
		for i := range sv {
			worstS = math.Max(worstS, math.Abs(s.S[i]-sv[i])/sv[0])
		}
		r := worstS / float64(p) / eps
		record("values (absolute)", r)
		if !(r <= ratioLimit) {
			t.Errorf("singular values: ratio %.3g\n got %v\nwant %v", r, s.S, sv)
		}
	}
	// The values alone (computed without the second preconditioner)
	// agree to rounding.
	vals, err := Values(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != p {
		t.Fatalf("Values: %d values, want %d", len(vals), p)
	}
	var worstV float64
	for i := range vals {
		if p > 0 && s.S[0] > 0 {
			worstV = math.Max(worstV, math.Abs(vals[i]-s.S[i])/s.S[0]/float64(p)/eps)
		}
	}
	record("Values vs Factorize", worstV)
	if !(worstV <= ratioLimit) {
		t.Errorf("Values differs from Factorize: ratio %.3g\n%v\n%v", worstV, vals, s.S)
	}
	record("sweeps", float64(s.Sweeps))
	return s
}

// TestWant checks that each choice of vectors gives the values and the
// vectors of the full factorization, to rounding and up to the signs of
// the vectors (the singular values are well separated).
func TestWant(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][2]int{{30, 20}, {20, 30}, {25, 25}, {300, 20}, {20, 300}} {
		a, _ := fuzz.TestMatrix{Rows: s[0], Cols: s[1], Mode: fuzz.ModeGeometric, Cond: 1e6}.Generate(rnd)
		full, err := Factorize(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []Want{WantU, WantV, WantNone} {
			got, err := Factorize(a, &Options{Want: w})
			if err != nil {
				t.Fatal(err)
			}
			if (got.U != nil) != (w == WantU) || (got.V != nil) != (w == WantV) {
				t.Errorf("%v Want=%d: U %v V %v", s, w, got.U != nil, got.V != nil)
			}
			for i := range got.S {
				if math.Abs(got.S[i]-full.S[i]) > 100*eps*full.S[0] {
					t.Errorf("%v Want=%d: value %d is %v, full %v", s, w, i, got.S[i], full.S[i])
				}
			}
			for _, pair := range [][2]*mat.Dense{{got.U, full.U}, {got.V, full.V}} {
				if pair[0] == nil {
					continue
				}
				r, c := pair[0].Dims()
				for j := 0; j < c; j++ {
					var d float64
					for i := 0; i < r; i++ {
						d += pair[0].At(i, j) * pair[1].At(i, j)
					}
					if math.Abs(math.Abs(d)-1) > 1e-8 {
						t.Errorf("%v Want=%d: vector %d differs from the full factorization's (cosine %v)", s, w, j, d)
					}
				}
			}
		}
	}
}

func TestSpecialMatrices(t *testing.T) {
	for _, n := range []int{1, 2, 7, 50} {
		// Identity and zero.
		s := checkSVD(t, mat.Identity(n), nil)
		for _, v := range s.S {
			if v != 1 {
				t.Errorf("n=%d: singular values of I: %v", n, s.S)
				break
			}
		}
		s = checkSVD(t, mat.Zeros(n, n+3), nil)
		for _, v := range s.S {
			if v != 0 {
				t.Errorf("n=%d: singular values of 0: %v", n, s.S)
				break
			}
		}
		// Diagonal with zeros and repeated values.
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(i % 3)
		}
		checkSVD(t, mat.Diag(d), nil)
		// Rank one.
		u, v := mat.Zeros(n+2, 1), mat.Zeros(1, n)
		for i := 0; i < n+2; i++ {
			u.Set(i, 0, float64(i+1))
		}
		for i := 0; i < n; i++ {
			v.Set(0, i, 1/float64(i+1))
		}
		var r1 mat.Dense
		r1.Mul(u, v)
		checkSVD(t, &r1, nil)
	}
	// 1x1 negative, subnormal, huge.
	for _, x := range []float64{-3, 5e-324, -1.7e308} {
		s := checkSVD(t, mat.New(1, 1, []float64{x}), nil)
		if s.S[0] != math.Abs(x) || s.U.At(0, 0)*s.V.At(0, 0)*s.S[0] != x {
			t.Errorf("1x1 %v: %v %v %v", x, s.S, s.U, s.V)
		}
	}
}

// TestUnderflowingRows: rows whose squared norms underflow (norms near
// 1e-236 after scaling) are not zero rows; the small-matrix kernel must
// hand them to the general sweeps (a fuzzer's find). On every path.
func TestUnderflowingRows(t *testing.T) {
	a := mat.Zeros(9, 3)
	a.SetRow(0, []float64{1.398043286095289e-76, 9.162216479754085e-72, 1.398043286095289e-76})
	a.SetRow(1, []float64{1.0422256e-317, 9.00500320057936e-308, 2.61773395118493e-310})
	a.SetRow(2, []float64{9.0093506394561e-308, 9.005004792076203e-308, 0})
	simdtest.ForSelected(t, func(p simd.Level) {
		for _, b := range []*mat.Dense{a, a.T()} {
			s, err := Factorize(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ou, ov := mattest.OrthColsRatio(s.U), mattest.OrthColsRatio(s.V); !(ou <= ratioLimit && ov <= ratioLimit) {
				t.Errorf("%v: orthogonality ratios U %.3g, V %.3g", p, ou, ov)
			}
		}
	})
}

func TestNotFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		a := mat.Identity(3)
		a.Set(1, 2, v)
		if _, err := Factorize(a, nil); !errors.Is(err, ErrNotFinite) {
			t.Errorf("%v: err = %v", v, err)
		}
		if _, err := Values(a); !errors.Is(err, ErrNotFinite) {
			t.Errorf("%v: err = %v", v, err)
		}
		// Tall and wide, the value in the first and in the last row.
		for _, s := range [][2]int{{5, 3}, {3, 5}, {200, 40}, {300, 250}} {
			for _, i := range []int{0, s[0] - 1} {
				b := mat.Zeros(s[0], s[1])
				b.Set(0, 0, 1)
				b.Set(i, s[1]-1, v)
				for _, method := range []Method{MethodJacobi, MethodBidiagonal} {
					if _, err := Factorize(b, &Options{Method: method}); !errors.Is(err, ErrNotFinite) {
						t.Errorf("%v at (%d, %d) of %dx%d, method %d: err = %v", v, i, s[1]-1, s[0], s[1], method, err)
					}
				}
			}
		}
	}
}

// TestNoConvergence caps the sweeps at one on a matrix that needs more.
func TestNoConvergence(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	a, _ := fuzz.TestMatrix{Rows: 40, Cols: 40, Mode: fuzz.ModeArithmetic, Cond: 2}.Generate(rnd)
	_, err := Factorize(a, &Options{MaxSweeps: 1})
	var ce *ConvergenceError
	if !errors.Is(err, ErrNoConvergence) || !errors.As(err, &ce) || ce.Sweeps != 1 {
		t.Fatalf("err = %v", err)
	}
}

// TestGradedIssue is the relative-accuracy test on graded matrices: A = B*D with
// B Gaussian and D geometric from 1 down to 1e-15 (column-graded), and
// its transpose (row-graded), square, tall and wide: every singular
// value, down to about 1e-15*||A||, must have relative error below
// 1e-12 against the double-double reference (a bidiagonalization-based
// SVD loses the small ones: its errors are about eps*||A|| absolute).
func TestGradedIssue(t *testing.T) {
	var worstRel float64
	seed := uint64(0)
	for _, s := range [][2]int{{5, 5}, {10, 10}, {20, 20}, {25, 25}, {40, 40}, {30, 12}, {12, 30}, {60, 40}} {
		for rep := 0; rep < 2; rep++ {
			seed++
			rnd := rand.New(rand.NewPCG(seed, 1015))
			a := fuzz.Graded(rnd, s[0], s[1], 1e15)
			for _, tr := range []bool{false, true} {
				if tr {
					a = a.T()
				}
				ref := fuzz.ReferenceSingularValues(a)
				for _, w := range []Want{WantNone, WantUV} {
					f, err := Factorize(a, &Options{Want: w})
					if err != nil {
						t.Fatal(err)
					}
					for i := range ref {
						rel := math.Abs(f.S[i]-ref[i]) / ref[i]
						worstRel = math.Max(worstRel, rel)
						if !(rel < 1e-12) {
							t.Errorf("%v transposed=%v Want=%d: value %d = %v, reference %v (relative error %.3g)",
								s, tr, w, i, f.S[i], ref[i], rel)
						}
					}
				}
				checkSVD(t, a, nil)
			}
		}
	}
	record("graded 1e-15 relative error", worstRel)
}

// TestGradedRelativeAccuracy: for A = B*D with B well conditioned and D
// a wide diagonal scaling, every singular value, however small, is
// computed to a relative accuracy of order cond(B)*eps, checked against
// a double-double reference.
func TestGradedRelativeAccuracy(t *testing.T) {
	var worstRel float64
	for seed := uint64(0); seed < 12; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 77))
		m, n := 8+int(seed%4)*5, 6+int(seed%3)*4
		grade := []float64{1e10, 1e20, 1e30}[seed%3]
		a := fuzz.Graded(rnd, m, n, grade)
		if seed%2 == 1 {
			a = a.T() // row grading of a wide matrix
		}
		ref := fuzz.ReferenceSingularValues(a)
		got, err := Values(a)
		if err != nil {
			t.Fatal(err)
		}
		var rel float64
		for i := range ref {
			rel = math.Max(rel, math.Abs(got[i]-ref[i])/ref[i])
		}
		worstRel = math.Max(worstRel, rel/eps)
		// cond(B) of a Gaussian m x n matrix is modest; allow 1e3 eps.
		if !(rel <= 1e3*eps) {
			t.Errorf("seed %d (%dx%d, grade %.0e): relative error %.3g eps\n got %v\nwant %v", seed, m, n, grade, rel/eps, got, ref)
		}
		// Same for the full factorization's residual.
		checkSVD(t, a, nil)
	}
	record("graded relative error/eps", worstRel)
}

// TestStagnatingPair: a pair whose computed cosine settles just above
// sqrt(r) tol (2.46e-16 against 2.22e-16) and is rotated by a negligible
// angle in every sweep must count as converged, on every kernel path
// (a case found by fuzzing latent/linear, on which a stricter test
// would fail after 30 sweeps). The scaled residual and orthogonality ratios must meet the
// grid's limit, and the singular values match the 2 x 2 closed form to a
// few ulps.
func TestStagnatingPair(t *testing.T) {
	a := mat.FromRows([][]float64{{-1.03125, 0.84375}, {0, -1.3125}})
	// sigma1 sigma2 = |det|, sigma1^2 + sigma2^2 = ||A||_F^2.
	det := 1.03125 * 1.3125
	f2 := 1.03125*1.03125 + 0.84375*0.84375 + 1.3125*1.3125
	d := math.Sqrt(f2*f2 - 4*det*det)
	want := []float64{math.Sqrt((f2 + d) / 2), 2 * det / math.Sqrt(2*(f2+d))}
	simdtest.ForSelected(t, func(p simd.Level) {
		for _, b := range []*mat.Dense{a, a.T()} {
			s := checkSVD(t, b, nil)
			for i, w := range want {
				if e := math.Abs(s.S[i]-w) / w; e > 4*eps {
					t.Errorf("%v: sigma_%d = %v, want %v (relative error %.3g)", p, i, s.S[i], w, e)
				}
			}
		}
	})
}
