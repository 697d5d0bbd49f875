package jacobi

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
)

// RotPairs names its vectors by element offsets into one slice x: pair i
// is the n-vectors x[o[2i] : o[2i]+n] and x[o[2i+1] : o[2i+1]+n]. Every
// offset must lie in [0, len(x)-n]; it panics otherwise.

// RotPairs applies the plane rotation (c, s) = (cs[2i], cs[2i+1]) to the
// vectors (u, v) of pair i, for i < len(cs)/2, as kernels.Rot does:
// u[k], v[k] = c*u[k] + s*v[k], c*v[k] - s*u[k]. The pairs are processed
// in order, so a vector may appear in several pairs. o must hold at least
// len(cs) offsets (len(cs) even).
func RotPairs(x []float64, n int, o []int, cs []float64) { cur().RotPairs(x, n, o, cs) }

func (im *impl) RotPairs(x []float64, n int, o []int, cs []float64) {
	if len(cs)%2 != 0 {
		panic(fmt.Sprintf("jacobi: RotPairs: odd len(cs) = %d", len(cs)))
	}
	np := len(cs) / 2
	checkPairs("RotPairs", x, n, o, np)
	if n == 0 || np == 0 {
		return
	}
	im.rotPairs(x, n, o[:2*np], cs)
}

// The squared norms that JacobiStep handles itself: for rows whose
// squared norms lie in [SqMin, SqMax], none of the
// quantities it forms from the 2x2 Gram matrix of a pair (products,
// squares, sums) can overflow or lose accuracy to underflow.
const (
	SqMin = 0x1p-400
	SqMax = 0x1p400
)

// Steps performs steps of a one-sided Jacobi method on the rows of
// the matrix x (rows of n elements, row stride ld): it rotates the pairs
// of rows (p, q) = (rows[2i], rows[2i+1]) in order, each so that the two
// rows become orthogonal. The pairs are grouped into steps: the first
// steps[0] pairs, then the next steps[1], and so on (the counts must add
// up to len(rows)/2), and the pairs of one step must be disjoint (no row
// in two pairs of a step), which lets implementations compute all dot
// products of a step first, then all its rotations (vectorized), then
// rotate the rows. sq[r] is the squared norm of row r on entry and is
// updated. For pair i, with a = sq[p], b = sq[q]:
//
//   - if a or b lies outside [SqMin, SqMax] (a zero row, or
//     norms too extreme to square), nothing is done and cs[2i], cs[2i+1]
//     are set to 0, 0: the caller handles such pairs;
//   - otherwise, with g the dot product of the rows, if
//     g² <= tol²*a*b (the cosine of their angle is at most tol) the rows
//     are left alone and cs[2i], cs[2i+1] = 1, 0;
//   - otherwise the rows are rotated by (c, s) as in Rot, with
//     d = b - a, r = sqrt(d² + 4g²), e = |d| + r, w = 1/sqrt(2re),
//     c = e*w, s = ±2g*w (minus when d > 0): the rotation of the smaller
//     angle that makes the rows orthogonal; cs[2i], cs[2i+1] = c, s. The
//     squared norms become a ∓ h and b ± h with h = 2g²/e (the
//     eigenvalues of the pair's Gram matrix), and a new squared norm
//     below a hundredth of the old one is recomputed from the rotated
//     row (the formula cancels).
//
// It returns the number of pairs rotated, the number left to the caller
// (outside the range), and over the rotated pairs the largest
// g²/(a*b) (squared cosine) and the largest |s|, for finite input. cs
// must hold len(rows) elements, and every row index must lie in
// [0, len(sq)) and name a row of x; Steps panics otherwise.
func Steps(x []float64, n, ld int, rows, steps []int, sq []float64, tol float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	return cur().Steps(x, n, ld, rows, steps, sq, tol, cs)
}

func (im *impl) Steps(x []float64, n, ld int, rows, steps []int, sq []float64, tol float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	if n < 0 || ld < max(n, 1) {
		panic(fmt.Sprintf("jacobi: Steps: row length %d with stride %d", n, ld))
	}
	if len(rows)%2 != 0 || len(cs) < len(rows) {
		panic(fmt.Sprintf("jacobi: Steps: %d row indices and %d rotation slots", len(rows), len(cs)))
	}
	np := 0
	for _, c := range steps {
		if c < 0 {
			panic(fmt.Sprintf("jacobi: Steps: step of %d pairs", c))
		}
		np += c
	}
	if 2*np != len(rows) {
		panic(fmt.Sprintf("jacobi: Steps: steps of %d pairs in all, but %d row indices", np, len(rows)))
	}
	for _, r := range rows {
		if r < 0 || r >= len(sq) || r*ld+n > len(x) {
			panic(fmt.Sprintf("jacobi: Steps: row %d out of range (%d norms, len(x) = %d, stride %d)", r, len(sq), len(x), ld))
		}
	}
	if np == 0 {
		return 0, 0, 0, 0
	}
	return im.steps(x, n, ld, rows, steps, sq, tol*tol, cs[:len(rows)])
}

// jacobiStepsGeneric computes, for tol2 = tol² (the steps only group the
// pairs),
//
//	for i := 0; i < len(rows)/2; i++ {
//		p, q := rows[2*i], rows[2*i+1]
//		a, b := sq[p], sq[q]
//		cs[2*i], cs[2*i+1] = 0, 0
//		if !(a >= SqMin && a <= SqMax && b >= SqMin && b <= SqMax) {
//			left++
//			continue
//		}
//		u, v := x[p*ld:p*ld+n], x[q*ld:q*ld+n]
//		var g float64
//		for k := range u { g += u[k] * v[k] }
//		gg, ab := g*g, a*b
//		cs[2*i] = 1
//		if !(gg > tol2*ab) { continue }
//		d := b - a
//		r := math.Sqrt(d*d + 4*gg)
//		e := math.Abs(d) + r
//		w := 1 / math.Sqrt(2*r*e)
//		c, s, h := e*w, 2*g*w, 2*gg/e
//		if d > 0 { s, h = -s, -h }
//		for k := range u { u[k], v[k] = c*u[k] + s*v[k], c*v[k] - s*u[k] }
//		a1, b1 := a+h, b-h
//		if a1 < 0.01*a { a1 = 0; for k := range u { a1 += u[k] * u[k] } }
//		if b1 < 0.01*b { b1 = 0; for k := range v { b1 += v[k] * v[k] } }
//		sq[p], sq[q] = a1, b1
//		cs[2*i], cs[2*i+1] = c, s
//		rotated++
//		maxCos2 = max(maxCos2, gg/ab)
//		maxSin = max(maxSin, math.Abs(s))
//	}
//
// with the loops over k those of internal/vec's generic Dot, Rot and
// SumSq.
func jacobiStepsGeneric(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	return jacobiPairs(simd.Generic, x, n, ld, rows, sq, tol2, cs)
}

// jacobiRotation returns the rotation that makes two rows of squared
// norms a and b and dot product g (gg = g²) orthogonal: the cosine c, the
// sine s, and h, the change of a (a+h and b-h are the new squared norms).
// It is the formula of the comment of jacobiStepsGeneric, which the
// assembly kernels follow operation for operation.
func jacobiRotation(a, b, g, gg float64) (c, s, h float64) {
	d := b - a
	r := math.Sqrt(d*d + 4*gg)
	e := math.Abs(d) + r
	w := 1 / math.Sqrt(2*r*e)
	c, s, h = e*w, 2*g*w, 2*gg/e
	if d > 0 {
		s, h = -s, -h
	}
	return c, s, h
}

// jacobiPairs is the loop of jacobiStepsGeneric's comment, pair by pair,
// with the given kernels for the loops over the rows.
func jacobiPairs(l simd.Level, x []float64, n, ld int, rows []int, sq []float64, tol2 float64, cs []float64) (rotated, left int, maxCos2, maxSin float64) {
	for i := 0; i < len(rows)/2; i++ {
		p, q := rows[2*i], rows[2*i+1]
		a, b := sq[p], sq[q]
		cs[2*i], cs[2*i+1] = 0, 0
		if !(a >= SqMin && a <= SqMax && b >= SqMin && b <= SqMax) {
			left++
			continue
		}
		u, v := x[p*ld:p*ld+n], x[q*ld:q*ld+n]
		g := vec.DotAt(l, u, v)
		gg, ab := g*g, a*b
		cs[2*i] = 1
		if !(gg > tol2*ab) {
			continue
		}
		c, s, h := jacobiRotation(a, b, g, gg)
		vec.RotAt(l, u, v, c, s)
		a1, b1 := a+h, b-h
		if a1 < 0.01*a {
			a1 = vec.SumSqAt(l, u, 1)
		}
		if b1 < 0.01*b {
			b1 = vec.SumSqAt(l, v, 1)
		}
		sq[p], sq[q] = a1, b1
		cs[2*i], cs[2*i+1] = c, s
		rotated++
		maxCos2 = max(maxCos2, gg/ab)
		maxSin = max(maxSin, math.Abs(s))
	}
	return rotated, left, maxCos2, maxSin
}

func checkPairs(name string, x []float64, n int, o []int, np int) {
	if n < 0 {
		panic(fmt.Sprintf("jacobi: %s: negative length %d", name, n))
	}
	if len(o) < 2*np {
		panic(fmt.Sprintf("jacobi: %s: %d pairs need %d offsets, have %d", name, np, 2*np, len(o)))
	}
	hi := len(x) - n
	for _, v := range o[:2*np] {
		if v < 0 || v > hi {
			panic(fmt.Sprintf("jacobi: %s: offset %d with length %d is outside x (len %d)", name, v, n, len(x)))
		}
	}
}

// rotPairsGeneric computes
//
//	for i := 0; i < len(cs)/2; i++ {
//		c, s, u, v := cs[2*i], cs[2*i+1], o[2*i], o[2*i+1]
//		for k := 0; k < n; k++ {
//			xu, xv := x[u+k], x[v+k]
//			x[u+k], x[v+k] = c*xu + s*xv, c*xv - s*xu
//		}
//	}
func rotPairsGeneric(x []float64, n int, o []int, cs []float64) {
	for i := 0; i < len(cs)/2; i++ {
		c, s, u, v := cs[2*i], cs[2*i+1], o[2*i], o[2*i+1]
		for k := 0; k < n; k++ {
			xu, xv := x[u+k], x[v+k]
			x[u+k], x[v+k] = c*xu+s*xv, c*xv-s*xu
		}
	}
}
