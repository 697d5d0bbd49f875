package mat

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format implements fmt.Formatter: it prints m as Formatted(m) does,
// with no options.
func (m *Dense) Format(s fmt.State, verb rune) {
	formatter{m: m}.Format(s, verb)
}

// A FormatOption changes how Formatted prints a matrix.
type FormatOption func(*formatter)

// Prefix makes Formatted write p at the start of every line but the
// first, so that a matrix printed after a label lines up:
//
//	fmt.Printf("A = %v\n", mat.Formatted(a, mat.Prefix("    ")))
func Prefix(p string) FormatOption {
	return func(f *formatter) { f.prefix = p }
}

// Excerpt makes Formatted show only the first n and the last n rows of a
// matrix with more than 2n rows, and likewise for columns, with "..." in
// place of the rest; the output then starts with a line "Dims(r, c)"
// that gives the full shape. n <= 0 shows every element, the default.
func Excerpt(n int) FormatOption {
	return func(f *formatter) { f.excerpt = n }
}

// Formatted returns a fmt.Formatter that prints m over several lines,
// one per row, between bracket glyphs, with its columns aligned:
//
//	⎡1  -2.5⎤
//	⎢3     4⎥
//	⎣5     6⎦
//
// A single row prints as [1  2  3] and a matrix with no elements as [].
// No newline is written after the last row. The verbs are those of
// float64: %v, %g, %G, %e, %E, %f and %F apply to every element with
// the flags, width and precision given (for example %8.3f); the width is
// a minimum for every column. The '-' flag aligns the columns on the
// left instead of the right. %#v prints Go syntax that rebuilds m (a
// call of FromRows, or of Zeros when m has no elements), ignoring the
// options; other verbs print %!verb(*mat.Dense=rxc). A nil m prints as
// <nil>.
func Formatted(m *Dense, opts ...FormatOption) fmt.Formatter {
	f := formatter{m: m}
	for _, o := range opts {
		o(&f)
	}
	return f
}

// formatter is the fmt.Formatter of Formatted.
type formatter struct {
	m       *Dense
	prefix  string
	excerpt int
}

const (
	ellipsis  = "..."
	columnSep = "  "
)

// Format implements fmt.Formatter.
func (f formatter) Format(s fmt.State, verb rune) {
	m := f.m
	if m == nil {
		io.WriteString(s, "<nil>")
		return
	}
	switch verb {
	case 'v':
		if s.Flag('#') {
			io.WriteString(s, goSyntax(m))
			return
		}
	case 'e', 'E', 'f', 'F', 'g', 'G':
	default:
		fmt.Fprintf(s, "%%!%c(*mat.Dense=%dx%d)", verb, m.rows, m.cols)
		return
	}
	if m.rows == 0 || m.cols == 0 {
		io.WriteString(s, "[]")
		return
	}
	elem := fmt.FormatString(s, verb)
	rows, cols := shown(m.rows, f.excerpt), shown(m.cols, f.excerpt)
	cells := make([][]string, len(rows))
	widths := make([]int, len(cols))
	for ri, i := range rows {
		cells[ri] = make([]string, len(cols))
		for ci, j := range cols {
			str := ellipsis
			if i >= 0 && j >= 0 {
				str = fmt.Sprintf(elem, m.data[i*m.stride+j])
			}
			cells[ri][ci] = str
			widths[ci] = max(widths[ci], utf8.RuneCountInString(str))
		}
	}

	var b strings.Builder
	if len(rows) < m.rows || len(cols) < m.cols {
		fmt.Fprintf(&b, "Dims(%d, %d)\n%s", m.rows, m.cols, f.prefix)
	}
	leftAlign := s.Flag('-')
	for ri, row := range cells {
		if ri > 0 {
			b.WriteByte('\n')
			b.WriteString(f.prefix)
		}
		open, closing := brackets(ri, len(rows))
		b.WriteString(open)
		for ci, str := range row {
			if ci > 0 {
				b.WriteString(columnSep)
			}
			pad := strings.Repeat(" ", widths[ci]-utf8.RuneCountInString(str))
			if leftAlign {
				b.WriteString(str)
				b.WriteString(pad)
			} else {
				b.WriteString(pad)
				b.WriteString(str)
			}
		}
		b.WriteString(closing)
	}
	io.WriteString(s, b.String())
}

// shown returns the indices of the rows (or columns) to print out of n,
// with -1 standing for the ellipsis.
func shown(n, excerpt int) []int {
	var idx []int
	if excerpt <= 0 || n <= 2*excerpt {
		for i := 0; i < n; i++ {
			idx = append(idx, i)
		}
		return idx
	}
	for i := 0; i < excerpt; i++ {
		idx = append(idx, i)
	}
	idx = append(idx, -1)
	for i := n - excerpt; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

// brackets returns the glyphs that open and close line i of n.
func brackets(i, n int) (open, closing string) {
	switch {
	case n == 1:
		return "[", "]"
	case i == 0:
		return "⎡", "⎤"
	case i == n-1:
		return "⎣", "⎦"
	default:
		return "⎢", "⎥"
	}
}

// goSyntax returns a Go expression that rebuilds m.
func goSyntax(m *Dense) string {
	if m.rows == 0 || m.cols == 0 {
		return fmt.Sprintf("mat.Zeros(%d, %d)", m.rows, m.cols)
	}
	var b strings.Builder
	b.WriteString("mat.FromRows([][]float64{")
	for i := 0; i < m.rows; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('{')
		for j, v := range m.row(i) {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(goFloat(v))
		}
		b.WriteByte('}')
	}
	b.WriteString("})")
	return b.String()
}

// goFloat returns a Go expression of type float64, or a constant that
// converts to one exactly, for v.
func goFloat(v float64) string {
	switch {
	case v != v:
		return "math.NaN()"
	case math.IsInf(v, 1):
		return "math.Inf(1)"
	case math.IsInf(v, -1):
		return "math.Inf(-1)"
	case v == 0 && math.Signbit(v):
		return "math.Copysign(0, -1)"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
