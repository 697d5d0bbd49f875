package svd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestBeyondRange: past the documented limits (a wide matrix graded
// 1e300..1e-300 across its long side; a diagonal entry 2^-2040 times the
// largest) Factorize still returns finite, non-negative, decreasing
// values, a factorization that passes the grid's residual (a normwise,
// absolute measure) and orthogonality checks, and the documented zero
// for the value below the limit.
func TestBeyondRange(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	a := mat.Zeros(4, 9)
	for i := range 4 {
		for j := range 9 {
			a.Set(i, j, r.NormFloat64()*math.Pow(10, 300-75*float64(j)))
		}
	}
	f := checkSVD(t, a, nil)
	for i, v := range f.S {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("value %d = %v", i, v)
		}
	}
	d := mat.FromRows([][]float64{{1e300, 0}, {0, 1e-320}})
	s, err := Values(d)
	if err != nil || s[0] != 1e300 || s[1] != 0 {
		t.Fatalf("diag(1e300, 1e-320): %v %v (the second is below the documented limit, 2^-2010 times the first)", s, err)
	}
}
