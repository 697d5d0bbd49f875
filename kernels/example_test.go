package kernels_test

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/kernels"
)

// Gemm multiplies row-major matrices with explicit strides: here C = A B
// for A 2x3 and B 3x2.
func ExampleGemm() {
	a := []float64{
		1, 2, 3,
		4, 5, 6,
	}
	b := []float64{
		7, 8,
		9, 10,
		11, 12,
	}
	c := make([]float64, 4)
	kernels.Gemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [58 64 139 154]
}

// Nrm2 neither overflows nor underflows where the sum of squares would.
// (The norm of the doubles nearest 3e200 and 4e200 is, correctly rounded,
// 4.9999999999999995e+200.)
func ExampleNrm2() {
	big := []float64{3e200, 4e200}
	tiny := []float64{3e-200, 4e-200}
	fmt.Printf("%.6g %.6g\n", kernels.Nrm2(big), kernels.Nrm2(tiny))
	fmt.Println(kernels.Nrm2([]float64{1, math.Inf(-1)}), kernels.Nrm2([]float64{math.Inf(1), math.NaN()}))
	// Output:
	// 5e+200 5e-200
	// +Inf NaN
}

// Every path the CPU supports can be selected at run time; results agree
// to rounding.
func ExampleUse() {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	info := kernels.Info()
	for _, p := range info.Implementations {
		if err := kernels.Use(p); err != nil {
			panic(err)
		}
		if kernels.Dot(x, x) != 385 {
			fmt.Println(p, "disagrees")
		}
	}
	kernels.Use(info.Active)
	fmt.Println(kernels.Dot(x, x), kernels.Iamax([]float64{1, -9, 9, 3}))
	// Output: 385 1
}
