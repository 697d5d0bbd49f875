package fuzz

import (
	"errors"
	"math"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// fuzzRatio is the largest LAPACK-style ratio the fuzz targets accept:
// above the unit tests' 50, since fuzzed entries can span the whole
// exponent range.
const fuzzRatio = 100

// matrixFrom decodes b as a matrix: two bytes of shape (each mod 13),
// then float64 bit patterns row by row, zero-padded.
func matrixFrom(b []byte) *mat.Dense {
	if len(b) < 2 {
		return mat.Zeros(0, 0)
	}
	m, n := int(b[0]%13), int(b[1]%13)
	x := floats(b[2:])
	a := mat.Zeros(m, n)
	for i := 0; i < m; i++ {
		row := a.RawRow(i)
		for j := range row {
			if k := i*n + j; k < len(x) {
				row[j] = x[k]
			}
		}
	}
	return a
}

// normOverflows reports whether ||A||_F exceeds the float64 range: then
// the largest singular value and the triangular factors cannot be
// represented, and the results hold infinities by necessity.
func normOverflows(a *mat.Dense) bool {
	r, _ := a.Dims()
	var x []float64
	for i := 0; i < r; i++ {
		x = append(x, a.RawRow(i)...)
	}
	return math.IsInf(ExactNorm(x), 1)
}

func isFinite(a *mat.Dense) bool {
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		for _, v := range a.RawRow(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

// scaledPow2 returns a copy of a times 2^-e, where 2^e is about max|a|.
func scaledPow2(a *mat.Dense, e int) *mat.Dense {
	var c mat.Dense
	c.ScalePow2(-e, a)
	return &c
}

// lessSubnormal returns resid less the rounding that subnormal results
// can carry in a product of inner dimension n after scaling by 2^-e:
// n units of 2^-1074 per element, n elements per row, in the scaled
// units. Relative ratios are meaningless below that floor.
func lessSubnormal(resid float64, n, e int) float64 {
	floor := float64(4*n*n) * math.Ldexp(0x1p-1074, -e)
	return math.Max(resid-floor, 0)
}

func seedMatrices(f *testing.F) {
	for _, a := range []*mat.Dense{
		mat.FromRows([][]float64{{1, 2}, {3, 4}}),
		mat.FromRows([][]float64{{1e300, 1e-300, 0}, {0, -1e300, 5e-324}}),
		mat.FromRows([][]float64{{0, 0}, {0, 0}, {0, 1}}),
		mat.FromRows([][]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1 + 1e-15}}),
		mat.FromRows([][]float64{{math.NaN(), 1}}),
	} {
		m, n := a.Dims()
		x := make([]float64, 0, m*n)
		for i := 0; i < m; i++ {
			x = append(x, a.RawRow(i)...)
		}
		b := []byte{byte(m), byte(n)}
		for _, v := range x {
			u := math.Float64bits(v)
			for k := 0; k < 8; k++ {
				b = append(b, byte(u>>(8*k)))
			}
		}
		f.Add(b)
	}
}

// FuzzSVD checks Factorize on arbitrary small matrices: ErrNotFinite
// exactly for non-finite input; otherwise the LAPACK ratios, decreasing
// nonnegative values, and the same values (to rounding) from Values.
func FuzzSVD(f *testing.F) {
	seedMatrices(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		a := matrixFrom(b)
		s, err := svd.Factorize(a, nil)
		if !isFinite(a) {
			if !errors.Is(err, svd.ErrNotFinite) {
				t.Fatalf("non-finite input: err = %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		m, n := a.Dims()
		for i, v := range s.S {
			if !(v >= 0) || (i > 0 && v > s.S[i-1]) {
				t.Fatalf("values %v", s.S)
			}
		}
		if len(s.S) == 0 || normOverflows(a) {
			return
		}
		_, e := math.Frexp(math.Max(s.S[0], a.NormMax()))
		resid, norm := mattest.FactorResidual(a, s.U, s.S, s.V, e)
		if x := testutil.Scaled(lessSubnormal(resid, max(m, n), e), norm, max(m, n)); !(x <= fuzzRatio) {
			t.Fatalf("%v: residual ratio %.3g, S = %v", a, x, s.S)
		}
		if x := mattest.OrthColsRatio(s.U); !(x <= fuzzRatio) {
			t.Fatalf("%v: U orthogonality ratio %.3g", a, x)
		}
		if x := mattest.OrthColsRatio(s.V); !(x <= fuzzRatio) {
			t.Fatalf("%v: V orthogonality ratio %.3g", a, x)
		}
		// Values (computed without the second preconditioner) agree to
		// rounding: absolute accuracy relative to the largest value.
		vals, err := svd.Values(a)
		if err != nil {
			t.Fatal(err)
		}
		p := min(m, n)
		for i := range vals {
			if d := math.Abs(vals[i] - s.S[i]); d > 0 && !(d <= fuzzRatio*float64(p)*Unit*s.S[0]) {
				t.Fatalf("%v: Values %v, Factorize %v", a, vals, s.S)
			}
		}
	})
}

// FuzzEigSym checks EigSym on the symmetric matrices made from the upper
// triangles of arbitrary square ones.
func FuzzEigSym(f *testing.F) {
	seedMatrices(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		a := matrixFrom(b)
		m, n := a.Dims()
		k := min(m, n)
		a = a.Slice(0, k, 0, k).Clone()
		for i := 0; i < k; i++ {
			for j := 0; j < i; j++ {
				a.Set(i, j, a.At(j, i))
			}
		}
		e, err := svd.EigSym(a, nil)
		if !isFinite(a) {
			if !errors.Is(err, svd.ErrNotFinite) {
				t.Fatalf("non-finite input: err = %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		if k == 0 || normOverflows(a) {
			return
		}
		for i := 1; i < k; i++ {
			if e.Values[i] > e.Values[i-1] {
				t.Fatalf("values %v", e.Values)
			}
		}
		_, ex := math.Frexp(a.NormMax())
		resid, norm := mattest.FactorResidual(a, e.Vectors, e.Values, e.Vectors, ex)
		if x := testutil.Scaled(lessSubnormal(resid, k, ex), norm, k); !(x <= fuzzRatio) {
			t.Fatalf("%v: residual ratio %.3g, values %v", a, x, e.Values)
		}
		if x := mattest.OrthColsRatio(e.Vectors); !(x <= fuzzRatio) {
			t.Fatalf("%v: orthogonality ratio %.3g", a, x)
		}
	})
}

// FuzzLQ checks the LQ, QR and row-pivoted LQ factorizations.
func FuzzLQ(f *testing.F) {
	seedMatrices(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		a := matrixFrom(b)
		m, n := a.Dims()
		fl, err := lq.Factorize(a)
		fq, errQ := lq.FactorizeQR(a)
		fp, errP := lq.FactorizePivoted(a)
		if !isFinite(a) {
			for _, e := range []error{err, errQ, errP} {
				if !errors.Is(e, lq.ErrNotFinite) {
					t.Fatalf("non-finite input: err = %v", e)
				}
			}
			return
		}
		if err != nil || errQ != nil || errP != nil {
			t.Fatal(err, errQ, errP)
		}
		if m == 0 || n == 0 || normOverflows(a) {
			return
		}
		// Scaled copies keep the products of the check finite; the
		// factorizations are scale invariant up to rounding (powers of
		// two scale exactly unless entries underflow).
		_, e := math.Frexp(a.NormMax())
		check := func(name string, l, q, target *mat.Dense) {
			var p mat.Dense
			p.Mul(scaledPow2(l, e), q)
			ts := scaledPow2(target, e)
			p.Sub(&p, ts)
			if x := testutil.Scaled(lessSubnormal(p.Norm1(), max(m, n), e), ts.Norm1(), max(m, n)); !(x <= fuzzRatio) {
				t.Fatalf("%s of %v: residual ratio %.3g", name, a, x)
			}
		}
		var l, q mat.Dense
		fl.L(&l)
		fl.Q(&q)
		check("LQ", &l, &q, a)
		if x := mattest.OrthColsRatio(q.T()); !(x <= fuzzRatio) {
			t.Fatalf("LQ of %v: orthogonality ratio %.3g", a, x)
		}
		var r, qq mat.Dense
		fq.R(&r)
		fq.Q(&qq)
		// A = Q R: check Aᵀ = Rᵀ Qᵀ with the same helper.
		check("QR", r.T(), qq.T(), a.T())
		var lp, qp mat.Dense
		fp.L(&lp)
		fp.Q(&qp)
		pa := mat.Zeros(m, n)
		for i, p := range fp.Perm() {
			pa.SetRow(i, a.RawRow(p))
		}
		check("pivoted LQ", &lp, &qp, pa)
	})
}
