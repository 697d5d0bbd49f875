package svd

import (
	"errors"
	"fmt"
)

// ErrNotFinite is returned for input that holds NaN or an infinity.
var ErrNotFinite = errors.New("svd: matrix has NaN or infinite entries")

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
