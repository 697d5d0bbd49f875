//go:build !purego

package jacobi

// jacobiSweepT1AVX512 and jacobiSweepT2AVX512 compute
// jacobiSweepTGeneric (see its comment for the loop) for m <= 8 (one
// vector of slots a side) and 8 < m <= 16 (two), with every step done on
// all lanes at once; perm holds the lane indices of the permutes that
// move the slots round the ring (jacobiTPerm(m)).
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
