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
// position.
var ErrBadData = errors.New("bad data")

// DataError reports malformed input at a position: the line (1-based;
// 0 when the problem has no single line) and field (1-based; 0 when it
// concerns the whole line). Reader names the reader that found it
// ("linear", "treemix", "moments: ReadUCI", ...) and starts the message.
// Every reader of the module (linear.ReadCSV, treemix.ReadCSV, ReadUCI,
// ReadLabels) returns this type; it matches ErrBadData under errors.Is.
type DataError struct {
	Reader      string
	Line, Field int
	Msg         string
}

// Error formats "reader: line L, field F: msg", leaving out the
// positions that are zero.
func (e *DataError) Error() string { return csvscan.Format(e.Reader, e.Line, e.Field, e.Msg) }

// Unwrap returns ErrBadData.
func (e *DataError) Unwrap() error { return ErrBadData }

// FromScan turns a position error of the delimited-text scanner
// (internal/csvscan) into a *DataError of the named reader, and returns
// every other error unchanged (nil stays nil). It is for the readers of
// this module, which share that scanner.
func FromScan(reader string, err error) error {
	var e *csvscan.Error
	if errors.As(err, &e) {
		return &DataError{Reader: reader, Line: e.Line, Field: e.Field, Msg: e.Msg}
	}
	return err
}

// lineError returns a *DataError of reader at line, with the formatted
// message.
func lineError(reader string, line int, format string, args ...any) error {
	return &DataError{Reader: reader, Line: line, Msg: fmt.Sprintf(format, args...)}
}
