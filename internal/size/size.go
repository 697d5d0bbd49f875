// Package size does the arithmetic of allocation sizes without
// overflow: products and sums of non-negative counts saturate at
// math.MaxInt64 instead of wrapping, so that a size computed from
// hostile dimensions can only be too large, never small or negative, and
// a comparison with a memory limit refuses it.
package size

import (
	"math"
	"math/bits"
)

// Max is the saturated value: every size at least this large is
// reported as Max.
const Max = math.MaxInt64

// Mul returns the product of the counts, or Max if it exceeds Max or a
// count is negative (a negative count comes from an overflow upstream).
func Mul(counts ...int) int64 {
	p := uint64(1)
	for _, c := range counts {
		if c < 0 {
			return Max
		}
		hi, lo := bits.Mul64(p, uint64(c))
		if hi != 0 || lo > Max {
			return Max
		}
		p = lo
	}
	return int64(p)
}

// Add returns the sum of the sizes, or Max if it exceeds Max or a size
// is negative.
func Add(sizes ...int64) int64 {
	var s int64
	for _, v := range sizes {
		if v < 0 || v > Max-s {
			return Max
		}
		s += v
	}
	return s
}

// Scale returns c*v (both non-negative), or Max on overflow.
func Scale(c int, v int64) int64 {
	if v < 0 {
		return Max
	}
	return Mul(c, int(v))
}

// Float64s returns the bytes of a float64 array with the product of dims
// elements.
func Float64s(dims ...int) int64 { return Scale(8, Mul(dims...)) }

// Packed3 returns the number of entries of a symmetric k x k x k tensor
// in packed storage, k(k+1)(k+2)/6, or Max on overflow.
func Packed3(k int) int64 {
	if k < 0 {
		return Max
	}
	// One of k, k+1, k+2 is divisible by 3 and one of k, k+1 by 2.
	a, b, c := k, k+1, k+2
	switch {
	case a%3 == 0:
		a /= 3
	case b%3 == 0:
		b /= 3
	default:
		c /= 3
	}
	switch {
	case a%2 == 0:
		a /= 2
	case b%2 == 0:
		b /= 2
	default:
		c /= 2
	}
	if c < 0 { // k+2 overflowed
		return Max
	}
	return Mul(a, b, c)
}
