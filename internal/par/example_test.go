package par_test

import (
	"context"
	"fmt"

	"github.com/moments-go/moments/internal/par"
)

// Example sums 1/i over i in [1, 10^6) in chunks of 1000 on 1 and on 4
// goroutines: the chunks are merged in order, so the two sums have the
// same bits.
func Example() {
	sum := func(workers int) float64 {
		s, err := par.Reduce(context.Background(), 999999, 1000, workers, nil,
			func() *float64 { return new(float64) },
			func(acc *float64, lo, hi int) {
				for i := lo; i < hi; i++ {
					*acc += 1 / float64(i+1)
				}
			},
			func(dst, src *float64) { *dst += *src },
			func(acc *float64) { *acc = 0 })
		if err != nil {
			panic(err)
		}
		return *s
	}
	fmt.Println(sum(1) == sum(4))
	fmt.Printf("%.6f\n", sum(2))
	// Output:
	// true
	// 14.392726
}
