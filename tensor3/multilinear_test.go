package tensor3

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd/simdtest"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// modeProducts returns T(W, W, W) over the dense expansion, contracted
// one mode at a time, and the same contraction of |T| by |W|, which
// bounds the rounding of any summation order.
func modeProducts(x *Sym, w *mat.Dense) (val, abs []float64) {
	d, k := w.Dims()
	a := x.Dense()
	contract := func(t []float64, abs bool) []float64 {
		// t is d x d x d; contract the last mode, then the middle, then
		// the first, each with W (or |W|).
		wv := func(i, p int) float64 {
			if abs {
				return math.Abs(w.At(i, p))
			}
			return w.At(i, p)
		}
		t1 := make([]float64, d*d*k) // [a][b][r]
		for ab := 0; ab < d*d; ab++ {
			for c := 0; c < d; c++ {
				v := t[ab*d+c]
				if abs {
					v = math.Abs(v)
				}
				for r := 0; r < k; r++ {
					t1[ab*k+r] += v * wv(c, r)
				}
			}
		}
		t2 := make([]float64, d*k*k) // [a][q][r]
		for i := 0; i < d; i++ {
			for b := 0; b < d; b++ {
				for q := 0; q < k; q++ {
					for r := 0; r < k; r++ {
						t2[(i*k+q)*k+r] += wv(b, q) * t1[(i*d+b)*k+r]
					}
				}
			}
		}
		t3 := make([]float64, k*k*k) // [p][q][r]
		for i := 0; i < d; i++ {
			for p := 0; p < k; p++ {
				for qr := 0; qr < k*k; qr++ {
					t3[p*k*k+qr] += wv(i, p) * t2[i*k*k+qr]
				}
			}
		}
		return t3
	}
	return contract(a, false), contract(a, true)
}

// TestMultilinearLarge checks T(W, W, W) at a dimension past the GEMM's
// KC blocking, against the mode-by-mode contraction of the dense
// expansion.
func TestMultilinearLarge(t *testing.T) {
	sizes := [][2]int{{140, 6}, {57, 23}}
	if emulated() {
		sizes = [][2]int{{40, 6}, {17, 23}}
	}
	simdtest.EachSelected(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(23, 1))
		for _, sz := range sizes {
			d, k := sz[0], sz[1]
			x := randSym(r, d)
			w := mat.New(d, k, randVec(r, d*k))
			val, abs := modeProducts(x, w)
			var got Sym
			got.Multilinear(x, w)
			checkAgainst(t, fmt.Sprintf("d=%d k=%d", d, k), &got, func(i, j, l int) (float64, float64) {
				o := (i*k+j)*k + l
				return val[o], 16*float64(d+k+4)*eps*abs[o] + 1e-300
			})
		}
	})
}

// TestMultilinearWorkers checks that the result has the same bits for
// any number of workers.
func TestMultilinearWorkers(t *testing.T) {
	d, k := 150, 17
	if emulated() {
		d = 45
	}
	r := rand.New(rand.NewPCG(24, 1))
	x := randSym(r, d)
	w := mat.New(d, k, randVec(r, d*k))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
	var want Sym
	want.Multilinear(x, w)
	for _, n := range []int{2, 3, 8} {
		kernels.SetMaxWorkers(n)
		var got Sym
		got.Multilinear(x, w)
		for i, v := range got.RawData() {
			if math.Float64bits(v) != math.Float64bits(want.RawData()[i]) {
				t.Fatalf("%d workers: value %d is %v, one worker gives %v", n, i, v, want.RawData()[i])
			}
		}
	}
}
