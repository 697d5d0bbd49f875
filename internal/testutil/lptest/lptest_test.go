package lptest

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestFreeLP: the shape the doc promises (5n rows, free columns, 2 to 5
// entries a row, limits in order, a sparse nonzero objective) and the
// same problem for the same seed.
func TestFreeLP(t *testing.T) {
	p := FreeLP(3, 100)
	if p.Rows != 500 || p.Cols != 100 || len(p.ColStart) != 101 || p.ColStart[100] != len(p.Value) {
		t.Fatalf("shape %dx%d, %d entries", p.Rows, p.Cols, len(p.Value))
	}
	perRow := make([]int, p.Rows)
	for _, i := range p.RowIndex {
		perRow[i]++
	}
	for i, k := range perRow {
		if k < 2 || k > 5 || !(p.RowLower[i] <= p.RowUpper[i]) || (math.IsInf(p.RowLower[i], -1) && math.IsInf(p.RowUpper[i], 1)) {
			t.Fatalf("row %d: %d entries, limits [%g, %g]", i, k, p.RowLower[i], p.RowUpper[i])
		}
	}
	nz := 0
	for j := 0; j < p.Cols; j++ {
		if !math.IsInf(p.ColLower[j], -1) || !math.IsInf(p.ColUpper[j], 1) {
			t.Fatalf("column %d not free", j)
		}
		if p.Obj[j] != 0 {
			nz++
		}
	}
	if nz == 0 || nz > 5 {
		t.Fatalf("%d nonzero costs, want 1 to 5 (one multiplier, a row of at most 5 entries)", nz)
	}
	q := FreeLP(3, 100)
	if !slices.Equal(p.Value, q.Value) || !slices.Equal(p.Obj, q.Obj) || !slices.Equal(p.RowUpper, q.RowUpper) {
		t.Fatal("same seed, different problem")
	}
}

// TestFreeLPSmall: n < 5 panics with a message that says why, not with
// an index out of range.
func TestFreeLPSmall(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "n >= 5") {
			t.Errorf("FreeLP(1, 4): panic %q, want one that says n >= 5", r)
		}
	}()
	FreeLP(1, 4)
}
