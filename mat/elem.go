package mat

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/kernels"
)

// Add sets m = a + b. The element-wise methods accept a receiver that is
// exactly the same view as an operand; one that overlaps an operand in
// any other way makes them panic (see the package documentation).
func (m *Dense) Add(a, b *Dense) {
	m.prepareElem("Add", a, b)
	switch {
	case sameView(m, b) && !sameView(m, a):
		m.eachRow(a, nil, func(d, x, _ []float64) { kernels.Axpy(1, x, d) })
	default:
		m.copyFrom(a) // a no-op when m is a
		m.eachRow(b, nil, func(d, y, _ []float64) { kernels.Axpy(1, y, d) })
	}
}

// Sub sets m = a - b.
func (m *Dense) Sub(a, b *Dense) {
	m.prepareElem("Sub", a, b)
	switch {
	case sameView(m, b) && !sameView(m, a):
		// -b + a rounds exactly like a - b.
		m.eachRow(a, nil, func(d, x, _ []float64) {
			kernels.Scal(-1, d)
			kernels.Axpy(1, x, d)
		})
	default:
		m.copyFrom(a)
		m.eachRow(b, nil, func(d, y, _ []float64) { kernels.Axpy(-1, y, d) })
	}
}

// Scale sets m = s*a. Like kernels.Scal it multiplies even when s is 0,
// so NaN and Inf in a give NaN.
func (m *Dense) Scale(s float64, a *Dense) {
	m.reuseAs("Scale", a.rows, a.cols)
	checkInPlace("Scale", m, a)
	m.copyFrom(a)
	m.eachRow(nil, nil, func(d, _, _ []float64) { kernels.Scal(s, d) })
}

// ScalePow2 sets m = 2^e * a, in steps of at most 2^±1000 so that each
// factor is representable: exact, unless elements overflow to infinity
// or lose bits to underflow. Factorizations use it to bring a matrix
// into a safe range of magnitudes and back.
func (m *Dense) ScalePow2(e int, a *Dense) {
	if e == 0 {
		m.reuseAs("ScalePow2", a.rows, a.cols)
		checkInPlace("ScalePow2", m, a)
		m.copyFrom(a)
		return
	}
	for src := a; e != 0; src = m {
		s := min(max(e, -1000), 1000)
		m.Scale(math.Ldexp(1, s), src)
		e -= s
	}
}

// IsFinite reports whether every element of m is finite (NonFinite
// finds the first one that is not).
func (m *Dense) IsFinite() bool {
	_, _, found := m.NonFinite()
	return !found
}

// AddScaled sets m = a + s*b. It runs kernels.Axpy, which may round
// s*b and the sum once (a fused multiply-add) or twice, as the active
// kernels implementation does; every aliasing of m rounds the same way.
func (m *Dense) AddScaled(a *Dense, s float64, b *Dense) {
	m.prepareElem("AddScaled", a, b)
	if sameView(m, b) && !sameView(m, a) {
		// Compute each row in a scratch row so that it rounds exactly as
		// in the other cases.
		tmp := make([]float64, m.cols)
		m.eachRowSplit(a, func(d, x []float64) {
			copy(tmp, x)
			kernels.Axpy(s, d, tmp)
			copy(d, tmp)
		})
		return
	}
	m.copyFrom(a)
	m.eachRow(b, nil, func(d, y, _ []float64) { kernels.Axpy(s, y, d) })
}

// MulElem sets m to the element-wise (Hadamard) product of a and b:
// m[i,j] = a[i,j]*b[i,j].
func (m *Dense) MulElem(a, b *Dense) {
	m.prepareElem("MulElem", a, b)
	m.eachRow(a, b, func(d, x, y []float64) {
		y = y[:len(d)]
		x = x[:len(d)]
		for j := range d {
			d[j] = x[j] * y[j]
		}
	})
}

// prepareElem checks the shapes of a binary element-wise operation and
// the aliasing of its destination, and shapes an empty m.
func (m *Dense) prepareElem(method string, a, b *Dense) {
	if a.rows != b.rows || a.cols != b.cols {
		panic(fmt.Sprintf("mat: %s: A is %dx%d but B is %dx%d", method, a.rows, a.cols, b.rows, b.cols))
	}
	m.reuseAs(method, a.rows, a.cols)
	checkInPlace(method, m, a, b)
}

// eachRow calls f with each row of m and the same rows of a and b (nil
// slices for a nil operand). When m and the operands are all contiguous
// it calls f once with all their elements.
func (m *Dense) eachRow(a, b *Dense, f func(d, x, y []float64)) {
	if m.rows == 0 || m.cols == 0 {
		return
	}
	if m.contiguous() && (a == nil || a.contiguous()) && (b == nil || b.contiguous()) {
		n := m.rows * m.cols
		f(m.data[:n], rowOf(a, 0, n), rowOf(b, 0, n))
		return
	}
	for i := 0; i < m.rows; i++ {
		f(m.row(i), rowOf(a, i, m.cols), rowOf(b, i, m.cols))
	}
}

// eachRowSplit calls f with each row of m and of a, one row at a time.
func (m *Dense) eachRowSplit(a *Dense, f func(d, x []float64)) {
	if m.rows == 0 || m.cols == 0 {
		return
	}
	for i := 0; i < m.rows; i++ {
		f(m.row(i), rowOf(a, i, m.cols))
	}
}

// rowOf returns n elements of a from the start of row i, or nil if a is
// nil.
func rowOf(a *Dense, i, n int) []float64 {
	if a == nil {
		return nil
	}
	return a.data[i*a.stride : i*a.stride+n]
}

// Symmetrize replaces the square matrix m by (m + m^T)/2, in place, so
// that it is exactly symmetric: the remedy for products such as Y^T X
// with Y = D X, symmetric only in exact arithmetic. It panics if m is not
// square.
func (m *Dense) Symmetrize() {
	if m.rows != m.cols {
		panic(fmt.Sprintf("mat: Symmetrize: matrix is %dx%d, not square", m.rows, m.cols))
	}
	for i := 0; i < m.rows; i++ {
		for j := 0; j < i; j++ {
			v := (m.data[i*m.stride+j] + m.data[j*m.stride+i]) / 2
			m.data[i*m.stride+j] = v
			m.data[j*m.stride+i] = v
		}
	}
}
