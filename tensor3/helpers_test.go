package tensor3

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/mat"
)

const eps = 0x1p-53 // unit roundoff

func randVec(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	return x
}

// randSym returns a tensor with independent standard normal stored
// values.
func randSym(r *rand.Rand, d int) *Sym {
	return New(d, randVec(r, PackedLen(d)))
}

// at3 is the index of (i, j, l) in a dense d^3 array.
func at3(d, i, j, l int) int { return (i*d+j)*d + l }

// orthonormalCols returns a d x k matrix with orthonormal columns, from
// the Gram-Schmidt process on a Gaussian matrix.
func orthonormalCols(r *rand.Rand, d, k int) *mat.Dense {
	cols := make([][]float64, k)
	for m := range cols {
		cols[m] = randVec(r, d)
	}
	orthonormalize(cols, r)
	v := mat.Zeros(d, k)
	for m, c := range cols {
		v.SetCol(m, c)
	}
	return v
}

// planted returns sum_m lam[m] v_m(x)v_m(x)v_m for the columns v_m of
// v, each stored value summed directly.
func planted(lam []float64, v *mat.Dense) *Sym {
	d, k := v.Dims()
	t := New(d, nil)
	for j := 0; j < d; j++ {
		for i := 0; i <= j; i++ {
			row := t.row(i, j)
			for c := range row {
				l := j + c
				var s float64
				for m := 0; m < k; m++ {
					s += lam[m] * v.At(i, m) * v.At(j, m) * v.At(l, m)
				}
				row[c] = s
			}
		}
	}
	return t
}

// fullNorm is the Frobenius norm of a dense d^3 array, computed plainly.
func fullNorm(a []float64) float64 {
	var s float64
	for _, v := range a {
		s += v * v
	}
	return math.Sqrt(s)
}

// mustPanic runs f in the subtest name and fails it unless f panics
// with a message of this package ("tensor3: ...").
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	t.Run(name, func(t *testing.T) { testutil.MustPanic(t, f, "tensor3: ") })
}

// emulated reports whether the tests may run on a slow target (CI runs
// arm64 under qemu), or with -short: the largest cases are then cut down.
func emulated() bool { return testing.Short() || runtime.GOARCH != "amd64" }
