package tensor3

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/sym3"
	"github.com/moments-go/moments/kernels"
)

// Sym is a symmetric d x d x d tensor of float64 values in packed
// storage: T[i][j][l] is the same value for every ordering of (i, j, l),
// and only the PackedLen(d) = d(d+1)(d+2)/6 values with i <= j <= l are
// stored.
//
// The storage is grouped by the middle index: group j is a dense
// (j+1) x (d-j) row-major block with rows i = 0..j and columns l = j..d-1,
// so that the value T[i][j][l] (i <= j <= l) lives at
//
//	base(j) + i*(d-j) + (l-j),  base(j) = sum over g < j of (g+1)(d-g) = d j(j+1)/2 - (j-1)j(j+1)/3,
//
// in RawData. Every row of a group spans the same range of l, which is
// what makes the updates run as register-blocked products.
//
// The zero value is an empty tensor of dimension 0, ready to receive the
// result of Copy, Scale, Add, Sub, AddScaled or Multilinear. Methods that
// take a tensor or vector of the wrong dimension, or an index out of
// range, panic with a message that starts with "tensor3: ".
type Sym struct {
	d    int
	data []float64
}

// PackedLen returns the number of values stored for a symmetric
// d x d x d tensor, d(d+1)(d+2)/6. It panics if d is negative.
func PackedLen(d int) int {
	if d < 0 {
		panic(fmt.Sprintf("tensor3: PackedLen: negative dimension %d", d))
	}
	return sym3.Len(d)
}

// New returns a symmetric tensor of dimension d. If data is nil, New
// allocates zeros; otherwise the tensor uses data as its packed storage
// (see Sym) without copying it, and len(data) must be PackedLen(d). New
// panics if d is negative or the length of data does not match.
func New(d int, data []float64) *Sym {
	n := PackedLen(d)
	if data == nil {
		data = make([]float64, n)
	} else if len(data) != n {
		panic(fmt.Sprintf("tensor3: New: data has %d values, a tensor of dimension %d stores %d", len(data), d, n))
	}
	return &Sym{d: d, data: data[:n:n]}
}

// FromDense returns the symmetric tensor whose values with i <= j <= l
// are those of the d x d x d row-major array a (a[(i*d+j)*d+l]), as
// Dense returns it. It reads only those values; symmetrising a general
// array is up to the caller. FromDense panics if len(a) is not d^3.
func FromDense(d int, a []float64) *Sym {
	if d < 0 || len(a) != d*d*d {
		panic(fmt.Sprintf("tensor3: FromDense: %d values for dimension %d, want d^3", len(a), d))
	}
	t := New(d, nil)
	for j := 0; j < d; j++ {
		for i := 0; i <= j; i++ {
			copy(t.row(i, j), a[(i*d+j)*d+j:(i*d+j)*d+d])
		}
	}
	return t
}

// Dim returns the dimension d of t.
func (t *Sym) Dim() int { return t.d }

// IsEmpty reports whether t has dimension 0, and so takes the dimension
// of the next result written into it.
func (t *Sym) IsEmpty() bool { return t.d == 0 }

// RawData returns the packed storage of t (see Sym for the layout)
// without copying it.
func (t *Sym) RawData() []float64 { return t.data }

// index returns the position of T[i][j][l] in the packed storage, for
// any ordering of the indices. It panics if an index is out of range.
func (t *Sym) index(method string, i, j, l int) int {
	d := t.d
	if uint(i) >= uint(d) || uint(j) >= uint(d) || uint(l) >= uint(d) {
		panic(fmt.Sprintf("tensor3: %s: index (%d, %d, %d) out of range for dimension %d", method, i, j, l, d))
	}
	if i > j {
		i, j = j, i
	}
	if j > l {
		j, l = l, j
		if i > j {
			i, j = j, i
		}
	}
	return sym3.Base(d, j) + i*(d-j) + l - j
}

// row returns the stored values T[i][j][j..d-1], i <= j, as a slice of
// the storage.
func (t *Sym) row(i, j int) []float64 {
	o := sym3.Base(t.d, j) + i*(t.d-j)
	return t.data[o : o+t.d-j : o+t.d-j]
}

// block returns the storage of group j, (j+1) rows of d-j values.
func (t *Sym) block(j int) []float64 {
	lo, hi := sym3.Base(t.d, j), sym3.Base(t.d, j+1)
	return t.data[lo:hi:hi]
}

// At returns T[i][j][l], for any ordering of the indices. It panics if
// an index is out of range.
func (t *Sym) At(i, j, l int) float64 { return t.data[t.index("At", i, j, l)] }

// Set sets T[i][j][l], and with it every permutation of (i, j, l), to v.
// It panics if an index is out of range.
func (t *Sym) Set(i, j, l int, v float64) { t.data[t.index("Set", i, j, l)] = v }

// Dense returns the full d x d x d expansion of t as a new row-major
// array: T[i][j][l] at index (i*d+j)*d+l. It is meant for tests and
// small tensors.
func (t *Sym) Dense() []float64 {
	d := t.d
	a := make([]float64, d*d*d)
	for j := 0; j < d; j++ {
		for i := 0; i <= j; i++ {
			for c, v := range t.row(i, j) {
				l := j + c
				a[(i*d+j)*d+l] = v
				a[(i*d+l)*d+j] = v
				a[(j*d+i)*d+l] = v
				a[(j*d+l)*d+i] = v
				a[(l*d+i)*d+j] = v
				a[(l*d+j)*d+i] = v
			}
		}
	}
	return a
}

// Clone returns a new tensor with a copy of t's values.
func (t *Sym) Clone() *Sym {
	c := New(t.d, nil)
	copy(c.data, t.data)
	return c
}

// Copy copies src into t. If t is empty it gets src's dimension;
// otherwise the dimensions must match.
func (t *Sym) Copy(src *Sym) {
	t.reuseAs("Copy", src.d)
	copy(t.data, src.data)
}

// Zero sets every value of t to zero.
func (t *Sym) Zero() { clear(t.data) }

// Reset makes t empty (dimension 0), detached from its storage.
func (t *Sym) Reset() { *t = Sym{} }

// reuseAs gives an empty t dimension d with new zeroed storage, or
// panics if t has another dimension.
func (t *Sym) reuseAs(method string, d int) {
	if t.d == 0 {
		if d != 0 {
			*t = *New(d, nil)
		}
		return
	}
	if t.d != d {
		panic(fmt.Sprintf("tensor3: %s: destination has dimension %d, result has dimension %d", method, t.d, d))
	}
}

// checkDim panics unless the operands have t's dimension.
func checkDim(method string, d int, ts ...*Sym) {
	for _, x := range ts {
		if x.d != d {
			panic(fmt.Sprintf("tensor3: %s: operands have dimensions %d and %d", method, d, x.d))
		}
	}
}

func checkVec(method, name string, v []float64, d int) {
	if len(v) != d {
		panic(fmt.Sprintf("tensor3: %s: %s has %d elements, the tensor has dimension %d", method, name, len(v), d))
	}
}

// Scale sets t = s*a. It multiplies even when s is 0, so NaN and Inf in
// a give NaN.
func (t *Sym) Scale(s float64, a *Sym) {
	t.reuseAs("Scale", a.d)
	copy(t.data, a.data)
	kernels.Scal(s, t.data)
}

// Add sets t = a + b. t may be a or b.
func (t *Sym) Add(a, b *Sym) { t.AddScaled(a, 1, b) }

// Sub sets t = a - b. t may be a or b.
func (t *Sym) Sub(a, b *Sym) { t.AddScaled(a, -1, b) }

// AddScaled sets t = a + s*b. t may be a or b.
func (t *Sym) AddScaled(a *Sym, s float64, b *Sym) {
	checkDim("AddScaled", a.d, b)
	t.reuseAs("AddScaled", a.d)
	if len(t.data) == 0 {
		return
	}
	if &t.data[0] == &b.data[0] && &t.data[0] != &a.data[0] {
		tmp := append([]float64(nil), a.data...)
		kernels.Axpy(s, b.data, tmp)
		copy(t.data, tmp)
		return
	}
	copy(t.data, a.data)
	kernels.Axpy(s, b.data, t.data)
}

// NormFrob returns the Frobenius norm of the full tensor,
// sqrt(sum over all d^3 ordered (i, j, l) of T[i][j][l]^2): each stored
// value counts as many times as its indices have distinct orderings (6,
// 3 or 1). It does not overflow or underflow where the sum of squares
// would. It is NaN if t holds a NaN, +Inf if it holds an infinity but no
// NaN, and 0 for an empty tensor.
func (t *Sym) NormFrob() float64 {
	d := t.d
	// Scaled sums of squares of the values stored once for 6, 3 and 1
	// orderings, from the norms of row segments.
	var s6, s3, s1 ssq
	for j := 0; j < d; j++ {
		for i := 0; i <= j; i++ {
			r := t.row(i, j)
			if i < j {
				s3.add(math.Abs(r[0]))
				s6.add(kernels.Nrm2(r[1:]))
			} else {
				s1.add(math.Abs(r[0]))
				s3.add(kernels.Nrm2(r[1:]))
			}
		}
	}
	return combine([]ssq{s6, s3, s1}, []float64{6, 3, 1})
}

// ssq is a scaled sum of squares: the represented value is
// scale^2 * sum, with the norms added to it all at most scale.
type ssq struct {
	scale, sum float64
	nan, inf   bool
}

// add adds x^2 for a norm x >= 0 (or NaN, or +Inf).
func (s *ssq) add(x float64) {
	switch {
	case math.IsNaN(x):
		s.nan = true
	case math.IsInf(x, 0):
		s.inf = true
	case x == 0:
	case x > s.scale:
		s.sum = 1 + s.sum*(s.scale/x)*(s.scale/x)
		s.scale = x
	default:
		s.sum += (x / s.scale) * (x / s.scale)
	}
}

// combine returns sqrt(sum_k w[k] * value(s[k])).
func combine(s []ssq, w []float64) float64 {
	var scale float64
	for _, x := range s {
		if x.nan {
			return math.NaN()
		}
		scale = max(scale, x.scale)
	}
	for _, x := range s {
		if x.inf {
			return math.Inf(1)
		}
	}
	if scale == 0 {
		return 0
	}
	var sum float64
	for k, x := range s {
		f := x.scale / scale
		sum += w[k] * x.sum * f * f
	}
	return scale * math.Sqrt(sum)
}

// firstNonFinite returns the first stored value of t that is NaN or
// infinite, with its indices, or ok = true if there is none.
func (t *Sym) firstNonFinite() (i, j, l int, v float64, ok bool) {
	for j := 0; j < t.d; j++ {
		for i := 0; i <= j; i++ {
			for c, v := range t.row(i, j) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return i, j, j + c, v, false
				}
			}
		}
	}
	return 0, 0, 0, 0, true
}
