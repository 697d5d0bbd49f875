package testutil_test

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/testutil"
)

// ExampleScaled turns a residual into the LAPACK test ratio, a count of
// rounding errors of an order-n problem: a backward stable method keeps it a
// small constant, so a test asserts it stays below a stated bound.
func ExampleScaled() {
	norm, n := 2.0, 4
	resid := 3 * norm * float64(n) * testutil.Eps
	fmt.Println(testutil.Scaled(resid, norm, n))
	fmt.Println(testutil.SameBits([]float64{1, math.NaN()}, []float64{1, math.NaN()}))
	fmt.Println(testutil.SameBits([]float64{0}, []float64{math.Copysign(0, -1)}))
	// Output:
	// 3
	// true
	// false
}
