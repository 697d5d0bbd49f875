package simplex

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/moments-go/moments/mat"
)

const freeMPS = `* A comment line
NAME          TESTLP
OBJSENSE
    MAX
ROWS
 N  obj
 E  e1
 E  e2
 L  lim
 G  gte
 N  other
 E  rng
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x1  obj  1  e1  1
    x1  lim  2
    MARKER                 'MARKER'                 'INTEND'
    x2  obj  -2  e2  1
    x2  gte  1  other  5
    x3  lim  1  rng  1
    x4  e1  1
    x5  gte  1
    x6  obj  1
    x7  obj  1
    x8  obj  1
    x9  obj  1
    x10 obj  1
RHS
    RHS  obj  -7.5  e1  4
    RHS  lim  10  gte  -1
    RHS  rng  2.5
    OTHER  e1  99
RANGES
    RNG  e1  3  e2  -2
    RNG  lim  4  gte  5
    RNG  rng  0
BOUNDS
 UP BND x1  4
 LO BND x2  -1
 UP BND x2  1.5D+00
 FX BND x3  2.5
 FR BND x4
 MI BND x5
 UP BND x5  6
 PL BND x6
 BV BND x7
 LI BND x8  3
 UI BND x8  9
 UP BND x9  -2
 LO BND x10 -3
 UP BND x10 -1
 UP OTHERBND x1 100
ENDATA
`

func TestReadMPSFree(t *testing.T) {
	for _, format := range []MPSFormat{MPSAuto, MPSFree} {
		p, err := ReadMPS(strings.NewReader(freeMPS), &MPSOptions{Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != "TESTLP" || !p.Maximize || p.Offset != 7.5 {
			t.Errorf("name %q, maximize %v, offset %v", p.Name, p.Maximize, p.Offset)
		}
		wantRows := []string{"e1", "e2", "lim", "gte", "rng"}
		if strings.Join(p.RowNames, ",") != strings.Join(wantRows, ",") {
			t.Errorf("rows %v, want %v", p.RowNames, wantRows)
		}
		// Ranges: E with R > 0 goes up, with R < 0 down; L and G use |R|.
		rl := []float64{4, -2, 6, -1, 2.5}
		ru := []float64{7, 0, 10, 4, 2.5}
		for i := range rl {
			if p.RowLower[i] != rl[i] || p.RowUpper[i] != ru[i] {
				t.Errorf("row %s: [%v, %v], want [%v, %v]", p.RowNames[i], p.RowLower[i], p.RowUpper[i], rl[i], ru[i])
			}
		}
		cl := []float64{0, -1, 2.5, -inf, -inf, 0, 0, 3, -inf, -3}
		cu := []float64{4, 1.5, 2.5, inf, 6, inf, 1, 9, -2, -1}
		for j := range cl {
			if p.ColLower[j] != cl[j] || p.ColUpper[j] != cu[j] {
				t.Errorf("column %s: [%v, %v], want [%v, %v]", p.ColNames[j], p.ColLower[j], p.ColUpper[j], cl[j], cu[j])
			}
		}
		wantObj := []float64{1, -2, 0, 0, 0, 1, 1, 1, 1, 1}
		for j, v := range wantObj {
			if p.Obj[j] != v {
				t.Errorf("c[%d] = %v, want %v", j, p.Obj[j], v)
			}
		}
		if got := p.A.At(2, 0); got != 2 {
			t.Errorf("A(lim, x1) = %v", got)
		}
		if p.A.ColStart[p.NumCols()] != 8 {
			t.Errorf("%d nonzeros, want 8 (the free row is dropped)", p.A.ColStart[p.NumCols()])
		}
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// A fixed-format file whose names hold spaces.
const fixedMPS = `NAME          FIXED
ROWS
 N  COST
 L  LIM 1
 G  LIM 2
COLUMNS
    X ONE     COST      1.0            LIM 1     1.0
    X ONE     LIM 2     1.0
    Y TWO     COST      2.0            LIM 2     1.0
RHS
              LIM 1     4.0            LIM 2     1.0
BOUNDS
 UP BND       Y TWO     3.0
ENDATA
`

func TestReadMPSFixed(t *testing.T) {
	for _, format := range []MPSFormat{MPSAuto, MPSFixed} {
		p, err := ReadMPS(strings.NewReader(fixedMPS), &MPSOptions{Format: format})
		if err != nil {
			t.Fatalf("format %d: %v", format, err)
		}
		if p.RowNames[0] != "LIM 1" || p.ColNames[1] != "Y TWO" {
			t.Errorf("names %q %q", p.RowNames, p.ColNames)
		}
		if p.RowUpper[0] != 4 || p.RowLower[1] != 1 || p.ColUpper[1] != 3 || p.A.At(1, 1) != 1 {
			t.Errorf("data: %+v", p)
		}
	}
	if _, err := ReadMPS(strings.NewReader(fixedMPS), &MPSOptions{Format: MPSFree}); err == nil {
		t.Error("free reading of names with spaces succeeded")
	}
}

func TestReadMPSErrors(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
	}{
		{"unknown row", "ROWS\n N c\nCOLUMNS\n x c 1 r 2\nENDATA\n", 4},
		{"bad number", "ROWS\n N c\n L r\nCOLUMNS\n x r 1.2.3\nENDATA\n", 5},
		{"duplicate entry", "ROWS\n N c\n L r\nCOLUMNS\n x r 1\n x r 2\nENDATA\n", 6},
		{"split column", "ROWS\n N c\n L r\nCOLUMNS\n x r 1\n y r 1\n x c 1\nENDATA\n", 7},
		{"row type", "ROWS\n N c\n Q r\nENDATA\n", 3},
		{"duplicate row", "ROWS\n N c\n L r\n G r\nENDATA\n", 4},
		{"bound type", "ROWS\n N c\nCOLUMNS\n x c 1\nBOUNDS\n XX B x 1\nENDATA\n", 6},
		{"bound column", "ROWS\n N c\nCOLUMNS\n x c 1\nBOUNDS\n UP B y 1\nENDATA\n", 6},
		{"bound value", "ROWS\n N c\nCOLUMNS\n x c 1\nBOUNDS\n UP B x\nENDATA\n", 6},
		{"order", "COLUMNS\n x c 1\nENDATA\n", 1},
		{"data outside", " x c 1\nENDATA\n", 1},
		{"missing ENDATA", "ROWS\n N c\nCOLUMNS\n x c 1\n", 5},
		{"rhs row", "ROWS\n N c\nCOLUMNS\n x c 1\nRHS\n R zz 1\nENDATA\n", 6},
		{"fields", "ROWS\n N c\n L r\nCOLUMNS\n x r 1 c\nENDATA\n", 5},
		{"NaN", "ROWS\n N c\n L r\nCOLUMNS\n x r NaN\nENDATA\n", 5},
		{"inconsistent bounds", "ROWS\n N c\nCOLUMNS\n x c 1\nBOUNDS\n LO B x 5\n UP B x 1\nENDATA\n", 8},
		{"objsense", "OBJSENSE\n UP\nROWS\n N c\nENDATA\n", 2},
	}
	for _, c := range cases {
		_, err := ReadMPS(strings.NewReader(c.text), &MPSOptions{Format: MPSFree})
		var me *MPSError
		if !errors.As(err, &me) || !errors.Is(err, ErrMPS) {
			t.Errorf("%s: err %v, want an *MPSError", c.name, err)
			continue
		}
		if me.Line != c.line {
			t.Errorf("%s: line %d, want %d (%v)", c.name, me.Line, c.line, err)
		}
		if !strings.Contains(err.Error(), "line") {
			t.Errorf("%s: message %q has no line", c.name, err)
		}
	}
}

func TestReadMPSSolve(t *testing.T) {
	p, err := ReadMPS(strings.NewReader(freeMPS), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Bound everything so that the maximum exists.
	for j := range p.ColUpper {
		p.ColLower[j] = math.Max(p.ColLower[j], -10)
		p.ColUpper[j] = math.Min(p.ColUpper[j], 10)
	}
	solveAll(t, p, Optimal, 22.75)
}

// TestReadMPSBOM reads an MPS file that starts with a UTF-8 byte order
// mark, which would otherwise spoil the NAME line.
func TestReadMPSBOM(t *testing.T) {
	p, err := ReadMPS(strings.NewReader("\ufeff"+freeMPS), nil)
	if err != nil || p.Name != "TESTLP" {
		t.Fatalf("%v, name %q", err, p.Name)
	}
}

// TestBadOptions: NaN, infinite or negative tolerances, negative counts
// and unknown methods are errors naming the option, for Solve and the l1
// solvers.
func TestBadOptions(t *testing.T) {
	p, err := ReadMPS(strings.NewReader(freeMPS), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{PrimalTol: math.NaN()}, "Options.PrimalTol = NaN"},
		{Options{DualTol: math.Inf(1)}, "Options.DualTol = +Inf"},
		{Options{DualTol: -1e-9}, "Options.DualTol = -1e-09"},
		{Options{MaxIter: -1}, "Options.MaxIter = -1"},
		{Options{RefactorInterval: -5}, "Options.RefactorInterval = -5"},
		{Options{Method: 7}, "Options.Method = 7"},
	} {
		_, err := Solve(context.Background(), p, &c.o)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want ErrBadOption naming %q", c.o, err, c.want)
		}
	}
	b := mat.FromRows([][]float64{{1, 0}, {0, 1}, {1, 1}})
	for _, c := range []struct {
		o    L1Options
		want string
	}{
		{L1Options{Tol: math.NaN()}, "L1Options.Tol = NaN"},
		{L1Options{Tol: -1}, "L1Options.Tol = -1"},
		{L1Options{PoolSize: -1}, "L1Options.PoolSize = -1"},
		{L1Options{MaxIter: -3}, "L1Options.MaxIter = -3"},
	} {
		_, err := NewL1Solver(b, &c.o)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want ErrBadOption naming %q", c.o, err, c.want)
		}
	}
}

// endless is a reader of an endless line: 'x' forever, no line end. It
// counts the bytes it gave.
type endless struct{ n int64 }

func (e *endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	e.n += int64(len(b))
	return len(b), nil
}

// TestReadMPSMaxMemory: input past MPSOptions.MaxMemory is refused with
// mat.ErrTooLarge, an endless line after about MaxMemory/3 bytes (at
// most one buffer of 64 KiB more); a negative limit or one large enough
// reads the file.
func TestReadMPSMaxMemory(t *testing.T) {
	need := 3 * int64(len(freeMPS)+16*strings.Count(freeMPS, "\n"))
	if _, err := ReadMPS(strings.NewReader(freeMPS), &MPSOptions{MaxMemory: need / 2}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("MaxMemory %d of %d: %v, want mat.ErrTooLarge", need/2, need, err)
	}
	for _, m := range []int64{-1, need + 64} {
		if _, err := ReadMPS(strings.NewReader(freeMPS), &MPSOptions{MaxMemory: m}); err != nil {
			t.Errorf("MaxMemory %d: %v", m, err)
		}
	}
	const limit = 3 << 20
	e := &endless{}
	if _, err := ReadMPS(e, &MPSOptions{MaxMemory: limit}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("an endless line: %v, want mat.ErrTooLarge", err)
	}
	if e.n > limit/3+2<<16 {
		t.Errorf("an endless line: %d bytes read under MaxMemory %d", e.n, limit)
	}
}
