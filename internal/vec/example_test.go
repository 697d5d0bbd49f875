package vec_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
)

// ExampleDotAt runs a kernel on every level that can run here. The inputs are
// small integers, so every level's sum is exact and the same whatever the
// order of summation; in general levels may differ in the last bits.
func ExampleDotAt() {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	y := []float64{9, 8, 7, 6, 5, 4, 3, 2, 1}
	same := true
	for _, l := range simd.Available() {
		same = same && vec.DotAt(l, x, y) == 165 && vec.AsumAt(l, x) == 45
	}
	fmt.Println(vec.DotAt(simd.Generic, x, y), same)
	// Output: 165 true
}
