package sym3_test

import (
	"fmt"

	"github.com/moments-go/moments/internal/sym3"
)

// Rows accumulates the third moment sum_s w_s y_s(x)y_s(x)y_s of the
// rows of a matrix into a packed symmetric tensor: here two samples in 3
// dimensions. The value T[i][j][l], i <= j <= l, is at
// Base(d, j) + i*(d-j) + l-j.
func ExampleRows() {
	const d = 3
	y := []float64{
		1, 2, 3,
		0, 1, -1,
	}
	t := make([]float64, sym3.Len(d))
	sym3.Rows(d, 2, 1, y, d, []float64{1, 2}, t)
	at := func(i, j, l int) float64 { return t[sym3.Base(d, j)+i*(d-j)+l-j] }
	fmt.Println(len(t), at(0, 1, 2), at(1, 1, 2), at(2, 2, 2))
	// Output: 10 6 10 25
}
