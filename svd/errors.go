package svd

import (
	"errors"
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/optcheck"
)

// checkJacobi checks the sweep cap and tolerance of the Jacobi methods
// (of Options or EigOptions, named by what).
func checkJacobi(what string, maxSweeps int, tol float64) error {
	return optcheck.First(
		optcheck.Int(ErrBadOption, what+".MaxSweeps", maxSweeps, 0, math.MaxInt),
		optcheck.Less(ErrBadOption, what+".Tol", tol, 0, 1))
}

// ErrNotFinite is returned for input that holds NaN or an infinity.
var ErrNotFinite = errors.New("svd: matrix has NaN or infinite entries")

// ErrRange is returned by PseudoInverse and SVD.Solve when the result
// lies outside the float64 range: a kept singular value so small (near
// or below 2^-1024), or a right-hand side so large, that the exact
// result does not fit.
var ErrRange = errors.New("svd: the result exceeds the float64 range")

// ErrBadOption is wrapped by the errors for option values that make no
// sense: NaN, an infinity, a negative sweep or iteration cap or
// tolerance, a tolerance of 1 or more, an unknown Want. The message
// names the option and its value.
var ErrBadOption = errors.New("svd: bad option")

// ErrNoConvergence is the sentinel of ConvergenceError: errors.Is(err,
// ErrNoConvergence) reports any failure to converge.
var ErrNoConvergence = errors.New("svd: no convergence")

// ConvergenceError reports that an iteration did not converge within its
// cap. It matches ErrNoConvergence with errors.Is.
type ConvergenceError struct {
	// Method names the iteration ("one-sided Jacobi", "Jacobi
	// eigensolver").
	Method string
	// Sweeps is the number of sweeps performed (the cap).
	Sweeps int
	// Off is the measure of non-convergence at the end: the largest
	// cosine between two rows for one-sided Jacobi, the largest scaled
	// off-diagonal element for the eigensolver.
	Off float64
}

// Error describes the failure.
func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("svd: %s did not converge in %d sweeps (off-diagonal measure %.3g)", e.Method, e.Sweeps, e.Off)
}

// Unwrap returns ErrNoConvergence.
func (e *ConvergenceError) Unwrap() error { return ErrNoConvergence }
