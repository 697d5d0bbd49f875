package treemix

import (
	"errors"

	"github.com/moments-go/moments/latent/internal/csvscan"
)

// Errors that data can cause. The learners wrap them with details; test
// for them with errors.Is.
var (
	// ErrFewStates: the method needs more states per variable than
	// mixture components (d > r), for the rank test and the spectral
	// decomposition alike.
	ErrFewStates = errors.New("treemix: the number of states must exceed the number of components (d > r)")
	// ErrNoReference: no node is isolated in the union graph, so the
	// spectral decomposition has no reference node u* whose view of the
	// hidden variable is the same in every separator configuration.
	ErrNoReference = errors.New("treemix: no isolated reference node in the union graph")
	// ErrRankDeficient: a matrix that the spectral decomposition inverts
	// (the reference view, a projected pair matrix) has numerical rank
	// below the number of components.
	ErrRankDeficient = errors.New("treemix: rank deficient")
	// ErrComplexEigen: the observable operator whose eigenvectors label
	// the components has complex eigenvalues (sampling noise or a model
	// outside the assumptions).
	ErrComplexEigen = errors.New("treemix: observable operator has complex eigenvalues")
	// ErrNoConvergence: an iterative method stopped at its iteration cap.
	ErrNoConvergence = errors.New("treemix: no convergence")
	// ErrBadData: malformed or inconsistent data (see DataError).
	ErrBadData = errors.New("treemix: bad data")
)

// DataError reports malformed input: the line (1-based; 0 when the
// problem has no line) and field (1-based; 0 when it concerns the whole
// line) where it was found. It matches ErrBadData under errors.Is.
type DataError struct {
	Line, Field int
	Msg         string
}

// Error formats the position and the message.
func (e *DataError) Error() string { return csvscan.Format("treemix", e.Line, e.Field, e.Msg) }

// dataError turns the position errors of the CSV scanner into
// *DataError and passes other errors through.
func dataError(err error) error {
	var e *csvscan.Error
	if errors.As(err, &e) {
		return &DataError{Line: e.Line, Field: e.Field, Msg: e.Msg}
	}
	return err
}

// Unwrap returns ErrBadData.
func (e *DataError) Unwrap() error { return ErrBadData }
