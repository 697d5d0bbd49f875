package tensor3

import (
	"fmt"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// ContractMat stores T(I, I, v), the symmetric d x d matrix
// M[a][b] = sum_c T[a][b][c]*v[c], in dst. dst must be d x d, or empty
// (it is then given that shape); its result is exactly symmetric. It
// panics if v does not have d elements or dst has another shape.
func (t *Sym) ContractMat(dst *mat.Dense, v []float64) {
	d := t.d
	checkVec("ContractMat", "v", v, d)
	if dst.IsEmpty() {
		if d == 0 {
			return
		}
		*dst = *mat.Zeros(d, d)
	}
	if r, c := dst.Dims(); r != d || c != d {
		panic(fmt.Sprintf("tensor3: ContractMat: destination is %dx%d, result is %dx%d", r, c, d, d))
	}
	if d == 0 {
		return
	}
	md, ld := dst.RawData(), dst.Stride()
	for i := 0; i < d; i++ {
		clear(md[i*ld+i : i*ld+d])
	}
	col := make([]float64, d)
	// For a <= b, M[a][b] sums T[c][a][b] v[c] over c < a (group a, row
	// c), T[a][c][b] v[c] over a <= c <= b (group c, row a) and
	// T[a][b][c] v[c] over c > b (group b, row a).
	for g := 0; g < d; g++ {
		blk, w := t.block(g), d-g
		mg := md[g*ld+g : g*ld+d]
		// c < g: row g of M, columns g.., += B[0:g, :]^T v[0:g].
		if g > 0 {
			kernels.Gemv(true, g, w, 1, blk, w, v[:g], 1, mg)
		}
		// a <= g: M[a][g:] += v[g] * B[a, :].
		for a := 0; a <= g; a++ {
			kernels.Axpy(v[g], blk[a*w:(a+1)*w], md[a*ld+g:a*ld+d])
		}
		// c > g: column g of M, rows 0..g, += B[:, 1:] v[g+1:].
		if w > 1 {
			y := col[:g+1]
			kernels.Gemv(false, g+1, w-1, 1, blk[1:], w, v[g+1:], 0, y)
			for a, x := range y {
				md[a*ld+g] += x
			}
		}
	}
	for a := 1; a < d; a++ {
		for b := 0; b < a; b++ {
			md[a*ld+b] = md[b*ld+a]
		}
	}
}

// ContractVec returns T(I, v, v), the vector with entries
// sum_{b,c} T[a][b][c]*v[b]*v[c], in dst (allocated if nil, otherwise of
// length d). It panics if v or dst does not have d elements.
func (t *Sym) ContractVec(dst, v []float64) []float64 {
	d := t.d
	checkVec("ContractVec", "v", v, d)
	if dst == nil {
		dst = make([]float64, d)
	}
	checkVec("ContractVec", "dst", dst, d)
	clear(dst)
	if d == 0 {
		return dst
	}
	s := make([]float64, d)
	x := make([]float64, d)
	t.contractVec(dst, v, s, x)
	return dst
}

// contractVec adds T(I, v, v) to out, with scratch vectors s and x of
// length d.
//
// Each stored value T[i][j][l] (i <= j <= l) adds c*T*v[j]*v[l] to
// out[i], c*T*v[i]*v[l] to out[j] and c*T*v[i]*v[j] to out[l], where c is
// the number of distinct orderings of (i, j, l) divided by 3: 2 when the
// indices are distinct, 1 when two are equal, 1/3 when all are. In
// group j that is 2 (rows i < j) or 1 (row j) on columns l > j, and 1
// or 1/3 on column l = j.
func (t *Sym) contractVec(out, v, s, x []float64) {
	d := t.d
	for j := 0; j < d; j++ {
		blk, w := t.block(j), d-j
		vj := v[j]
		if w > 1 {
			y := s[:j+1]
			kernels.Gemv(false, j+1, w-1, 1, blk[1:], w, v[j+1:], 0, y)
			xs := x[:j+1]
			for i := range xs {
				xs[i] = 2 * v[i] * vj
			}
			xs[j] = vj * vj
			kernels.Gemv(true, j+1, w-1, 1, blk[1:], w, xs, 1, out[j+1:])
		}
		var oj float64
		for i := 0; i <= j; i++ {
			t0 := blk[i*w]
			var q float64
			if i < j {
				if w > 1 {
					q = 2 * s[i]
				}
				q += t0 * vj
				oj += v[i] * (q + t0*vj)
			} else {
				if w > 1 {
					q = s[i]
				}
				q += t0 * vj / 3
				oj += v[i] * (q + t0*vj/3)
			}
			out[i] += vj * q
		}
		out[j] += oj
	}
}

// ContractScalar returns T(v, v, v) = sum_{a,b,c} T[a][b][c]*v[a]*v[b]*v[c].
// It panics if v does not have d elements.
func (t *Sym) ContractScalar(v []float64) float64 {
	d := t.d
	checkVec("ContractScalar", "v", v, d)
	s := make([]float64, d)
	var sum float64
	// Each stored value counts once per distinct ordering of its
	// indices: 6, 3 or 1.
	for j := 0; j < d; j++ {
		blk, w := t.block(j), d-j
		vj := v[j]
		y := s[:j+1]
		if w > 1 {
			kernels.Gemv(false, j+1, w-1, 1, blk[1:], w, v[j+1:], 0, y)
		} else {
			clear(y)
		}
		var sj float64
		for i := 0; i < j; i++ {
			sj += v[i] * (6*y[i] + 3*blk[i*w]*vj)
		}
		sj += vj * (3*y[j] + blk[j*w]*vj)
		sum += vj * sj
	}
	return sum
}
