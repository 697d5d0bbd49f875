package svd

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// TestReduceBidiag: the reduction Z = Ql*[Lb 0]*Prᵀ, rebuilt from d, e
// and the reflectors, must give back Z with a residual
// ||Z - Ql [Lb 0] Prᵀ||_1 / (||Z||_1 c eps) below ratioLimit, on shapes
// that run unblocked and blocked (more than bidiagBlockMin rows, several
// panels, a last panel cut short), and the singular values of Lb must be
// those of Z.
func TestReduceBidiag(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 1))
	for _, s := range [][2]int{{1, 1}, {1, 5}, {2, 2}, {5, 9}, {40, 40}, {128, 140}, {161, 161}, {200, 230}, {257, 300}} {
		r, c := s[0], s[1]
		z := mattest.RandDense(rnd, r, c)
		w := z.Clone()
		b := reduceBidiag(w.RawData(), r, c, c, nil)
		// [Lb 0] as an r x c matrix, then Ql from the left and Prᵀ from
		// the right (Prᵀ = the house Q_full of the row reflectors).
		x := mat.Zeros(r, c)
		for i := 0; i < r; i++ {
			x.Set(i, i, b.d[i])
			if i+1 < r {
				x.Set(i+1, i, b.e[i])
			}
		}
		b.rightReflectors().MulRight(true, r, x.RawData(), c)
		if ql := b.leftReflectors(nil); ql != nil {
			ql.MulLeft(true, c, x.RawData()[c:], c)
		}
		var diff mat.Dense
		diff.Sub(x, z)
		ratio := testutil.Scaled(diff.Norm1(), z.Norm1(), c)
		record("bidiag reduction", ratio)
		if !(ratio <= ratioLimit) {
			t.Errorf("%dx%d: ||Z - Ql B Prᵀ|| ratio %.3g", r, c, ratio)
		}
		lb := mat.Zeros(r, r)
		for i := 0; i < r; i++ {
			lb.Set(i, i, b.d[i])
			if i+1 < r {
				lb.Set(i+1, i, b.e[i])
			}
		}
		want, err := Factorize(z, &Options{Method: MethodJacobi, Want: WantNone})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Factorize(lb, &Options{Method: MethodJacobi, Want: WantNone})
		if err != nil {
			t.Fatal(err)
		}
		if d := svdValueRatio(want.S, got.S, c); !(d <= 10) {
			t.Errorf("%dx%d: singular values of B differ from Z's by %.3g c eps s1", r, c, d)
		}
	}
}

// TestReduceHook: a hook's start is called once, before its step (d[at]
// still unset) and after the ones below it (d and e final there), and
// its run starts a task on another goroutine (a helper of the
// reduction's team in the blocked part); the reduction gives the bits it
// gives without a hook whether the task ends at once or holds its
// helper for a while, at the hook's step in the blocked part and in the
// unblocked one.
func TestReduceHook(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(4))
	rnd := rand.New(rand.NewPCG(17, 5))
	const r, c = 300, 340
	z := mattest.RandDense(rnd, r, c)
	want := z.Clone()
	b0 := reduceBidiag(want.RawData(), r, c, c, nil)
	for _, at := range []int{1, 149, 250} {
		for _, hold := range []time.Duration{0, 2 * time.Millisecond} {
			w := z.Clone()
			calls := 0
			var wait func()
			var ran atomic.Bool
			gid := func() string {
				buf := make([]byte, 64)
				return strings.Fields(string(buf[:runtime.Stack(buf, false)]))[1]
			}
			caller, other := gid(), ""
			hook := &reduceHook{at: at, start: func(d, e []float64, run func(func()) func()) {
				calls++
				if !slices.Equal(d[:at], b0.d[:at]) || !slices.Equal(e[:at], b0.e[:at]) {
					t.Errorf("at %d: d and e below the hook's step are not final at its start", at)
				}
				if d[at] != 0 || b0.d[at] == 0 {
					t.Errorf("at %d: the hook's start came after its step", at)
				}
				wait = run(func() {
					other = gid()
					ran.Store(true)
					for t0 := time.Now(); time.Since(t0) < hold; {
					}
				})
			}}
			b := reduceBidiag(w.RawData(), r, c, c, hook)
			if calls != 1 {
				t.Fatalf("at %d: start called %d times", at, calls)
			}
			wait()
			if !ran.Load() || other == caller {
				t.Errorf("at %d: the task did not run, or ran on the caller's goroutine", at)
			}
			if !slices.Equal(b.d, b0.d) || !slices.Equal(b.e, b0.e) || !slices.Equal(b.taup, b0.taup) ||
				!slices.Equal(b.tauq, b0.tauq) || !slices.Equal(w.RawData(), want.RawData()) {
				t.Errorf("at %d, task held for %v: not the bits of the reduction without a hook", at, hold)
			}
		}
	}
}

// svdValueRatio returns max_i |s_i - t_i| / (s_0 * n * eps): the difference
// of two lists of singular values in units of the absolute accuracy of a
// backward stable SVD of an order-n problem.
func svdValueRatio(s, t []float64, n int) float64 {
	if len(s) == 0 || s[0] == 0 {
		var m float64
		for i := range t {
			m = math.Max(m, math.Abs(t[i]))
		}
		return m
	}
	var d float64
	for i := range s {
		d = math.Max(d, math.Abs(s[i]-t[i]))
	}
	return d / s[0] / float64(max(n, 1)) / testutil.Eps
}

// bidiagPathCases returns the matrices of the bidiagonal path's tests: random,
// rank-deficient, graded, dlatms-style with known singular values, tall
// and wide (with and without the LQ factorization first), tiny and empty,
// and matrices whose bidiagonal form splits (zero rows, columns and
// blocks).
func bidiagPathCases() []testCase {
	rnd := rand.New(rand.NewPCG(17, 2))
	var cases []testCase
	add := func(name string, a *mat.Dense, sv []float64) {
		r, c := a.Dims()
		cases = append(cases, testCase{fmt.Sprintf("%s/%dx%d", name, r, c), a, sv})
	}
	for _, s := range [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {5, 3},
		{40, 40}, {60, 200}, {200, 60}, {170, 200}, {200, 170}, {161, 161}, {300, 140}, {140, 300}} {
		add("random", mattest.RandDense(rnd, s[0], s[1]), nil)
	}
	// Rank k: a product of m x k and k x n Gaussian factors.
	for _, s := range [][3]int{{50, 40, 7}, {180, 200, 20}, {200, 170, 1}} {
		var a mat.Dense
		a.Mul(mattest.RandDense(rnd, s[0], s[2]), mattest.RandDense(rnd, s[2], s[1]))
		add(fmt.Sprintf("rank%d", s[2]), &a, nil)
	}
	// Graded: columns scaled by 10^(-8 j/n).
	for _, s := range [][2]int{{30, 30}, {180, 170}} {
		a := mattest.RandDense(rnd, s[0], s[1])
		for i := 0; i < s[0]; i++ {
			row := a.RawRow(i)
			for j := range row {
				row[j] *= math.Pow(10, -8*float64(j)/float64(s[1]))
			}
		}
		add("graded", a, nil)
	}
	// dlatms-style: known singular values.
	for _, mode := range fuzz.Modes {
		for _, s := range [][2]int{{45, 30}, {170, 190}} {
			tm := fuzz.TestMatrix{Rows: s[0], Cols: s[1], Mode: mode, Cond: 1e8, Norm: 1}
			a, sv := tm.Generate(rnd)
			add("dlatms "+tm.String(), a, sv)
		}
	}
	// Splitting bidiagonals: a diagonal matrix (B is diagonal), zero
	// rows and columns, and a block diagonal matrix.
	for _, n := range []int{6, 150} {
		a := mat.Zeros(n, n)
		for i := 0; i < n; i++ {
			a.Set(i, i, float64((i*7)%5)-2)
		}
		add("diagonal", a, nil)
		z := mattest.RandDense(rnd, n, n+3)
		for i := 0; i < n; i += 3 {
			clear(z.RawRow(i))
		}
		for i := 0; i < n; i++ {
			z.Set(i, 2, 0)
			z.Set(i, n/2, 0)
		}
		add("zero rows and columns", z, nil)
		blk := mat.Zeros(n, n)
		h := n / 2
		blk.Slice(0, h, 0, h).Copy(mattest.RandDense(rnd, h, h))
		blk.Slice(h, n, h, n).Copy(mattest.RandDense(rnd, n-h, n-h))
		add("block diagonal", blk, nil)
		// A block of 2^-1000 beside one of norm 1: the leaves of the
		// divide and conquer inside it, as small as the whole, once
		// ran out of QR sweeps in the subnormal range.
		tiny := mat.Zeros(n, n)
		tiny.Slice(0, h, 0, h).Copy(mattest.RandDense(rnd, h, h))
		tb := tiny.Slice(h, n, h, n)
		tb.ScalePow2(-1000, mattest.RandDense(rnd, n-h, n-h))
		add("tiny block", tiny, nil)
	}
	return cases
}

// TestFactorizeBidiagonal: MethodBidiagonal's factorizations have a
// residual ratio ||A - U S Vᵀ||_1/(||A||_1 max(m, n) eps) and
// orthogonality ratios ||I - UᵀU||_1/(m eps), ||I - VᵀV||_1/(n eps) below
// ratioLimit, nonnegative decreasing values within 10 max(m, n) eps S[0]
// of the Jacobi path's (and of the exact ones where known), and the same
// values (within the same bound) and vectors (bit for bit) when only
// some of them are wanted.
func TestFactorizeBidiagonal(t *testing.T) {
	for _, tc := range bidiagPathCases() {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.a
			orig := a.Clone()
			m, n := a.Dims()
			p := min(m, n)
			s, err := Factorize(a, &Options{Method: MethodBidiagonal})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(a, orig) {
				t.Fatal("Factorize modified its argument")
			}
			if len(s.S) != p || s.Sweeps != 0 {
				t.Fatalf("%d values, %d sweeps", len(s.S), s.Sweeps)
			}
			if r, c := s.U.Dims(); r != m || c != p {
				t.Fatalf("U is %dx%d", r, c)
			}
			if r, c := s.V.Dims(); r != n || c != p {
				t.Fatalf("V is %dx%d", r, c)
			}
			for i := range s.S {
				if s.S[i] < 0 || (i > 0 && s.S[i] > s.S[i-1]) {
					t.Fatalf("singular values not decreasing and nonnegative: %v", s.S)
				}
			}
			res := residualRatio(a, s.S, s.U, s.V)
			ou, ov := mattest.OrthColsRatio(s.U), mattest.OrthColsRatio(s.V)
			record("bidiag residual", res)
			record("bidiag orthogonality U", ou)
			record("bidiag orthogonality V", ov)
			if !(res <= ratioLimit && ou <= ratioLimit && ov <= ratioLimit) {
				t.Errorf("residual ratio %.3g, orthogonality U %.3g, V %.3g", res, ou, ov)
			}
			jac, err := Factorize(a, &Options{Method: MethodJacobi, Want: WantNone})
			if err != nil {
				t.Fatal(err)
			}
			d := svdValueRatio(jac.S, s.S, max(m, n))
			record("bidiag values vs Jacobi", d)
			if !(d <= 10) {
				t.Errorf("values differ from Jacobi's by %.3g max(m,n) eps S[0]", d)
			}
			if tc.sv != nil {
				if d := svdValueRatio(tc.sv, s.S, max(m, n)); !(d <= 10) {
					t.Errorf("values differ from the exact ones by %.3g max(m,n) eps S[0]", d)
				}
			}
			for _, want := range []Want{WantU, WantV, WantNone} {
				o, err := Factorize(a, &Options{Method: MethodBidiagonal, Want: want})
				if err != nil {
					t.Fatal(err)
				}
				if d := svdValueRatio(s.S, o.S, max(m, n)); !(d <= 10) {
					t.Errorf("Want %d: values differ by %.3g", want, d)
				}
				if (o.U != nil) != (want == WantU) || (o.V != nil) != (want == WantV) {
					t.Fatalf("Want %d: U %v, V %v", want, o.U != nil, o.V != nil)
				}
			}
		})
	}
}

// TestBidiagonalWorkers: the bidiagonal path gives the same bits on 1,
// 2, 3 and 8 workers (GOMAXPROCS 8, so that the teams have their
// helpers even on a small machine): the reduction's pieces are cut by
// the sizes alone. Besides random matrices, a block-diagonal one (a
// random block, one scaled by 2^-1000, a diagonal one, one scaled by
// 2^-950, a random one) reaches the reduction's rare steps: a column
// near underflow, which House rescales (so its products with W are
// formed from the reflector, not the column: in the 2^-1000 block), a
// column already reduced (tauq = 0, in the diagonal block) and the
// direct product when alpha - beta underflows (in the 2^-950 block); a
// count in the code found 98, 104 and 150 of them in the blocked steps
// of one factorization. The factorization on one worker is checked too:
// residual and orthogonality ratios below ratioLimit.
func TestBidiagonalWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
	rnd := rand.New(rand.NewPCG(17, 3))
	blocky := mat.Zeros(500, 500)
	for i := 0; i < 500; i++ {
		row := blocky.RawRow(i)
		b0 := i / 100 * 100
		for j := b0; j < b0+100; j++ {
			switch b0 {
			case 100:
				row[j] = math.Ldexp(rnd.NormFloat64(), -1000)
			case 300:
				row[j] = math.Ldexp(rnd.NormFloat64(), -950)
			case 200:
				if j == i {
					row[j] = 1 + rnd.Float64()
				}
			default:
				row[j] = rnd.NormFloat64()
			}
		}
	}
	for _, a := range []*mat.Dense{mattest.RandDense(rnd, 300, 260), mattest.RandDense(rnd, 181, 433), blocky} {
		var one *SVD
		for _, w := range []int{1, 2, 3, 8} {
			kernels.SetMaxWorkers(w)
			got, err := Factorize(a, &Options{Method: MethodBidiagonal})
			if err != nil {
				t.Fatal(err)
			}
			if one == nil {
				// The rare steps are right, not only the same on
				// every number of workers.
				one = got
				res := residualRatio(a, got.S, got.U, got.V)
				ou, ov := mattest.OrthColsRatio(got.U), mattest.OrthColsRatio(got.V)
				if !(res <= ratioLimit && ou <= ratioLimit && ov <= ratioLimit) {
					m, n := a.Dims()
					t.Fatalf("%dx%d: residual ratio %.3g, orthogonality U %.3g, V %.3g", m, n, res, ou, ov)
				}
				continue
			}
			if !mat.Equal(one.U, got.U) || !mat.Equal(one.V, got.V) || !testutil.SameBits(one.S, got.S) {
				m, n := a.Dims()
				t.Fatalf("%dx%d: results differ between 1 and %d workers", m, n, w)
			}
		}
	}
}

// TestFactorizeMethod: MethodAuto takes the Jacobi path below
// BidiagonalMin (Sweeps > 0) and the bidiagonal path from there on
// (Sweeps = 0); bad methods and non-finite input are errors on both
// paths.
func TestFactorizeMethod(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 4))
	small := mattest.RandDense(rnd, BidiagonalMin-1, BidiagonalMin+5)
	big := mattest.RandDense(rnd, BidiagonalMin+5, BidiagonalMin)
	if s, err := Factorize(small, nil); err != nil || s.Sweeps == 0 {
		t.Errorf("below BidiagonalMin: sweeps %v, err %v", s, err)
	}
	if s, err := Factorize(big, &Options{Want: WantNone}); err != nil || s.Sweeps != 0 {
		t.Errorf("at BidiagonalMin: err %v", err)
	}
	_, err := Factorize(small, &Options{Method: 7})
	if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "Options.Method = 7") {
		t.Errorf("Method 7: error %v", err)
	}
	for _, method := range []Method{MethodAuto, MethodJacobi, MethodBidiagonal} {
		for _, a := range []*mat.Dense{small.Clone(), big.Clone()} {
			a.Set(3, 2, math.NaN())
			if _, err := Factorize(a, &Options{Method: method}); !errors.Is(err, ErrNotFinite) {
				t.Errorf("method %d with NaN: error %v", method, err)
			}
		}
	}
}

// hadamardExact returns A = H*diag(s)*H for the n x n Sylvester Hadamard
// matrix H (entries ±1, n a power of two) and integers s: every entry is
// a sum of integers, exact in float64 while n*max(s) < 2^53, and since
// H/sqrt(n) is orthogonal the singular values of A are exactly n*s,
// which it returns in decreasing order.
func hadamardExact(n int, s []float64) (*mat.Dense, []float64) {
	h := func(i, j int) float64 {
		if bits.OnesCount(uint(i&j))%2 == 1 {
			return -1
		}
		return 1
	}
	a := mat.Zeros(n, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var v float64
			for k := 0; k < n; k++ {
				v += h(i, k) * s[k] * h(k, j)
			}
			a.Set(i, j, v)
		}
	}
	sv := make([]float64, n)
	for i, v := range s {
		sv[i] = float64(n) * math.Abs(v)
	}
	slices.SortFunc(sv, func(x, y float64) int { return cmp.Compare(y, x) })
	return a, sv
}

// TestLargestValues: on matrices with exactly known singular values
// (hadamardExact, dense, of orders that run the reduction unblocked and
// blocked), the singular values of the bidiagonal matrix of the reduction,
// computed to a few ulps by gkBisection, are within 4 eps*S[0] of the
// exact ones (1.1 to 1.3 measured; on the same matrices LAPACK's dgesdd
// is off by 5 to 11 eps*S[0] and its dgejsv by 14 to 60). The whole
// bidiagonal path's values must be within 14 eps*S[0] (dgejsv's best on
// these matrices); the Jacobi path's are recorded (go test -v) only.
func TestLargestValues(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 5))
	for _, n := range []int{64, 128, 256} {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(rnd.IntN(1<<20) + 1)
		}
		a, sv := hadamardExact(n, s)
		z := a.Clone()
		e, _ := scaleToUnit(z, false)
		b := reduceBidiag(z.RawData(), n, n, n, nil)
		got := gkBisection(b.d, b.e)
		for i := range got {
			got[i] = math.Ldexp(got[i], e)
		}
		d := svdValueRatio(sv, got, 1)
		record("exact values of the reduction's B (eps S[0])", d)
		if !(d <= 4) {
			t.Errorf("n = %d: the values of B are off by %.3g eps S[0]", n, d)
		}
		for _, method := range []Method{MethodBidiagonal, MethodJacobi} {
			f, err := Factorize(a, &Options{Method: method})
			if err != nil {
				t.Fatal(err)
			}
			r := svdValueRatio(sv, f.S, 1)
			record(fmt.Sprintf("exact values, method %d (eps S[0])", method), r)
			// The whole bidiagonal path (reduction, divide and conquer)
			// measured 5.0 at n = 256; dgejsv's 14 to 60 bounds it.
			if method == MethodBidiagonal && !(r <= 14) {
				t.Errorf("n = %d: the bidiagonal path's values are off by %.3g eps S[0]", n, r)
			}
		}
	}
}

// gkBisection returns the singular values of the upper bidiagonal matrix
// with diagonal d and superdiagonal e, in decreasing order, by bisection
// on the Golub-Kahan tridiagonal matrix (zero diagonal, off-diagonal d0,
// e0, d1, e1, ...; eigenvalues ±σ): Sturm counts of the LDLᵀ pivots,
// each interval halved until its ends are adjacent floats, which gives
// every value to a few ulps (Demmel and Kahan).
func gkBisection(d, e []float64) []float64 {
	n := len(d)
	b := make([]float64, 0, 2*n-1)
	hi := 0.0
	for i := 0; i < n; i++ {
		b = append(b, d[i])
		hi = math.Max(hi, math.Abs(d[i]))
		if i+1 < n {
			b = append(b, e[i])
			hi = math.Max(hi, math.Abs(e[i]))
		}
	}
	hi *= 2
	// below returns the number of singular values below x > 0: the
	// negative pivots of T - x I, less the n negative eigenvalues.
	below := func(x float64) int {
		c := 0
		q := -x
		for i := 0; ; i++ {
			if q == 0 {
				q = -0x1p-1000
			}
			if q < 0 {
				c++
			}
			if i == len(b) {
				break
			}
			q = -x - b[i]*b[i]/q
		}
		return c - n
	}
	s := make([]float64, n)
	for k := 0; k < n; k++ {
		// The (k+1)-th smallest: the least x with below(x) >= k+1.
		lo, up := 0.0, hi
		for {
			mid := lo + (up-lo)/2
			if mid <= lo || mid >= up {
				break
			}
			if below(mid) >= k+1 {
				up = mid
			} else {
				lo = mid
			}
		}
		s[n-1-k] = up
	}
	return s
}

// TestLeftReflectorsLayout: leftReflectors copies the column reflectors
// below the subdiagonal of Z into the rows right of the diagonal (row j,
// column i holds Z[i+1][j] for i > j), tiles and their edges included,
// into new memory or into a buffer that held other values.
func TestLeftReflectorsLayout(t *testing.T) {
	for _, n := range []int{1, 2, 3, 31, 32, 33, 34, 64, 65, 100} {
		a := testutil.Normals(rand.New(rand.NewPCG(uint64(n), 3)), n*(n+3))
		b := &bidiagReduction{a: a, lda: n + 3, r: n, c: n + 3, tauq: make([]float64, n)}
		for _, buf := range [][]float64{nil, testutil.Normals(rand.New(rand.NewPCG(5, 5)), n*n)} {
			f := b.leftReflectors(buf)
			if n < 2 {
				if f != nil {
					t.Fatalf("n=%d: want no reflectors", n)
				}
				continue
			}
			if f.M != n-1 || f.N != n-1 || f.Lda != n-1 {
				t.Fatalf("n=%d: shape %dx%d lda %d", n, f.M, f.N, f.Lda)
			}
			for j := 0; j < n-1; j++ {
				for i := j + 1; i < n-1; i++ {
					if got, want := f.A[j*(n-1)+i], a[(i+1)*b.lda+j]; got != want {
						t.Fatalf("n=%d buf=%v: row %d column %d = %v, want %v", n, buf != nil, j, i, got, want)
					}
				}
			}
		}
	}
}
