package optcheck_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/optcheck"
)

// ErrBadOption stands for a package's sentinel for bad option values.
var ErrBadOption = errors.New("example: bad option")

// ExampleFirst checks a set of option values and reports the first bad one,
// as an error that wraps the package's sentinel.
func ExampleFirst() {
	tol, iters := math.NaN(), 100
	err := optcheck.First(
		optcheck.Int(ErrBadOption, "MaxIter", iters, 1, math.MaxInt),
		optcheck.Float(ErrBadOption, "Tol", tol, 0, 1),
	)
	fmt.Println(errors.Is(err, ErrBadOption))
	fmt.Println(optcheck.Float(ErrBadOption, "Tol", 1e-9, 0, 1))
	// Output:
	// true
	// <nil>
}
