package lingam_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/bench/lingam"
	"github.com/moments-go/moments/mat"
)

// chain draws n samples of x0 -> x1 -> x2 (x1 = 0.8 x0 + e1, x2 = -0.6 x1
// + e2) with centred exponential noises.
func chain(n int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	x := mat.Zeros(n, 3)
	for t := 0; t < n; t++ {
		e := func() float64 { return r.ExpFloat64() - 1 }
		x0 := e()
		x1 := 0.8*x0 + e()
		x2 := -0.6*x1 + e()
		x.Set(t, 0, x0)
		x.Set(t, 1, x1)
		x.Set(t, 2, x2)
	}
	return x
}

// Example: both learners find the order and the weights of a chain.
func Example() {
	x := chain(20000, 1)
	d, err := lingam.DirectLiNGAM(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("DirectLiNGAM order:", d.Order)
	fmt.Printf("B[1][0] = %.1f, B[2][1] = %.1f\n", d.B.At(1, 0), d.B.At(2, 1))
	// Output:
	// DirectLiNGAM order: [0 1 2]
	// B[1][0] = 0.8, B[2][1] = -0.6
}

// TestChain: both learners recover the weights of the chain to 0.05 at
// N = 20000 (standard errors about 0.01) and no spurious edge above it.
func TestChain(t *testing.T) {
	x := chain(20000, 2)
	want := mat.Zeros(3, 3)
	want.Set(1, 0, 0.8)
	want.Set(2, 1, -0.6)
	d, err := lingam.DirectLiNGAM(x)
	if err != nil {
		t.Fatal(err)
	}
	ica, err := lingam.ICALiNGAM(x, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*lingam.Result{"DirectLiNGAM": d, "ICA-LiNGAM": ica} {
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if e := math.Abs(r.B.At(i, j) - want.At(i, j)); e > 0.05 {
					t.Errorf("%s: B[%d][%d] = %.3f, want %.1f", name, i, j, r.B.At(i, j), want.At(i, j))
				}
			}
		}
	}
}
