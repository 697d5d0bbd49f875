package mat

import (
	"fmt"
	"unsafe"
)

// addr returns the address of the first element of s.
func addr(s []float64) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) }

// offset returns the distance in elements from the start of a to the
// start of b, and whether a and b share memory at all (whether their
// address ranges intersect). The distance is only meaningful when they
// do: both then lie in one array.
func offset(a, b []float64) (d int, shared bool) {
	if len(a) == 0 || len(b) == 0 {
		return 0, false
	}
	const size = unsafe.Sizeof(float64(0))
	pa, pb := addr(a), addr(b)
	if pb >= pa+uintptr(len(a))*size || pa >= pb+uintptr(len(b))*size {
		return 0, false
	}
	// The ranges intersect, so the difference is small: converting the
	// wrapped unsigned difference gives its signed value.
	return int(pb-pa) / int(size), true
}

// slicesOverlap reports whether a and b share an element.
func slicesOverlap(a, b []float64) bool {
	_, shared := offset(a, b)
	return shared
}

// overlaps reports whether a and b share at least one element. It is
// exact, not conservative: two views of one array whose rows interleave
// (for example the even and odd columns of a matrix seen as two views
// with twice its stride) do not overlap. It costs O(min(rows)).
func overlaps(a, b *Dense) bool {
	if a.rows == 0 || a.cols == 0 || b.rows == 0 || b.cols == 0 {
		return false
	}
	d, shared := offset(a.data, b.data)
	if !shared {
		return false
	}
	// Walk the rows of the matrix with fewer rows (y), each a segment of
	// y.cols elements, against the rows of the other (x), in coordinates
	// where x starts at 0 and y at d.
	x, y := a, b
	if b.rows > a.rows {
		x, y, d = b, a, -d
	}
	for i := 0; i < y.rows; i++ {
		if segmentHitsRows(d+i*y.stride, y.cols, x) {
			return true
		}
	}
	return false
}

// segmentHitsRows reports whether the elements t, ..., t+n-1 (n > 0)
// include an element of x, whose row i covers i*s, ..., i*s+x.cols-1
// for s = x.stride.
func segmentHitsRows(t, n int, x *Dense) bool {
	s := x.stride
	// The first row of x that ends after t: the least i with
	// i*s + x.cols > t.
	i := floorDiv(t-x.cols, s) + 1
	i = max(i, 0)
	return i < x.rows && i*s < t+n
}

// floorDiv returns floor(a/b) for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// sameView reports whether a and b are the same view: the same shape,
// the same first element and, if there are several rows, the same
// stride.
func sameView(a, b *Dense) bool {
	if a.rows != b.rows || a.cols != b.cols {
		return false
	}
	if a.rows == 0 || a.cols == 0 {
		return true
	}
	return addr(a.data) == addr(b.data) && (a.rows == 1 || a.stride == b.stride)
}

// checkInPlace panics if dst overlaps one of the operands without being
// the same view of it, for the element-wise methods.
func checkInPlace(method string, dst *Dense, ops ...*Dense) {
	for _, op := range ops {
		if overlaps(dst, op) && !sameView(dst, op) {
			panic(fmt.Sprintf("mat: %s: destination (%dx%d) partially overlaps an operand (%dx%d); it may only be the very same view", method, dst.rows, dst.cols, op.rows, op.cols))
		}
	}
}
