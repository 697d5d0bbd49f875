package kernels

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
)

// The methods of impl run the vector kernels on its level; the tests
// call them on every implementation (api.go calls the same functions on
// the selected level).

func (im *impl) Dot(x, y []float64) float64 { return dot(im.level, x, y) }

func (im *impl) DotInc(n int, x []float64, incX int, y []float64, incY int) float64 {
	return dotInc(im.level, n, x, incX, y, incY)
}

func (im *impl) Axpy(alpha float64, x, y []float64) { axpy(im.level, alpha, x, y) }

func (im *impl) AxpyInc(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	axpyInc(im.level, n, alpha, x, incX, y, incY)
}

func (im *impl) Scal(alpha float64, x []float64) { scal(im.level, alpha, x) }

func (im *impl) ScalInc(n int, alpha float64, x []float64, inc int) {
	scalInc(im.level, n, alpha, x, inc)
}

func (im *impl) Asum(x []float64) float64 { return asum(im.level, x) }

func (im *impl) AsumInc(n int, x []float64, inc int) float64 { return asumInc(im.level, n, x, inc) }

func (im *impl) Nrm2(x []float64) float64 { return nrm2(im.level, x) }

func (im *impl) Nrm2Inc(n int, x []float64, inc int) float64 { return nrm2Inc(im.level, n, x, inc) }

func (im *impl) Iamax(x []float64) int { return iamax(im.level, x) }

func (im *impl) IamaxInc(n int, x []float64, inc int) int { return iamaxInc(im.level, n, x, inc) }

func (im *impl) Rot(x, y []float64, c, s float64) { rot(im.level, x, y, c, s) }

func (im *impl) RotInc(n int, x []float64, incX int, y []float64, incY int, c, s float64) {
	rotInc(im.level, n, x, incX, y, incY, c, s)
}

func (im *impl) Gemv(trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	gemv(im.level, trans, m, n, alpha, a, lda, x, beta, y)
}

func (im *impl) Ger(m, n int, alpha float64, x, y []float64, a []float64, lda int) {
	ger(im.level, m, n, alpha, x, y, a, lda)
}

func dot(l simd.Level, x, y []float64) float64 {
	checkLen("Dot", len(x), len(y))
	return vec.DotAt(l, x, y[:len(x)])
}

func dotInc(l simd.Level, n int, x []float64, incX int, y []float64, incY int) float64 {
	checkInc("DotInc", n, x, incX)
	checkInc("DotInc", n, y, incY)
	if incX == 1 && incY == 1 {
		return vec.DotAt(l, x[:n], y[:n])
	}
	var s float64
	for i := 0; i < n; i++ {
		s += x[i*incX] * y[i*incY]
	}
	return s
}

func axpy(l simd.Level, alpha float64, x, y []float64) {
	checkLen("Axpy", len(x), len(y))
	vec.AxpyAt(l, alpha, x, y[:len(x)])
}

func axpyInc(l simd.Level, n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	checkInc("AxpyInc", n, x, incX)
	checkInc("AxpyInc", n, y, incY)
	if incX == 1 && incY == 1 {
		vec.AxpyAt(l, alpha, x[:n], y[:n])
		return
	}
	for i := 0; i < n; i++ {
		y[i*incY] += alpha * x[i*incX]
	}
}

func scal(l simd.Level, alpha float64, x []float64) { vec.ScalAt(l, alpha, x) }

func scalInc(l simd.Level, n int, alpha float64, x []float64, inc int) {
	checkInc("ScalInc", n, x, inc)
	if inc == 1 {
		vec.ScalAt(l, alpha, x[:n])
		return
	}
	for i := 0; i < n; i++ {
		x[i*inc] *= alpha
	}
}

func asum(l simd.Level, x []float64) float64 { return vec.AsumAt(l, x) }

func asumInc(l simd.Level, n int, x []float64, inc int) float64 {
	checkInc("AsumInc", n, x, inc)
	if inc == 1 {
		return vec.AsumAt(l, x[:n])
	}
	var s float64
	for i := 0; i < n; i++ {
		s += math.Abs(x[i*inc])
	}
	return s
}

func nrm2(l simd.Level, x []float64) float64 {
	ss := vec.SumSqAt(l, x, 1)
	if ss >= nrm2SafeMin && ss <= math.MaxFloat64 {
		return math.Sqrt(ss)
	}
	return nrm2Slow(l, x, ss)
}

// nrm2SafeMin is the smallest sum of squares that Nrm2 trusts: below it,
// squares smaller than 2^-1022 may have been flushed to subnormals.
const nrm2SafeMin = 0x1p-900

func nrm2Slow(l simd.Level, x []float64, ss float64) float64 {
	if ss != ss {
		return ss // some x[i] is NaN
	}
	m := vec.MaxAbsAt(l, x)
	if m == 0 || math.IsInf(m, 1) || m != m {
		return m
	}
	scale, e := nrm2Scale(m)
	return math.Ldexp(math.Sqrt(vec.SumSqAt(l, x, scale)), e)
}

// nrm2Scale returns 2^-e for the e with 2^(e-1) <= m < 2^e, clamped to
// the normal range: every scaled value is then below 4 and the largest at
// least 2^-52, so the sum of squares neither overflows nor loses the
// terms that matter, and scaling by a power of two is exact.
func nrm2Scale(m float64) (scale float64, e int) {
	_, e = math.Frexp(m)
	e = min(max(e, -1023), 1022)
	return math.Ldexp(1, -e), e
}

func nrm2Inc(l simd.Level, n int, x []float64, inc int) float64 {
	checkInc("Nrm2Inc", n, x, inc)
	if inc == 1 {
		return nrm2(l, x[:n])
	}
	var ss, m float64
	for i := 0; i < n; i++ {
		v := x[i*inc]
		ss += v * v
		m = math.Max(m, math.Abs(v))
	}
	if ss >= nrm2SafeMin && ss <= math.MaxFloat64 {
		return math.Sqrt(ss)
	}
	if ss != ss || m == 0 || math.IsInf(m, 1) {
		if ss != ss {
			return ss
		}
		return m
	}
	s, e := nrm2Scale(m)
	ss = 0
	for i := 0; i < n; i++ {
		v := x[i*inc] * s
		ss += v * v
	}
	return math.Ldexp(math.Sqrt(ss), e)
}

func iamax(l simd.Level, x []float64) int {
	if len(x) == 0 {
		return -1
	}
	m := vec.MaxAbsAt(l, x)
	if m != m {
		for i, v := range x {
			if v != v {
				return i
			}
		}
	}
	return vec.IndexAbsAt(l, x, m)
}

func iamaxInc(l simd.Level, n int, x []float64, inc int) int {
	checkInc("IamaxInc", n, x, inc)
	if inc == 1 {
		return iamax(l, x[:n])
	}
	best, bi := -1.0, -1
	for i := 0; i < n; i++ {
		a := math.Abs(x[i*inc])
		if a != a {
			return i
		}
		if a > best {
			best, bi = a, i
		}
	}
	return bi
}

func rot(l simd.Level, x, y []float64, c, s float64) {
	checkLen("Rot", len(x), len(y))
	vec.RotAt(l, x, y[:len(x)], c, s)
}

func rotInc(l simd.Level, n int, x []float64, incX int, y []float64, incY int, c, s float64) {
	checkInc("RotInc", n, x, incX)
	checkInc("RotInc", n, y, incY)
	if incX == 1 && incY == 1 {
		vec.RotAt(l, x[:n], y[:n], c, s)
		return
	}
	for i := 0; i < n; i++ {
		xi, yi := x[i*incX], y[i*incY]
		x[i*incX] = c*xi + s*yi
		y[i*incY] = c*yi - s*xi
	}
}

func gemv(l simd.Level, trans bool, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	if m < 0 || n < 0 {
		panic(fmt.Sprintf("kernels: Gemv: negative size %dx%d", m, n))
	}
	checkMatrix("Gemv", "A", m, n, a, lda)
	lx, ly := n, m
	if trans {
		lx, ly = m, n
	}
	if len(x) < lx || len(y) < ly {
		panic(fmt.Sprintf("kernels: Gemv: A is %dx%d (trans=%v) but len(x)=%d, len(y)=%d", m, n, trans, len(x), len(y)))
	}
	x, y = x[:lx], y[:ly]
	switch beta {
	case 0:
		clear(y)
	case 1:
	default:
		vec.ScalAt(l, beta, y)
	}
	if alpha == 0 || m == 0 || n == 0 {
		return
	}
	if trans {
		vec.GemvTAt(l, m, n, alpha, a, lda, x, y)
	} else {
		vec.GemvNAt(l, m, n, alpha, a, lda, x, y)
	}
}

func ger(l simd.Level, m, n int, alpha float64, x, y []float64, a []float64, lda int) {
	if m < 0 || n < 0 {
		panic(fmt.Sprintf("kernels: Ger: negative size %dx%d", m, n))
	}
	checkMatrix("Ger", "A", m, n, a, lda)
	if len(x) < m || len(y) < n {
		panic(fmt.Sprintf("kernels: Ger: A is %dx%d but len(x)=%d, len(y)=%d", m, n, len(x), len(y)))
	}
	if alpha == 0 {
		return
	}
	if m == 0 || n == 0 {
		return
	}
	// Row i gets AxpyAt(l, alpha*x[i], y, row i)'s bits, without a call
	// per row where the level has a routine for it.
	vec.GerAt(l, m, n, alpha, a, lda, x, y[:n])
}

func checkLen(name string, nx, ny int) {
	if ny < nx {
		panic(fmt.Sprintf("kernels: %s: second vector has %d elements, fewer than the first's %d", name, ny, nx))
	}
}

func checkInc(name string, n int, x []float64, inc int) {
	if n < 0 {
		panic(fmt.Sprintf("kernels: %s: negative length %d", name, n))
	}
	if inc <= 0 {
		panic(fmt.Sprintf("kernels: %s: stride %d is not positive", name, inc))
	}
	if n > 0 && len(x) < (n-1)*inc+1 {
		panic(fmt.Sprintf("kernels: %s: %d elements at stride %d need %d, slice has %d", name, n, inc, (n-1)*inc+1, len(x)))
	}
}
