package simplex

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteMPS writes p to w as free MPS that ReadMPS (and other MPS
// readers, such as glpsol --freemps) read back as the same problem less
// its free rows: a free row is written as an N row, which ReadMPS drops
// (other readers, such as glpsol, keep it as a free row). Numbers are
// written with 17 significant digits, so they round-trip exactly (but
// for a range row whose two limits cannot both be: its second limit is
// the first plus or minus the range, within a rounding). Row (column)
// names are p's when all of them are usable in free MPS: not empty,
// without white space or line ends, not repeated, and for rows not the
// objective's name "OBJ"; otherwise they are R<i> (C<j>), 1-based. The
// problem's name is p.Name unless it is empty or holds a space, a tab,
// '\r' or '\n' (which would break the NAME line); then it is "LP". A
// range row is written as a G row with its RANGES entry. Maximize is
// written as OBJSENSE MAX, the Offset as the objective row's right-hand
// side (-Offset). WriteMPS returns the first write error of w; it does
// not check p (see Validate).
func WriteMPS(w io.Writer, p *Problem) error {
	bw := bufio.NewWriter(w)
	m, n := p.A.Rows, p.A.Cols
	rows := mpsNames(p.RowNames, m, "R", "OBJ")
	cols := mpsNames(p.ColNames, n, "C", "")
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	name := p.Name
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		name = "LP"
	}
	fmt.Fprintf(bw, "NAME %s\n", name)
	if p.Maximize {
		fmt.Fprintf(bw, "OBJSENSE\n    MAX\n")
	}
	fmt.Fprintf(bw, "ROWS\n N OBJ\n")
	for i := 0; i < m; i++ {
		l, u := p.RowLower[i], p.RowUpper[i]
		t := "G"
		switch {
		case rangeAsL(l, u):
			t = "L"
		case l == u:
			t = "E"
		case math.IsInf(l, -1) && math.IsInf(u, 1):
			t = "N"
		case math.IsInf(l, -1):
			t = "L"
		}
		fmt.Fprintf(bw, " %s %s\n", t, rows[i])
	}
	fmt.Fprintf(bw, "COLUMNS\n")
	for j := 0; j < n; j++ {
		// A column without nonzero entries is still listed (with its cost,
		// even 0), so that it exists.
		empty := true
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			empty = empty && p.A.Value[k] == 0
		}
		if c := p.Obj[j]; c != 0 || empty {
			fmt.Fprintf(bw, " %s OBJ %s\n", cols[j], num(c))
		}
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			if v := p.A.Value[k]; v != 0 {
				fmt.Fprintf(bw, " %s %s %s\n", cols[j], rows[p.A.RowIndex[k]], num(v))
			}
		}
	}
	fmt.Fprintf(bw, "RHS\n")
	if p.Offset != 0 {
		fmt.Fprintf(bw, " RHS OBJ %s\n", num(-p.Offset))
	}
	var ranges []int
	for i := 0; i < m; i++ {
		l, u := p.RowLower[i], p.RowUpper[i]
		b := l
		if math.IsInf(l, -1) || rangeAsL(l, u) {
			b = u
		}
		if !math.IsInf(l, 0) && !math.IsInf(u, 0) && l != u {
			ranges = append(ranges, i)
		}
		if !math.IsInf(b, 0) && b != 0 {
			fmt.Fprintf(bw, " RHS %s %s\n", rows[i], num(b))
		}
	}
	if len(ranges) > 0 {
		fmt.Fprintf(bw, "RANGES\n")
		for _, i := range ranges {
			fmt.Fprintf(bw, " RNG %s %s\n", rows[i], num(p.RowUpper[i]-p.RowLower[i]))
		}
	}
	fmt.Fprintf(bw, "BOUNDS\n")
	for j := 0; j < n; j++ {
		l, u := p.ColLower[j], p.ColUpper[j]
		switch {
		case l == u:
			fmt.Fprintf(bw, " FX BND %s %s\n", cols[j], num(l))
			continue
		case math.IsInf(l, -1) && math.IsInf(u, 1):
			fmt.Fprintf(bw, " FR BND %s\n", cols[j])
			continue
		case math.IsInf(l, -1):
			fmt.Fprintf(bw, " MI BND %s\n", cols[j])
		case l != 0:
			fmt.Fprintf(bw, " LO BND %s %s\n", cols[j], num(l))
		}
		if !math.IsInf(u, 1) {
			fmt.Fprintf(bw, " UP BND %s %s\n", cols[j], num(u))
		}
	}
	fmt.Fprintf(bw, "ENDATA\n")
	return bw.Flush()
}

// rangeAsL reports whether the range row [l, u] is written as an L row
// (limit u, range u - l, read back as u - (u - l)) rather than a G row
// (l + (u - l)): when only the former gives back l exactly.
func rangeAsL(l, u float64) bool {
	if math.IsInf(l, 0) || math.IsInf(u, 0) || l == u {
		return false
	}
	r := u - l
	return l+r != u && u-r == l
}

// mpsNames returns k names for free MPS: given, if all of them are
// usable (see WriteMPS), else prefix<i+1>.
func mpsNames(given []string, k int, prefix, reserved string) []string {
	names := make([]string, k)
	seen := make(map[string]bool, k)
	usable := len(given) == k
	for i := 0; i < k && usable; i++ {
		s := given[i]
		if s == "" || s == reserved || strings.ContainsAny(s, " \t\r\n") || seen[s] {
			usable = false
		}
		seen[s] = true
	}
	for i := range names {
		if usable {
			names[i] = given[i]
		} else {
			names[i] = prefix + strconv.Itoa(i+1)
		}
	}
	return names
}
