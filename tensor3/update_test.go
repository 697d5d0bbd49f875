package tensor3

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/mat"
)

// checkAgainst compares every stored value of got with want(i, j, l),
// which returns the exact value's approximation and a bound on the
// difference.
func checkAgainst(t *testing.T, what string, got *Sym, want func(i, j, l int) (v, bound float64)) {
	t.Helper()
	d := got.Dim()
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			for l := j; l < d; l++ {
				w, b := want(i, j, l)
				if g := got.At(i, j, l); !(math.Abs(g-w) <= b) {
					t.Fatalf("%s: T[%d][%d][%d] = %v, want %v (bound %v)", what, i, j, l, g, w, b)
				}
			}
		}
	}
}

func TestAddOuter(t *testing.T) {
	simdtest.EachSelected(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(10, 1))
		for _, d := range []int{0, 1, 2, 5, 9, 17, 40} {
			x := randSym(r, d)
			orig := x.Clone()
			v := randVec(r, d)
			x.AddOuter(-1.25, v)
			checkAgainst(t, fmt.Sprintf("d=%d", d), x, func(i, j, l int) (float64, float64) {
				p := -1.25 * v[i] * v[j] * v[l]
				o := orig.At(i, j, l)
				return o + p, 8 * eps * (math.Abs(o) + math.Abs(p))
			})
		}
	})
}

func TestAddOuterRows(t *testing.T) {
	simdtest.EachSelected(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 1))
		for _, sz := range [][2]int{{1, 1}, {3, 10}, {8, 300}, {23, 129}, {50, 700}} {
			d, n := sz[0], sz[1]
			for _, weighted := range []bool{false, true} {
				// A view with a stride wider than d.
				big := mat.New(n, d+3, randVec(r, n*(d+3)))
				y := big.Slice(0, n, 1, d+1)
				var w []float64
				if weighted {
					w = randVec(r, n)
				}
				x := randSym(r, d)
				orig := x.Clone()
				x.AddOuterRows(0.5, y, w)
				checkAgainst(t, fmt.Sprintf("d=%d n=%d weighted=%v", d, n, weighted), x, func(i, j, l int) (float64, float64) {
					s, sa := orig.At(i, j, l), math.Abs(orig.At(i, j, l))
					for p := 0; p < n; p++ {
						wp := 0.5
						if w != nil {
							wp *= w[p]
						}
						v := wp * y.At(p, i) * y.At(p, j) * y.At(p, l)
						s += v
						sa += math.Abs(v)
					}
					return s, 2 * float64(n+8) * eps * sa
				})
			}
		}
		// No rows, and a zero-value matrix, change nothing.
		x := randSym(r, 4)
		orig := x.Clone()
		x.AddOuterRows(1, mat.Zeros(0, 4), nil)
		x.AddOuterRows(1, &mat.Dense{}, nil)
		checkAgainst(t, "no rows", x, func(i, j, l int) (float64, float64) { return orig.At(i, j, l), 0 })
		mustPanic(t, "AddOuterRows shape", func() { x.AddOuterRows(1, mat.Zeros(2, 3), nil) })
		mustPanic(t, "AddOuterRows weights", func() { x.AddOuterRows(1, mat.Zeros(2, 4), []float64{1}) })
	})
}

// symSum returns a/6 times the sum over the permutations of (i, j, l) of
// u[p]*v[q]*w[r], and the sum of the absolute values of its terms.
func symSum(a float64, u, v, w []float64, i, j, l int) (float64, float64) {
	var s, sa float64
	for _, p := range [][3]int{{i, j, l}, {i, l, j}, {j, i, l}, {j, l, i}, {l, i, j}, {l, j, i}} {
		x := a / 6 * u[p[0]] * v[p[1]] * w[p[2]]
		s += x
		sa += math.Abs(x)
	}
	return s, sa
}

func TestAddSymOuter(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	for _, d := range []int{0, 1, 2, 6, 19} {
		u, v, w := randVec(r, d), randVec(r, d), randVec(r, d)
		x := randSym(r, d)
		orig := x.Clone()
		x.AddSymOuter(2, u, v, w)
		checkAgainst(t, fmt.Sprintf("d=%d", d), x, func(i, j, l int) (float64, float64) {
			s, sa := symSum(2, u, v, w, i, j, l)
			o := orig.At(i, j, l)
			return o + s, 16 * eps * (sa + math.Abs(o))
		})
		// The factors in any order give the same tensor, and three equal
		// factors give AddOuter.
		y := orig.Clone()
		y.AddSymOuter(2, w, u, v)
		checkAgainst(t, "permuted factors", y, func(i, j, l int) (float64, float64) {
			s, sa := symSum(2, u, v, w, i, j, l)
			o := orig.At(i, j, l)
			return o + s, 16 * eps * (sa + math.Abs(o))
		})
		z, z2 := orig.Clone(), orig.Clone()
		z.AddSymOuter(-3, u, u, u)
		z2.AddOuter(-3, u)
		checkAgainst(t, "AddSymOuter(v, v, v)", z, func(i, j, l int) (float64, float64) {
			return z2.At(i, j, l), 16 * eps * (math.Abs(orig.At(i, j, l)) + 3*math.Abs(u[i]*u[j]*u[l]))
		})
	}
}

func TestAddSymMatOuter(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for _, d := range []int{0, 1, 3, 8, 21} {
		m := mat.New(d, d, randVec(r, d*d))
		v := randVec(r, d)
		x := randSym(r, d)
		orig := x.Clone()
		x.AddSymMatOuter(-0.5, m, v)
		// Only the upper triangle of M is read.
		sym := func(i, j int) float64 { return m.At(min(i, j), max(i, j)) }
		checkAgainst(t, fmt.Sprintf("d=%d", d), x, func(i, j, l int) (float64, float64) {
			terms := []float64{sym(i, j) * v[l], sym(i, l) * v[j], sym(j, l) * v[i]}
			s, sa := orig.At(i, j, l), math.Abs(orig.At(i, j, l))
			for _, p := range terms {
				s += -0.5 * p
				sa += 0.5 * math.Abs(p)
			}
			return s, 8 * eps * sa
		})
	}
	mustPanic(t, "AddSymMatOuter", func() { New(3, nil).AddSymMatOuter(1, mat.Zeros(3, 2), make([]float64, 3)) })
}

// corrSum is sum_t c_t (w_i(x)w_i(x)y + w_i(x)y(x)w_i + y(x)w_i(x)w_i) at
// (i, j, l), and the sum of the absolute values of its terms.
func corrSum(rows [][]float64, c []float64, y []float64, i, j, l int) (float64, float64) {
	var s, sa float64
	for k, w := range rows {
		for _, x := range []float64{w[i] * w[j] * y[l], w[i] * y[j] * w[l], y[i] * w[j] * w[l]} {
			s += c[k] * x
			sa += math.Abs(c[k] * x)
		}
	}
	return s, sa
}

func TestAddCountCorrection(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	for _, sz := range [][3]int{{1, 5, 1}, {4, 30, 6}, {17, 200, 40}} {
		d, n, nnz := sz[0], sz[1], sz[2]
		w := mat.New(n, d, randVec(r, n*d))
		idx := make([]int, nnz)
		cnt := make([]float64, nnz)
		rows := make([][]float64, nnz)
		for k := range idx {
			idx[k] = r.IntN(n) // repeats allowed
			cnt[k] = float64(1 + r.IntN(4))
			rows[k] = w.RawRow(idx[k])
		}
		y := randVec(r, d)
		x := randSym(r, d)
		orig := x.Clone()
		x.AddCountCorrection(-0.3, w, idx, cnt, y)
		checkAgainst(t, fmt.Sprintf("d=%d nnz=%d", d, nnz), x, func(i, j, l int) (float64, float64) {
			s, sa := corrSum(rows, cnt, y, i, j, l)
			o := orig.At(i, j, l)
			return o - 0.3*s, 4 * float64(nnz+d+4) * eps * (0.3*sa + math.Abs(o))
		})
	}
	x := New(3, nil)
	mustPanic(t, "AddCountCorrection index", func() {
		x.AddCountCorrection(1, mat.Zeros(5, 3), []int{5}, []float64{1}, make([]float64, 3))
	})
	mustPanic(t, "AddCountCorrection lengths", func() {
		x.AddCountCorrection(1, mat.Zeros(5, 3), []int{1, 2}, []float64{1}, make([]float64, 3))
	})
}

func TestAddCrossRows(t *testing.T) {
	simdtest.EachSelected(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(15, 1))
		for _, sz := range [][2]int{{1, 3}, {5, 40}, {12, 1100}} {
			d, n := sz[0], sz[1]
			xm := mat.New(n, d, randVec(r, n*d))
			um := mat.New(n, d, randVec(r, n*d))
			// Rows of very different sizes, and zero rows.
			for s := 0; s < n; s += 7 {
				row := um.RawRow(s)
				for k := range row {
					row[k] *= 1e-6
				}
			}
			if n > 3 {
				copy(um.RawRow(3), make([]float64, d))
				copy(xm.RawRow(2), make([]float64, d))
			}
			wts := randVec(r, n)
			x := randSym(r, d)
			orig := x.Clone()
			x.AddCrossRows(0.75, xm, um, wts)
			// Rounding is bounded per sample by |x_s|^2 |u_s|.
			var scale float64
			for s := 0; s < n; s++ {
				nx, nu := 0.0, 0.0
				for k := 0; k < d; k++ {
					nx += xm.At(s, k) * xm.At(s, k)
					nu += um.At(s, k) * um.At(s, k)
				}
				scale += math.Abs(0.75*wts[s]) * nx * math.Sqrt(nu)
			}
			checkAgainst(t, fmt.Sprintf("d=%d n=%d", d, n), x, func(i, j, l int) (float64, float64) {
				var s float64
				for p := 0; p < n; p++ {
					xp, up := xm.RawRow(p), um.RawRow(p)
					s += 0.75 * wts[p] * (xp[i]*xp[j]*up[l] + xp[i]*up[j]*xp[l] + up[i]*xp[j]*xp[l])
				}
				o := orig.At(i, j, l)
				return o + s, 64*float64(d+16)*eps*scale + 8*eps*math.Abs(o)
			})
		}
	})
}
