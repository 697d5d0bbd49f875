package lq

import (
	"math"

	"github.com/moments-go/moments/mat"
)

// solveScaled solves L*X = X (Lᵀ*X = X if upper) in place for the k x k
// lower triangle L of the factored matrix a (row stride lda), a factor of
// A scaled by 2^-exp (see prepare), and the first k rows of x; it then
// multiplies X by 2^-exp, so that X solves the system of A's own factor.
//
// The plain solve works on the scaled factor, where X is 2^exp times the
// answer: for exp > 0 it can overflow though the answer is in range (a
// matrix with entries near the top of the range and a small singular
// value), and its updates can overflow on their own when L's condition
// number is past the range. Where the plain solve leaves a NaN or an
// infinity, the system is solved again, column by column, with the
// column scaled down by powers of two before any step that could
// overflow (as LAPACK's dlatrs does), and the scale folded into 2^-exp at
// the end. An entry is then infinite only if its value is.
func solveScaled(k int, a []float64, lda int, upper bool, x *mat.Dense, exp int) error {
	_, nrhs := x.Dims()
	if k == 0 || nrhs == 0 {
		return nil
	}
	top := x.Slice(0, k, 0, nrhs)
	rhs := top.Clone()
	var err error
	if upper {
		err = solveUpperT(k, a, lda, x)
	} else {
		err = solveLower(k, a, lda, x)
	}
	if err != nil {
		return err
	}
	top.ScalePow2(-exp, top)
	if top.IsFinite() {
		return nil
	}
	solveGuarded(k, a, lda, upper, rhs, exp)
	top.Copy(rhs)
	return nil
}

// guardExp is the binary exponent below which solveGuarded keeps every
// bound on the magnitudes it forms: sums of up to k terms each below
// 2^guardExp stay far from 2^1024 for any k that fits in memory.
const guardExp = 960

// solveGuarded solves the triangular system of solveScaled for each
// column of x (k x nrhs) and multiplies the solution by 2^-exp, scaling a
// column down by a power of two wherever the next update or division
// could pass 2^guardExp. The diagonal of L must be nonzero.
func solveGuarded(k int, a []float64, lda int, upper bool, x *mat.Dense, exp int) {
	_, nrhs := x.Dims()
	at := func(i, j int) float64 { return a[i*lda+j] } // L[i][j]
	if upper {
		at = func(i, j int) float64 { return a[j*lda+i] } // Lᵀ[i][j]
	}
	// order[s] is the row solved at step s; the rows solved before it
	// are order[:s].
	order := make([]int, k)
	for s := range order {
		order[s] = s
		if upper {
			order[s] = k - 1 - s
		}
	}
	// off[i] bounds the sum of |L[i][j]| over the rows solved before i.
	off := make([]float64, k)
	for s, i := range order {
		for _, j := range order[:s] {
			off[i] += math.Abs(at(i, j))
		}
	}
	col := make([]float64, k)
	for c := 0; c < nrhs; c++ {
		for i := range col {
			col[i] = x.At(i, c)
		}
		shift := -exp // the answer is col * 2^shift
		xmax := 0.0   // the largest |col[j]| of the rows solved so far
		scale := func(t int) {
			for i := range col {
				col[i] = math.Ldexp(col[i], -t)
			}
			xmax = math.Ldexp(xmax, -t)
			shift += t
		}
		for s, i := range order {
			// Bound |col[i]| + off[i]*xmax by 2^guardExp before the
			// update.
			if xmax > 0 && off[i] > 0 {
				if t := bound2(off[i], xmax, col[i]) - guardExp; t > 0 {
					scale(t)
				}
			}
			sum := col[i]
			for _, j := range order[:s] {
				if l := at(i, j); l != 0 {
					sum -= l * col[j]
				}
			}
			d := at(i, i)
			// |sum/d| < 2^(logb(sum)+1-logb(d)).
			if sum != 0 {
				if t := int(math.Logb(sum)) + 1 - int(math.Logb(d)) - guardExp; t > 0 {
					scale(t)
					sum = math.Ldexp(sum, -t)
				}
			}
			col[i] = sum / d
			xmax = max(xmax, math.Abs(col[i]))
		}
		for i := range col {
			x.Set(i, c, math.Ldexp(col[i], shift))
		}
	}
}

// bound2 returns an integer b with c*x + |y| < 2^b for c, x > 0.
func bound2(c, x, y float64) int {
	b := int(math.Logb(c)) + int(math.Logb(x)) + 2
	if y != 0 {
		b = max(b, int(math.Logb(y))+1)
	}
	return b + 1
}
