package assign_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/assign"
	"github.com/moments-go/moments/mat"
)

// ExampleHungarian matches three estimated topics (rows) to four true ones
// (columns) at the least total distance.
func ExampleHungarian() {
	cost := mat.FromRows([][]float64{
		{4, 1, 3, 9},
		{2, 0, 5, 9},
		{3, 2, 2, 9},
	})
	cols, total := assign.Hungarian(cost)
	fmt.Println(cols, total)
	// Output: [1 0 2] 5
}
