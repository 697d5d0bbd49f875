package svd

import (
	"sort"

	"github.com/moments-go/moments/kernels"
)

// applyRight overwrites the r x n row-major c (row stride ldc) with
// c*H_{n-3}*...*H_0 = c*Qᵀ (the reflectors are symmetric), which for
// c = Zᵀ gives (Q*Z)ᵀ. If ends is not nil, it is non-increasing and row
// i of c is zero from column ends[i] on; a block of reflectors acting on
// columns c0 on leaves the rows with ends <= c0 alone, and those are
// skipped.
//
// The reflectors go in the blocks of the reduction's panels
// (tridiagBlock), from the last: the block of H_i0..H_{i0+ib-1} (rows of
// Y, ib x L on columns c0 = i0+1 on) is H_{i0+ib-1}*...*H_i0 =
// I - Yᵀ*Tᵀ*Y with T upper triangular (compact WY, Schreiber and Van
// Loan), which the reduction formed (t.tl), and c*(I - Yᵀ*Tᵀ*Y) is formed
// as c - (c*Yᵀ)*Ŷ with Ŷ = Tᵀ*Y, so that T costs a product with the
// ib x L Y rather than one with the r x ib c*Yᵀ, and the update is two
// matrix products.
func (t *tridiag) applyRight(r int, c []float64, ldc int, ends []int) {
	n := t.n
	k := n - 2 // reflectors H_0..H_{n-3}
	if k <= 0 || r == 0 {
		return
	}
	const nb = tridiagBlock
	lmax := n - 1
	y := make([]float64, nb*lmax)
	yh := make([]float64, nb*lmax)
	w := make([]float64, r*nb)
	for b := (k+nb-1)/nb - 1; b >= 0; b-- {
		i0 := b * nb
		ib := min(nb, k-i0)
		c0 := i0 + 1
		l := n - c0
		ra := r
		if ends != nil {
			ra = sort.Search(r, func(i int) bool { return ends[i] <= c0 })
		}
		if ra == 0 {
			continue
		}
		// Y: row q is v_{i0+q} on columns c0 on (1 at column c0+q).
		yb := y[:ib*l]
		for q := 0; q < ib; q++ {
			row := yb[q*l : (q+1)*l]
			clear(row[:q])
			row[q] = 1
			kk := i0 + q
			copy(row[q+1:], t.a[kk*n+kk+2:kk*n+n])
		}
		kernels.Gemm(false, false, ib, l, ib, 1, t.tl[i0*nb:], nb, yb, l, 0, yh, l)
		wb := w[:ib*ra]
		kernels.Gemm(false, true, ib, ra, l, 1, yb, l, c[c0:], ldc, 0, wb, ra)
		kernels.Gemm(true, false, ra, l, ib, -1, wb, ra, yh[:ib*l], l, 1, c[c0:], ldc)
	}
}

// compactWYLower sets tl (ib x ib, row stride ld) to Tᵀ, the transpose of
// the upper triangular T of the compact WY form H_0*...*H_{ib-1} =
// I - Yᵀ*T*Y of the reflectors H_j = I - tau_j*y_jᵀ*y_j (rows of Y), from
// the Gram matrix g = Y*Yᵀ (row stride ld; g[p][j] for p < j is read,
// and only for the j with tau_j != 0): T[j][j] = tau_j and
// T[:j, j] = -tau_j*T[:j, :j]*g[:j, j]. Row j of tl is column j of T,
// accumulated as Σ_p x_p*(column p of T), so that the inner loops are
// independent multiply-adds.
func compactWYLower(ib, ld int, g, tau, tl []float64) {
	for j := 0; j < ib; j++ {
		out := tl[j*ld : j*ld+ib]
		clear(out)
		out[j] = tau[j]
		if tau[j] == 0 {
			continue
		}
		for p := 0; p < j; p++ {
			xp := -tau[j] * g[p*ld+j]
			if xp == 0 {
				continue
			}
			col := tl[p*ld : p*ld+p+1]
			dst := out[:p+1]
			for i, v := range col {
				dst[i] += xp * v
			}
		}
	}
}
