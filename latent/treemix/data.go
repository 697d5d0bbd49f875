package treemix

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/moments-go/moments/internal/csvscan"
	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// MaxStates is the largest number of states a variable may have: states
// are stored in one byte each.
const MaxStates = 256

// Data holds N samples of p discrete variables with d states each
// (0..d-1). It is stored by variable (column-major), which is what the
// counting passes read. A Data is safe for concurrent reads.
type Data struct {
	n, p, d int
	x       []uint8 // x[v*n+i]: state of variable v in sample i
	// Names are the variable names (from a CSV header), or nil.
	Names []string
}

// NewData returns n samples of p variables with d states, all in state
// 0. It panics unless n, p >= 0 and 1 <= d <= MaxStates.
func NewData(n, p, d int) *Data {
	if n < 0 || p < 0 || d < 1 || d > MaxStates {
		panic(fmt.Sprintf("treemix: NewData: bad sizes n=%d p=%d d=%d", n, p, d))
	}
	return &Data{n: n, p: p, d: d, x: make([]uint8, n*p)}
}

// FromRows builds Data from rows of states (each row one sample). With
// d = 0 the number of states is the largest state plus one. Rows of
// different lengths, negative states and states >= d are errors
// (*DataError, with the 1-based row number as the line).
func FromRows(d int, rows [][]int) (*Data, error) {
	if d < 0 || d > MaxStates {
		return nil, &DataError{Reader: "treemix", Msg: fmt.Sprintf("%d states: must be between 1 and %d", d, MaxStates)}
	}
	p := 0
	if len(rows) > 0 {
		p = len(rows[0])
	}
	maxState := -1
	for i, row := range rows {
		if len(row) != p {
			return nil, &DataError{Reader: "treemix", Line: i + 1, Msg: fmt.Sprintf("%d values, row 1 has %d", len(row), p)}
		}
		for v, s := range row {
			if s < 0 || (d > 0 && s >= d) || s >= MaxStates {
				return nil, &DataError{Reader: "treemix", Line: i + 1, Field: v + 1, Msg: fmt.Sprintf("state %d out of range", s)}
			}
			maxState = max(maxState, s)
		}
	}
	if d == 0 {
		d = max(maxState+1, 1)
	}
	x := NewData(len(rows), p, d)
	for i, row := range rows {
		for v, s := range row {
			x.x[v*x.n+i] = uint8(s)
		}
	}
	return x, nil
}

// Dims returns the number of samples, of variables and of states.
func (x *Data) Dims() (n, p, d int) { return x.n, x.p, x.d }

// At returns the state of variable v in sample i.
func (x *Data) At(i, v int) int {
	x.check(i, v)
	return int(x.x[v*x.n+i])
}

// Set sets the state of variable v in sample i to s; it panics if s is
// not a state.
func (x *Data) Set(i, v, s int) {
	x.check(i, v)
	if s < 0 || s >= x.d {
		panic(fmt.Sprintf("treemix: Data.Set: state %d with %d states", s, x.d))
	}
	x.x[v*x.n+i] = uint8(s)
}

func (x *Data) check(i, v int) {
	if i < 0 || i >= x.n || v < 0 || v >= x.p {
		panic(fmt.Sprintf("treemix: Data: index (%d, %d) out of range %dx%d", i, v, x.n, x.p))
	}
}

// Row writes sample i into dst (grown if needed) and returns it.
func (x *Data) Row(i int, dst []int) []int {
	x.check(i, 0)
	if cap(dst) < x.p {
		dst = make([]int, x.p)
	}
	dst = dst[:x.p]
	for v := range dst {
		dst[v] = int(x.x[v*x.n+i])
	}
	return dst
}

// Col returns the states of variable v in all samples. The slice is the
// Data's storage: do not modify it.
func (x *Data) Col(v int) []uint8 {
	x.check(0, v)
	return x.x[v*x.n : (v+1)*x.n]
}

// Subset returns the samples with the given indices, in that order.
func (x *Data) Subset(rows []int) *Data {
	y := NewData(len(rows), x.p, x.d)
	y.Names = x.Names
	for v := 0; v < x.p; v++ {
		src, dst := x.Col(v), y.x[v*y.n:(v+1)*y.n]
		for k, i := range rows {
			dst[k] = src[i]
		}
	}
	return y
}

// Split shuffles the samples with a generator seeded by seed and returns
// the first round(frac*N) of them as train and the rest as test. The
// same seed gives the same split.
func (x *Data) Split(frac float64, seed uint64) (train, test *Data) {
	return x.split(rand.New(rand.NewPCG(seed, splitStream)), frac)
}

// split is Split with the generator r.
func (x *Data) split(r *rand.Rand, frac float64) (train, test *Data) {
	perm := r.Perm(x.n)
	k := int(frac*float64(x.n) + 0.5)
	k = min(max(k, 0), x.n)
	return x.Subset(perm[:k]), x.Subset(perm[k:])
}

// Select returns the variables vars, in that order, of every sample.
func (x *Data) Select(vars []int) *Data {
	y := NewData(x.n, len(vars), x.d)
	for k, v := range vars {
		copy(y.x[k*y.n:(k+1)*y.n], x.Col(v))
		if x.Names != nil {
			y.Names = append(y.Names, x.Names[v])
		}
	}
	return y
}

// Threshold returns binary data: state 1 where x's state is above t,
// 0 elsewhere.
func (x *Data) Threshold(t int) *Data {
	y := NewData(x.n, x.p, 2)
	y.Names = x.Names
	for k, s := range x.x {
		if int(s) > t {
			y.x[k] = 1
		}
	}
	return y
}

// Group merges each run of k consecutive variables into one variable
// with d^k states (the first variable of the run the most significant
// digit); a last, shorter run makes a variable with fewer states, and
// the result has the largest number of states. Grouping lets binary data
// meet the condition d > r of the spectral method. It is an error if
// d^k exceeds MaxStates.
func (x *Data) Group(k int) (*Data, error) {
	if k < 1 {
		return nil, &DataError{Reader: "treemix", Msg: fmt.Sprintf("group size %d", k)}
	}
	d := 1
	for range min(k, x.p) {
		d *= x.d
		if d > MaxStates {
			return nil, &DataError{Reader: "treemix", Msg: fmt.Sprintf("%d variables of %d states make more than %d states", k, x.d, MaxStates)}
		}
	}
	q := (x.p + k - 1) / k
	y := NewData(x.n, q, max(d, 1))
	for g := range q {
		dst := y.x[g*y.n : (g+1)*y.n]
		for v := g * k; v < min((g+1)*k, x.p); v++ {
			src := x.Col(v)
			for i := range dst {
				dst[i] = dst[i]*uint8(x.d) + src[i]
			}
		}
		if x.Names != nil {
			y.Names = append(y.Names, strings.Join(x.Names[g*k:min((g+1)*k, x.p)], "+"))
		}
	}
	return y, nil
}

// CSVOptions configures ReadCSV. The zero value (and nil) reads comma-separated
// states, detects a header and takes the number of states from the data.
type CSVOptions struct {
	// Comma separates fields; 0 means ','.
	Comma rune
	// States is the number of states d; 0 means the largest state plus
	// one. With States set, a larger state is an error.
	States int
	// Header: 0 (the default) treats the first line as a header when one
	// of its fields is not an integer; 1 always reads a header; -1 never.
	Header int
	// MaxMemory bounds (bytes) what reading holds (a byte a value, about
	// four times over while the columns grow and are copied): reading
	// stops with a *mat.MemoryError at the line that would pass it. 0
	// means mat.DefaultMaxMemory (4 GiB), negative no limit.
	MaxMemory int64
}

// ReadCSV reads integer CSV: one sample a line, one non-negative integer
// state a field. Blank lines and lines starting with '#' are skipped;
// spaces around fields are ignored, and so is a UTF-8 byte order mark at
// the start of r. Errors are *DataError values (they
// match ErrBadData) that name the line and field: a field that is not a
// non-negative integer, a state beyond the limit, a line with a
// different number of fields from the first. nil opts means the
// defaults.
func ReadCSV(r io.Reader, opts *CSVOptions) (*Data, error) {
	o := valueOf(opts)
	comma := o.Comma
	if comma == 0 {
		comma = ','
	}
	if o.States < 0 || o.States > MaxStates {
		return nil, &DataError{Reader: "treemix", Msg: fmt.Sprintf("%d states: must be between 1 and %d", o.States, MaxStates)}
	}
	limit := MaxStates
	if o.States > 0 {
		limit = o.States
	}
	var cols [][]uint8
	values := 0
	maxSeen := -1
	names, lines, err := csvscan.Records(r, comma, o.Header,
		func(f []byte) bool { _, err := strconv.Atoi(string(f)); return err == nil },
		func(line int, fields [][]byte) error {
			if cols == nil {
				cols = make([][]uint8, len(fields))
			}
			values += len(fields)
			if err := mat.CheckMemory(fmt.Sprintf("the samples up to line %d", line), size.Add(size.Mul(4, values), size.Mul(24, len(fields))), o.MaxMemory); err != nil {
				return fmt.Errorf("treemix: ReadCSV: %w", err)
			}
			for j, f := range fields {
				v, err := strconv.Atoi(string(f))
				if err != nil || v < 0 {
					return &DataError{Reader: "treemix", Line: line, Field: j + 1, Msg: fmt.Sprintf("%q is not a non-negative integer", f)}
				}
				if v >= limit {
					return &DataError{Reader: "treemix", Line: line, Field: j + 1, Msg: fmt.Sprintf("state %d out of range (%d states)", v, limit)}
				}
				maxSeen = max(maxSeen, v)
				cols[j] = append(cols[j], uint8(v))
			}
			return nil
		})
	if err != nil {
		return nil, dataError(err)
	}
	d := o.States
	if d == 0 {
		d = max(maxSeen+1, 1)
	}
	n := 0
	if len(cols) > 0 {
		n = len(cols[0])
	}
	if n == 0 {
		return nil, &DataError{Reader: "treemix", Line: lines, Msg: "no samples"}
	}
	x := NewData(n, len(cols), d)
	for j, c := range cols {
		copy(x.x[j*n:], c)
	}
	x.Names = names
	return x, nil
}

// WriteCSV writes x as integer CSV, with a header line if x has names.
func WriteCSV(w io.Writer, x *Data) error {
	bw := bufio.NewWriter(w)
	if x.Names != nil {
		bw.WriteString(strings.Join(x.Names, ","))
		bw.WriteByte('\n')
	}
	buf := make([]byte, 0, 4*x.p)
	for i := 0; i < x.n; i++ {
		buf = buf[:0]
		for v := 0; v < x.p; v++ {
			if v > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(x.x[v*x.n+i]), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
