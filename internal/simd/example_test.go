package simd_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/simd"
)

// ExampleAvailable shows the rules that hold on every machine: the portable
// Generic level always runs and comes first, and Use accepts every listed
// level. Which levels follow depends on the CPU.
func ExampleAvailable() {
	levels := simd.Available()
	fmt.Println(levels[0] == simd.Generic, simd.Supported(simd.Generic))
	prev := simd.Current()
	fmt.Println(simd.Use(simd.Generic), simd.Current() == simd.Generic)
	if err := simd.Use(prev); err != nil {
		fmt.Println(err)
	}
	l, err := simd.Parse("generic")
	fmt.Println(l == simd.Generic, err)
	// Output:
	// true true
	// <nil> true
	// true <nil>
}
