package fuzz_test

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/kernels"
)

// The exact references judge a kernel by the classical error bound: here
// a dot product whose naive float64 sum loses everything.
func ExampleExactDot() {
	x := []float64{1e16, 1, -1e16, 1}
	y := []float64{1, 1, 1, 1}
	exact := fuzz.ExactDot(x, y)
	got := kernels.Dot(x, y)
	var s float64
	for i := range x {
		s += math.Abs(x[i] * y[i])
	}
	fmt.Println("exact:", exact)
	fmt.Println("within the bound:", math.Abs(got-exact) <= fuzz.SumBound(len(x), s))
	// Output:
	// exact: 2
	// within the bound: true
}
