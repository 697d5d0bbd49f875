package mat_test

import (
	"fmt"

	"github.com/moments-go/moments/mat"
)

// Matrices are built from a row-major slice or from rows, multiplied
// into a receiver that takes the result's shape, and printed with
// aligned columns.
func Example() {
	a := mat.New(2, 3, []float64{
		1, 2, 3,
		4, 5, 6,
	})
	b := mat.FromRows([][]float64{
		{1, 0},
		{0, 1},
		{1, -1},
	})

	var c mat.Dense // empty: Mul gives it the shape 2x2
	c.Mul(a, b)
	fmt.Printf("c = %v\n", mat.Formatted(&c, mat.Prefix("    ")))

	// A Gram matrix is exactly symmetric.
	var g mat.Dense
	g.GramCols(a)
	fmt.Printf("g = %v\n", mat.Formatted(&g, mat.Prefix("    ")))

	fmt.Printf("|c|_F = %.4f, trace(g) = %v\n", c.NormFrob(), g.Trace())
	// Output:
	// c = ⎡ 4  -1⎤
	//     ⎣10  -1⎦
	// g = ⎡17  22  27⎤
	//     ⎢22  29  36⎥
	//     ⎣27  36  45⎦
	// |c|_F = 10.8628, trace(g) = 91
}

// Slice returns a view that shares memory with its parent, so methods
// called on the view write into the parent.
func ExampleDense_Slice() {
	m := mat.Zeros(3, 4)
	v := m.Slice(1, 3, 1, 3) // rows 1-2, columns 1-2
	v.Copy(mat.Identity(2))
	v.Scale(5, v)
	fmt.Println(m)
	// Output:
	// ⎡0  0  0  0⎤
	// ⎢0  5  0  0⎥
	// ⎣0  0  5  0⎦
}

// Large matrices can be shown in part.
func ExampleFormatted() {
	m := mat.Zeros(100, 100)
	for i := 0; i < 100; i++ {
		m.Set(i, i, float64(i+1))
	}
	fmt.Printf("%.1f\n", mat.Formatted(m, mat.Excerpt(2)))
	// Output:
	// Dims(100, 100)
	// ⎡1.0  0.0  ...   0.0    0.0⎤
	// ⎢0.0  2.0  ...   0.0    0.0⎥
	// ⎢...  ...  ...   ...    ...⎥
	// ⎢0.0  0.0  ...  99.0    0.0⎥
	// ⎣0.0  0.0  ...   0.0  100.0⎦
}

// MulVec multiplies the receiver by a vector.
func ExampleDense_MulVec() {
	a := mat.FromRows([][]float64{{1, 2}, {3, 4}, {5, 6}})
	fmt.Println(a.MulVec(nil, []float64{1, -1}))
	fmt.Println(a.MulVecT(nil, []float64{1, 0, -1}))
	// Output:
	// [-1 -1 -1]
	// [-4 -4]
}
