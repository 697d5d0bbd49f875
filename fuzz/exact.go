package fuzz

import (
	"math"
	"math/big"
)

// Unit is the unit roundoff of float64, 2^-53.
const Unit = 0x1p-53

// ExactDot returns sum x[i]*y[i] rounded once to float64, computed
// exactly with math/big (products and sums of float64 are exact in
// enough bits). It returns NaN if any input is NaN or if an infinite
// product meets one of the opposite sign, and ±Inf for a lone infinity.
func ExactDot(x, y []float64) float64 {
	var inf float64
	for i := range x {
		p := x[i] * y[i]
		if math.IsNaN(p) || (math.IsInf(x[i], 0) || math.IsInf(y[i], 0)) && (x[i] == 0 || y[i] == 0) {
			return math.NaN()
		}
		if math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			if inf != 0 && math.Signbit(inf) != math.Signbit(p) {
				return math.NaN()
			}
			inf = p
		}
	}
	if inf != 0 {
		return inf
	}
	sum := new(big.Float).SetPrec(4096)
	t := new(big.Float).SetPrec(4096)
	for i := range x {
		t.SetFloat64(x[i])
		t.Mul(t, new(big.Float).SetPrec(4096).SetFloat64(y[i]))
		sum.Add(sum, t)
	}
	f, _ := sum.Float64()
	return f
}

// ExactNorm returns sqrt(sum x[i]^2) correctly rounded to within an ulp,
// computed with math/big: NaN if any x[i] is NaN, else +Inf if any is
// infinite.
func ExactNorm(x []float64) float64 {
	for _, v := range x {
		if math.IsNaN(v) {
			return v
		}
	}
	for _, v := range x {
		if math.IsInf(v, 0) {
			return math.Inf(1)
		}
	}
	sum := new(big.Float).SetPrec(4096)
	t := new(big.Float).SetPrec(4096)
	for _, v := range x {
		t.SetFloat64(v)
		t.Mul(t, t)
		sum.Add(sum, t)
	}
	f, _ := sum.SetPrec(200).Sqrt(sum).Float64()
	return f
}

// SumBound is a bound on the error of a float64 sum of n terms, in any
// order and with or without fused multiply-adds, when the absolute values
// of the exact terms add up to s: gamma(n) * s with gamma(n) = n*u/(1-n*u)
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., sec.
// 3.1), plus a few subnormal spacings for the products that underflow.
func SumBound(n int, s float64) float64 {
	nu := float64(n) * Unit
	return nu/(1-nu)*s + float64(n)*0x1p-1074
}
