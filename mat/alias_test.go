package mat

import (
	"math/rand/v2"
	"testing"
)

// elementSet returns the offsets in base of the elements of the view v.
func elementSet(base []float64, v *Dense) map[int]bool {
	set := map[int]bool{}
	for i := 0; i < v.rows; i++ {
		for j := 0; j < v.cols; j++ {
			p := &v.data[i*v.stride+j]
			for k := range base {
				if &base[k] == p {
					set[k] = true
				}
			}
		}
	}
	return set
}

// TestOverlaps compares overlaps with a brute-force test of shared
// elements on random views of one array, with equal and different
// strides, including views whose rows interleave.
func TestOverlaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	base := make([]float64, 150)
	randView := func() *Dense {
		stride := 1 + rng.IntN(12)
		cols := rng.IntN(stride + 1)
		rows := rng.IntN(6)
		start := rng.IntN(30)
		need := 0
		if rows > 0 && cols > 0 {
			need = (rows-1)*stride + cols
		}
		if rng.IntN(3) == 0 {
			// A view from Slice of a matrix over the array.
			p := New(10, 12, base[start:start+120])
			i0, j0 := rng.IntN(10), rng.IntN(12)
			return p.Slice(i0, i0+rng.IntN(10-i0+1), j0, j0+rng.IntN(12-j0+1))
		}
		v := &Dense{rows: rows, cols: cols, stride: stride}
		if need > 0 {
			v.data = base[start : start+need]
		}
		return v
	}
	hits := 0
	for trial := 0; trial < 20000; trial++ {
		a, b := randView(), randView()
		sa, sb := elementSet(base, a), elementSet(base, b)
		want := false
		for k := range sa {
			if sb[k] {
				want = true
			}
		}
		if want {
			hits++
		}
		if got := overlaps(a, b); got != want {
			t.Fatalf("overlaps(%dx%d stride %d at %d, %dx%d stride %d at %d) = %v, want %v",
				a.rows, a.cols, a.stride, offsetIn(base, a), b.rows, b.cols, b.stride, offsetIn(base, b), got, want)
		}
		if got := overlaps(b, a); got != want {
			t.Fatalf("overlaps is not symmetric")
		}
	}
	if hits < 2000 || hits > 18000 {
		t.Fatalf("only %d of 20000 random pairs overlap: the test does not exercise both answers", hits)
	}
	// Different arrays never overlap.
	if overlaps(New(3, 3, nil), New(3, 3, nil)) {
		t.Fatalf("separate matrices overlap")
	}
}

func offsetIn(base []float64, v *Dense) int {
	if len(v.data) == 0 {
		return -1
	}
	d, _ := offset(base, v.data)
	return d
}

func TestSameView(t *testing.T) {
	p := New(4, 6, nil)
	if !sameView(p.Slice(1, 3, 1, 4), p.Slice(1, 3, 1, 4)) {
		t.Fatalf("identical slices are not the same view")
	}
	if sameView(p.Slice(1, 3, 1, 4), p.Slice(1, 3, 1, 3)) {
		t.Fatalf("views of different shapes are the same")
	}
	if sameView(p.Slice(0, 2, 0, 2), New(2, 2, p.RawData()[:4])) {
		t.Fatalf("views with different strides are the same")
	}
	if !sameView(p.Slice(0, 1, 0, 2), New(1, 2, p.RawData()[:2])) {
		t.Fatalf("one-row views with different strides differ")
	}
	if !sameView(Zeros(0, 3), p.Slice(2, 2, 0, 3)) {
		t.Fatalf("empty views of one shape differ")
	}
}
