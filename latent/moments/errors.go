package moments

import (
	"errors"
	"fmt"

	"github.com/moments-go/moments/internal/csvscan"
)

// ErrBadData is the one error of malformed or inconsistent input, shared
// by every reader and learner of the module (linear.ErrBadData and
// treemix.ErrBadData are this value): a field that does not parse, a
// line of the wrong width, an id or state out of range, a header that
// contradicts the data, or data too small for the method. Test for it
// with errors.Is; the readers return it as a *DataError that names the
// position. Its message is "bad data".
var ErrBadData = csvscan.ErrBadData

// ErrBadOption is wrapped by the error for an Options value that makes
// no sense (a negative Workers) and for a bad argument of the moment
// constructors (alpha0 <= 0 for the LDA variant); the message names the
// option and its value. Test for it with errors.Is.
var ErrBadOption = errors.New("moments: bad option")

// DataError reports malformed input at a position. It is a struct with
// the fields
//
//	Reader      string // the reader that found it ("linear", "treemix", "moments: ReadUCI", ...)
//	Line, Field int    // 1-based; 0 when the problem has no single line / concerns the whole line
//	Msg         string // what is wrong
//
// Its Error method formats "reader: line L, field F: msg", leaving out
// the positions that are zero, and its Unwrap method returns ErrBadData,
// so it matches ErrBadData under errors.Is. Every reader of the module
// (linear.ReadCSV, treemix.ReadCSV, ReadUCI, ReadLabels) returns this
// type; test for it with errors.As. (The type is defined in an internal
// package shared by the readers; this alias is its public name.)
type DataError = csvscan.DataError

// lineError returns a *DataError of reader at line, with the formatted
// message.
func lineError(reader string, line int, format string, args ...any) error {
	return &DataError{Reader: reader, Line: line, Msg: fmt.Sprintf(format, args...)}
}
