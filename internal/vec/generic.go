package vec

import "math"

// This file holds the reference implementations. Every assembly routine
// computes what the loop of the same name here computes (up to the
// rounding that a different order of summation or a fused multiply-add
// brings), and the tests compare every path against these loops.

func dotGeneric(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func axpyGeneric(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

func scalGeneric(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

func asumGeneric(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}

// sumSqGeneric returns sum (scale*x[i])^2.
func sumSqGeneric(x []float64, scale float64) float64 {
	var s float64
	for _, v := range x {
		v *= scale
		s += v * v
	}
	return s
}

// maxAbsGeneric returns max |x[i]|, NaN if any x[i] is NaN, 0 for empty x.
func maxAbsGeneric(x []float64) float64 {
	var m float64
	for _, v := range x {
		a := math.Abs(v)
		if a > m {
			m = a
		} else if a != a {
			return a
		}
	}
	return m
}

// indexAbsGeneric returns the first i with |x[i]| == m, or -1.
func indexAbsGeneric(x []float64, m float64) int {
	for i, v := range x {
		if math.Abs(v) == m {
			return i
		}
	}
	return -1
}

func rotGeneric(x, y []float64, c, s float64) {
	for i, xi := range x {
		yi := y[i]
		x[i] = c*xi + s*yi
		y[i] = c*yi - s*xi
	}
}

// gemvNGeneric computes y[i] += alpha * sum_j a[i*lda+j]*x[j] for i < m, j < n.
func gemvNGeneric(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		y[i] += alpha * dotGeneric(x[:n], a[i*lda:i*lda+n])
	}
}

// gemvTGeneric computes y[j] += sum_i (alpha*x[i]) * a[i*lda+j] for i < m, j < n.
func gemvTGeneric(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		axpyGeneric(alpha*x[i], a[i*lda:i*lda+n], y[:n])
	}
}

// secularGeneric returns Σ r[j]/x[j] and Σ r[j]/x[j]², x[j] = (g[j] - o)
// - t (inv = 1/x[j], tx = r[j]*inv, the terms tx and tx*inv). The
// reciprocals are taken two at a time, 1/x = y/(xy) and 1/y = x/(xy),
// one scalar division for two (division is the bottleneck of these
// sums: its throughput is a fraction of the multiplications'), but for a
// pair whose product is near the underflow or overflow threshold, and
// the sums are kept in two accumulators each. The assembly routines take
// vector divisions instead, each element's own.
func secularGeneric(g, r []float64, o, t float64) (s, ds float64) {
	n := len(g)
	r = r[:n]
	var s2, ds2 float64
	j := 0
	for ; j+1 < n; j += 2 {
		ix, iy := recipPair((g[j]-o)-t, (g[j+1]-o)-t)
		tx, ty := r[j]*ix, r[j+1]*iy
		s += tx
		s2 += ty
		ds += tx * ix
		ds2 += ty * iy
	}
	if j < n {
		inv := 1 / ((g[j] - o) - t)
		tx := r[j] * inv
		s += tx
		ds += tx * inv
	}
	return s + s2, ds + ds2
}

// recipPair returns 1/x and 1/y by one division, y/(xy) and x/(xy),
// or by two when xy nears the underflow or overflow threshold.
func recipPair(x, y float64) (float64, float64) {
	xy := x * y
	if a := math.Abs(xy); a > 0x1p-900 && a < 0x1p900 {
		q := 1 / xy
		return y * q, x * q
	}
	return 1 / x, 1 / y
}

// secularVecGeneric sets v[i] = z[i] / ((d[i] - o) - t) and returns
// Σ v[i]².
func secularVecGeneric(z, d []float64, o, t float64, v []float64) float64 {
	d, v = d[:len(z)], v[:len(z)]
	var s float64
	for i, zi := range z {
		x := zi / ((d[i] - o) - t)
		v[i] = x
		s += x * x
	}
	return s
}

// secularVec2Generic sets v[i] = z[i] / (((d[i] - o) - t) * ((d[i] + o)
// + t)) and u[i] = d[i]*v[i] and returns Σ v[i]² and Σ u[i]², the
// reciprocals of the denominators two at a time (recipPair) and each sum
// in two accumulators.
func secularVec2Generic(z, d []float64, o, t float64, v, u []float64) (nv, nu float64) {
	n := len(z)
	d, v, u = d[:n], v[:n], u[:n]
	var nv1, nu1 float64
	i := 0
	for ; i+1 < n; i += 2 {
		d0, d1 := d[i], d[i+1]
		r0, r1 := recipPair(((d0-o)-t)*((d0+o)+t), ((d1-o)-t)*((d1+o)+t))
		v0, v1 := z[i]*r0, z[i+1]*r1
		u0, u1 := d0*v0, d1*v1
		v[i], v[i+1] = v0, v1
		u[i], u[i+1] = u0, u1
		nv += v0 * v0
		nv1 += v1 * v1
		nu += u0 * u0
		nu1 += u1 * u1
	}
	if i < n {
		x := z[i] / (((d[i] - o) - t) * ((d[i] + o) + t))
		y := d[i] * x
		v[i], u[i] = x, y
		nv += x * x
		nu += y * y
	}
	return nv + nv1, nu + nu1
}

// zhatGeneric returns the product over i of ((o[i] - p) + t[i]) / (d[i] -
// p), or with sq of (((o[i] - p) + t[i]) * ((o[i] + p) + t[i])) / ((d[i]
// - p) * (d[i] + p)): numerators and denominators multiplied in runs of
// eight, one division per run, and 0 when a run's product of numerators
// or of denominators falls to 2^-900 or below.
func zhatGeneric(sq bool, o, t, d []float64, p float64) float64 {
	n := len(d)
	o, t = o[:n], t[:n]
	q := 1.0
	nu, de := 1.0, 1.0
	for i, di := range d {
		x := (o[i] - p) + t[i]
		y := di - p
		if sq {
			x *= (o[i] + p) + t[i]
			y *= di + p
		}
		nu *= x
		de *= y
		if i%8 == 7 || i == n-1 {
			if !(math.Abs(nu) > 0x1p-900 && math.Abs(de) > 0x1p-900) {
				return 0
			}
			q *= nu / de
			nu, de = 1, 1
		}
	}
	return q
}
