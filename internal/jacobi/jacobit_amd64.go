//go:build !purego

package jacobi

// jacobiSweepT1AVX512 (m <= 8: one vector of slots a side) and
// jacobiSweepT2AVX512 (8 < m <= 16: two) compute, with s = 8*ceil(m/8)
// and ld = 2*s,
//
//	for j := 0; j < ld; j++ { sq[j] = 0; for k := 0; k < n; k++ { sq[j] += t[k*ld+j] * t[k*ld+j] } }
//	for step := 0; step < 2*m-1; step++ {
//		for i := 0; i < m; i++ {
//			a, b := sq[i], sq[s+i]
//			if !(a >= SqMin && a <= SqMax && b >= SqMin && b <= SqMax) {
//				if a != 0 && b != 0 { left++ }
//				continue
//			}
//			var g float64
//			for k := 0; k < n; k++ { g += t[k*ld+i] * t[k*ld+s+i] }
//			gg, ab := g*g, a*b
//			if !(gg > tol2*ab) { continue }
//			d := b - a
//			r := math.Sqrt(d*d + 4*gg)
//			e := math.Abs(d) + r
//			w := 1 / math.Sqrt(2*r*e)
//			c, sn, h := e*w, 2*g*w, 2*gg/e
//			if d > 0 { sn, h = -sn, -h }
//			var na, nb float64
//			for k := 0; k < ntot; k++ {
//				u, v := t[k*ld+i], t[k*ld+s+i]
//				u, v = c*u+sn*v, c*v-sn*u
//				t[k*ld+i], t[k*ld+s+i] = u, v
//				if k < n { na += u * u; nb += v * v }
//			}
//			a1, b1 := a+h, b-h
//			if a1 < 0.01*a || b1 < 0.01*b { a1, b1 = na, nb }
//			sq[i], sq[s+i] = a1, b1
//			rotated++
//			maxCos2 = max(maxCos2, gg/ab)
//			maxSin = max(maxSin, math.Abs(sn))
//		}
//		if m > 1 { // move the slots round the ring: ringShift of every column and of sq
//			for _, col := range columns t[k*ld:(k+1)*ld] for k < ntot, and sq {
//				lastA, firstB := col[m-1], col[s]
//				copy(col[2:m], col[1:m-1]); col[1] = firstB
//				copy(col[s:s+m-1], col[s+1:s+m]); col[s+m-1] = lastA
//			}
//		}
//	}
//
// which is jacobiSweepTGeneric, with every step done on all lanes at
// once: the pairs of a step are disjoint, so their order does not
// matter. perm holds the lane indices of the permutes that move the
// slots round the ring (jacobiTPerm(m)).
//
//go:noescape
func jacobiSweepT1AVX512(t []float64, m, n, ntot int, sq []float64, tol2 float64, perm *[4][8]uint64) (rotated, left int, maxCos2, maxSin float64)

//go:noescape
func jacobiSweepT2AVX512(t []float64, m, n, ntot int, sq []float64, tol2 float64, perm *[4][8]uint64) (rotated, left int, maxCos2, maxSin float64)

// jacobiTPerms[m] is jacobiTPerm(m).
var jacobiTPerms = func() (p [17][4][8]uint64) {
	for m := 1; m <= 16; m++ {
		p[m] = jacobiTPerm(m)
	}
	return p
}()

// sweepTAVX512 runs jacobiSweepT1AVX512 or jacobiSweepT2AVX512, as m
// needs.
func sweepTAVX512(t []float64, m, n, ntot int, sq []float64, tol2 float64) (int, int, float64, float64) {
	if m <= 8 {
		return jacobiSweepT1AVX512(t, m, n, ntot, sq, tol2, &jacobiTPerms[m])
	}
	return jacobiSweepT2AVX512(t, m, n, ntot, sq, tol2, &jacobiTPerms[m])
}
