package topic

import (
	"math"
	"testing"
)

// specialRef holds x, digamma(x) and log Gamma(x), the latter two
// computed by mpmath 1.3.0 with 50 significant digits (mp.dps = 50) at
// the double x and rounded to the nearest double.
var specialRef = [][3]float64{
	{1e-200, -1e+200, 460.51701859880916},
	{1e-8, -100000000.57721564, 18.42068073818021},
	{0.001, -1000.5755719318103, 6.907178885383853},
	{0.01, -100.56088545786868, 4.599479878042022},
	{0.1, -10.423754940411076, 2.252712651734206},
	{0.1234, -8.49444363866181, 2.032924349654971},
	{0.25, -4.2274535333762655, 1.2880225246980774},
	{0.5, -1.9635100260214235, 0.5723649429247001},
	{0.9, -0.7549269499470513, 0.06637623973474295},
	{1, -0.5772156649015329, 0.0},
	{1.0001, -0.5770511835143348, -5.771334222047127e-05},
	{1.4616321449683622, -9.241265521729427e-17, -0.12148629053584961},
	{1.5, 0.03648997397857652, -0.12078223763524522},
	{1.9999, 0.42271983967113097, -4.227520877215346e-05},
	{2, 0.42278433509846713, 0.0},
	{2.0001, 0.4228488264846654, 4.2281658112919945e-05},
	{2.5, 0.7031566406452432, 0.2846828704729192},
	{3.7, 1.1671535393615113, 1.428072326665388},
	{5, 1.5061176684318005, 3.1780538303479458},
	{6.5, 1.792911330399933, 5.662562059857142},
	{9.999999999, 2.251752588961555, 12.801827477829717},
	{10, 2.251752589066721, 12.801827480081469},
	{10.5, 2.3030010342976865, 13.940625219403763},
	{17.3, 2.821526423539867, 31.51562417817529},
	{123.4, 4.8113737751162775, 469.3360974421906},
	{1000, 6.907255195648812, 5905.220423209181},
	{1e6, 13.815510057964191, 12815504.569147611},
	{1e10, 23.025850929890456, 220258509288.81058},
	{1e100, 230.25850929940458, 2.2925850929940456e+102},
}

// TestSpecial checks digamma, digammaLgamma and expDigamma against
// specialRef with the bounds special.go states (eps = 2^-52): the
// digammas' error at most 8 eps (|psi| + 2), log Gamma's at most 4 eps
// (|log Gamma| + 16), and expDigamma's relative error at most 8 eps (|psi|
// + 2) plus 1 eps (|psi| + 1) for the rounding of the reference psi and
// of math.Exp; where exp(psi) underflows to 0, expDigamma must be 0.
func TestSpecial(t *testing.T) {
	const eps = 0x1p-52
	for _, c := range specialRef {
		x, psi, lgRef := c[0], c[1], c[2]
		tolPsi := 8 * eps * (math.Abs(psi) + 2)
		if got := digamma(x); !(math.Abs(got-psi) <= tolPsi) {
			t.Errorf("digamma(%v) = %v, want %v (error %.3g > %.3g)", x, got, psi, got-psi, tolPsi)
		}
		p, lg := digammaLgamma(x)
		if !(math.Abs(p-psi) <= tolPsi) {
			t.Errorf("digammaLgamma(%v) psi = %v, want %v (error %.3g > %.3g)", x, p, psi, p-psi, tolPsi)
		}
		if tol := 4 * eps * (math.Abs(lgRef) + 16); !(math.Abs(lg-lgRef) <= tol) {
			t.Errorf("digammaLgamma(%v) lgamma = %v, want %v (error %.3g > %.3g)", x, lg, lgRef, lg-lgRef, tol)
		}
		e, want := expDigamma(x), math.Exp(psi)
		if want == 0 {
			if e != 0 {
				t.Errorf("expDigamma(%v) = %v, want 0", x, e)
			}
			continue
		}
		if tol := 8*eps*(math.Abs(psi)+2) + eps*(math.Abs(psi)+1); !(math.Abs(e-want) <= tol*want) {
			t.Errorf("expDigamma(%v) = %v, want %v (relative error %.3g > %.3g)", x, e, want, (e-want)/want, tol)
		}
	}
}

// TestSpecialGrid checks, on 20000 points from 1e-3 to 1e3 spaced
// evenly in log x, the recurrences psi(x+1) - psi(x) = 1/x and log
// Gamma(x+1) - log Gamma(x) = log x, to the sums of the bounds of
// TestSpecial at x and x+1 (plus 1 eps |log x|), that digamma and
// digammaLgamma's digamma agree to twice the bound, and expDigamma and
// exp(digamma) to twice the relative bound plus 1 eps (|psi| + 1) where
// exp(digamma) is normal.
func TestSpecialGrid(t *testing.T) {
	const eps = 0x1p-52
	for i := 0; i < 20000; i++ {
		x := math.Pow(10, -3+6*float64(i)/20000)
		a, b := digamma(x), digamma(x+1)
		if tol := 8 * eps * (math.Abs(a) + math.Abs(b) + 4); !(math.Abs(b-a-1/x) <= tol) {
			t.Fatalf("digamma(%v+1) - digamma(%v) - 1/x = %.3g, more than %.3g", x, x, b-a-1/x, tol)
		}
		pa, la := digammaLgamma(x)
		_, lb := digammaLgamma(x + 1)
		if tol := 16 * eps * (math.Abs(a) + 2); !(math.Abs(pa-a) <= tol) {
			t.Fatalf("digamma(%v) = %v, digammaLgamma's %v (difference %.3g > %.3g)", x, a, pa, pa-a, tol)
		}
		if e, want := expDigamma(x), math.Exp(a); a > -700 && !(math.Abs(e-want) <= (16*eps*(math.Abs(a)+2)+eps*(math.Abs(a)+1))*want) {
			t.Fatalf("expDigamma(%v) = %v, exp(digamma) %v", x, e, want)
		}
		lx := math.Log(x)
		if tol := 4*eps*(math.Abs(la)+math.Abs(lb)+32) + eps*math.Abs(lx); !(math.Abs(lb-la-lx) <= tol) {
			t.Fatalf("log Gamma(%v+1) - log Gamma(%v) - log x = %.3g, more than %.3g", x, x, lb-la-lx, tol)
		}
	}
}
