package mat

import (
	"math/rand/v2"
	"testing"
)

func TestNew(t *testing.T) {
	data := []float64{1, 2, 3, 4, 5, 6}
	m := New(2, 3, data)
	if r, c := m.Dims(); r != 2 || c != 3 || m.Stride() != 3 {
		t.Fatalf("New(2, 3): dims %dx%d stride %d", r, c, m.Stride())
	}
	if m.At(1, 0) != 4 || m.At(0, 2) != 3 {
		t.Fatalf("New: wrong layout: %v", m.RawData())
	}
	data[4] = 50 // New does not copy
	if m.At(1, 1) != 50 {
		t.Fatalf("New copied its data")
	}
	if &m.RawData()[0] != &data[0] {
		t.Fatalf("RawData is not the slice given to New")
	}
	z := New(3, 2, nil)
	for _, v := range z.RawData() {
		if v != 0 {
			t.Fatalf("New(3, 2, nil) is not zero")
		}
	}
	if len(z.RawData()) != 6 {
		t.Fatalf("New(3, 2, nil) has %d elements", len(z.RawData()))
	}
	for _, s := range zeroShapes {
		e := New(s[0], s[1], nil)
		if r, c := e.Dims(); r != s[0] || c != s[1] || e.RawData() != nil || e.Stride() < 1 {
			t.Fatalf("New(%d, %d): dims %dx%d, data %v, stride %d", s[0], s[1], r, c, e.RawData(), e.Stride())
		}
		if e.IsEmpty() != (s[0] == 0 && s[1] == 0) {
			t.Fatalf("New(%d, %d).IsEmpty() = %v", s[0], s[1], e.IsEmpty())
		}
	}
	mustPanic(t, func() { New(-1, 3, nil) }, "New", "-1x3")
	mustPanic(t, func() { New(2, 3, make([]float64, 5)) }, "New", "5", "2x3")
	mustPanic(t, func() { Zeros(2, -4) }, "Zeros", "2x-4")
	mustPanic(t, func() { Identity(-2) }, "Identity", "-2x-2")
}

func TestConstructors(t *testing.T) {
	id := Identity(3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if id.At(i, j) != want {
				t.Fatalf("Identity(3)[%d,%d] = %v", i, j, id.At(i, j))
			}
		}
	}
	rows := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	m := FromRows(rows)
	rows[0][0] = 100 // FromRows copies
	if !Equal(m, New(3, 2, []float64{1, 2, 3, 4, 5, 6})) {
		t.Fatalf("FromRows = %v", m)
	}
	mustPanic(t, func() { FromRows([][]float64{{1, 2}, {3}}) }, "FromRows", "row 1 has 1", "row 0 has 2")
	d := Diag([]float64{2, -3})
	if !Equal(d, FromRows([][]float64{{2, 0}, {0, -3}})) {
		t.Fatalf("Diag = %v", d)
	}
	for _, c := range []struct {
		m    *Dense
		r, c int
	}{
		{Identity(0), 0, 0}, {FromRows(nil), 0, 0}, {FromRows([][]float64{{}, {}}), 2, 0},
		{Diag(nil), 0, 0}, {Zeros(0, 5), 0, 5}, {Zeros(5, 0), 5, 0},
	} {
		if r, cc := c.m.Dims(); r != c.r || cc != c.c {
			t.Fatalf("got %dx%d, want %dx%d", r, cc, c.r, c.c)
		}
	}
}

func TestAtSet(t *testing.T) {
	for _, view := range []bool{false, true} {
		tm := blankMat(3, 4, view)
		for i := 0; i < 3; i++ {
			for j := 0; j < 4; j++ {
				tm.Set(i, j, float64(10*i+j))
			}
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 4; j++ {
				if tm.At(i, j) != float64(10*i+j) || tm.RawData()[i*tm.Stride()+j] != float64(10*i+j) {
					t.Fatalf("view=%v: At(%d, %d) = %v", view, i, j, tm.At(i, j))
				}
			}
		}
		tm.checkPadding(t, "Set")
		for _, ij := range [][2]int{{3, 0}, {0, 4}, {-1, 0}, {0, -1}} {
			mustPanic(t, func() { tm.At(ij[0], ij[1]) }, "At", "3x4")
			mustPanic(t, func() { tm.Set(ij[0], ij[1], 1) }, "Set", "3x4")
		}
	}
	var z Dense
	mustPanic(t, func() { z.At(0, 0) }, "At", "(0, 0)", "0x0")
}

func TestRowCol(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, view := range []bool{false, true} {
		tm := randMat(rng, 4, 3, view)
		for i := 0; i < 4; i++ {
			row := tm.Row(nil, i)
			dst := make([]float64, 3)
			if got := tm.Row(dst, i); &got[0] != &dst[0] {
				t.Fatalf("Row did not use dst")
			}
			raw := tm.RawRow(i)
			if len(raw) != 3 || cap(raw) != 3 {
				t.Fatalf("RawRow: len %d cap %d, want 3 and 3", len(raw), cap(raw))
			}
			for j := 0; j < 3; j++ {
				if row[j] != tm.At(i, j) || dst[j] != tm.At(i, j) || raw[j] != tm.At(i, j) {
					t.Fatalf("view=%v: Row(%d) = %v, RawRow %v", view, i, row, raw)
				}
			}
			raw[1] = 42 // RawRow shares memory
			if tm.At(i, 1) != 42 {
				t.Fatalf("RawRow does not share memory")
			}
		}
		for j := 0; j < 3; j++ {
			col := tm.Col(nil, j)
			for i := 0; i < 4; i++ {
				if col[i] != tm.At(i, j) {
					t.Fatalf("view=%v: Col(%d) = %v", view, j, col)
				}
			}
		}
		tm.SetRow(2, []float64{7, 8, 9})
		tm.SetCol(0, []float64{-1, -2, -3, -4})
		if got := tm.Row(nil, 2); got[0] != -3 || got[1] != 8 || got[2] != 9 {
			t.Fatalf("SetRow/SetCol: row 2 = %v", got)
		}
		tm.checkPadding(t, "SetRow/SetCol")

		mustPanic(t, func() { tm.Row(nil, 4) }, "Row", "row 4", "4x3")
		mustPanic(t, func() { tm.Row(make([]float64, 2), 0) }, "Row", "2 elements", "want 3")
		mustPanic(t, func() { tm.Col(nil, -1) }, "Col", "column -1", "4x3")
		mustPanic(t, func() { tm.Col(make([]float64, 3), 0) }, "Col", "3 elements", "want 4")
		mustPanic(t, func() { tm.RawRow(-1) }, "RawRow", "row -1")
		mustPanic(t, func() { tm.SetRow(0, []float64{1}) }, "SetRow", "1 elements", "4x3")
		mustPanic(t, func() { tm.SetCol(3, []float64{1, 2, 3, 4}) }, "SetCol", "column 3")
		mustPanic(t, func() { tm.SetCol(0, []float64{1}) }, "SetCol", "1 elements", "4x3")
	}
	// Rows of a matrix without columns, and columns without rows.
	if r := Zeros(3, 0).Row(nil, 2); len(r) != 0 {
		t.Fatalf("Row of 3x0: %v", r)
	}
	if c := Zeros(0, 3).Col(nil, 1); len(c) != 0 {
		t.Fatalf("Col of 0x3: %v", c)
	}
}

func TestSlice(t *testing.T) {
	m := New(4, 5, nil)
	for i := range m.RawData() {
		m.RawData()[i] = float64(i)
	}
	v := m.Slice(1, 3, 2, 5)
	if r, c := v.Dims(); r != 2 || c != 3 || v.Stride() != 5 {
		t.Fatalf("Slice: %dx%d stride %d", r, c, v.Stride())
	}
	if len(v.RawData()) != 8 || v.RawData()[0] != 7 {
		t.Fatalf("Slice: RawData %v", v.RawData())
	}
	if cap(v.RawData()) != 8 {
		t.Fatalf("Slice: RawData reaches past the view (cap %d)", cap(v.RawData()))
	}
	v.Set(1, 2, -1) // shares memory
	if m.At(2, 4) != -1 {
		t.Fatalf("Slice does not share memory")
	}
	w := v.Slice(1, 2, 1, 3) // a view of a view
	if w.At(0, 0) != 13 || w.At(0, 1) != -1 || w.Stride() != 5 {
		t.Fatalf("nested Slice: %v %v stride %d", w.At(0, 0), w.At(0, 1), w.Stride())
	}
	for _, b := range [][4]int{{0, 0, 0, 0}, {4, 4, 5, 5}, {1, 1, 0, 5}, {0, 4, 3, 3}} {
		e := m.Slice(b[0], b[1], b[2], b[3])
		if r, c := e.Dims(); r != b[1]-b[0] || c != b[3]-b[2] || e.RawData() != nil {
			t.Fatalf("Slice%v: %dx%d data %v", b, r, c, e.RawData())
		}
	}
	for _, b := range [][4]int{{-1, 1, 0, 1}, {2, 1, 0, 1}, {0, 5, 0, 1}, {0, 1, 3, 2}, {0, 1, 0, 6}} {
		mustPanic(t, func() { m.Slice(b[0], b[1], b[2], b[3]) }, "Slice", "out of range", "4x5")
	}
}

func TestT(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, s := range [][2]int{{1, 1}, {3, 5}, {33, 70}, {70, 33}, {64, 64}, {0, 0}, {0, 5}, {5, 0}} {
		for _, view := range []bool{false, true} {
			a := randMat(rng, s[0], s[1], view)
			tr := a.T()
			if r, c := tr.Dims(); r != s[1] || c != s[0] || tr.Stride() != max(s[0], 1) {
				t.Fatalf("T of %v: %dx%d stride %d", s, r, c, tr.Stride())
			}
			for i := 0; i < s[0]; i++ {
				for j := 0; j < s[1]; j++ {
					if tr.At(j, i) != a.At(i, j) {
						t.Fatalf("T of %v: (%d, %d) = %v, want %v", s, j, i, tr.At(j, i), a.At(i, j))
					}
				}
			}
			a.checkPadding(t, "T")
		}
	}
}

func TestCopyClone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, s := range [][2]int{{1, 1}, {4, 7}, {0, 0}, {0, 5}, {5, 0}} {
		for _, view := range []bool{false, true} {
			src := randMat(rng, s[0], s[1], view)
			var empty Dense
			empty.Copy(src.Dense)
			checkBits(t, "Copy into empty", &empty, src.Dense)
			dst := blankMat(s[0], s[1], !view)
			dst.Copy(src.Dense)
			checkBits(t, "Copy", dst.Dense, src.Dense)
			dst.checkPadding(t, "Copy")
			cl := src.Clone()
			checkBits(t, "Clone", cl, src.Dense)
			if cl.Stride() != max(s[1], 1) {
				t.Fatalf("Clone of a %v view has stride %d", s, cl.Stride())
			}
			if s[0]*s[1] > 0 {
				cl.Set(0, 0, 99)
				if src.At(0, 0) == 99 {
					t.Fatalf("Clone shares memory")
				}
			}
			src.checkPadding(t, "Clone")
		}
	}
	mustPanic(t, func() { Zeros(2, 3).Copy(Zeros(3, 2)) }, "Copy", "destination is 2x3", "result is 3x2")

	// Overlapping copies, in both directions: they must act as if the
	// source were copied first.
	for _, shift := range [][2]int{{1, 1}, {-1, -1}, {1, -1}, {0, 2}, {2, 0}} {
		m := randMat(rng, 6, 6, true)
		orig := m.Clone()
		si, sj := max(-shift[0], 0), max(-shift[1], 0)
		di, dj := max(shift[0], 0), max(shift[1], 0)
		src := m.Slice(si, si+4, sj, sj+4)
		want := src.Clone()
		m.Slice(di, di+4, dj, dj+4).Copy(src)
		checkBits(t, "overlapping Copy", m.Slice(di, di+4, dj, dj+4), want)
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				in := i >= di && i < di+4 && j >= dj && j < dj+4
				if !in && m.At(i, j) != orig.At(i, j) {
					t.Fatalf("overlapping Copy %v changed (%d, %d)", shift, i, j)
				}
			}
		}
		m.checkPadding(t, "overlapping Copy")
	}
	// Copy onto itself.
	m := randMat(rng, 3, 3, true)
	want := m.Clone()
	m.Copy(m.Dense)
	checkBits(t, "self Copy", m.Dense, want)
}

func TestZeroReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	m := randMat(rng, 3, 4, true)
	m.Zero()
	checkBits(t, "Zero", m.Dense, Zeros(3, 4))
	m.checkPadding(t, "Zero")
	parent := m.parent.Clone()
	m.Reset()
	if !m.IsEmpty() || m.Stride() != 0 || m.RawData() != nil {
		t.Fatalf("Reset: %dx%d", m.rows, m.cols)
	}
	m.Copy(Identity(2)) // an empty receiver takes any shape
	checkBits(t, "Copy after Reset", m.Dense, Identity(2))
	checkBits(t, "parent after Reset", m.parent, parent)
	var z Dense
	z.Zero()
	if !z.IsEmpty() || z.Stride() != 0 {
		t.Fatalf("zero value is not empty")
	}
}
