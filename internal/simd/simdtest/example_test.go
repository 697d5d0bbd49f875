package simdtest_test

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/simd/simdtest"
)

// ExampleNewGuarded makes a slice with guard values on both sides, on which a
// kernel test runs a kernel and then calls Check to catch stray writes; S
// cuts its capacity so that Go code cannot reach past the end. SumBound is
// the tolerance such tests allow between a kernel's sum and the reference's.
func ExampleNewGuarded() {
	g := simdtest.NewGuarded(5, 3, func(i int) float64 { return float64(i) })
	s := g.S()
	fmt.Println(s, len(s), cap(s))

	// Two orders of summation may differ, but by no more than SumBound.
	x := []float64{0.1, 0.2, 0.3, 1e-3}
	fwd, bwd, abs := 0.0, 0.0, 0.0
	for i := range x {
		fwd += x[i]
		bwd += x[len(x)-1-i]
		abs += math.Abs(x[i])
	}
	fmt.Println(math.Abs(fwd-bwd) <= simdtest.SumBound(len(x), abs))
	// Output:
	// [0 1 2 3 4] 5 5
	// true
}
