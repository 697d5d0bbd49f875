package fuzz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// Mode selects how the singular values (or eigenvalues) of a generated
// test matrix are spread between 1/cond and 1, as the MODE argument of
// LAPACK's dlatms.
type Mode int

// The modes of dlatms. With d_1 >= ... >= d_n the values returned by
// Spectrum:
const (
	// ModeOneLarge: d_1 = 1, all others 1/cond.
	ModeOneLarge Mode = 1
	// ModeOneSmall: all 1 but d_n = 1/cond.
	ModeOneSmall Mode = 2
	// ModeGeometric: d_i = cond^(-(i-1)/(n-1)).
	ModeGeometric Mode = 3
	// ModeArithmetic: d_i = 1 - (i-1)/(n-1) * (1 - 1/cond).
	ModeArithmetic Mode = 4
	// ModeLogUniform: random values whose logarithms are uniform on
	// [log(1/cond), 0].
	ModeLogUniform Mode = 5
)

// Modes lists the five modes, for loops over a test grid.
var Modes = []Mode{ModeOneLarge, ModeOneSmall, ModeGeometric, ModeArithmetic, ModeLogUniform}

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case ModeOneLarge:
		return "one-large"
	case ModeOneSmall:
		return "one-small"
	case ModeGeometric:
		return "geometric"
	case ModeArithmetic:
		return "arithmetic"
	case ModeLogUniform:
		return "log-uniform"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Spectrum returns n values in [1/cond, 1] spread according to mode,
// sorted in decreasing order (d_1 = 1 whenever n > 0 and the mode is
// not ModeLogUniform, whose largest value is random). r is used only
// by ModeLogUniform. It panics if n < 0, cond < 1 or the mode is
// unknown.
func Spectrum(r *rand.Rand, mode Mode, n int, cond float64) []float64 {
	if n < 0 {
		panic(fmt.Sprintf("fuzz: Spectrum: negative size %d", n))
	}
	if !(cond >= 1) {
		panic(fmt.Sprintf("fuzz: Spectrum: condition number %v is not at least 1", cond))
	}
	d := make([]float64, n)
	if n == 0 {
		return d
	}
	switch mode {
	case ModeOneLarge:
		for i := range d {
			d[i] = 1 / cond
		}
		d[0] = 1
	case ModeOneSmall:
		for i := range d {
			d[i] = 1
		}
		d[n-1] = 1 / cond
	case ModeGeometric:
		d[0] = 1
		for i := 1; i < n; i++ {
			d[i] = math.Pow(cond, -float64(i)/float64(n-1))
		}
	case ModeArithmetic:
		d[0] = 1
		for i := 1; i < n-1; i++ {
			d[i] = 1 - float64(i)/float64(n-1)*(1-1/cond)
		}
		if n > 1 {
			d[n-1] = 1 / cond
		}
	case ModeLogUniform:
		l := math.Log(1 / cond)
		for i := range d {
			d[i] = math.Exp(l * r.Float64())
		}
		slices.SortFunc(d, func(a, b float64) int { return cmpDesc(a, b) })
	default:
		panic(fmt.Sprintf("fuzz: Spectrum: unknown mode %d", int(mode)))
	}
	return d
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// RandomOrthogonal returns an n x n orthogonal matrix drawn from the Haar
// distribution: the product of n-1 Householder reflectors built from
// Gaussian vectors of lengths n, n-1, ..., 2 and a diagonal of random
// signs (Stewart, 1980; LAPACK's dlaror).
func RandomOrthogonal(r *rand.Rand, n int) *mat.Dense {
	if n < 0 {
		panic(fmt.Sprintf("fuzz: RandomOrthogonal: negative size %d", n))
	}
	q := mat.Identity(n)
	applyRandomLeft(q, r)
	return q
}

// applyRandomLeft replaces the r x c matrix a by H*a for a Haar random
// orthogonal r x r matrix H (built as in RandomOrthogonal).
func applyRandomLeft(a *mat.Dense, rnd *rand.Rand) {
	r, c := a.Dims()
	if r == 0 || c == 0 {
		return
	}
	v := make([]float64, r)
	w := make([]float64, c)
	ad, lda := a.RawData(), a.Stride()
	for i := r - 2; i >= 0; i-- {
		// A reflector that acts on rows i..r-1, from a Gaussian vector.
		x := v[i:]
		for j := range x {
			x[j] = rnd.NormFloat64()
		}
		// v = x + sign(x_0) ||x|| e_0, H = I - 2 v v^T / (v^T v): a
		// uniformly distributed reflection (up to the sign fixed below).
		nx := kernels.Nrm2(x)
		if nx == 0 {
			continue
		}
		x[0] += math.Copysign(nx, x[0])
		vv := kernels.Dot(x, x)
		// w = x^T A[i:, :], A[i:, :] -= (2/vv) x w^T.
		kernels.Gemv(true, r-i, c, 1, ad[i*lda:], lda, x, 0, w)
		kernels.Ger(r-i, c, -2/vv, x, w, ad[i*lda:], lda)
	}
	// Random signs make the distribution exactly Haar.
	for i := 0; i < r; i++ {
		if rnd.IntN(2) == 0 {
			kernels.Scal(-1, a.RawRow(i))
		}
	}
}

// applyRandomRight replaces a by a*H for a Haar random orthogonal H.
func applyRandomRight(a *mat.Dense, rnd *rand.Rand) {
	t := a.T()
	applyRandomLeft(t, rnd)
	a.Copy(t.T())
}

// Latms returns the m x n matrix U*diag(d)*Vᵀ for Haar random orthogonal
// U (m x m) and V (n x n), the row-major analogue of LAPACK's dlatms for a
// general matrix with prescribed singular values: |d| are the singular
// values. len(d) must be min(m, n); Latms panics otherwise.
func Latms(r *rand.Rand, m, n int, d []float64) *mat.Dense {
	if m < 0 || n < 0 {
		panic(fmt.Sprintf("fuzz: Latms: negative size %dx%d", m, n))
	}
	if len(d) != min(m, n) {
		panic(fmt.Sprintf("fuzz: Latms: %dx%d matrix needs %d values, got %d", m, n, min(m, n), len(d)))
	}
	a := mat.Zeros(m, n)
	for i, v := range d {
		a.Set(i, i, v)
	}
	applyRandomLeft(a, r)
	applyRandomRight(a, r)
	return a
}

// LatmsSym returns the symmetric matrix Q*diag(d)*Qᵀ for a Haar random
// orthogonal Q: its eigenvalues are d. The result is exactly symmetric.
func LatmsSym(r *rand.Rand, d []float64) *mat.Dense {
	n := len(d)
	q := RandomOrthogonal(r, n)
	qd := q.Clone()
	for i := 0; i < n; i++ {
		for j, v := range d {
			qd.Set(i, j, qd.At(i, j)*v)
		}
	}
	var a mat.Dense
	a.MulBT(qd, q)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s := (a.At(i, j) + a.At(j, i)) / 2
			a.Set(i, j, s)
			a.Set(j, i, s)
		}
	}
	return &a
}

// TestMatrix describes a dlatms-style test matrix.
type TestMatrix struct {
	Rows, Cols int
	Mode       Mode
	// Cond is the ratio of the largest to the smallest singular value;
	// values below 1 mean 1.
	Cond float64
	// Norm is the largest singular value (the 2-norm); 0 means 1.
	Norm float64
}

// Generate returns the matrix and its singular values in decreasing
// order (exact up to the rounding of forming the product).
func (t TestMatrix) Generate(r *rand.Rand) (*mat.Dense, []float64) {
	cond := math.Max(t.Cond, 1)
	norm := t.Norm
	if norm == 0 {
		norm = 1
	}
	d := Spectrum(r, t.Mode, min(t.Rows, t.Cols), cond)
	// Scale so that the largest value is norm; each value separately,
	// so that norms near overflow do not overflow d[i]*norm for d[i] < 1.
	if len(d) > 0 {
		top := d[0]
		for i := range d {
			d[i] = d[i] / top * norm
		}
	}
	return Latms(r, t.Rows, t.Cols, d), d
}

// String describes the matrix, for test names.
func (t TestMatrix) String() string {
	s := fmt.Sprintf("%dx%d/%v/cond=%.0e", t.Rows, t.Cols, t.Mode, math.Max(t.Cond, 1))
	if t.Norm != 0 && t.Norm != 1 {
		s += fmt.Sprintf("/norm=%.0e", t.Norm)
	}
	return s
}

// Graded returns the m x n matrix B*D with B Gaussian and D =
// diag(1, g, g^2, ..., g^(n-1)) for g = grade^(-1/(n-1)): its columns
// span magnitudes from 1 down to 1/grade. One-sided Jacobi computes the
// singular values of such a matrix to high relative accuracy, however
// large grade is, because the error bounds depend on the condition of B
// (Demmel and Veselić). The columns of D are shuffled so that the
// grading is not already in pivot order.
func Graded(r *rand.Rand, m, n int, grade float64) *mat.Dense {
	if m < 0 || n < 0 {
		panic(fmt.Sprintf("fuzz: Graded: negative size %dx%d", m, n))
	}
	d := make([]float64, n)
	for j := range d {
		if n > 1 {
			d[j] = math.Pow(grade, -float64(j)/float64(n-1))
		} else {
			d[j] = 1
		}
	}
	r.Shuffle(n, func(i, j int) { d[i], d[j] = d[j], d[i] })
	a := mat.Zeros(m, n)
	for i := 0; i < m; i++ {
		row := a.RawRow(i)
		for j := range row {
			row[j] = r.NormFloat64() * d[j]
		}
	}
	return a
}

// ReferenceSingularValues returns the singular values of a in
// decreasing order, computed by one-sided Jacobi in double-double
// arithmetic (about 106 bits) and rounded to float64. For matrices of the
// form B*D (see Graded) they are accurate to about cond(B)*1e-32
// relative, far below float64 rounding, so they judge the relative
// accuracy of a float64 algorithm. Meant for small matrices (cost
// O(sweeps * m * n^2) double-double operations); the entries of a must
// be finite, and their magnitudes between 2^-400 and 2^400 so that no
// square under- or overflows.
func ReferenceSingularValues(a *mat.Dense) []float64 {
	m, n := a.Dims()
	if m < n {
		a = a.T()
		m, n = n, m
	}
	// cols[j] is column j of a, in double-double.
	cols := make([][]dd, n)
	for j := range cols {
		cols[j] = make([]dd, m)
		for i := range cols[j] {
			cols[j][i] = dd{a.At(i, j), 0}
		}
	}
	sumProd := func(x, y []dd) dd {
		var s dd
		for i := range x {
			s = s.add(x[i].mul(y[i]))
		}
		return s
	}
	const tol = 1e-31
	for sweep := 0; sweep < 100; sweep++ {
		rotated := false
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				xp, xq := cols[p], cols[q]
				al, be, g := sumProd(xp, xp), sumProd(xq, xq), sumProd(xp, xq)
				if g.hi == 0 || math.Abs(g.hi) <= tol*math.Sqrt(al.hi*be.hi) {
					continue
				}
				rotated = true
				// zeta = (be - al) / (2g); t = sign(zeta) / (|zeta| +
				// sqrt(1 + zeta^2)); c = 1/sqrt(1+t^2), s = c*t;
				// x_p' = c x_p - s x_q, x_q' = s x_p + c x_q.
				zeta := be.sub(al).div(g.add(g))
				one := dd{1, 0}
				t := one.div(zeta.abs().add(one.add(zeta.mul(zeta)).sqrt()))
				if zeta.hi < 0 {
					t = t.neg()
				}
				c := one.div(one.add(t.mul(t)).sqrt())
				s := c.mul(t)
				for i := range xp {
					u, v := xp[i], xq[i]
					xp[i] = c.mul(u).sub(s.mul(v))
					xq[i] = s.mul(u).add(c.mul(v))
				}
			}
		}
		if !rotated {
			break
		}
	}
	sv := make([]float64, n)
	for j := range sv {
		sv[j] = sumProd(cols[j], cols[j]).sqrt().hi
	}
	slices.SortFunc(sv, cmpDesc)
	return sv
}

// dd is a double-double number hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

func quickTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return s, e
}

func (x dd) add(y dd) dd {
	s, e := twoSum(x.hi, y.hi)
	t, f := twoSum(x.lo, y.lo)
	e += t
	s, e = quickTwoSum(s, e)
	e += f
	s, e = quickTwoSum(s, e)
	return dd{s, e}
}

func (x dd) neg() dd     { return dd{-x.hi, -x.lo} }
func (x dd) sub(y dd) dd { return x.add(y.neg()) }
func (x dd) abs() dd {
	if x.hi < 0 {
		return x.neg()
	}
	return x
}

func (x dd) mul(y dd) dd {
	p := x.hi * y.hi
	e := math.FMA(x.hi, y.hi, -p)
	e += x.hi*y.lo + x.lo*y.hi
	p, e = quickTwoSum(p, e)
	return dd{p, e}
}

func (x dd) div(y dd) dd {
	q1 := x.hi / y.hi
	r := x.sub(y.mul(dd{q1, 0}))
	q2 := r.hi / y.hi
	r = r.sub(y.mul(dd{q2, 0}))
	q3 := r.hi / y.hi
	q1, q2 = quickTwoSum(q1, q2)
	return dd{q1, q2}.add(dd{q3, 0})
}

func (x dd) sqrt() dd {
	if x.hi <= 0 {
		return dd{}
	}
	// One Newton step on the float64 square root (Karp's trick).
	s := math.Sqrt(x.hi)
	r := x.sub(dd{s, 0}.mul(dd{s, 0}))
	return dd{s, 0}.add(dd{r.hi / (2 * s), 0})
}
