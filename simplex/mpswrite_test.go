package simplex

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestWriteMPSRoundTrip: ReadMPS(WriteMPS(p)) is p, entry for entry, on
// the NETLIB problems, a member of the free-variable family, and a small
// problem with a maximised objective, an offset, ranges, fixed and
// one-sided variables and names that free MPS cannot hold.
func TestWriteMPSRoundTrip(t *testing.T) {
	var probs []*Problem
	for _, ref := range netlibRef {
		probs = append(probs, readNetlib(t, ref.name))
	}
	probs = append(probs, freeLP(1, 300))
	small := denseProblem([]float64{1, -2, 3, 0},
		[][]float64{{1, 1, 0, 0}, {0, 1, -1, 2}, {1, 0, 0, 1}},
		[]float64{-1, 2, math.Inf(-1)}, []float64{4, 2, 7},
		[]float64{math.Inf(-1), 0, -3, 1.5}, []float64{5, math.Inf(1), -3, math.Inf(1)})
	small.Maximize, small.Offset, small.Name = true, 2.5, "two words"
	small.RowNames = []string{"a", "b c", "d"}
	probs = append(probs, small)
	for _, p := range probs {
		var buf bytes.Buffer
		if err := WriteMPS(&buf, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadMPS(&buf, &MPSOptions{Format: MPSFree})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if d := problemDiff(p, q); d != "" {
			t.Fatalf("%s: read back differs: %s", p.Name, d)
		}
	}
	if !slices.Equal(mpsNames(small.RowNames, 3, "R", "OBJ"), []string{"R1", "R2", "R3"}) {
		t.Fatal("a name with a space was kept")
	}
}

// problemDiff describes the first difference between the data of p and
// q ("" if none); A is compared entry by entry through dense columns.
func problemDiff(p, q *Problem) string {
	m, n := p.A.Rows, p.A.Cols
	if q.A.Rows != m || q.A.Cols != n || p.Maximize != q.Maximize || p.Offset != q.Offset {
		return "sizes, sense or offset"
	}
	for _, v := range [][2][]float64{{p.Obj, q.Obj}, {p.ColLower, q.ColLower}, {p.ColUpper, q.ColUpper}} {
		if !slices.Equal(v[0], v[1]) {
			return "objective or bounds"
		}
	}
	// A range's limits are one limit and the range: the other limit
	// may be off by a rounding (1 ulp of the larger magnitude).
	for i := 0; i < m; i++ {
		for _, v := range [][2]float64{{p.RowLower[i], q.RowLower[i]}, {p.RowUpper[i], q.RowUpper[i]}} {
			if v[0] != v[1] && !(math.Abs(v[0]-v[1]) <= 2.3e-16*math.Max(math.Abs(p.RowLower[i]), math.Abs(p.RowUpper[i]))) {
				return fmt.Sprintf("row %d limits [%g, %g] read back as [%g, %g]", i, p.RowLower[i], p.RowUpper[i], q.RowLower[i], q.RowUpper[i])
			}
		}
	}
	a, b := make([]float64, m), make([]float64, m)
	for j := 0; j < n; j++ {
		clear(a)
		clear(b)
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			a[p.A.RowIndex[k]] = p.A.Value[k]
		}
		for k := q.A.ColStart[j]; k < q.A.ColStart[j+1]; k++ {
			b[q.A.RowIndex[k]] = q.A.Value[k]
		}
		if !slices.Equal(a, b) {
			return fmt.Sprintf("column %d", j)
		}
	}
	return ""
}

// TestWriteMPSNameLineEnd: a problem name with a line end would start a
// new line (here a bogus section); it is written as "LP" instead.
func TestWriteMPSNameLineEnd(t *testing.T) {
	for _, name := range []string{"a\nROWS", "a\rb"} {
		p := denseProblem([]float64{1}, [][]float64{{1}}, []float64{1}, []float64{2}, []float64{0}, []float64{math.Inf(1)})
		p.Name = name
		var buf bytes.Buffer
		if err := WriteMPS(&buf, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(buf.Bytes(), []byte("NAME LP\n")) {
			t.Errorf("name %q written as %q", name, buf.String())
		}
		q, err := ReadMPS(&buf, &MPSOptions{Format: MPSFree})
		if err != nil {
			t.Fatalf("name %q: %v", name, err)
		}
		if d := problemDiff(p, q); d != "" {
			t.Errorf("name %q: read back differs: %s", name, d)
		}
	}
}
