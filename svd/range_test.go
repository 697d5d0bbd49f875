package svd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// TestDiagonalRange: singular values of diagonal matrices whose entries
// span up to 1e-300..1e300 (and, under a largest entry of 1, down to the
// subnormal 1e-310 and the smallest subnormal) come out to 4 eps
// relative (two units in the last place for subnormals), for Values and
// Factorize, and U and V are the signed permutations that diagonalize
// them: without the wide scaling (see Range in the package
// documentation), diag(1e200, 1e-200) would give [1e200 0].
func TestDiagonalRange(t *testing.T) {
	cases := [][]float64{
		{1e200, 1e-200},
		{1e300, 1e-300},
		{-1e-300, 3e150, 1, -7e-150, 2.5e300, 1e-100, 4e-250, -6e75},
		{1, 1e-310},
		{0x1p-1074, 1},
		{1e308, 1e-100, 1e-200, 0},
	}
	r := rand.New(rand.NewPCG(5, 5))
	for _, d := range cases {
		n := len(d)
		want := make([]float64, n)
		for i, v := range d {
			want[i] = math.Abs(v)
		}
		slices.Sort(want)
		slices.Reverse(want)
		for _, shape := range [][2]int{{n, n}, {n + 3, n}, {n, n + 2}} {
			a := mat.Zeros(shape[0], shape[1])
			rows, cols := r.Perm(shape[0]), r.Perm(shape[1])
			for i, v := range d {
				a.Set(rows[i], cols[i], v)
			}
			vals, err := Values(a)
			if err != nil {
				t.Fatal(err)
			}
			if !closeValues(vals, want) {
				t.Errorf("%v in a %dx%d matrix: Values %v", d, shape[0], shape[1], vals)
			}
			f, err := Factorize(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !closeValues(f.S, want) {
				t.Errorf("%v in a %dx%d matrix: Factorize %v", d, shape[0], shape[1], f.S)
			}
			// A v_i = s_i u_i, exactly here: each of u_i and v_i must be
			// a signed unit vector at the position of its entry.
			for i, s := range f.S {
				if s == 0 {
					continue
				}
				pi, pj, best, sign := 0, 0, math.Inf(1), 1.0
				for k, v := range d {
					if e := math.Abs(math.Abs(v) - s); e < best {
						pi, pj, best, sign = rows[k], cols[k], e, math.Copysign(1, v)
					}
				}
				s *= sign
				ui, vj := f.U.At(pi, i), f.V.At(pj, i)
				if math.Abs(math.Abs(ui)-1) > 4*eps || math.Abs(math.Abs(vj)-1) > 4*eps || (ui*vj > 0) != (s > 0) {
					t.Errorf("%v: triple %d: U[%d][%d] = %v, V[%d][%d] = %v, value %v", d, i, pi, i, ui, pj, i, vj, s)
				}
			}
			if ou, ov := mattest.OrthColsRatio(f.U), mattest.OrthColsRatio(f.V); !(ou <= ratioLimit && ov <= ratioLimit) {
				t.Errorf("%v: orthogonality ratios %.3g %.3g", d, ou, ov)
			}
		}
	}
}

// closeValues reports whether got matches want to 4 eps relative, or to
// two units of the last place of the subnormal numbers.
func closeValues(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		if !(math.Abs(got[i]-w) <= 4*eps*w+0x1p-1073) {
			return false
		}
	}
	return true
}

// TestGradedRange: A = B*D with B Gaussian and D from 1e300 down to
// 1e-300 in three groups of columns (scaled 1e300..1e200, 1e50..1e-50
// and 1e-200..1e-300), tall, square, and transposed (row grading): every
// singular value must have a relative error below 1e-12, for Values and
// for Factorize, whose U and V must pass the residual and orthogonality
// checks of the grid. The reference: the groups are at least 1e150
// apart, so the singular values are those of (I - P_g) B_g D_g, g = 1,
// 2, 3, with P_g the projector on the range of the columns of the
// groups before g, to a relative 1e-150; each comes from the
// double-double reference after an exact scaling by a power of two.
func TestGradedRange(t *testing.T) {
	var worst float64
	for seed, s := range [][2]int{{6, 6}, {12, 9}, {20, 12}, {9, 9}, {15, 15}} {
		rnd := rand.New(rand.NewPCG(uint64(seed), 4242))
		m, n := s[0], s[1]
		b := mat.Zeros(m, n)
		for i := range m {
			for j := range n {
				b.Set(i, j, rnd.NormFloat64())
			}
		}
		// Group g holds columns g*n/3 .. (g+1)*n/3 - 1, with exponents
		// from top[g] down to top[g] - 100.
		top := []float64{300, 50, -200}
		d := make([]float64, n)
		var groups []int
		for g := range 3 {
			lo, hi := g*n/3, (g+1)*n/3
			groups = append(groups, lo)
			for j := lo; j < hi; j++ {
				d[j] = math.Pow(10, top[g]-100*float64(j-lo)/float64(max(hi-lo-1, 1)))
			}
		}
		groups = append(groups, n)
		ref := gradedReference(b, d, groups)
		perm := rnd.Perm(n)
		a := mat.Zeros(m, n)
		for i := range m {
			for j := range n {
				a.Set(i, perm[j], b.At(i, j)*d[j])
			}
		}
		for _, tr := range []bool{false, true} {
			x := a
			if tr {
				x = a.T()
			}
			vals, err := Values(x)
			if err != nil {
				t.Fatal(err)
			}
			f := checkSVD(t, x, nil)
			for i := range ref {
				for _, got := range []float64{vals[i], f.S[i]} {
					rel := math.Abs(got-ref[i]) / ref[i]
					worst = math.Max(worst, rel)
					if !(rel < 1e-12) {
						t.Errorf("%dx%d transposed=%v: value %d = %v, reference %v (relative error %.3g)", m, n, tr, i, got, ref[i], rel)
					}
				}
			}
		}
	}
	record("wide-range graded relative error", worst)
}

// gradedReference returns the singular values of B*diag(d) (m x n, m >=
// n) in decreasing order, for columns in groups (columns groups[g] to
// groups[g+1]-1) scaled far apart, in decreasing order of scale (see
// TestGradedRange).
func gradedReference(b *mat.Dense, d []float64, groups []int) []float64 {
	m, _ := b.Dims()
	var q [][]float64 // orthonormal basis of the columns of the groups so far
	project := func(v []float64) {
		for pass := 0; pass < 2; pass++ {
			for _, u := range q {
				var dot float64
				for i := range v {
					dot += u[i] * v[i]
				}
				for i := range v {
					v[i] -= dot * u[i]
				}
			}
		}
	}
	var sv []float64
	for g := 0; g+1 < len(groups); g++ {
		lo, hi := groups[g], groups[g+1]
		c := mat.Zeros(m, hi-lo)
		_, e := math.Frexp(d[lo])
		var cols [][]float64
		for j := lo; j < hi; j++ {
			v := make([]float64, m)
			for i := range v {
				v[i] = b.At(i, j)
			}
			project(v)
			cols = append(cols, slices.Clone(v))
			for i := range v {
				c.Set(i, j-lo, v[i]*math.Ldexp(d[j], -e))
			}
		}
		for _, s := range fuzz.ReferenceSingularValues(c) {
			sv = append(sv, math.Ldexp(s, e))
		}
		// Extend the basis with this group's (projected) columns.
		for _, v := range cols {
			project(v)
			var nv float64
			for _, x := range v {
				nv += x * x
			}
			nv = math.Sqrt(nv)
			for i := range v {
				v[i] /= nv
			}
			q = append(q, v)
		}
	}
	slices.Sort(sv)
	slices.Reverse(sv)
	return sv
}
