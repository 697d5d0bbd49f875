package mat

import "fmt"

// Dense is a row-major matrix of float64 values. Element (i, j) is stored
// at RawData()[i*Stride()+j].
//
// The zero value is an empty (0x0) matrix, ready to receive the result
// of any method. A Dense obtained from Slice is a view that shares memory
// with its parent.
type Dense struct {
	rows, cols int
	// stride is the distance between the first elements of successive
	// rows: at least max(cols, 1), except in the zero value where it is 0.
	stride int
	// data starts at element (0, 0) and ends just after the last element,
	// (rows-1)*stride+cols values in all; it is nil when the matrix has
	// no elements.
	data []float64
}

// New returns an r x c matrix. If data is nil, New allocates zeros;
// otherwise the matrix uses data as its storage, row after row, without
// copying it, and len(data) must be r*c. New panics if r or c is
// negative or if the length of data does not match.
func New(r, c int, data []float64) *Dense {
	checkSize("New", r, c)
	if data == nil {
		data = make([]float64, r*c)
	} else if len(data) != r*c {
		panic(fmt.Sprintf("mat: New: data has %d elements, a %dx%d matrix needs %d", len(data), r, c, r*c))
	}
	n := r * c
	if n == 0 {
		data = nil
	}
	return &Dense{rows: r, cols: c, stride: max(c, 1), data: data[:n:n]}
}

// Zeros returns a new r x c matrix of zeros. It panics if r or c is
// negative.
func Zeros(r, c int) *Dense {
	checkSize("Zeros", r, c)
	return New(r, c, nil)
}

// Identity returns a new n x n identity matrix. It panics if n is
// negative.
func Identity(n int) *Dense {
	checkSize("Identity", n, n)
	m := New(n, n, nil)
	for i := 0; i < n; i++ {
		m.data[i*m.stride+i] = 1
	}
	return m
}

// FromRows returns a new matrix whose rows are copies of rows. All rows
// must have the same length (FromRows panics otherwise); no rows give a
// 0x0 matrix.
func FromRows(rows [][]float64) *Dense {
	if len(rows) == 0 {
		return New(0, 0, nil)
	}
	c := len(rows[0])
	m := New(len(rows), c, nil)
	for i, row := range rows {
		if len(row) != c {
			panic(fmt.Sprintf("mat: FromRows: row %d has %d elements, row 0 has %d", i, len(row), c))
		}
		if c > 0 {
			copy(m.data[i*m.stride:i*m.stride+c], row)
		}
	}
	return m
}

// Diag returns a new n x n diagonal matrix with d on its diagonal, where
// n = len(d).
func Diag(d []float64) *Dense {
	n := len(d)
	m := New(n, n, nil)
	for i, v := range d {
		m.data[i*m.stride+i] = v
	}
	return m
}

// Dims returns the number of rows and columns of m.
func (m *Dense) Dims() (r, c int) { return m.rows, m.cols }

// Stride returns the distance in RawData between the first elements of
// successive rows: at least max(c, 1) for an r x c matrix, and 0 for the
// zero value.
func (m *Dense) Stride() int { return m.stride }

// RawData returns the storage of m from element (0, 0) to the last
// element, (r-1)*Stride()+c values, without copying; nil if m has no
// elements. For a view, the values between the rows belong to the parent.
func (m *Dense) RawData() []float64 { return m.data }

// IsEmpty reports whether m is 0x0, and so takes the shape of the next
// result written into it.
func (m *Dense) IsEmpty() bool { return m.rows == 0 && m.cols == 0 }

// Reset makes m empty (0x0), detached from its storage, so that it can
// receive a result of any shape. Views of m and the memory it used are
// not affected.
func (m *Dense) Reset() { *m = Dense{} }

// At returns element (i, j). It panics if the index is out of range.
func (m *Dense) At(i, j int) float64 {
	if uint(i) >= uint(m.rows) || uint(j) >= uint(m.cols) {
		m.panicIndex("At", i, j)
	}
	return m.data[i*m.stride+j]
}

// Set sets element (i, j) to v. It panics if the index is out of range.
func (m *Dense) Set(i, j int, v float64) {
	if uint(i) >= uint(m.rows) || uint(j) >= uint(m.cols) {
		m.panicIndex("Set", i, j)
	}
	m.data[i*m.stride+j] = v
}

func (m *Dense) panicIndex(method string, i, j int) {
	panic(fmt.Sprintf("mat: %s: index (%d, %d) out of range for %dx%d matrix", method, i, j, m.rows, m.cols))
}

// Row copies row i of m into dst and returns it. If dst is nil, Row
// allocates it; otherwise len(dst) must equal the number of columns.
// It panics if i is out of range or dst has the wrong length.
func (m *Dense) Row(dst []float64, i int) []float64 {
	m.checkRow("Row", i)
	dst = vecDst("Row", dst, m.cols, "columns")
	copy(dst, m.row(i))
	return dst
}

// Col copies column j of m into dst and returns it. If dst is nil, Col
// allocates it; otherwise len(dst) must equal the number of rows. It
// panics if j is out of range or dst has the wrong length.
func (m *Dense) Col(dst []float64, j int) []float64 {
	m.checkCol("Col", j)
	dst = vecDst("Col", dst, m.rows, "rows")
	for i := range dst {
		dst[i] = m.data[i*m.stride+j]
	}
	return dst
}

// RawRow returns row i of m as a slice of length c that shares m's
// memory: writing to it writes to m. It panics if i is out of range.
func (m *Dense) RawRow(i int) []float64 {
	m.checkRow("RawRow", i)
	return m.row(i)
}

// row returns row i of m, which must be in range, capped at its length.
func (m *Dense) row(i int) []float64 {
	if m.cols == 0 {
		return nil
	}
	lo, hi := i*m.stride, i*m.stride+m.cols
	return m.data[lo:hi:hi]
}

// SetRow copies src into row i of m. It panics if i is out of range or
// len(src) is not the number of columns.
func (m *Dense) SetRow(i int, src []float64) {
	m.checkRow("SetRow", i)
	if len(src) != m.cols {
		panic(fmt.Sprintf("mat: SetRow: src has %d elements, matrix is %dx%d", len(src), m.rows, m.cols))
	}
	copy(m.row(i), src)
}

// SetCol copies src into column j of m. It panics if j is out of range or
// len(src) is not the number of rows.
func (m *Dense) SetCol(j int, src []float64) {
	m.checkCol("SetCol", j)
	if len(src) != m.rows {
		panic(fmt.Sprintf("mat: SetCol: src has %d elements, matrix is %dx%d", len(src), m.rows, m.cols))
	}
	for i, v := range src {
		m.data[i*m.stride+j] = v
	}
}

func (m *Dense) checkRow(method string, i int) {
	if uint(i) >= uint(m.rows) {
		panic(fmt.Sprintf("mat: %s: row %d out of range for %dx%d matrix", method, i, m.rows, m.cols))
	}
}

func (m *Dense) checkCol(method string, j int) {
	if uint(j) >= uint(m.cols) {
		panic(fmt.Sprintf("mat: %s: column %d out of range for %dx%d matrix", method, j, m.rows, m.cols))
	}
}

// vecDst returns dst, or a new slice of n elements if dst is nil; it
// panics if dst is not nil and does not have n elements.
func vecDst(method string, dst []float64, n int, what string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("mat: %s: dst has %d elements, want %d (the %s of the matrix)", method, len(dst), n, what))
	}
	return dst
}

// Slice returns a view of rows i0 to i1-1 and columns j0 to j1-1 of m:
// an (i1-i0) x (j1-j0) matrix that shares m's memory and stride. It
// panics unless 0 <= i0 <= i1 <= r and 0 <= j0 <= j1 <= c.
func (m *Dense) Slice(i0, i1, j0, j1 int) *Dense {
	if i0 < 0 || i1 < i0 || i1 > m.rows || j0 < 0 || j1 < j0 || j1 > m.cols {
		panic(fmt.Sprintf("mat: Slice: [%d:%d, %d:%d] out of range for %dx%d matrix", i0, i1, j0, j1, m.rows, m.cols))
	}
	v := &Dense{rows: i1 - i0, cols: j1 - j0, stride: max(m.stride, 1)}
	if v.rows > 0 && v.cols > 0 {
		lo := i0*m.stride + j0
		hi := (i1-1)*m.stride + j1
		v.data = m.data[lo:hi:hi]
	}
	return v
}

// T returns a new matrix, the transpose of m.
func (m *Dense) T() *Dense {
	t := New(m.cols, m.rows, nil)
	// Transpose in square blocks, so that both the rows read and the rows
	// written stay in cache.
	const blk = 32
	for i0 := 0; i0 < m.rows; i0 += blk {
		i1 := min(i0+blk, m.rows)
		for j0 := 0; j0 < m.cols; j0 += blk {
			j1 := min(j0+blk, m.cols)
			for i := i0; i < i1; i++ {
				row := m.data[i*m.stride+j0 : i*m.stride+j1]
				for j, v := range row {
					t.data[(j0+j)*t.stride+i] = v
				}
			}
		}
	}
	return t
}

// Copy copies src into m. If m is empty it gets src's shape; otherwise
// the shapes must match (Copy panics if not). src may overlap m in any
// way.
func (m *Dense) Copy(src *Dense) {
	m.reuseAs("Copy", src.rows, src.cols)
	if sameView(m, src) {
		return
	}
	if overlaps(m, src) {
		src = src.Clone()
	}
	m.copyFrom(src)
}

// copyFrom copies src, of m's shape, into m; src must be m itself or
// not overlap it.
func (m *Dense) copyFrom(src *Dense) {
	if m.rows == 0 || m.cols == 0 || sameView(m, src) {
		return
	}
	if m.contiguous() && src.contiguous() {
		copy(m.data[:m.rows*m.cols], src.data)
		return
	}
	for i := 0; i < m.rows; i++ {
		copy(m.row(i), src.row(i))
	}
}

// Clone returns a new matrix with a copy of m's elements, stored
// contiguously (stride max(c, 1)).
func (m *Dense) Clone() *Dense {
	c := New(m.rows, m.cols, nil)
	c.copyFrom(m)
	return c
}

// Zero sets every element of m to zero.
func (m *Dense) Zero() {
	if m.rows == 0 || m.cols == 0 {
		return
	}
	if m.contiguous() {
		clear(m.data)
		return
	}
	for i := 0; i < m.rows; i++ {
		clear(m.row(i))
	}
}

// contiguous reports whether the elements of m are adjacent in memory,
// with no padding between rows.
func (m *Dense) contiguous() bool { return m.rows <= 1 || m.stride == m.cols }

// reuseAs gives an empty m the shape r x c with new zeroed storage, or
// panics if m has a shape other than r x c.
func (m *Dense) reuseAs(method string, r, c int) {
	if m.IsEmpty() {
		if r != 0 || c != 0 {
			*m = *New(r, c, nil)
		}
		return
	}
	if m.rows != r || m.cols != c {
		panic(fmt.Sprintf("mat: %s: destination is %dx%d, result is %dx%d", method, m.rows, m.cols, r, c))
	}
}

func checkSize(method string, r, c int) {
	if r < 0 || c < 0 {
		panic(fmt.Sprintf("mat: %s: negative size %dx%d", method, r, c))
	}
}
