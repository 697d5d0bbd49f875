package mat

import (
	"fmt"
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	a := FromRows([][]float64{{1, -2.5, 3}, {40, 5, 6e10}, {math.NaN(), math.Inf(-1), 0}})
	row := FromRows([][]float64{{1, 2.25, -3}})
	col := FromRows([][]float64{{1}, {-20}})
	for _, c := range []struct {
		format string
		arg    any
		want   string
	}{
		{"%v", a, "" +
			"⎡  1  -2.5      3⎤\n" +
			"⎢ 40     5  6e+10⎥\n" +
			"⎣NaN  -Inf      0⎦"},
		{"%.2f", col, "" +
			"⎡  1.00⎤\n" +
			"⎣-20.00⎦"},
		{"%7.1f|", col, "" +
			"⎡    1.0⎤\n" +
			"⎣  -20.0⎦|"},
		{"%-6.1f|", col, "" +
			"⎡1.0   ⎤\n" +
			"⎣-20.0 ⎦|"},
		{"%-v", col, "" +
			"⎡1  ⎤\n" +
			"⎣-20⎦"},
		{"%+.1e", row, "[+1.0e+00  +2.2e+00  -3.0e+00]"},
		{"%g", row, "[1  2.25  -3]"},
		{"%G", FromRows([][]float64{{1e-20}}), "[1E-20]"},
		{"%.3v", FromRows([][]float64{{math.Pi, math.E}}), "[3.14  2.72]"},
		{"%E", FromRows([][]float64{{0.5}}), "[5.000000E-01]"},
		{"%F", FromRows([][]float64{{0.5}}), "[0.500000]"},
		{"%v", Zeros(0, 0), "[]"},
		{"%v", Zeros(0, 5), "[]"},
		{"%v", Zeros(5, 0), "[]"},
		{"%v", &Dense{}, "[]"},
		{"%d", a, "%!d(*mat.Dense=3x3)"},
		{"%s", Zeros(0, 2), "%!s(*mat.Dense=0x2)"},
		{"%v", (*Dense)(nil), "<nil>"},
		{"%#v", a, "mat.FromRows([][]float64{{1, -2.5, 3}, {40, 5, 6e+10}, {math.NaN(), math.Inf(-1), 0}})"},
		{"%#v", FromRows([][]float64{{math.Inf(1), math.Copysign(0, -1), 1e-300}}), "mat.FromRows([][]float64{{math.Inf(1), math.Copysign(0, -1), 1e-300}})"},
		{"%#v", Zeros(0, 3), "mat.Zeros(0, 3)"},
		{"%#v", Zeros(2, 0), "mat.Zeros(2, 0)"},
		{"%v", a.Slice(1, 3, 1, 3), "" +
			"⎡   5  6e+10⎤\n" +
			"⎣-Inf      0⎦"},
		{"x = %v", Formatted(col, Prefix("    ")), "" +
			"x = ⎡  1⎤\n" +
			"    ⎣-20⎦"},
		{"%v", Formatted(row, Prefix("    ")), "[1  2.25  -3]"},
		{"%v", Formatted(nil), "<nil>"},
	} {
		if got := fmt.Sprintf(c.format, c.arg); got != c.want {
			t.Errorf("Sprintf(%q):\n%s\nwant\n%s", c.format, got, c.want)
		}
	}
}

func TestFormatExcerpt(t *testing.T) {
	m := New(7, 8, nil)
	for i := 0; i < 7; i++ {
		for j := 0; j < 8; j++ {
			m.Set(i, j, float64(10*i+j))
		}
	}
	for _, c := range []struct {
		format string
		arg    any
		want   string
	}{
		{"m = %v", Formatted(m, Prefix("    "), Excerpt(2)), "" +
			"m = Dims(7, 8)\n" +
			"    ⎡  0    1  ...    6    7⎤\n" +
			"    ⎢ 10   11  ...   16   17⎥\n" +
			"    ⎢...  ...  ...  ...  ...⎥\n" +
			"    ⎢ 50   51  ...   56   57⎥\n" +
			"    ⎣ 60   61  ...   66   67⎦"},
		// Only the columns are elided.
		{"%.1f", Formatted(m.Slice(0, 2, 0, 8), Excerpt(1)), "" +
			"Dims(2, 8)\n" +
			"⎡ 0.0  ...   7.0⎤\n" +
			"⎣10.0  ...  17.0⎦"},
		// Only the rows are elided.
		{"%v", Formatted(m.Slice(0, 7, 0, 1), Excerpt(1)), "" +
			"Dims(7, 1)\n" +
			"⎡  0⎤\n" +
			"⎢...⎥\n" +
			"⎣ 60⎦"},
		// Nothing to elide, or no excerpt.
		{"%v", Formatted(m.Slice(0, 2, 0, 2), Excerpt(1)), "" +
			"⎡ 0   1⎤\n" +
			"⎣10  11⎦"},
		{"%v", Formatted(m.Slice(0, 2, 0, 2), Excerpt(0)), "" +
			"⎡ 0   1⎤\n" +
			"⎣10  11⎦"},
		{"%#v", Formatted(m.Slice(0, 1, 0, 3), Excerpt(1)), "mat.FromRows([][]float64{{0, 1, 2}})"},
		{"%v", Formatted(Zeros(9, 0), Excerpt(1)), "[]"},
	} {
		if got := fmt.Sprintf(c.format, c.arg); got != c.want {
			t.Errorf("Sprintf(%q):\n%s\nwant\n%s", c.format, got, c.want)
		}
	}
}
