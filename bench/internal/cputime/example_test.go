package cputime_test

import (
	"fmt"

	"github.com/moments-go/moments/bench/internal/cputime"
)

// Time a piece of work in CPU seconds.
func ExampleSeconds() {
	before := cputime.Seconds()
	sum := 0
	for i := 0; i < 1000; i++ {
		sum += i
	}
	after := cputime.Seconds()
	fmt.Println(sum, after >= before)
	// Output: 499500 true
}
