package tensor3_test

import (
	"context"
	"fmt"
	"math"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// A tensor with an orthogonal decomposition is taken apart again by the
// robust tensor power method: the eigenvalues come out sorted, with the
// eigenvectors as the columns of Vectors.
func Example() {
	s := 1 / math.Sqrt2
	planted := [][]float64{{0, 0, s, s}, {1, 0, 0, 0}, {0, 1, 0, 0}}
	t := tensor3.New(4, nil)
	t.AddOuter(1, planted[0])
	t.AddOuter(3, planted[1])
	t.AddOuter(-2, planted[2]) // reported as 2 with the vector -e1

	dec, err := tensor3.PowerMethod(context.Background(), t, 3, &tensor3.PowerOptions{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("eigenvalues %.6f\n", dec.Values)
	for i, want := range []int{1, 2, 0} {
		v := dec.Vectors.Col(nil, i)
		var dot float64
		for j := range v {
			dot += v[j] * planted[want][j]
		}
		fmt.Printf("v%d . planted%d = %.6f\n", i, want, dot)
	}
	fmt.Println("residual below 1e-12:", dec.Residual < 1e-12)
	// Output:
	// eigenvalues [3.000000 2.000000 1.000000]
	// v0 . planted1 = 1.000000
	// v1 . planted2 = -1.000000
	// v2 . planted0 = 1.000000
	// residual below 1e-12: true
}

// AddOuterRows accumulates a third moment, sum_s w_s y_s(x)y_s(x)y_s,
// over the rows of a matrix; At reads a value under any ordering of its
// indices.
func ExampleSym_AddOuterRows() {
	y := mat.FromRows([][]float64{
		{1, 2, 3},
		{0, 1, -1},
		{2, 0, 1},
	})
	t := tensor3.New(3, nil)
	t.AddOuterRows(1, y, []float64{1, 1, 0.5})
	fmt.Println(t.At(0, 1, 2), t.At(2, 1, 0), t.At(2, 2, 2), t.At(0, 0, 0))
	// Output: 6 6 26.5 5
}

// Multilinear maps a tensor through a matrix on all three modes:
// T(W, W, W). Here W selects and scales two coordinates.
func ExampleSym_Multilinear() {
	t := tensor3.New(3, nil)
	t.Set(0, 0, 2, 1)
	t.Set(2, 2, 2, 5)
	w := mat.FromRows([][]float64{
		{2, 0},
		{0, 0},
		{0, 1},
	})
	var u tensor3.Sym
	u.Multilinear(t, w)
	fmt.Println(u.Dim(), u.At(0, 0, 1), u.At(1, 0, 0), u.At(1, 1, 1), u.At(0, 1, 1))
	// Output: 2 4 4 5 0
}
