package house_test

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/house"
	"github.com/moments-go/moments/kernels"
)

// Example factors a 2 x 3 matrix A = L*Q in place and checks that the
// rows of Q (formed from the reflectors) are orthonormal and that L*Q
// gives back A.
func Example() {
	a := []float64{3, 4, 0, 1, 2, 2}
	orig := append([]float64(nil), a...)
	f := house.Factor(2, 3, a, 3)
	q := make([]float64, 2*3)
	f.FormQ(2, q, 3)
	l := []float64{a[0], 0, a[3], a[4]} // L on and below the diagonal
	lq := make([]float64, 6)
	kernels.Gemm(false, false, 2, 3, 2, 1, l, 2, q, 3, 0, lq, 3)
	worst := 0.0
	for i := range lq {
		worst = math.Max(worst, math.Abs(lq[i]-orig[i]))
	}
	fmt.Printf("|L*Q - A| < 1e-14: %v\n", worst < 1e-14)
	fmt.Printf("q0.q1 = %.1f, |q0| = %.1f\n", math.Abs(kernels.Dot(q[:3], q[3:])), kernels.Nrm2(q[:3]))
	// Output:
	// |L*Q - A| < 1e-14: true
	// q0.q1 = 0.0, |q0| = 1.0
}
