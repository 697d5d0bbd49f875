package dense

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

const eps = 0x1p-53

// The scaled residuals below are LAPACK's: a backward stable algorithm
// keeps them O(1); each test fails above the stated threshold.
const residualMax = 30

var sizes = []int{1, 2, 3, 4, 5, 8, 13, 17}

// random returns an n x n matrix with entries uniform in [-1, 1), its
// rows graded by up to 2^±20 when graded is set.
func random(rng *rand.Rand, n int, graded bool) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		s := 1.0
		if graded {
			s = math.Ldexp(1, rng.IntN(41)-20)
		}
		for j := range n {
			a[i*n+j] = s * (2*rng.Float64() - 1)
		}
	}
	return a
}

// mul returns the n x n product a b.
func mul(a, b []float64, n int) []float64 {
	c := make([]float64, n*n)
	for i := range n {
		for k := range n {
			for j := range n {
				c[i*n+j] += a[i*n+k] * b[k*n+j]
			}
		}
	}
	return c
}

// norm1 returns the largest column sum of magnitudes of the n x n a.
func norm1(a []float64, n int) float64 {
	var m float64
	for j := range n {
		var s float64
		for i := range n {
			s += math.Abs(a[i*n+j])
		}
		m = max(m, s)
	}
	return m
}

// inverseResidual returns ||A X - I||_1 / (n eps ||A||_1 ||X||_1).
func inverseResidual(a, x []float64, n int) float64 {
	r := mul(a, x, n)
	for i := range n {
		r[i*n+i]--
	}
	return norm1(r, n) / (float64(n) * eps * norm1(a, n) * norm1(x, n))
}

func TestLUSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		for _, graded := range []bool{false, true} {
			a := random(rng, n, graded)
			lu := slices.Clone(a)
			perm := make([]int, n)
			if !LUFactor(lu, n, perm, 1e-14) {
				t.Fatalf("n=%d graded=%v: LUFactor failed on a random matrix", n, graded)
			}
			// X = A^{-1} column by column, then ||A X - I||.
			x := make([]float64, n*n)
			col, e := make([]float64, n), make([]float64, n)
			for j := range n {
				clear(e)
				e[j] = 1
				LUSolve(col, lu, n, perm, e)
				for i := range n {
					x[i*n+j] = col[i]
				}
			}
			if r := inverseResidual(a, x, n); !(r <= residualMax) {
				t.Errorf("n=%d graded=%v: ||A X - I|| / (n eps ||A|| ||X||) = %.3g > %g", n, graded, r, float64(residualMax))
			}
		}
	}
}

func TestInvert(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		for _, graded := range []bool{false, true} {
			a := random(rng, n, graded)
			x := slices.Clone(a)
			if !Invert(x, n, make([]int, n), 1e-14) {
				t.Fatalf("n=%d graded=%v: Invert failed on a random matrix", n, graded)
			}
			if r := inverseResidual(a, x, n); !(r <= residualMax) {
				t.Errorf("n=%d graded=%v: ||A X - I|| / (n eps ||A|| ||X||) = %.3g > %g", n, graded, r, float64(residualMax))
			}
		}
	}
}

func TestSingular(t *testing.T) {
	// Rank 2: the third row is the sum of the first two.
	a := []float64{1, 2, 3, 4, 5, 6, 5, 7, 9}
	if Invert(slices.Clone(a), 3, make([]int, 3), 1e-14) {
		t.Error("Invert succeeded on a singular matrix")
	}
	if LUFactor(slices.Clone(a), 3, make([]int, 3), 1e-14) {
		t.Error("LUFactor succeeded on a singular matrix")
	}
	for _, bad := range [][]float64{{0, 0, 0, 0}, {1, math.NaN(), 0, 1}, {math.Inf(1), 0, 0, 1}} {
		if Invert(slices.Clone(bad), 2, make([]int, 2), 1e-14) {
			t.Errorf("Invert succeeded on %v", bad)
		}
		if LUFactor(slices.Clone(bad), 2, make([]int, 2), 1e-14) {
			t.Errorf("LUFactor succeeded on %v", bad)
		}
	}
}

// spd returns B Bᵀ + n I for a random B.
func spd(rng *rand.Rand, n int) []float64 {
	b := random(rng, n, false)
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			for k := range n {
				a[i*n+j] += b[i*n+k] * b[j*n+k]
			}
		}
		a[i*n+i] += float64(n)
	}
	return a
}

func TestCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range sizes {
		a := spd(rng, n)
		l := slices.Clone(a)
		if !Cholesky(l, n, 1e-14) {
			t.Fatalf("n=%d: Cholesky failed on a positive definite matrix", n)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if l[i*n+j] != a[i*n+j] {
					t.Fatalf("n=%d: Cholesky changed the strict upper triangle at (%d, %d)", n, i, j)
				}
				l[i*n+j] = 0
			}
		}
		// ||A - L Lᵀ|| / (n eps ||A||)
		lt := make([]float64, n*n)
		for i := range n {
			for j := range n {
				lt[i*n+j] = l[j*n+i]
			}
		}
		r := mul(l, lt, n)
		for i := range r {
			r[i] -= a[i]
		}
		if res := norm1(r, n) / (float64(n) * eps * norm1(a, n)); !(res <= residualMax) {
			t.Errorf("n=%d: ||A - L Lᵀ|| / (n eps ||A||) = %.3g > %g", n, res, float64(residualMax))
		}
		// Solve: ||A x - b|| / (n eps ||A|| ||x||) in the 1-norm.
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x := slices.Clone(b)
		CholeskySolve(l, n, x)
		var rn, xn float64
		for i := range n {
			s := -b[i]
			for j := range n {
				s += a[i*n+j] * x[j]
			}
			rn += math.Abs(s)
			xn += math.Abs(x[i])
		}
		if res := rn / (float64(n) * eps * norm1(a, n) * xn); !(res <= residualMax) {
			t.Errorf("n=%d: ||A x - b|| / (n eps ||A|| ||x||) = %.3g > %g", n, res, float64(residualMax))
		}
		// InvertLower: ||L X - I|| / (n eps ||L|| ||X||).
		x2 := make([]float64, n*n)
		InvertLower(x2, l, n)
		if res := inverseResidual(l, x2, n); !(res <= residualMax) {
			t.Errorf("n=%d: ||L X - I|| / (n eps ||L|| ||X||) = %.3g > %g", n, res, float64(residualMax))
		}
	}
	// Indefinite: diag(1, -1); semidefinite: ones(2, 2).
	for _, bad := range [][]float64{{1, 0, 0, -1}, {1, 1, 1, 1}, {0, 0, 0, 0}} {
		if Cholesky(slices.Clone(bad), 2, 1e-14) {
			t.Errorf("Cholesky succeeded on %v", bad)
		}
	}
}

// reflector returns the n x n Householder reflection I - 2 u uᵀ / uᵀu
// for a random u: orthogonal and symmetric.
func reflector(rng *rand.Rand, n int) []float64 {
	u := make([]float64, n)
	var uu float64
	for i := range u {
		u[i] = rng.NormFloat64()
		uu += u[i] * u[i]
	}
	q := make([]float64, n*n)
	for i := range n {
		for j := range n {
			q[i*n+j] = -2 * u[i] * u[j] / uu
		}
		q[i*n+i]++
	}
	return q
}

func TestRealEigenvalues(t *testing.T) {
	// A = Q T Qᵀ with T upper triangular, diagonal 1..n (shuffled) times
	// a scale, Q a product of two reflections: the eigenvalues are
	// exactly the diagonal of T, well separated (gap = scale), so each
	// computed one must be within a modest multiple of n eps ||A||.
	const eigMax = 100
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range sizes {
		for _, scale := range []float64{1, 0x1p-30, 0x1p30} {
			tm := make([]float64, n*n)
			want := make([]float64, n)
			for i, p := range rng.Perm(n) {
				want[i] = scale * float64(p+1-n/2)
			}
			for i := range n {
				tm[i*n+i] = want[i]
				for j := i + 1; j < n; j++ {
					tm[i*n+j] = scale * 0.5 * (2*rng.Float64() - 1)
				}
			}
			q := mul(reflector(rng, n), reflector(rng, n), n)
			qt := make([]float64, n*n)
			for i := range n {
				for j := range n {
					qt[i*n+j] = q[j*n+i]
				}
			}
			a := mul(mul(q, tm, n), qt, n)
			anorm := norm1(a, n)
			got, err := RealEigenvalues(slices.Clone(a), n)
			if err != nil {
				t.Fatalf("n=%d scale=%g: %v", n, scale, err)
			}
			slices.Sort(got)
			slices.Sort(want)
			for i := range want {
				if r := math.Abs(got[i]-want[i]) / (float64(n) * eps * anorm); !(r <= eigMax) {
					t.Errorf("n=%d scale=%g: eigenvalue %d = %v, want %v: |error| / (n eps ||A||) = %.3g > %g", n, scale, i, got[i], want[i], r, float64(eigMax))
				}
			}
		}
	}
	if vals, err := RealEigenvalues(make([]float64, 9), 3); err != nil || !slices.Equal(vals, []float64{0, 0, 0}) {
		t.Errorf("zero matrix: %v, %v; want three zeros", vals, err)
	}
}

func TestComplexEigenvalues(t *testing.T) {
	// A rotation by 90 degrees (eigenvalues ±i), alone and as a block
	// next to a real eigenvalue, behind a similarity transformation.
	rng := rand.New(rand.NewPCG(9, 10))
	if _, err := RealEigenvalues([]float64{0, -1, 1, 0}, 2); !errors.Is(err, ErrComplex) {
		t.Errorf("2x2 rotation: error %v, want ErrComplex", err)
	}
	b := []float64{0, -1, 0, 1, 0, 0, 0, 0, 3}
	q := reflector(rng, 3)
	a := mul(mul(q, b, 3), q, 3)
	if _, err := RealEigenvalues(a, 3); !errors.Is(err, ErrComplex) {
		t.Errorf("3x3 with a rotation block: error %v, want ErrComplex", err)
	}
}

func TestOrthogonalize(t *testing.T) {
	// Orthonormalize random vectors in order, some nearly dependent
	// (the sum of the previous plus 1e-8 noise): each result must be
	// orthogonal to the previous ones to within a small multiple of
	// eps, |q_i · q_j| <= 10 d eps.
	rng := rand.New(rand.NewPCG(11, 12))
	const d, k = 20, 8
	var q [][]float64
	for m := range k {
		v := make([]float64, d)
		for i := range v {
			v[i] = rng.NormFloat64()
			if m%2 == 1 {
				v[i] *= 1e-8
				for _, p := range q {
					v[i] += p[i]
				}
			}
		}
		before, after := Orthogonalize(v, q)
		if !(after > 0 && after <= before) {
			t.Fatalf("vector %d: norms %g before, %g after", m, before, after)
		}
		for i := range v {
			v[i] /= after
		}
		for j, p := range q {
			var s float64
			for i := range v {
				s += p[i] * v[i]
			}
			if !(math.Abs(s) <= 10*d*eps) {
				t.Errorf("vector %d: |q_%d · q_%d| = %.3g > 10 d eps", m, j, m, math.Abs(s))
			}
		}
		q = append(q, v)
	}
	// A vector in the span comes back (numerically) zero.
	v := make([]float64, d)
	for i := range v {
		v[i] = q[0][i] - 2*q[3][i]
	}
	if before, after := Orthogonalize(v, q); !(after <= 1e-14*before) {
		t.Errorf("vector in the span: norm %g after, %g before", after, before)
	}
}
