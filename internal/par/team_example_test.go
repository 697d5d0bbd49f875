package par_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/par"
)

// ExampleTeam runs a short loop three times on one team of 4 goroutines,
// as a matrix reduction runs a product per step: each index writes only
// its own element, and the caller sums them after each loop, so the total
// is the same whichever goroutine ran which index.
func ExampleTeam() {
	team := par.NewTeam(4)
	defer team.Close()
	sq := make([]int, 100)
	total := 0
	for step := 1; step <= 3; step++ {
		team.For(len(sq), func(i int) { sq[i] = step * i * i })
		for _, v := range sq {
			total += v
		}
	}
	fmt.Println(team.Workers(), total)
	// Output: 4 1970100
}
