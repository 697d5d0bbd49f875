package lptest_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/testutil/lptest"
)

// ExampleFreeLP builds a problem of the random family: n free columns, 5n
// rows, each row holding 2 to 5 entries in compressed column form.
func ExampleFreeLP() {
	lp := lptest.FreeLP(1, 10)
	fmt.Println(lp.Rows, lp.Cols, len(lp.ColStart) == lp.Cols+1)
	nnz := lp.ColStart[lp.Cols]
	fmt.Println(nnz >= 2*lp.Rows && nnz <= 5*lp.Rows, len(lp.Value) == nnz)
	again := lptest.FreeLP(1, 10)
	fmt.Println(again.Value[0] == lp.Value[0] && again.Obj[3] == lp.Obj[3])
	// Output:
	// 50 10 true
	// true true
	// true
}
