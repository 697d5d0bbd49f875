package treemix

import (
	"errors"
	"fmt"
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
func (e *DataError) Error() string {
	switch {
	case e.Line > 0 && e.Field > 0:
		return fmt.Sprintf("treemix: line %d, field %d: %s", e.Line, e.Field, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("treemix: line %d: %s", e.Line, e.Msg)
	}
	return "treemix: " + e.Msg
}

// Unwrap returns ErrBadData.
func (e *DataError) Unwrap() error { return ErrBadData }
