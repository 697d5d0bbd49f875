package size_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/size"
)

// Example sizes a workspace before allocating it: the products and sums
// saturate at Max instead of overflowing, so one comparison against a memory
// limit catches sizes too large to hold.
func Example() {
	need := size.Add(size.Float64s(1000, 1000), size.Scale(8, size.Packed3(10)))
	fmt.Println(need)
	huge := size.Float64s(1<<40, 1<<40)
	fmt.Println(huge == size.Max)
	// Output:
	// 8001760
	// true
}
