package simplex_test

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/simplex"
)

// A small production plan: maximise profit 3x + 2y subject to machine
// hours x + y <= 4, material x + 3y <= 7, and x <= 3.
func Example() {
	inf := math.Inf(1)
	p := &simplex.Problem{
		Obj:      []float64{3, 2},
		Maximize: true,
		A: simplex.SparseFromDense(mat.New(2, 2, []float64{
			1, 1,
			1, 3,
		})),
		RowLower: []float64{-inf, -inf},
		RowUpper: []float64{4, 7},
		ColLower: []float64{0, 0},
		ColUpper: []float64{3, inf},
	}
	res, err := simplex.Solve(context.Background(), p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: profit %g at x = %g, y = %g\n", res.Status, res.Objective, res.X[0], res.X[1])
	fmt.Printf("shadow prices of the rows: %g, reduced costs: %g\n", res.RowDuals, res.ReducedCosts)
	// Output:
	// Optimal: profit 11 at x = 3, y = 1
	// shadow prices of the rows: [2 0], reduced costs: [1 0]
}

// ReadMPS reads free or fixed MPS; a right-hand side on the objective row
// is a constant reported apart.
func ExampleReadMPS() {
	const text = `NAME  TINY
ROWS
 N  cost
 G  demand
COLUMNS
    x  cost  2  demand  1
    y  cost  3  demand  1
RHS
    rhs  demand  10  cost  -5
BOUNDS
 UP bnd  x  4
ENDATA
`
	p, err := simplex.ReadMPS(strings.NewReader(text), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := simplex.Solve(context.Background(), p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: c^T x = %g, constant %g, x = %g\n", p.Name, res.Objective, res.Offset, res.X)
	// Output:
	// TINY: c^T x = 26, constant 5, x = [4 6]
}

// L1Min finds the w that makes B w sparsest in the l1 sense under a
// normalisation; here B = A R hides the sparse columns of A.
func ExampleL1Min() {
	a := mat.New(6, 2, []float64{
		1, 0,
		2, 0,
		0, 1,
		0, 3,
		1, 0,
		0, 2,
	})
	r := mat.New(2, 2, []float64{
		1, 2,
		-1, 1,
	})
	var b mat.Dense
	b.Mul(a, r)
	q := b.Row(nil, 0) // ask for the sparse vector through row 0
	res, err := simplex.L1Min(&b, q, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("||B w||_1 = %.4g, B w = %.4g\n", res.Norm, res.S)
	// Output:
	// ||B w||_1 = 4, B w = [1 2 0 0 1 0]
}

// WriteMPS writes a problem as free MPS, for other solvers or for
// ReadMPS: here the production plan of the package example.
func ExampleWriteMPS() {
	inf := math.Inf(1)
	p := &simplex.Problem{
		Name:     "plan",
		Obj:      []float64{3, 2},
		Maximize: true,
		A:        simplex.SparseFromDense(mat.New(2, 2, []float64{1, 1, 1, 3})),
		RowLower: []float64{-inf, -inf},
		RowUpper: []float64{4, 7},
		ColLower: []float64{0, 0},
		ColUpper: []float64{3, inf},
		RowNames: []string{"hours", "material"},
		ColNames: []string{"x", "y"},
	}
	var b strings.Builder
	if err := simplex.WriteMPS(&b, p); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b.String())
	q, err := simplex.ReadMPS(strings.NewReader(b.String()), nil)
	fmt.Println(err, q.RowUpper, q.ColUpper)
	// Output:
	// NAME plan
	// OBJSENSE
	//     MAX
	// ROWS
	//  N OBJ
	//  L hours
	//  L material
	// COLUMNS
	//  x OBJ 3
	//  x hours 1
	//  x material 1
	//  y OBJ 2
	//  y hours 1
	//  y material 3
	// RHS
	//  RHS hours 4
	//  RHS material 7
	// BOUNDS
	//  UP BND x 3
	// ENDATA
	// <nil> [4 7] [3 +Inf]
}
