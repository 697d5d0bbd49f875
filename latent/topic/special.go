package topic

import "math"

// The functions below evaluate digamma and log Gamma for x > 0 (x at
// least about 1e-290, so that the product p below stays normal) the same
// way: below 10 they shift x by the recurrences psi(x) = psi(x+1) - 1/x
// and log Gamma(x) = log Gamma(x+1) - log x ten times, to y = x + 10,
// with p = x(x+1)...(x+9) and the ten reciprocals summed as p'/p (one
// division instead of ten; shift10 forms p and p' as a tree of products,
// with no data-dependent branch); from y >= 10 on they use the
// asymptotic series
//
//	psi(y)       = log y - 1/(2y) - sum_{n=1..7} B_2n / (2n y^2n),
//	log Gamma(y) = (y - 1/2) log y - y + log(2 pi)/2 + sum_{n=1..7} B_2n / (2n (2n-1) y^(2n-1)),
//
// whose first omitted terms, B_16/(16 y^16) and B_16/(240 y^15), are
// below 4.5e-17 and 3e-17 for y >= 10. With eps = 2^-52 the error of
// digamma is at most 8 eps (|psi(x)| + 2) (relative for large |psi|,
// absolute near psi's zero at 1.4616, where log y and p'/p ~ 2.4
// cancel), that of log Gamma at most 4 eps (|log Gamma(x)| + 16) (below
// 10 absolute, a few ulps of log Gamma(y) ~ 13..40: the subtraction of
// log p cancels near x = 1 and 2, which a sum of many log Gamma terms,
// such as Refine's bound, can afford), and the relative error of
// expDigamma at most 8 eps (|psi(x)| + 2) while exp(psi(x)) is normal
// (psi(x) > -708). special_test.go checks these bounds against 50-digit
// values; on 4000 points from 1e-3 to 1e2, evenly in log x, the largest
// errors were 3.0, 4.0 (digammaLgamma's digamma), 2.5 and 3.0 of these
// units.

// specialShift is where the series take over (see above).
const specialShift = 10

// halfLog2Pi is log(2 pi) / 2, the constant of Stirling's series.
const halfLog2Pi = 0.91893853320467274178032973640561764

// shift10 returns y = x + 10, p = x(x+1)...(x+9) and p' = dp/dx, for x <
// 10: a binary tree of products (a product's derivative is d1 p2 + p1
// d2), so that the work has no loop and a short dependency chain.
func shift10(x float64) (y, p, dp float64) {
	a0, a1 := x, x+1
	a2, a3 := x+2, x+3
	a4, a5 := x+4, x+5
	a6, a7 := x+6, x+7
	a8, a9 := x+8, x+9
	p01, d01 := a0*a1, a0+a1
	p23, d23 := a2*a3, a2+a3
	p45, d45 := a4*a5, a4+a5
	p67, d67 := a6*a7, a6+a7
	p89, d89 := a8*a9, a8+a9
	p03, d03 := p01*p23, d01*p23+p01*d23
	p47, d47 := p45*p67, d45*p67+p45*d67
	p07, d07 := p03*p47, d03*p47+p03*d47
	return x + 10, p07 * p89, d07*p89 + p07*d89
}

// digamma returns the logarithmic derivative of the Gamma function for
// x > 0, to the bound above.
func digamma(x float64) float64 {
	var r float64
	if x < specialShift {
		var p, dp float64
		x, p, dp = shift10(x)
		r = dp / p
	}
	inv := 1 / x
	return math.Log(x) - 0.5*inv - psiSeries(inv*inv) - r
}

// psiSeries returns sum_{n=1..7} B_2n f^n / (2n), f = 1/y^2: the
// Bernoulli terms of the asymptotic series of digamma.
func psiSeries(f float64) float64 {
	return f * (1.0/12 - f*(1.0/120-f*(1.0/252-f*(1.0/240-f*(1.0/132-f*(691.0/32760-f*(1.0/12)))))))
}

// lgSeries returns sum_{n=1..7} B_2n f^(n-1) / (2n (2n-1)), f = 1/y^2:
// Stirling's correction divided by 1/y.
func lgSeries(f float64) float64 {
	return 1.0/12 - f*(1.0/360-f*(1.0/1260-f*(1.0/1680-f*(1.0/1188-f*(691.0/360360-f*(1.0/156))))))
}

// digammaLgamma returns digamma(x) and log Gamma(x) for x > 0, to the
// bounds above, sharing the shift, the logarithm of y and the division.
func digammaLgamma(x float64) (psi, lg float64) {
	if x >= specialShift {
		inv := 1 / x
		l := math.Log(x)
		f := inv * inv
		return l - 0.5*inv - psiSeries(f), (x-0.5)*l - x + halfLog2Pi + inv*lgSeries(f)
	}
	y, p, dp := shift10(x)
	// One division gives both 1/y and p'/p: q = 1/(y p).
	q := 1 / (y * p)
	inv := q * p
	l := math.Log(y)
	f := inv * inv
	psi = l - 0.5*inv - psiSeries(f) - dp*y*q
	lg = (y-0.5)*l - y + halfLog2Pi + inv*lgSeries(f) - math.Log(p)
	return psi, lg
}

// expDigamma returns exp(digamma(x)) for x > 0 with one exponential and
// no logarithm: with y, p as above, exp(psi(x)) = y exp(-(1/(2y) +
// sum_n B_2n / (2n y^2n) + p'/p)), to the bound above.
func expDigamma(x float64) float64 {
	var r float64
	if x < specialShift {
		var p, dp float64
		x, p, dp = shift10(x)
		r = dp / p
	}
	inv := 1 / x
	return x * math.Exp(-(0.5*inv + psiSeries(inv*inv) + r))
}

// digammaLgammaSplit is digammaLgamma with log Gamma(x) returned as lgy
// - log(p): log Gamma(y) and the product p of the shift (1 when x >= 10),
// for callers that sum many log Gammas and take the logarithm of the
// product of the p's once (logProd) instead of one per term.
func digammaLgammaSplit(x float64) (psi, lgy, p float64) {
	if x >= specialShift {
		inv := 1 / x
		l := math.Log(x)
		f := inv * inv
		return l - 0.5*inv - psiSeries(f), (x-0.5)*l - x + halfLog2Pi + inv*lgSeries(f), 1
	}
	y, p, dp := shift10(x)
	q := 1 / (y * p)
	inv := q * p
	l := math.Log(y)
	f := inv * inv
	return l - 0.5*inv - psiSeries(f) - dp*y*q, (y-0.5)*l - y + halfLog2Pi + inv*lgSeries(f), p
}

// logProd accumulates the logarithm of a product of positive numbers
// with one multiplication per factor instead of one logarithm: the
// product is kept as m 2^e with m renormalised (math.Frexp) whenever it
// leaves [2^-500, 2^500]; a factor outside [2^-400, 2^400] (or not
// positive and finite) is taken by its logarithm instead. The product's
// rounding error grows by at most eps/2 relative per factor, which is an
// absolute error of the logarithm of the same size.
type logProd struct {
	m     float64
	e     int
	extra float64 // the logarithms of the factors taken one by one
}

func newLogProd() logProd { return logProd{m: 1} }

// mul multiplies the product by x.
func (l *logProd) mul(x float64) {
	if !(x >= 0x1p-400 && x <= 0x1p400) {
		l.extra += math.Log(x)
		return
	}
	l.m *= x
	if l.m < 0x1p-500 || l.m > 0x1p500 {
		f, e := math.Frexp(l.m)
		l.m = f
		l.e += e
	}
}

// log returns the logarithm of the product.
func (l *logProd) log() float64 {
	return math.Log(l.m) + float64(l.e)*math.Ln2 + l.extra
}
