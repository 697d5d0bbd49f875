package jacobi_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/jacobi"
	"github.com/moments-go/moments/kernels"
)

// A sweep of one-sided Jacobi over three rows: the pairs (0, 1), (0, 2),
// (1, 2), one per step, prepared once and run until no pair rotates.
func ExamplePlan() {
	x := []float64{
		3, 1, 0, 1,
		1, 2, 1, 0,
		0, 1, 4, 1,
	}
	sq := make([]float64, 3)
	for i := range sq {
		sq[i] = kernels.Dot(x[4*i:4*i+4], x[4*i:4*i+4])
	}
	plan := jacobi.NewPlan([]int{0, 1, 0, 2, 1, 2}, []int{1, 1, 1})
	cs := make([]float64, 6)
	sweeps := 0
	for {
		sweeps++
		if rotated, _, _, _ := plan.Steps(x, 4, 4, sq, 1e-15, cs); rotated == 0 {
			break
		}
	}
	fmt.Println("converged in fewer than 10 sweeps:", sweeps < 10)
	for _, p := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		d := kernels.Dot(x[4*p[0]:4*p[0]+4], x[4*p[1]:4*p[1]+4])
		fmt.Printf("rows %d and %d orthogonal: %v\n", p[0], p[1], d*d <= 1e-28*sq[p[0]]*sq[p[1]])
	}
	// The rotations keep the sum of the squared norms.
	fmt.Printf("sum of squared norms: %.6f\n", sq[0]+sq[1]+sq[2])
	// Output:
	// converged in fewer than 10 sweeps: true
	// rows 0 and 1 orthogonal: true
	// rows 0 and 2 orthogonal: true
	// rows 1 and 2 orthogonal: true
	// sum of squared norms: 35.000000
}
