package bench_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/mat"
	gmat "gonum.org/v1/gonum/mat"
)

// The anchors must compute the same thing: moments' and gonum's products
// of the same matrices agree to rounding.
func Example() {
	const n = 200
	r := rand.New(rand.NewPCG(1, 2))
	data := func() []float64 {
		d := make([]float64, n*n)
		for i := range d {
			d[i] = r.NormFloat64()
		}
		return d
	}
	da, db := data(), data()
	var c mat.Dense
	c.Mul(mat.New(n, n, da), mat.New(n, n, db))
	var g gmat.Dense
	g.Mul(gmat.NewDense(n, n, da), gmat.NewDense(n, n, db))
	worst := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			worst = math.Max(worst, math.Abs(c.At(i, j)-g.At(i, j)))
		}
	}
	// Entries are sums of 200 products of standard normals: about 14 in
	// size, so rounding differences stay far below 1e-10.
	fmt.Println("agree:", worst < 1e-10)
	// Output: agree: true
}
