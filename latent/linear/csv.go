package linear

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/moments-go/moments/internal/csvscan"
	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// CSVOptions controls ReadCSV. nil or the zero value reads
// comma-separated values and detects a header line.
type CSVOptions struct {
	// Comma is the field separator (0: ',').
	Comma rune
	// Header says whether the first line holds the variables' names: 1
	// yes, -1 no, 0 (default) yes if one of its fields is not a number.
	Header int
	// MaxMemory bounds (bytes) the samples held while reading (8 bytes a
	// value, three times over while the array grows): reading stops with
	// a *mat.MemoryError at the line that would pass it. 0 means
	// mat.DefaultMaxMemory (4 GiB), negative no limit.
	MaxMemory int64
}

// Data are numeric samples read by ReadCSV: the rows of X are the
// samples. It implements moments.Samples.
type Data struct {
	X *mat.Dense
	// Names are the variables' names from the header (nil without one).
	Names []string
}

// NumSamples returns the number of samples.
func (d *Data) NumSamples() int { r, _ := d.X.Dims(); return r }

// Dim returns the number of variables.
func (d *Data) Dim() int { _, c := d.X.Dims(); return c }

// Block copies samples lo..hi-1 into dst ((hi-lo) x Dim()).
func (d *Data) Block(lo, hi int, dst *mat.Dense) {
	r, c := dst.Dims()
	if lo < 0 || hi > d.NumSamples() || r != hi-lo || c != d.Dim() {
		panic(fmt.Sprintf("linear: Data.Block: rows %d..%d of %d into a %dx%d matrix", lo, hi, d.NumSamples(), r, c))
	}
	dst.Copy(d.X.Slice(lo, hi, 0, c))
}

// ReadCSV reads numeric samples, one a line, one variable a field, the
// fields parsed as Go floating-point literals; nil opts means the
// defaults of CSVOptions. Blank lines and lines starting with
// '#' are skipped; spaces around fields are ignored, and so is a UTF-8
// byte order mark at the start of r. Errors are
// *DataError values (matching ErrBadData) naming the line and field: a
// field that is not a number, NaN or an infinity, a line with a
// different number of fields from the first, no samples at all.
func ReadCSV(r io.Reader, opts *CSVOptions) (*Data, error) {
	var o CSVOptions
	if opts != nil {
		o = *opts
	}
	comma := o.Comma
	if comma == 0 {
		comma = ','
	}
	parse := func(f []byte) (float64, bool) {
		v, err := strconv.ParseFloat(string(f), 64)
		return v, err == nil || isRangeErr(err)
	}
	var vals []float64
	cols := 0
	names, lines, err := csvscan.Records(r, comma, o.Header,
		func(f []byte) bool { _, ok := parse(f); return ok },
		func(line int, fields [][]byte) error {
			cols = len(fields)
			if len(vals)+cols > cap(vals) {
				if err := mat.CheckMemory(fmt.Sprintf("the samples up to line %d", line), size.Float64s(3, len(vals)+cols), o.MaxMemory); err != nil {
					return fmt.Errorf("linear: ReadCSV: %w", err)
				}
			}
			for j, f := range fields {
				v, ok := parse(f)
				if !ok {
					return &DataError{Reader: "linear", Line: line, Field: j + 1, Msg: fmt.Sprintf("%q is not a number", f)}
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return &DataError{Reader: "linear", Line: line, Field: j + 1, Msg: fmt.Sprintf("%q is not finite", f)}
				}
				vals = append(vals, v)
			}
			return nil
		})
	if err != nil {
		return nil, dataError(err)
	}
	if len(vals) == 0 {
		return nil, &DataError{Reader: "linear", Line: lines, Msg: "no samples"}
	}
	return &Data{X: mat.New(len(vals)/cols, cols, vals), Names: names}, nil
}

// isRangeErr reports a ParseFloat range error (the value is then +-Inf
// or 0 and is judged by its finiteness).
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
