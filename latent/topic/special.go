package topic

import "math"

// specialShift is where digamma and digammaLgamma switch from the
// recurrence to the asymptotic series: from x >= 10 on, the first
// omitted term of each series is below 5e-17 (see the functions).
const specialShift = 10

// halfLog2Pi is log(2 pi) / 2, the constant of Stirling's series.
const halfLog2Pi = 0.91893853320467274178032973640561764

// digamma returns the logarithmic derivative of the Gamma function for
// x > 0 (x at least about 1e-290, so that the product below stays
// normal): below 10 it shifts x by the recurrence psi(x) = psi(x+1) -
// 1/x to y = x + s >= 10, summing the s reciprocals as p'/p with p =
// x(x+1)...(x+s-1) (one division instead of s), then uses the
// asymptotic series
//
//	psi(y) = log y - 1/(2y) - sum_{n=1..7} B_2n / (2n y^2n),
//
// whose first omitted term, B_16/(16 y^16), is below 4.5e-17 for y >=
// 10. Its error is at most 8 eps (|psi(x)| + 1), eps = 2^-52 (relative,
// except near psi's zero at 1.4616, where it is absolute);
// special_test.go checks that bound against 50-digit values.
func digamma(x float64) float64 {
	var r float64
	if x < specialShift {
		p, dp := 1.0, 0.0
		for x < specialShift {
			dp = dp*x + p
			p *= x
			x++
		}
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

// digammaLgamma returns digamma(x) and log Gamma(x) for x > 0 (at least
// about 1e-290), sharing the shift, the logarithm and the division: log
// Gamma(x) = log Gamma(y) - log p with y and p as in digamma, and
// Stirling's series
//
//	log Gamma(y) = (y - 1/2) log y - y + log(2 pi)/2 + sum_{n=1..7} B_2n / (2n (2n-1) y^(2n-1)),
//
// whose first omitted term, B_16/(240 y^15), is below 3e-17 for y >= 10.
// Its digamma has digamma's error bound; the error of log Gamma is at
// most 3 eps (|log Gamma(x)| + 16): below 10 it is absolute, a few ulps
// of log Gamma(y) ~ 13..16 (the subtraction of log p cancels near x = 1
// and 2), which a sum of many log Gamma terms, such as Refine's bound,
// can afford; special_test.go checks both bounds.
func digammaLgamma(x float64) (psi, lg float64) {
	if x >= specialShift {
		inv := 1 / x
		l := math.Log(x)
		f := inv * inv
		return l - 0.5*inv - psiSeries(f), (x-0.5)*l - x + halfLog2Pi + inv*lgSeries(f)
	}
	p, dp := 1.0, 0.0
	for x < specialShift {
		dp = dp*x + p
		p *= x
		x++
	}
	// One division gives both 1/y and p'/p: q = 1/(y p).
	q := 1 / (x * p)
	inv := q * p
	l := math.Log(x)
	f := inv * inv
	psi = l - 0.5*inv - psiSeries(f) - dp*x*q
	lg = (x-0.5)*l - x + halfLog2Pi + inv*lgSeries(f) - math.Log(p)
	return psi, lg
}

// lgSeries returns sum_{n=1..7} B_2n f^(n-1) / (2n (2n-1)), f = 1/y^2:
// Stirling's correction divided by 1/y.
func lgSeries(f float64) float64 {
	return 1.0/12 - f*(1.0/360-f*(1.0/1260-f*(1.0/1680-f*(1.0/1188-f*(691.0/360360-f*(1.0/156))))))
}
