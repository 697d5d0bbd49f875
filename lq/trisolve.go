package lq

import (
	"math"

	"github.com/moments-go/moments/mat"
)

// solveScaled sets the first k rows of x to the solution X of L*X = B
// (Lᵀ*X = B if upper), for the k x k lower triangle L of the factored
// matrix a (row stride lda), a factor of A scaled by 2^-exp (see
// prepare), and the k-row b, which it does not change, multiplied by
// 2^-exp, so that X solves the system of A's own factor. (A non-finite
// B gives a non-finite X.)
//
// The plain solve works in the range where its values are largest: with
// B times 2^-exp first when exp < 0 (A was scaled up, and X is larger
// than the scaled solve's), with X times 2^-exp last when exp > 0. It
// can still overflow where the answer is in range, or flush to zero
// bits that the answer needs: the scaled factor of a matrix with entries
// near the top of the range and a small singular value has subnormal
// pivots, and the updates of a triangle whose condition number is past
// the range can overflow on their own. Each column of X that the plain
// solve leaves with a NaN or an infinity is solved again from b in
// float64 arithmetic with an unbounded exponent (see wide), and rounded
// to float64 once at the end: an entry is then infinite only if its
// value is past the range, and subnormal only if its value is that
// small.
func solveScaled(k int, a []float64, lda int, upper bool, b, x *mat.Dense, exp int) error {
	_, nrhs := b.Dims()
	if k == 0 || nrhs == 0 {
		return nil
	}
	top := x.Slice(0, k, 0, nrhs)
	top.ScalePow2(-min(exp, 0), b)
	var err error
	if upper {
		err = solveUpperT(k, a, lda, x)
	} else {
		err = solveLower(k, a, lda, x)
	}
	if err != nil {
		return err
	}
	if exp > 0 {
		top.ScalePow2(-exp, top)
	}
	if top.IsFinite() {
		return nil
	}
	for c := 0; c < nrhs; c++ {
		for i := 0; i < k; i++ {
			if v := top.At(i, c); math.IsNaN(v) || math.IsInf(v, 0) {
				solveWide(k, a, lda, upper, b, top, c, exp)
				break
			}
		}
	}
	return nil
}

// wide is a float64 with an unbounded exponent, m*2^e: m is 0 or has
// 0.5 <= |m| < 1 (math.Frexp's form). Its operations round as float64
// ones do, but never overflow or underflow.
type wide struct {
	m float64
	e int
}

func toWide(v float64) wide {
	m, e := math.Frexp(v)
	return wide{m, e}
}

// float rounds w to float64: an infinity past the range, a subnormal or
// zero below it.
func (w wide) float() float64 {
	if w.m == 0 {
		return 0
	}
	// Ldexp rounds once, also into the subnormal range, and gives ±Inf
	// past the top.
	return math.Ldexp(w.m, w.e)
}

// mul returns w*v (one rounding: the product of the mantissas, each in
// [0.5, 1), is in [0.25, 1), exact in exponent).
func (w wide) mul(v wide) wide {
	m, e := math.Frexp(w.m * v.m)
	return wide{m, e + w.e + v.e}
}

// div returns w/v for v != 0 (one rounding).
func (w wide) div(v wide) wide {
	m, e := math.Frexp(w.m / v.m)
	return wide{m, e + w.e - v.e}
}

// sub returns w - v: the operand with the smaller exponent is shifted
// to the other's, exactly unless it lies more than about 2^-1020 below
// it (then far below the other's last bit), and the difference is
// rounded once.
func (w wide) sub(v wide) wide {
	switch {
	case v.m == 0:
		return w
	case w.m == 0:
		return wide{-v.m, v.e}
	case w.e >= v.e:
		m, e := math.Frexp(w.m - math.Ldexp(v.m, v.e-w.e))
		return wide{m, e + w.e}
	default:
		m, e := math.Frexp(math.Ldexp(w.m, w.e-v.e) - v.m)
		return wide{m, e + v.e}
	}
}

// solveWide solves column c of solveScaled's system from its right-hand
// side rhs[:, c] in wide arithmetic, with the 2^-exp of solveScaled,
// and writes the rounded solution into column c of x. The diagonal of L
// must be nonzero.
func solveWide(k int, a []float64, lda int, upper bool, rhs, x *mat.Dense, c, exp int) {
	at := func(i, j int) float64 { return a[i*lda+j] } // L[i][j]
	if upper {
		at = func(i, j int) float64 { return a[j*lda+i] } // Lᵀ[i][j]
	}
	col := make([]wide, k)
	for s := 0; s < k; s++ {
		i := s // the row solved at step s; the rows before it are solved
		if upper {
			i = k - 1 - s
		}
		sum := toWide(rhs.At(i, c))
		for t := 0; t < s; t++ {
			j := t
			if upper {
				j = k - 1 - t
			}
			if l := at(i, j); l != 0 {
				sum = sum.sub(toWide(l).mul(col[j]))
			}
		}
		col[i] = sum.div(toWide(at(i, i)))
	}
	for i, w := range col {
		w.e -= exp
		x.Set(i, c, w.float())
	}
}
