package tensor3

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/mat"
)

// naiveContract returns T(I, I, v), T(I, v, v) and T(v, v, v) by loops
// over the dense expansion, with bounds on their rounding.
func naiveContract(x *Sym, v []float64) (m, mb, vec, vb []float64, s, sb float64) {
	d := x.Dim()
	a := x.Dense()
	m, mb = make([]float64, d*d), make([]float64, d*d)
	vec, vb = make([]float64, d), make([]float64, d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			var t, ta float64
			for l := 0; l < d; l++ {
				p := a[at3(d, i, j, l)] * v[l]
				t += p
				ta += math.Abs(p)
			}
			m[i*d+j], mb[i*d+j] = t, 4*float64(d+2)*eps*ta+1e-300
			vec[i] += t * v[j]
			vb[i] += math.Abs(ta * v[j])
			s += t * v[j] * v[i]
			sb += math.Abs(ta * v[j] * v[i])
		}
	}
	for i := range vb {
		vb[i] = 8*float64(d+2)*eps*vb[i] + 1e-300
	}
	return m, mb, vec, vb, s, 16*float64(d+2)*eps*sb + 1e-300
}

func TestContractions(t *testing.T) {
	simdtest.EachSelected(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(20, 1))
		for _, d := range []int{0, 1, 2, 3, 7, 16, 33} {
			x := randSym(r, d)
			v := randVec(r, d)
			m, mb, vec, vb, s, sb := naiveContract(x, v)
			var got mat.Dense
			x.ContractMat(&got, v)
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					if g := got.At(i, j); !(math.Abs(g-m[i*d+j]) <= mb[i*d+j]) {
						t.Fatalf("d=%d: T(I,I,v)[%d][%d] = %v, naive %v", d, i, j, g, m[i*d+j])
					}
					if got.At(i, j) != got.At(j, i) {
						t.Fatalf("d=%d: T(I,I,v) is not exactly symmetric", d)
					}
				}
			}
			// A destination with the shape is reused; a view works too.
			big := mat.Zeros(d+2, d+2)
			view := big.Slice(1, d+1, 1, d+1)
			x.ContractMat(view, v)
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					if view.At(i, j) != got.At(i, j) {
						t.Fatalf("d=%d: ContractMat into a view differs", d)
					}
				}
			}
			gv := x.ContractVec(nil, v)
			for i := range gv {
				if !(math.Abs(gv[i]-vec[i]) <= vb[i]) {
					t.Fatalf("d=%d: T(I,v,v)[%d] = %v, naive %v (bound %v)", d, i, gv[i], vec[i], vb[i])
				}
			}
			if g := x.ContractScalar(v); !(math.Abs(g-s) <= sb) {
				t.Fatalf("d=%d: T(v,v,v) = %v, naive %v", d, g, s)
			}
		}
		mustPanic(t, "ContractMat shape", func() { New(3, nil).ContractMat(mat.Zeros(3, 2), make([]float64, 3)) })
	})
}

// naiveMultilinear is T(W, W, W) summed over the dense expansion, with a
// bound on its rounding.
func naiveMultilinear(x *Sym, w *mat.Dense) (*Sym, *Sym) {
	d, k := w.Dims()
	a := x.Dense()
	out, bound := New(k, nil), New(k, nil)
	for p := 0; p < k; p++ {
		for q := p; q < k; q++ {
			for r := q; r < k; r++ {
				var s, sa float64
				for i := 0; i < d; i++ {
					for j := 0; j < d; j++ {
						for l := 0; l < d; l++ {
							v := a[at3(d, i, j, l)] * w.At(i, p) * w.At(j, q) * w.At(l, r)
							s += v
							sa += math.Abs(v)
						}
					}
				}
				out.Set(p, q, r, s)
				bound.Set(p, q, r, 8*float64(d+k+4)*eps*sa+1e-300)
			}
		}
	}
	return out, bound
}

func TestMultilinear(t *testing.T) {
	simdtest.EachSelected(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 1))
		for _, sz := range [][2]int{{0, 3}, {3, 0}, {1, 1}, {4, 2}, {5, 5}, {9, 4}, {20, 7}, {6, 10}} {
			d, k := sz[0], sz[1]
			x := randSym(r, d)
			w := mat.New(d, k, randVec(r, d*k))
			want, bound := naiveMultilinear(x, w)
			var got Sym
			got.Multilinear(x, w)
			if got.Dim() != k {
				t.Fatalf("d=%d k=%d: result has dimension %d", d, k, got.Dim())
			}
			checkAgainst(t, fmt.Sprintf("d=%d k=%d", d, k), &got, func(i, j, l int) (float64, float64) {
				return want.At(i, j, l), bound.At(i, j, l)
			})
		}
		// In place when k = d, and through a view of W.
		x := randSym(r, 6)
		big := mat.New(8, 9, randVec(r, 72))
		w := big.Slice(1, 7, 2, 8)
		want, bound := naiveMultilinear(x, w)
		x.Multilinear(x, w)
		checkAgainst(t, "in place", x, func(i, j, l int) (float64, float64) { return want.At(i, j, l), bound.At(i, j, l) })
		mustPanic(t, "Multilinear shape", func() { New(3, nil).Multilinear(New(4, nil), mat.Zeros(3, 3)) })
	})
}

// permuted returns the tensor T'[i][j][l] = T[pi[i]][pi[j]][pi[l]].
func permuted(x *Sym, pi []int) *Sym {
	d := x.Dim()
	y := New(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			for l := j; l < d; l++ {
				y.Set(i, j, l, x.At(pi[i], pi[j], pi[l]))
			}
		}
	}
	return y
}

// TestPermutationInvariants checks the symmetric invariants under a
// permutation of the coordinates: the norm and T(v, v, v) do not change,
// T(I, I, v) and T(I, v, v) permute, T(W, W, W) with W a permutation
// matrix is the permuted tensor, and the updates commute with the
// permutation.
func TestPermutationInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 1))
	for _, d := range []int{1, 4, 11, 26} {
		x := randSym(r, d)
		pi := r.Perm(d)
		y := permuted(x, pi)
		v := randVec(r, d)
		pv := make([]float64, d) // pv[i] = v[pi[i]]
		for i := range pv {
			pv[i] = v[pi[i]]
		}
		const tol = 1e-12
		if a, b := x.NormFrob(), y.NormFrob(); math.Abs(a-b) > tol*a {
			t.Fatalf("d=%d: norm %v, permuted %v", d, a, b)
		}
		if a, b := x.ContractScalar(v), y.ContractScalar(pv); math.Abs(a-b) > tol*x.NormFrob() {
			t.Fatalf("d=%d: T(v,v,v) %v, permuted %v", d, a, b)
		}
		var mx, my mat.Dense
		x.ContractMat(&mx, v)
		y.ContractMat(&my, pv)
		gx, gy := x.ContractVec(nil, v), y.ContractVec(nil, pv)
		for i := 0; i < d; i++ {
			if math.Abs(gy[i]-gx[pi[i]]) > tol*x.NormFrob()*10 {
				t.Fatalf("d=%d: T(I,v,v) does not permute", d)
			}
			for j := 0; j < d; j++ {
				if math.Abs(my.At(i, j)-mx.At(pi[i], pi[j])) > tol*x.NormFrob() {
					t.Fatalf("d=%d: T(I,I,v) does not permute", d)
				}
			}
		}
		// W with W[pi[i]][i] = 1 maps T to the permuted tensor exactly.
		w := mat.Zeros(d, d)
		for i := range pi {
			w.Set(pi[i], i, 1)
		}
		var z Sym
		z.Multilinear(x, w)
		checkAgainst(t, "Multilinear by a permutation", &z, func(i, j, l int) (float64, float64) {
			return y.At(i, j, l), 4 * eps * math.Abs(y.At(i, j, l))
		})
		// Updates commute with the permutation.
		x2, y2 := x.Clone(), y.Clone()
		x2.AddOuter(0.5, v)
		y2.AddOuter(0.5, pv)
		checkAgainst(t, "AddOuter permuted", y2, func(i, j, l int) (float64, float64) {
			return x2.At(pi[i], pi[j], pi[l]), 1e-14 * (1 + math.Abs(x2.At(pi[i], pi[j], pi[l])))
		})
	}
}
