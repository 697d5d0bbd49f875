package svd

import "math"

// dqdsMaxSteps bounds the transforms of dqdsValues: at most dqdsMaxSteps
// per row of each block (rejected transforms included).
const dqdsMaxSteps = 30

// dqdsValues computes the singular values of the n x n upper bidiagonal
// matrix (d, e[0:n-1]) by the dqds algorithm of Fernando and Parlett:
// the squares q_i = d_i², e_i² are a qd array (the LU factors of BᵀB),
// and each dqds transform with shift τ, the recurrence
//
//	d_0 = q_0 - τ;  q̂_i = d_i + e_i;  t = q_{i+1}/q̂_i;  ê_i = e_i t;  d_{i+1} = d_i t - τ,
//
// gives the qd array of BᵀB - τI, without subtraction that could cancel:
// the values keep high relative accuracy as long as every d_i stays
// positive (a transform whose d goes negative, the shift being past the
// smallest eigenvalue, is rejected and retried with a smaller shift). The
// last e tends to zero and its q, plus the shifts so far, is an
// eigenvalue of BᵀB. The shift is the smaller eigenvalue of the trailing
// 2x2 qd block, capped by the smallest d of the last transform (an upper
// bound of the smallest eigenvalue: each d_i is a pivot of the shifted
// matrix's LDLᵀ factorization, at least its smallest eigenvalue by
// interlacing). Blocks where the top is much larger than the bottom are
// reversed first, so that the small values converge at the bottom.
//
// d must have no zero (bidiagSVD rotates zero diagonal entries away
// first); e's zeros split the matrix. On return d holds the singular
// values, unsorted, and e is destroyed; it returns false (d and e then
// hold garbage) if a block needs more than dqdsMaxSteps transforms per
// row.
func dqdsValues(d, e []float64) bool {
	n := len(d)
	if n == 0 {
		return true
	}
	q := make([]float64, 5*n)
	qe, qh, eh, vals := q[n:2*n], q[2*n:3*n], q[3*n:4*n], q[4*n:]
	q = q[:n]
	for i := range d {
		q[i] = d[i] * d[i]
		if i < n-1 {
			qe[i] = e[i] * e[i]
		}
	}
	qe[n-1] = 0
	// Blocks between the zeros of e, from the bottom.
	for hi := n - 1; hi >= 0; {
		lo := hi
		for lo > 0 && qe[lo-1] != 0 {
			lo--
		}
		if !dqdsBlock(q[lo:hi+1], qe[lo:hi+1], qh[lo:hi+1], eh[lo:hi+1], vals[lo:hi+1]) {
			return false
		}
		hi = lo - 1
	}
	for i := range d {
		d[i] = math.Sqrt(vals[i])
	}
	return true
}

// dqdsBlock runs dqds on one unreduced qd array (q, e: m entries, e[m-1]
// ignored), writing the eigenvalues into vals; the transforms go from
// (q, e) to (qh, eh) and back (ping-pong). Where an e inside the active
// block becomes negligible the block splits: the part above waits on a
// stack with the shift accumulated so far (and the arrays that hold it),
// and the part below goes on.
func dqdsBlock(q, e, qh, eh, vals []float64) bool {
	m := len(q)
	const tol2 = (100 * eps) * (100 * eps)
	e[m-1] = 0
	budget := dqdsMaxSteps * m
	type part struct {
		i0, n0       int
		sigma        float64
		q, e, qh, eh []float64
	}
	stack := []part{{0, m - 1, 0, q, e, qh, eh}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i0, n0, sigma := p.i0, p.n0, p.sigma
		q, e, qh, eh := p.q, p.e, p.qh, p.eh
		if n0 > i0 && dqdsFlip(q, e, i0, n0) {
			// Reverse: P Bᵀ P (P the reversal) is upper bidiagonal with
			// the same singular values and the entries of B in reverse
			// order, and dqds finds the small values at the bottom first.
			for i, j := i0, n0; i < j; i, j = i+1, j-1 {
				q[i], q[j] = q[j], q[i]
			}
			for i, j := i0, n0-1; i < j; i, j = i+1, j-1 {
				e[i], e[j] = e[j], e[i]
			}
		}
		st := dqdsState{}
		st.reset()
		for n0 >= i0 {
			// Deflate converged values at the bottom.
			if n0 == i0 {
				vals[n0] = q[n0] + sigma
				break
			}
			if e[n0-1] <= tol2*(sigma+q[n0]) {
				vals[n0] = q[n0] + sigma
				n0--
				st.reset()
				continue
			}
			if n0 == i0+1 || e[n0-2] <= tol2*sigma {
				// The trailing 2x2 block splits off.
				big, small := dqds2x2(q[n0-1], e[n0-1], q[n0])
				vals[n0-1], vals[n0] = big+sigma, small+sigma
				n0 -= 2
				st.reset()
				continue
			}
			tau := dqdsShift(q, e, i0, n0, &st)
			for {
				if budget--; budget < 0 {
					return false
				}
				d2, dn1, dn, ok := dqdsStep(q[i0:], e[i0:], qh[i0:], eh[i0:], n0-i0, tau)
				if ok {
					st.dmin2, st.dn1, st.dn = d2, dn1, dn
					st.dmin = min(d2, dn1, dn)
					break
				}
				// Past the smallest eigenvalue. If only the last d went
				// negative, by about the overshoot, step back by it;
				// else try again nearer zero.
				switch {
				case d2 > 0 && dn1 > 0 && dn < 0 && tau+dn > 0:
					tau = (tau + dn) * (1 - 2*eps)
				case tau < 1e-3*q[n0]:
					tau = 0
				default:
					tau /= 4
				}
			}
			q, qh = qh, q
			e, eh = eh, e
			sigma += tau
			// Splits inside the block (the bottom is tested above).
			for i := i0; i < n0-1; i++ {
				if e[i] <= tol2*sigma {
					e[i] = 0
					stack = append(stack, part{i0, i, sigma, q, e, qh, eh})
					i0 = i + 1
					st.reset()
				}
			}
		}
	}
	return true
}

// dqdsStep applies one dqds transform with shift tau to q[0:n0+1],
// e[0:n0] into qh, eh. It returns the smallest d but the last two, the
// last but one and the last (d2, dn1, dn); ok is false if a d is
// negative (or not a number), the output then garbage. The loop has no
// test: a negative d shows in d2 or dn1 (what follows it may be Inf or
// NaN, which does not compare below it).
func dqdsStep(q, e, qh, eh []float64, n0 int, tau float64) (d2, dn1, dn float64, ok bool) {
	q, e, qh, eh = q[:n0+1], e[:n0], qh[:n0+1], eh[:n0]
	d := q[0] - tau
	d2 = math.Inf(1)
	for i := 0; i < n0-1; i++ {
		if d < d2 {
			d2 = d
		}
		s := d + e[i]
		t := q[i+1] / s
		qh[i] = s
		eh[i] = e[i] * t
		d = d*t - tau
	}
	dn1 = d
	s := d + e[n0-1]
	t := q[n0] / s
	qh[n0-1] = s
	eh[n0-1] = e[n0-1] * t
	d = d*t - tau
	qh[n0] = d
	return d2, dn1, d, d2 >= 0 && dn1 >= 0 && d >= 0
}

// dqdsFlip reports whether the block [i0, n0] of (q, e) is better
// reversed: when its top is much larger than its bottom, or when the
// smallest pivot of its LDLᵀ factorization (the d of a dqd transform
// without shift, which locates the smallest eigenvalue) lies in its top
// third and is well below the last diagonal entry.
func dqdsFlip(q, e []float64, i0, n0 int) bool {
	if 1.5*q[i0] < q[n0] {
		return true
	}
	dee := q[i0]
	deemin, kmin := dee, i0
	for k := i0 + 1; k <= n0; k++ {
		dee = q[k] * (dee / (dee + e[k-1]))
		if dee <= deemin {
			deemin, kmin = dee, k
		}
	}
	return (kmin-i0)*2 < n0-kmin && deemin <= q[n0]/2
}

// dqdsState holds what the last transform of a block left for the next
// shift: its smallest d but the last two, the last two, the smallest of
// all, and the factor of the shift when the smallest d was inside.
type dqdsState struct {
	dmin2, dn1, dn, dmin float64
	g                    float64
}

// reset forgets the last transform (after a deflation or a split).
func (s *dqdsState) reset() {
	inf := math.Inf(1)
	s.dmin2, s.dn1, s.dn, s.dmin, s.g = inf, inf, inf, inf, 0
}

// dqdsShift returns the shift for the next transform of the block
// [i0, n0] of (q, e). When the last transform's smallest d was its last
// one, the smallest eigenvalue is converging at the bottom: the shift is
// the last d less the effect of the last coupling, estimated from the
// gaps to the next diagonal entries (when they are clear), as in
// LAPACK's dlasq4. When the smallest d was inside, the shift is a
// fraction of it that grows while that goes on. With no transform yet,
// it is the smaller eigenvalue of the trailing 2x2 block.
func dqdsShift(q, e []float64, i0, n0 int, st *dqdsState) float64 {
	if math.IsInf(st.dmin, 1) {
		_, s := dqds2x2(q[n0-1], e[n0-1], q[n0])
		return s / 2
	}
	dmin, dn := st.dmin, st.dn
	if dmin == dn && n0-i0 >= 2 {
		b1 := math.Sqrt(q[n0]) * math.Sqrt(e[n0-1])
		b2 := math.Sqrt(q[n0-1]) * math.Sqrt(e[n0-2])
		a2 := q[n0-1] + e[n0-1]
		var gap1 float64
		if gap2 := st.dmin2 - a2 - st.dmin2/4; gap2 > 0 && gap2 > b2 {
			gap1 = a2 - dn - b2/gap2*b2
		} else {
			gap1 = a2 - dn - (b1 + b2)
		}
		if gap1 > 0 && gap1 > b1 {
			return math.Max(dn-b1/gap1*b1, dmin/2)
		}
		var s float64
		if dn > b1 {
			s = dn - b1
		}
		if a2 > b1+b2 {
			s = math.Min(s, a2-(b1+b2))
		}
		return math.Max(s, dmin/3)
	}
	if dmin == dn {
		return dmin / 4
	}
	if st.g == 0 {
		st.g = 0.25
	} else {
		st.g += (1 - st.g) / 3
	}
	return st.g * dmin
}

// dqds2x2 returns the eigenvalues of the 2x2 qd array (q1, e1, q2), the
// roots of λ² - (q1 + e1 + q2)λ + q1 q2, as big and q1 q2 / big. The
// discriminant is formed in units of the trace, so that no square
// underflows (q is itself a square, and may be 1e-300).
func dqds2x2(q1, e1, q2 float64) (big, small float64) {
	t := q1 + e1 + q2
	if t == 0 {
		return 0, 0
	}
	a, b, c := q1/t, q2/t, e1/t
	big = t * (1 + math.Sqrt((a-b)*(a-b)+c*(c+2*(a+b)))) / 2
	small = q1 / big * q2
	return big, small
}
