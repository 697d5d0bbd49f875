package svd

import (
	"cmp"
	"math"
	"slices"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
	"github.com/moments-go/moments/kernels"
)

// dcLeaf is the largest tridiagonal block that divide and conquer solves
// by the QL method.
const dcLeaf = 32

// tridiagDC computes the eigendecomposition of the symmetric tridiagonal
// matrix (d, e) of order n by Cuppen's divide and conquer method with
// deflation (as LAPACK's dstedc), and the eigenvectors by the method of Gu
// and Eisenstat, which makes them orthogonal to working precision however
// close the eigenvalues. On return d holds the eigenvalues (unsorted) and
// row i of zt (n x n, row stride n, zero on input) the eigenvector of
// d[i]; e is destroyed. It returns false if a QL leaf does not converge.
func tridiagDC(d, e []float64, zt []float64, n int) bool {
	dc := dcWork{n: n, zt: zt}
	return dc.solve(d, e, 0, n)
}

// dcWork holds the output matrix and the scratch of the merges.
type dcWork struct {
	n   int
	zt  []float64
	buf []float64
}

func (w *dcWork) scratch(k int) []float64 {
	if cap(w.buf) < k {
		w.buf = make([]float64, k)
	}
	return w.buf[:k]
}

// solve diagonalizes the block lo..hi-1 of (d, e), its eigenvectors in
// rows and columns lo..hi-1 of zt.
func (w *dcWork) solve(d, e []float64, lo, hi int) bool {
	n := w.n
	s := hi - lo
	if s <= dcLeaf {
		for i := lo; i < hi; i++ {
			w.zt[i*n+i] = 1
		}
		ee := make([]float64, s)
		copy(ee, e[lo:hi])
		return tql(d[lo:hi], ee, w.zt[lo*n+lo:], n, s, tqlMaxIter)
	}
	// T = diag(T1, T2) + beta*u*uᵀ with u = e_{k-1} + sign(e[k-1])*e_k,
	// beta = |e[k-1]|.
	k := lo + s/2
	rho := e[k-1]
	beta := math.Abs(rho)
	d[k-1] -= beta
	d[k] -= beta
	if !w.solve(d, e, lo, k) || !w.solve(d, e, k, hi) {
		return false
	}
	w.merge(d[lo:hi], lo, k-lo, s-(k-lo), beta, math.Copysign(1, rho))
	return true
}

// merge combines the eigendecompositions of the two halves (n1 and n2
// rows from row lo) with the rank-one correction beta*u*uᵀ: with
// z = Qdᵀ*u, the block is Qd*(D + beta*z*zᵀ)*Qdᵀ.
func (w *dcWork) merge(d []float64, lo, n1, n2 int, beta, sign float64) {
	n := w.n
	s := n1 + n2
	row := func(j int) []float64 { return w.zt[(lo+j)*n+lo : (lo+j)*n+lo+s] }
	z := make([]float64, s)
	mask := make([]uint8, s) // 1: support in the first half, 2: second, 3: both
	for j := 0; j < n1; j++ {
		z[j] = row(j)[n1-1]
		mask[j] = 1
	}
	for j := n1; j < s; j++ {
		z[j] = sign * row(j)[n1]
		mask[j] = 2
	}
	// Normalize z (||u|| = sqrt(2)).
	rho := 2 * beta
	for j := range z {
		z[j] /= math.Sqrt2
	}
	perm := make([]int, s)
	for j := range perm {
		perm[j] = j
	}
	slices.SortFunc(perm, func(p, q int) int { return cmp.Compare(d[p], d[q]) })
	var dmax, zmax float64
	for j := 0; j < s; j++ {
		dmax = math.Max(dmax, math.Abs(d[j]))
		zmax = math.Max(zmax, math.Abs(z[j]))
	}
	tol := 8 * eps * math.Max(dmax, zmax)
	// Deflation (as dlaed2): tiny z components, and pairs of close
	// eigenvalues, of which a rotation zeroes one z component.
	keep := make([]int, 0, s) // nondeflated, ascending d
	defl := make([]int, 0, s)
	pj := -1
	if rho*zmax <= tol {
		defl = append(defl, perm...)
	} else {
		for _, j := range perm {
			if rho*math.Abs(z[j]) <= tol {
				defl = append(defl, j)
				continue
			}
			if pj < 0 {
				pj = j
				continue
			}
			sn, cs := z[pj], z[j]
			tau := math.Hypot(cs, sn)
			t := d[j] - d[pj]
			cs /= tau
			sn = -sn / tau
			if math.Abs(t*cs*sn) <= tol {
				z[j] = tau
				z[pj] = 0
				kernels.Rot(row(pj), row(j), cs, sn)
				m := mask[pj] | mask[j]
				mask[pj], mask[j] = m, m
				c2, s2 := cs*cs, sn*sn
				dp := d[pj]*c2 + d[j]*s2
				d[j] = d[pj]*s2 + d[j]*c2
				d[pj] = dp
				defl = append(defl, pj)
				pj = j
				continue
			}
			keep = append(keep, pj)
			pj = j
		}
		if pj >= 0 {
			keep = append(keep, pj)
		}
	}
	// A rotation may have moved d[j] of a kept j: keep ascending order.
	slices.SortStableFunc(keep, func(p, q int) int { return cmp.Compare(d[p], d[q]) })
	K := len(keep)
	// Type order of the kept rows: first half only, both, second only.
	order := make([]int, 0, K) // positions in keep
	for _, want := range []uint8{1, 3, 2} {
		for p, j := range keep {
			if mask[j] == want {
				order = append(order, p)
			}
		}
	}
	k1, k3 := 0, 0
	for _, j := range keep {
		switch mask[j] {
		case 1:
			k1++
		case 3:
			k3++
		}
	}
	pos := make([]int, K)
	for q, p := range order {
		pos[p] = q
	}
	// Scratch: Ut (K x K, columns in type order), the kept rows (K x s,
	// type order) and their product. The deflated rows stay where they
	// are, with their values in d; the new rows replace the kept ones.
	if K == 0 {
		return
	}
	buf := w.scratch(K*K + 2*K*s)
	ut := buf[:K*K]
	sel := buf[K*K : K*K+K*s]
	out := buf[K*K+K*s : K*K+2*K*s]
	for q, p := range order {
		copy(sel[q*s:(q+1)*s], row(keep[p]))
	}
	lam := make([]float64, K)
	ds := make([]float64, K)
	zs := make([]float64, K)
	for p, j := range keep {
		ds[p], zs[p] = d[j], z[j]
	}
	secularVectors(ds, zs, rho, lam, ut, pos)
	// out[:, :n1] from the rows with support in the first half,
	// out[:, n1:] from those in the second.
	if a := k1 + k3; a > 0 {
		kernels.Gemm(false, false, K, n1, a, 1, ut, K, sel, s, 0, out, s)
	} else {
		for i := 0; i < K; i++ {
			clear(out[i*s : i*s+n1])
		}
	}
	if b := K - k1; b > 0 {
		kernels.Gemm(false, false, K, n2, b, 1, ut[k1:], K, sel[k1*s+n1:], s, 0, out[n1:], s)
	} else {
		for i := 0; i < K; i++ {
			clear(out[i*s+n1 : (i+1)*s])
		}
	}
	for i, j := range keep {
		copy(row(j), out[i*s:(i+1)*s])
		d[j] = lam[i]
	}
}

// secularVectors solves the secular equation 1 + rho*Σ z_j²/(d_j - λ) = 0
// for the K eigenvalues lam of diag(d) + rho*z*zᵀ (d strictly ascending,
// z without zero, rho > 0) and writes the eigenvector of lam[i] into row
// i of ut (K x K), its component j in column pos[j]. The eigenvectors are
// those of Gu and Eisenstat: of diag(d) + rho*ẑ*ẑᵀ, ẑ recomputed from the
// roots, so that they are orthogonal to working precision.
func secularVectors(d, z []float64, rho float64, lam, ut []float64, pos []int) {
	K := len(d)
	orig := make([]int, K)
	tau := make([]float64, K)
	rz2 := make([]float64, K)
	for j := range rz2 {
		rz2[j] = rho * z[j] * z[j]
	}
	g := make([]float64, K)
	// The differences d_j - d_o are formed by the sums as they go.
	gaps := func(o int, _ []float64) ([]float64, float64) { return d, d[o] }
	for i := 0; i < K; i++ {
		orig[i], tau[i] = secularRootGaps(rz2, i, gaps, g)
		lam[i] = d[orig[i]] + tau[i]
	}
	// diff(i, j) = lam_i - d_j, accurately.
	diff := func(i, j int) float64 { return (d[orig[i]] - d[j]) + tau[i] }
	zh := make([]float64, K)
	num := make([]float64, K)
	do := make([]float64, K) // d[orig[i]]
	for i, o := range orig {
		do[i] = d[o]
	}
	lv := simd.Current()
	for j := 0; j < K; j++ {
		// The ratios on the current level's kernel (vec.ZhatAt), the
		// factors i < j and i > j each a contiguous run; every ratio is
		// below 1 (interlacing), so a product above 2^-900 had no partial
		// product near underflow. Otherwise (a tiny block, or the generic
		// loop's own guard) zhatProduct takes them.
		v0 := diff(K-1, j) / rho
		dj := d[j]
		q := vec.ZhatAt(lv, false, do[:j], tau[:j], d[:j], dj) * vec.ZhatAt(lv, false, do[j:K-1], tau[j:K-1], d[j+1:], dj)
		v := v0 * q
		if !(q > 0x1p-900) {
			for i := 0; i < j; i++ {
				num[i] = diff(i, j)
				g[i] = d[i] - d[j]
			}
			for i := j + 1; i < K; i++ {
				num[i] = diff(i-1, j)
				g[i] = d[i] - d[j]
			}
			v = zhatProduct(j, v0, num, g)
		}
		zh[j] = math.Copysign(math.Sqrt(math.Abs(v)), z[j])
	}
	// Row i is v_j = ẑ_j/(d_j - lam_i), with d_j - lam_i = -diff(i, j)
	// formed as (d_j - d_orig) - tau_i, the same bits; the divisions on
	// the current level's kernel (vector divisions in the assembly), into
	// num, then moved to their columns.
	for i := 0; i < K; i++ {
		r := ut[i*K : (i+1)*K]
		nrm := vec.SecularVecAt(lv, zh, d, do[i], tau[i], num)
		for j, p := range pos {
			r[p] = num[j]
		}
		kernels.Scal(1/math.Sqrt(nrm), r)
	}
}

// zhatProduct returns v times the product over i != j of num[i]/den[i],
// the square of the j-th component of Gu and Eisenstat's recomputed z
// when v = (lam_{K-1} - δ_j)/rho, num[i] = lam_i - δ_j for i < j and
// lam_{i-1} - δ_j for i > j, and den[i] = δ_i - δ_j (δ the poles, lam the
// roots). Each factor is a ratio of magnitude below 1 (interlacing).
// Numerators and denominators are multiplied in runs of 8 and divided
// once per run; if a partial product gets near the underflow threshold
// (tiny gaps in a tiny block), the factors are taken one by one instead.
// The merges call it where vec.ZhatAt's product is not safely above
// the underflow threshold.
func zhatProduct(j int, v float64, num, den []float64) float64 {
	K := len(num)
	v0 := v
	n, dd := 1.0, 1.0
	run := 0
	safe := true
	for i := 0; i < K && safe; i++ {
		if i == j {
			continue
		}
		n *= num[i]
		dd *= den[i]
		if run++; run == 8 {
			safe = math.Abs(n) > 0x1p-900 && math.Abs(dd) > 0x1p-900
			v *= n / dd
			n, dd, run = 1, 1, 0
		}
	}
	safe = safe && math.Abs(n) > 0x1p-900 && math.Abs(dd) > 0x1p-900
	v *= n / dd
	if !safe {
		v = v0
		for i := 0; i < K; i++ {
			if i != j {
				v *= num[i] / den[i]
			}
		}
	}
	return v
}

// secularRootGaps returns the i-th root lam of the secular equation
// 1 + Σ rz2[j]/(δ_j - lam) = 0 with poles δ strictly ascending (rz2[j] =
// rho*z_j² > 0), as δ_orig + tau, orig being the nearer of the poles i and
// i+1 (K-1 for the last root), so that lam - δ_j can be formed as
// (δ_orig - δ_j) + tau without cancellation. The poles are given by their
// differences, formed as accurately as the caller can: gaps(o, dst)
// returns src and off with δ_j - δ_o = src[j] - off, either writing the
// differences to dst (len(rz2) elements, scratch g) and returning (dst,
// 0), or returning the poles themselves and off = δ_o, which spares a
// pass over them (the sums subtract off as they go). It
// brackets the root and iterates on the model of Bunch, Nielsen and
// Sorensen (one pole term for each side), bisecting when a step leaves
// the bracket.
func secularRootGaps(rz2 []float64, i int, gaps func(o int, dst []float64) (src []float64, off float64), g []float64) (orig int, tau float64) {
	K := len(rz2)
	var lo, hi, t float64
	var psi, dpsi, phi, dphi float64
	last := i == K-1
	have := false // whether the sums hold the values at t
	var src []float64
	var off float64
	if last {
		orig = i
		var zz float64
		for _, v := range rz2 {
			zz += v
		}
		lo, hi, t = 0, zz, zz
	} else {
		// The midpoint of the two poles decides the origin, and its
		// sums give the first step.
		src, off = gaps(i, g)
		gap := src[i+1] - off
		mid := gap / 2
		psi, dpsi, phi, dphi = secularSums(src, off, rz2, i, mid)
		have = true
		if 1+psi+phi >= 0 {
			orig, lo, hi, t = i, 0, mid, mid
		} else {
			orig, lo, hi, t = i+1, mid-gap, 0, mid-gap
			src, off = gaps(orig, g)
		}
	}
	if last {
		src, off = gaps(orig, g)
	}
	a := src[i] - off // the pole left of the root, relative to the origin
	b := 0.0          // the pole right of it
	if !last {
		b = src[i+1] - off
	}
	for iter := 0; iter < 200; iter++ {
		if !have {
			psi, dpsi, phi, dphi = secularSums(src, off, rz2, i, t)
		}
		have = false
		atot := phi - psi
		fv := 1 + psi + phi
		if fv == 0 {
			return orig, t
		}
		if fv < 0 {
			lo = t
		} else {
			hi = t
		}
		if math.Abs(fv) <= 4*eps*(1+atot) || hi-lo <= 2*eps*math.Max(math.Abs(lo), math.Abs(hi)) {
			return orig, t
		}
		// Model: psi ≈ p + q/(a - x), phi ≈ r + sq/(b - x).
		q := dpsi * (a - t) * (a - t)
		c := 1 + psi - q/(a-t)
		var x float64
		if last {
			c += phi
			x = a + q/c
			if !(c > 0) {
				x = math.NaN()
			}
		} else {
			sq := dphi * (b - t) * (b - t)
			c += phi - sq/(b-t)
			bq := c*(a+b) + q + sq
			a0 := c*a*b + q*b + sq*a
			if c == 0 {
				x = a0 / bq
			} else {
				disc := math.Sqrt(math.Max(bq*bq-4*c*a0, 0))
				x1 := (bq + math.Copysign(disc, bq)) / (2 * c)
				x = x1
				if x1 != 0 {
					x2 := a0 / (c * x1)
					if !(x1 > lo && x1 < hi) || (x2 > lo && x2 < hi && math.Abs(x2-t) < math.Abs(x1-t)) {
						x = x2
					}
				}
			}
		}
		model := true
		if !(x > lo && x < hi) {
			x = (lo + hi) / 2
			model = false
		}
		// A model step this short is deep in the quadratic convergence:
		// the next would be below eps relative (square of 2^-30, times a
		// modest constant since t is at most half the gap to the second
		// pole), so x is kept without the sums' last evaluation.
		if math.Abs(x-t) <= 2*eps*math.Abs(t) || (model && math.Abs(x-t) <= 0x1p-30*math.Abs(t)) {
			return orig, x
		}
		t = x
	}
	return orig, t
}

// secularSums returns psi = Σ_{j<=i} rz2[j]/(δ_j - λ) and phi, the same
// sum over j > i, and their derivatives in λ, at λ = δ_o + t, given the
// pole differences δ_j - δ_o = g[j] - off (the differences δ_j - λ formed
// as (g[j] - off) - t).
func secularSums(g []float64, off float64, rz2 []float64, i int, t float64) (psi, dpsi, phi, dphi float64) {
	psi, dpsi = secularRange(g[:i+1], rz2[:i+1], off, t)
	phi, dphi = secularRange(g[i+1:], rz2[i+1:], off, t)
	return psi, dpsi, phi, dphi
}

// secularRange returns Σ r[j]/x_j and Σ r[j]/x_j², x_j = (g[j] - off) -
// t, on the
// current level's kernel (vec.SecularAt): vector divisions, one per
// element, in the assembly; in the generic loop the reciprocals are taken
// two at a time, 1/x = y/(xy) and 1/y = x/(xy), one division for two
// (division is the bottleneck of the secular equation).
func secularRange(g, r []float64, off, t float64) (s, ds float64) {
	return vec.SecularAt(simd.Current(), g, r[:len(g)], off, t)
}
