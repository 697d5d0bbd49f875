package jacobi

import (
	"fmt"
	"math"
)

// One-sided Jacobi on a small matrix stored by slots.
//
// SweepT orthogonalizes up to 32 rows at once. The rows are stored
// transposed: for m pairs per step and w = ceil(m/8) (1 or 2), column k
// of the matrix occupies t[k*16w : (k+1)*16w], the first 8w values the
// slots A_0, A_1, ... of side A and the next 8w the slots B_0, B_1, ...
// of side B; a slot is a row. Step pairs A_i with B_i for i < m, so that
// a step is the same arithmetic on every lane of a few vectors (no
// horizontal sums), and moves the rows round a ring (the circle method
// of the round-robin order): A_0 stays, B_0 moves to A_1, A_i to A_{i+1},
// A_{m-1} to B_{m-1}, B_i to B_{i-1}. After the 2m-1 steps of a sweep
// every pair of the 2m slots has met once and every row is back in its
// slot. Slots beyond m on either side are unused and must hold zeros.

// SweepTFast reports whether SweepT runs in assembly on the
// active path (AVX-512). Elsewhere it runs the Go reference, and
// Steps (which has vector code on every path) is the faster way
// to orthogonalize small matrices.
func SweepTFast() bool { return cur().sweepTFast }

// jacobiTSteps returns the number of steps of a sweep over m pairs.
func jacobiTSteps(m int) int { return max(2*m-1, 0) }

// SweepT performs one sweep of the round-robin one-sided Jacobi
// method on the rows stored by slots in t (see above): m pairs per step
// (1 <= m <= 16), the first n columns making up the rows that are
// orthogonalized, the columns n to ntot-1 rotated along (they hold, for
// example, an accumulated transformation). sq (16w values, laid out as a
// column) receives the squared norms of the slots, computed afresh at
// the start of the sweep and then updated as in Steps (by the
// formula, recomputed where it cancels).
//
// A pair is rotated as in Steps (same decision and same rotation)
// when both squared norms lie in [SqMin, SqMax]; a pair with
// a norm outside (counted in left, unless a norm is exactly 0) is left
// alone, to the caller. It returns the rotated and left counts, the
// largest squared cosine and the largest |s| over the rotated pairs, for
// finite input. SweepT panics if m is out of range or t and sq do
// not have the size the layout implies.
func SweepT(t []float64, m, n, ntot int, sq []float64, tol float64) (rotated, left int, maxCos2, maxSin float64) {
	return cur().SweepT(t, m, n, ntot, sq, tol)
}

func (im *impl) SweepT(t []float64, m, n, ntot int, sq []float64, tol float64) (rotated, left int, maxCos2, maxSin float64) {
	if m < 1 || m > 16 || n < 0 || ntot < n {
		panic(fmt.Sprintf("jacobi: SweepT: m = %d, n = %d, ntot = %d", m, n, ntot))
	}
	w := (m + 7) / 8
	if len(t) < ntot*16*w || len(sq) < 16*w {
		panic(fmt.Sprintf("jacobi: SweepT: %d values and %d norms for %d columns of %d slots", len(t), len(sq), ntot, 16*w))
	}
	return im.sweepT(t[:ntot*16*w], m, n, ntot, sq[:16*w], tol*tol)
}

// jacobiSweepTGeneric computes, for tol2 = tol² and s = 8w slots a side,
//
//	for j := range sq { sq[j] = sum_{k<n} t[k*2s+j]² }
//	for step := 0; step < 2*m-1; step++ {
//		for i := 0; i < m; i++ {
//			a, b := sq[i], sq[s+i]
//			if a or b is outside [SqMin, SqMax] {
//				if a != 0 && b != 0 { left++ }
//				continue
//			}
//			g := sum_{k<n} t[k*2s+i]*t[k*2s+s+i]
//			if !(g*g > tol2*a*b) { continue }
//			c, sn, h := the rotation and update of Steps for a, b, g
//			for k := 0; k < ntot; k++ { rotate t[k*2s+i], t[k*2s+s+i] by (c, sn) as Rot }
//			sq[i], sq[s+i] = a+h, b-h, or both recomputed from the rows
//			if either is below a hundredth of its old value
//			rotated++; maxCos2, maxSin = max(...), max(...)
//		}
//		if m > 1 { move the slots round the ring in every column and in sq }
//	}
//
// (the pairs of a step are disjoint, so the order does not matter).
func jacobiSweepTGeneric(t []float64, m, n, ntot int, sq []float64, tol2 float64) (rotated, left int, maxCos2, maxSin float64) {
	s := 8 * ((m + 7) / 8)
	ld := 2 * s
	for j := range sq[:ld] {
		var v float64
		for k := 0; k < n; k++ {
			v += t[k*ld+j] * t[k*ld+j]
		}
		sq[j] = v
	}
	for step := 0; step < jacobiTSteps(m); step++ {
		for i := 0; i < m; i++ {
			a, b := sq[i], sq[s+i]
			if !(a >= SqMin && a <= SqMax && b >= SqMin && b <= SqMax) {
				if a != 0 && b != 0 {
					left++
				}
				continue
			}
			var g float64
			for k := 0; k < n; k++ {
				g += t[k*ld+i] * t[k*ld+s+i]
			}
			gg, ab := g*g, a*b
			if !(gg > tol2*ab) {
				continue
			}
			c, sn, h := jacobiRotation(a, b, g, gg)
			var na, nb float64
			for k := 0; k < ntot; k++ {
				u, v := t[k*ld+i], t[k*ld+s+i]
				u, v = c*u+sn*v, c*v-sn*u
				t[k*ld+i], t[k*ld+s+i] = u, v
				if k < n {
					na += u * u
					nb += v * v
				}
			}
			a1, b1 := a+h, b-h
			if a1 < 0.01*a || b1 < 0.01*b {
				a1, b1 = na, nb
			}
			sq[i], sq[s+i] = a1, b1
			rotated++
			maxCos2 = max(maxCos2, gg/ab)
			maxSin = max(maxSin, math.Abs(sn))
		}
		if m > 1 {
			for k := 0; k < ntot; k++ {
				ringShift(t[k*ld:(k+1)*ld], m, s)
			}
			ringShift(sq, m, s)
		}
	}
	return rotated, left, maxCos2, maxSin
}

// ringShift moves the slots of one column one place round the ring (see
// SweepT): A_0 stays, B_0 -> A_1, A_i -> A_{i+1}, A_{m-1} ->
// B_{m-1}, B_i -> B_{i-1}; s is the number of slots a side.
func ringShift(col []float64, m, s int) {
	a, b := col[:s], col[s:2*s]
	lastA, firstB := a[m-1], b[0]
	copy(a[2:m], a[1:m-1])
	a[1] = firstB
	copy(b[0:m-1], b[1:m])
	b[m-1] = lastA
}

// jacobiTPerm returns the lane indices, for VPERMI2PD-style two-source
// permutes, that move slots round the ring for m pairs (see
// jacobiSweepTAVX512).
func jacobiTPerm(m int) [4][8]uint64 {
	var p [4][8]uint64
	if m <= 8 {
		// A' = perm(A, B; p[0]), B' = perm(A, B; p[1]); lanes >= m keep
		// their (zero) values.
		for i := 0; i < 8; i++ {
			p[0][i], p[1][i] = uint64(i), uint64(8+i)
		}
		if m > 1 {
			p[0][1] = 8 // B_0
			for i := 2; i < m; i++ {
				p[0][i] = uint64(i - 1)
			}
			for i := 0; i < m-1; i++ {
				p[1][i] = uint64(8 + i + 1)
			}
			p[1][m-1] = uint64(m - 1) // A_{m-1}
		}
		return p
	}
	// Two vectors a side. Alo' = perm(Alo, Blo; p[0]),
	// Ahi' = perm(Alo, Ahi; p[1]), Blo' = perm(Blo, Bhi; p[2]),
	// Bhi' = perm(Bhi, Ahi; p[3]).
	p[0] = [8]uint64{0, 8, 1, 2, 3, 4, 5, 6}
	for i := 0; i < 8; i++ {
		p[1][i] = uint64(8 + i)
		p[2][i] = uint64(i + 1)
		p[3][i] = uint64(i)
	}
	p[1][0] = 7 // A_7
	for i := 1; i <= m-9; i++ {
		p[1][i] = uint64(8 + i - 1)
	}
	for i := 0; i < m-9; i++ {
		p[3][i] = uint64(i + 1)
	}
	p[3][m-9] = uint64(8 + m - 9) // A_{m-1}
	return p
}
