package simplex

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// MPSFormat selects how ReadMPS splits a line into fields.
type MPSFormat int

const (
	// MPSAuto (the zero value) reads the file as free MPS and, if that
	// fails, as fixed MPS; the error reported is the one of the reading
	// that got further.
	MPSAuto MPSFormat = iota
	// MPSFree splits lines at white space; names cannot hold spaces.
	MPSFree
	// MPSFixed takes the fields from the fixed columns 2-3, 5-12, 15-22,
	// 25-36, 40-47 and 50-61; names may hold spaces. Numbers may run past
	// the end of their field up to the start of the next one.
	MPSFixed
)

// MPSOptions are the options of ReadMPS. The zero value reads either
// format within mat.DefaultMaxMemory.
type MPSOptions struct {
	// Format selects the fixed or free format (MPSAuto: either).
	Format MPSFormat
	// MaxMemory bounds (bytes) what reading holds, counted as three times
	// the lines read so far (their bytes plus 16 per line): the lines,
	// and the Problem parsed from them, which on the largest netlib
	// files in the tests (80bau3b, greenbea: 1.1 and 1.0 MB) holds about
	// 1.4 bytes per byte of the file. Reading stops with a
	// *mat.MemoryError (matching mat.ErrTooLarge) as soon as the count
	// passes the limit, so a huge or endless input (a decompression
	// bomb) is refused after about MaxMemory/3 bytes. 0 means
	// mat.DefaultMaxMemory (4 GiB), negative no limit.
	MaxMemory int64
}

// ErrMPS is the error that every *MPSError matches (errors.Is).
var ErrMPS = errors.New("simplex: malformed MPS")

// MPSError reports malformed MPS input; Line is 1-based (for a file that
// ends early, one past its last line).
type MPSError struct {
	Line int
	Msg  string
}

// Error returns "simplex: mps line N: message".
func (e *MPSError) Error() string { return fmt.Sprintf("simplex: mps line %d: %s", e.Line, e.Msg) }

// Is reports whether target is ErrMPS.
func (e *MPSError) Is(target error) bool { return target == ErrMPS }

// ReadMPS reads a linear program in MPS format (fixed or free, see
// MPSFormat) with the sections NAME, OBJSENSE (MIN or MAX, on the same
// line or the next), ROWS, COLUMNS, RHS, RANGES, BOUNDS and ENDATA.
//
// The first N row is the objective; further N rows are dropped. A right-
// hand side on the objective row is a constant: the objective is c^T x -
// rhs, so Problem.Offset is -rhs. Only the first RHS, RANGES and BOUNDS
// set is used. Integer markers are ignored and every variable is
// continuous: BV is the bound [0, 1], LI and UI are LO and UP. Bound types
// UP, LO, FX, FR, MI, PL, BV, LI and UI are understood; as is customary,
// a negative UP (or UI) bound on a variable whose lower bound was not set
// makes the lower bound -Inf. Variables default to [0, +Inf).
//
// A UTF-8 byte order mark at the start of r is skipped. Malformed input
// gives an *MPSError (matching ErrMPS) with the line number; input over
// MPSOptions.MaxMemory a *mat.MemoryError (matching mat.ErrTooLarge); a
// read error of r is returned as it is.
func ReadMPS(r io.Reader, opts *MPSOptions) (*Problem, error) {
	var o MPSOptions
	if opts != nil {
		o = *opts
	}
	lines, err := readLines(r, o.MaxMemory)
	if err != nil {
		return nil, err
	}
	switch o.Format {
	case MPSFree:
		return parseMPS(lines, false)
	case MPSFixed:
		return parseMPS(lines, true)
	}
	p, errFree := parseMPS(lines, false)
	if errFree == nil {
		return p, nil
	}
	p, errFixed := parseMPS(lines, true)
	if errFixed == nil {
		return p, nil
	}
	var ef, ex *MPSError
	if errors.As(errFree, &ef) && errors.As(errFixed, &ex) && ex.Line > ef.Line {
		return nil, errFixed
	}
	return nil, errFree
}

// mpsLineBytes is what readLines counts for a line besides its bytes:
// its string header.
const mpsLineBytes = 16

// readLines reads the lines of r without their line ends, refusing with
// a *mat.MemoryError once three times what they hold passes maxMemory
// (see MPSOptions.MaxMemory); a line is counted as it is read, so one
// endless line is refused too.
func readLines(r io.Reader, maxMemory int64) ([]string, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var lines []string
	var held int64
	var part []byte
	limit := mat.MemoryLimit(maxMemory)
	for {
		chunk, err := br.ReadSlice('\n')
		held += int64(len(chunk))
		if len(part) == 0 && len(chunk) > 0 {
			held += mpsLineBytes
		}
		if need := size.Scale(3, held); need > limit {
			return nil, fmt.Errorf("simplex: ReadMPS: %w", mat.CheckMemory(fmt.Sprintf("the MPS input up to line %d", len(lines)+1), need, maxMemory))
		}
		part = append(part, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		line := string(part)
		part = part[:0]
		if len(lines) == 0 {
			// A UTF-8 byte order mark, as some editors write it.
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if len(line) > 0 {
			line = strings.TrimRight(line, "\r\n")
			lines = append(lines, line)
		}
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

type mpsSection int

const (
	secNone mpsSection = iota
	secName
	secObjsense
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
	secEnd
)

type mpsParser struct {
	fixed bool
	line  int // current 1-based line number
	name  string

	objName  string
	objFound bool
	freeRows map[string]bool // N rows other than the objective
	rowIndex map[string]int
	rowNames []string
	rowType  []byte
	rhs      []float64
	rng      []float64
	hasRng   []bool
	offset   float64
	maximize bool

	colIndex map[string]int
	colNames []string
	obj      []float64
	colStart []int
	rowIdx   []int
	val      []float64
	lastRow  []int // lastRow[i] == current column: duplicate detection

	lo, up   []float64
	loSet    []bool
	rhsSet   string
	rhsSeen  bool
	rngSet   string
	rngSeen  bool
	bndSet   string
	bndSeen  bool
	objsense bool // expecting the sense on the next line
}

func (p *mpsParser) errorf(format string, args ...any) error {
	return &MPSError{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// fieldsFixed cuts a fixed-format data line into its six fields.
func fieldsFixed(line string) []string {
	cut := func(a, b int) string {
		if a >= len(line) {
			return ""
		}
		if b > len(line) {
			b = len(line)
		}
		return strings.TrimSpace(line[a:b])
	}
	f := []string{cut(1, 3), cut(4, 12), cut(14, 22), cut(24, 39), cut(39, 49), cut(49, 64)}
	// Trailing empty fields do not count.
	n := len(f)
	for n > 0 && f[n-1] == "" {
		n--
	}
	return f[:n]
}

func parseNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// Fortran-style exponents: 1.5D+03.
		if strings.ContainsAny(s, "dD") {
			v, err = strconv.ParseFloat(strings.NewReplacer("d", "e", "D", "e").Replace(s), 64)
		}
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
				return v, true // ±Inf or 0 from over/underflow: checked below
			}
			return 0, false
		}
	}
	return v, true
}

func (p *mpsParser) number(s, what string) (float64, error) {
	v, ok := parseNumber(s)
	if !ok {
		return 0, p.errorf("%s %q is not a number", what, s)
	}
	if math.IsNaN(v) {
		return 0, p.errorf("%s is NaN", what)
	}
	return v, nil
}

func parseMPS(lines []string, fixed bool) (*Problem, error) {
	p := &mpsParser{
		fixed:    fixed,
		freeRows: map[string]bool{},
		rowIndex: map[string]int{},
		colIndex: map[string]int{},
	}
	sec := secNone
	for i, line := range lines {
		p.line = i + 1
		if len(strings.TrimSpace(line)) == 0 || line[0] == '*' {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			// A section header (in free MPS a data line may also start in
			// column 1; it then does not begin with a section keyword).
			tok := strings.Fields(line)
			next, ok := sectionOf(tok[0])
			if ok {
				if err := p.header(next, sec, tok); err != nil {
					return nil, err
				}
				sec = next
				if sec == secEnd {
					return p.finish()
				}
				continue
			}
			if fixed {
				return nil, p.errorf("unknown section %q", tok[0])
			}
		}
		var f []string
		if fixed {
			f = fieldsFixed(line)
		} else {
			f = strings.Fields(line)
		}
		if len(f) == 0 {
			continue
		}
		var err error
		switch sec {
		case secNone, secName:
			err = p.errorf("data line outside a section")
		case secObjsense:
			err = p.sense(f)
		case secRows:
			err = p.rowLine(f)
		case secColumns:
			err = p.columnLine(f)
		case secRHS:
			err = p.rhsLine(f, false)
		case secRanges:
			err = p.rhsLine(f, true)
		case secBounds:
			err = p.boundLine(f)
		}
		if err != nil {
			return nil, err
		}
	}
	p.line = len(lines) + 1
	return nil, p.errorf("missing ENDATA")
}

func sectionOf(tok string) (mpsSection, bool) {
	switch strings.ToUpper(tok) {
	case "NAME":
		return secName, true
	case "OBJSENSE":
		return secObjsense, true
	case "ROWS":
		return secRows, true
	case "COLUMNS":
		return secColumns, true
	case "RHS":
		return secRHS, true
	case "RANGES":
		return secRanges, true
	case "BOUNDS":
		return secBounds, true
	case "ENDATA":
		return secEnd, true
	}
	return secNone, false
}

func (p *mpsParser) header(next, prev mpsSection, tok []string) error {
	order := func(after ...mpsSection) error {
		for _, s := range after {
			if prev == s {
				return nil
			}
		}
		return p.errorf("section %s out of order", strings.ToUpper(tok[0]))
	}
	var err error
	switch next {
	case secName:
		err = order(secNone)
		if len(tok) > 1 {
			p.name = tok[1]
		}
	case secObjsense:
		err = order(secNone, secName)
		if err == nil && len(tok) > 1 {
			err = p.sense(tok[1:])
			p.objsense = false
		} else {
			p.objsense = true
		}
	case secRows:
		err = order(secNone, secName, secObjsense)
		if err == nil && p.objsense {
			err = p.errorf("OBJSENSE without MIN or MAX")
		}
	case secColumns:
		err = order(secRows)
		if err == nil {
			p.lastRow = make([]int, len(p.rowNames))
			for i := range p.lastRow {
				p.lastRow[i] = -1
			}
			p.colStart = append(p.colStart, 0)
		}
	case secRHS:
		err = order(secColumns)
	case secRanges:
		err = order(secColumns, secRHS)
	case secBounds:
		err = order(secColumns, secRHS, secRanges)
	case secEnd:
		err = order(secColumns, secRHS, secRanges, secBounds)
	}
	return err
}

func (p *mpsParser) sense(f []string) error {
	if len(f) != 1 {
		return p.errorf("OBJSENSE wants one word, MIN or MAX")
	}
	switch strings.ToUpper(f[0]) {
	case "MIN", "MINIMIZE", "MINIMISE":
		p.maximize = false
	case "MAX", "MAXIMIZE", "MAXIMISE":
		p.maximize = true
	default:
		return p.errorf("OBJSENSE %q is neither MIN nor MAX", f[0])
	}
	p.objsense = false
	return nil
}

func (p *mpsParser) rowLine(f []string) error {
	if len(f) != 2 {
		return p.errorf("ROWS line wants a type and a name, got %d fields", len(f))
	}
	t, name := strings.ToUpper(f[0]), f[1]
	if _, dup := p.rowIndex[name]; dup || p.freeRows[name] || (p.objFound && name == p.objName) {
		return p.errorf("row %q defined twice", name)
	}
	switch t {
	case "N":
		if !p.objFound {
			p.objName, p.objFound = name, true
		} else {
			p.freeRows[name] = true
		}
		return nil
	case "E", "L", "G":
	default:
		return p.errorf("row type %q is not N, E, L or G", f[0])
	}
	p.rowIndex[name] = len(p.rowNames)
	p.rowNames = append(p.rowNames, name)
	p.rowType = append(p.rowType, t[0])
	p.rhs = append(p.rhs, 0)
	p.rng = append(p.rng, 0)
	p.hasRng = append(p.hasRng, false)
	return nil
}

func isMarker(f []string) bool {
	for _, s := range f {
		if strings.EqualFold(s, "'MARKER'") {
			return true
		}
	}
	return false
}

func (p *mpsParser) columnLine(f []string) error {
	if isMarker(f) {
		return nil
	}
	if p.fixed {
		if f[0] != "" {
			return p.errorf("COLUMNS line has something in columns 2-3")
		}
		f = f[1:]
	}
	if len(f) != 3 && len(f) != 5 {
		return p.errorf("COLUMNS line wants 3 or 5 fields, got %d", len(f))
	}
	name := f[0]
	if name == "" {
		return p.errorf("COLUMNS line without a column name")
	}
	j, ok := p.colIndex[name]
	if !ok {
		j = len(p.colNames)
		p.colIndex[name] = j
		p.colNames = append(p.colNames, name)
		p.obj = append(p.obj, 0)
		p.colStart = append(p.colStart, len(p.rowIdx))
	} else if j != len(p.colNames)-1 {
		return p.errorf("column %q continues after another column", name)
	}
	for k := 1; k+1 < len(f); k += 2 {
		row := f[k]
		v, err := p.number(f[k+1], "coefficient")
		if err != nil {
			return err
		}
		if math.IsInf(v, 0) {
			return p.errorf("coefficient of %q in row %q is infinite", name, row)
		}
		if p.objFound && row == p.objName {
			p.obj[j] += v
			continue
		}
		if p.freeRows[row] {
			continue
		}
		i, ok := p.rowIndex[row]
		if !ok {
			return p.errorf("unknown row %q", row)
		}
		if p.lastRow[i] == j {
			return p.errorf("column %q has two entries in row %q", name, row)
		}
		p.lastRow[i] = j
		p.rowIdx = append(p.rowIdx, i)
		p.val = append(p.val, v)
		p.colStart[j+1] = len(p.rowIdx)
	}
	return nil
}

// setAndPairs splits an RHS or RANGES line into its set name and its
// (row, value) pairs.
func (p *mpsParser) setAndPairs(f []string) (string, []string, error) {
	if p.fixed {
		if len(f) < 4 {
			return "", nil, p.errorf("line wants a row and a value")
		}
		if len(f) == 5 {
			return "", nil, p.errorf("second row without a value")
		}
		return f[1], f[2:], nil
	}
	switch len(f) {
	case 2, 4:
		return "", f, nil
	case 3, 5:
		return f[0], f[1:], nil
	}
	return "", nil, p.errorf("line wants [set] row value [row value], got %d fields", len(f))
}

func (p *mpsParser) rhsLine(f []string, ranges bool) error {
	set, pairs, err := p.setAndPairs(f)
	if err != nil {
		return err
	}
	if ranges {
		if !p.rngSeen {
			p.rngSet, p.rngSeen = set, true
		} else if set != p.rngSet {
			return nil
		}
	} else {
		if !p.rhsSeen {
			p.rhsSet, p.rhsSeen = set, true
		} else if set != p.rhsSet {
			return nil
		}
	}
	for k := 0; k+1 < len(pairs); k += 2 {
		row := pairs[k]
		v, err := p.number(pairs[k+1], "value")
		if err != nil {
			return err
		}
		if math.IsInf(v, 0) && ranges {
			return p.errorf("range of row %q is infinite", row)
		}
		if p.objFound && row == p.objName {
			if !ranges {
				if math.IsInf(v, 0) {
					return p.errorf("objective constant is infinite")
				}
				p.offset = -v
			}
			continue
		}
		if p.freeRows[row] {
			continue
		}
		i, ok := p.rowIndex[row]
		if !ok {
			return p.errorf("unknown row %q", row)
		}
		if ranges {
			p.rng[i], p.hasRng[i] = v, true
		} else {
			p.rhs[i] = v
		}
	}
	return nil
}

func (p *mpsParser) boundLine(f []string) error {
	if p.lo == nil {
		n := len(p.colNames)
		p.lo, p.up, p.loSet = make([]float64, n), make([]float64, n), make([]bool, n)
		for j := range p.up {
			p.up[j] = math.Inf(1)
		}
	}
	if len(f) < 2 {
		return p.errorf("BOUNDS line wants a type and a column")
	}
	typ := strings.ToUpper(f[0])
	needValue := false
	switch typ {
	case "UP", "LO", "FX", "LI", "UI":
		needValue = true
	case "FR", "MI", "PL", "BV":
	default:
		return p.errorf("bound type %q is not UP, LO, FX, FR, MI, PL, BV, LI or UI", f[0])
	}
	var set, col, value string
	if p.fixed {
		set = f[1]
		if len(f) < 3 || f[2] == "" {
			return p.errorf("BOUNDS line without a column name")
		}
		col = f[2]
		if len(f) > 3 {
			value = f[3]
		}
		if len(f) > 4 {
			return p.errorf("BOUNDS line has %d fields", len(f))
		}
	} else {
		switch {
		case len(f) == 4:
			set, col, value = f[1], f[2], f[3]
		case len(f) == 3 && needValue:
			col, value = f[1], f[2]
		case len(f) == 3:
			// FR/MI/PL/BV: "type set col", or "type col value" with a
			// value that is ignored.
			if _, isCol := p.colIndex[f[1]]; isCol {
				if _, isNum := parseNumber(f[2]); isNum {
					col, value = f[1], f[2]
					break
				}
			}
			set, col = f[1], f[2]
		case len(f) == 2 && !needValue:
			col = f[1]
		default:
			return p.errorf("BOUNDS line has %d fields", len(f))
		}
	}
	if needValue && value == "" {
		return p.errorf("bound %s of %q wants a value", typ, col)
	}
	if !p.bndSeen {
		p.bndSet, p.bndSeen = set, true
	} else if set != p.bndSet {
		return nil
	}
	j, ok := p.colIndex[col]
	if !ok {
		return p.errorf("unknown column %q", col)
	}
	var v float64
	if value != "" {
		var err error
		if v, err = p.number(value, "bound"); err != nil {
			return err
		}
	}
	switch typ {
	case "UP", "UI":
		if math.IsInf(v, -1) {
			return p.errorf("upper bound of %q is -Inf", col)
		}
		p.up[j] = v
		if v < 0 && !p.loSet[j] && p.lo[j] == 0 {
			p.lo[j] = math.Inf(-1)
		}
	case "LO", "LI":
		if math.IsInf(v, 1) {
			return p.errorf("lower bound of %q is +Inf", col)
		}
		p.lo[j], p.loSet[j] = v, true
	case "FX":
		if math.IsInf(v, 0) {
			return p.errorf("fixed value of %q is infinite", col)
		}
		p.lo[j], p.up[j], p.loSet[j] = v, v, true
	case "FR":
		p.lo[j], p.up[j], p.loSet[j] = math.Inf(-1), math.Inf(1), true
	case "MI":
		p.lo[j], p.loSet[j] = math.Inf(-1), true
	case "PL":
		p.up[j] = math.Inf(1)
	case "BV":
		p.lo[j], p.up[j], p.loSet[j] = 0, 1, true
	}
	return nil
}

func (p *mpsParser) finish() (*Problem, error) {
	if !p.objFound && len(p.rowNames) == 0 && len(p.colNames) == 0 {
		return nil, p.errorf("no ROWS and no COLUMNS")
	}
	m, n := len(p.rowNames), len(p.colNames)
	if p.colStart == nil {
		p.colStart = []int{0}
	}
	prob := &Problem{
		Name:     p.name,
		Offset:   p.offset,
		Maximize: p.maximize,
		Obj:      p.obj,
		A:        Sparse{Rows: m, Cols: n, ColStart: p.colStart, RowIndex: p.rowIdx, Value: p.val},
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		RowNames: p.rowNames,
		ColNames: p.colNames,
	}
	if prob.Obj == nil {
		prob.Obj = []float64{}
	}
	if p.lo != nil {
		prob.ColLower, prob.ColUpper = p.lo, p.up
	} else {
		prob.ColLower, prob.ColUpper = make([]float64, n), make([]float64, n)
		for j := range prob.ColUpper {
			prob.ColUpper[j] = math.Inf(1)
		}
	}
	for j := 0; j < n; j++ {
		if prob.ColLower[j] > prob.ColUpper[j] {
			return nil, p.errorf("column %q: lower bound %v exceeds upper bound %v", p.colNames[j], prob.ColLower[j], prob.ColUpper[j])
		}
	}
	inf := math.Inf(1)
	for i := 0; i < m; i++ {
		b, r := p.rhs[i], p.rng[i]
		var lo, up float64
		switch p.rowType[i] {
		case 'E':
			lo, up = b, b
			if p.hasRng[i] {
				if r >= 0 {
					up = b + r
				} else {
					lo = b + r
				}
			}
		case 'L':
			lo, up = -inf, b
			if p.hasRng[i] {
				lo = b - math.Abs(r)
			}
		case 'G':
			lo, up = b, inf
			if p.hasRng[i] {
				up = b + math.Abs(r)
			}
		}
		if math.IsInf(lo, 1) || math.IsInf(up, -1) || lo > up || math.IsNaN(lo) || math.IsNaN(up) {
			return nil, p.errorf("row %q: limits [%v, %v] are inconsistent", p.rowNames[i], lo, up)
		}
		prob.RowLower[i], prob.RowUpper[i] = lo, up
	}
	return prob, nil
}
