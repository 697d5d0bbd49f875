// Package csvscan reads the delimited text of the learners' CSV readers
// (latent/linear numeric samples, latent/treemix discrete states): the
// line loop, comments, trimming, header detection and the field count,
// with errors that name the line and field.
package csvscan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrBadData is the module's one error of malformed or inconsistent
// input; latent/moments exports it as moments.ErrBadData (and linear and
// treemix as their ErrBadData). It lives here, below every reader, so
// that DataError can match it without an import cycle.
var ErrBadData = errors.New("bad data")

// DataError is the module's position error of malformed input; it is
// exported as moments.DataError (a type alias), where its fields are
// documented for users. Reader names the reader that found it and starts
// the message; Line and Field are 1-based, 0 when absent.
type DataError struct {
	Reader      string
	Line, Field int
	Msg         string
}

// Error formats "reader: line L, field F: msg", leaving out the
// positions that are zero.
func (e *DataError) Error() string { return Format(e.Reader, e.Line, e.Field, e.Msg) }

// Unwrap returns ErrBadData.
func (e *DataError) Unwrap() error { return ErrBadData }

// ToDataError turns an *Error of Records into a *DataError of the named
// reader, and returns every other error unchanged (nil stays nil).
func ToDataError(reader string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return &DataError{Reader: reader, Line: e.Line, Field: e.Field, Msg: e.Msg}
	}
	return err
}

// Error is a problem at a line (1-based; 0 when it has none) and field
// (1-based; 0 when it concerns the whole line). The readers turn it into
// a *DataError with ToDataError.
type Error struct {
	Line, Field int
	Msg         string
}

// Error formats the position and the message.
func (e *Error) Error() string { return Format("csv", e.Line, e.Field, e.Msg) }

// Format writes "pkg: line L, field F: msg", leaving out what is zero.
func Format(pkg string, line, field int, msg string) string {
	switch {
	case line > 0 && field > 0:
		return fmt.Sprintf("%s: line %d, field %d: %s", pkg, line, field, msg)
	case line > 0:
		return fmt.Sprintf("%s: line %d: %s", pkg, line, msg)
	}
	return pkg + ": " + msg
}

// BOM is the UTF-8 byte order mark, which some editors (and spreadsheet
// exports) put at the start of a text file.
const BOM = "\ufeff"

// TrimBOM returns b without a leading UTF-8 byte order mark. Every reader
// applies it to the start of its input, so that the mark neither eats
// the first sample nor ends up in the first column's name.
func TrimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte(BOM)) }

// Records reads r line by line. A UTF-8 byte order mark at the start of
// r is skipped. Blank lines and lines starting with '#'
// are skipped; fields are separated by comma and trimmed of spaces. The
// first remaining line is a header when header > 0, or when header == 0
// and isValue rejects one of its fields; its fields are returned as
// names. Every other line must have as many fields as the first, and is
// passed to record with its line number; an error from record stops the
// reading and is returned as it is. It returns the number of lines read
// and, for a line of the wrong width or a read error, an *Error. Lines
// may be up to 64 MiB long.
func Records(r io.Reader, comma rune, header int, isValue func([]byte) bool, record func(line int, fields [][]byte) error) (names []string, lines int, err error) {
	sep := []byte(string(comma))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	cols, line := -1, 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = TrimBOM(b)
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		fields := bytes.Split(b, sep)
		for i := range fields {
			fields[i] = bytes.TrimSpace(fields[i])
		}
		if cols < 0 {
			cols = len(fields)
			isHeader := header > 0
			if header == 0 {
				for _, f := range fields {
					if !isValue(f) {
						isHeader = true
						break
					}
				}
			}
			if isHeader {
				for _, f := range fields {
					names = append(names, string(f))
				}
				continue
			}
		}
		if len(fields) != cols {
			return names, line, &Error{Line: line, Msg: fmt.Sprintf("%d fields, expected %d", len(fields), cols)}
		}
		if err := record(line, fields); err != nil {
			return names, line, err
		}
	}
	if err := sc.Err(); err != nil {
		return names, line, &Error{Line: line + 1, Msg: err.Error()}
	}
	return names, line, nil
}
