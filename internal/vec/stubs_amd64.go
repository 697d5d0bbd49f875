//go:build !purego

package vec

// Each routine below is implemented twice in assembly, with 512-bit
// and with 256-bit vectors, both generated into vec_amd64.s by asmgen.
// Its comment is the scalar loop it computes; the Go versions in generic.go
// are those loops. The callers check lengths: the assembly reads len(x)
// elements of every vector.

// dotAVX512 and dotAVX2 compute
//
//	for i := range x { s += x[i] * y[i] }; return s
//
//go:noescape
func dotAVX512(x, y []float64) float64

//go:noescape
func dotAVX2(x, y []float64) float64

// axpyAVX512 and axpyAVX2 compute
//
//	for i := range x { y[i] += alpha * x[i] }
//
//go:noescape
func axpyAVX512(alpha float64, x, y []float64)

//go:noescape
func axpyAVX2(alpha float64, x, y []float64)

// scalAVX512 and scalAVX2 compute
//
//	for i := range x { x[i] *= alpha }
//
//go:noescape
func scalAVX512(alpha float64, x []float64)

//go:noescape
func scalAVX2(alpha float64, x []float64)

// asumAVX512 and asumAVX2 compute
//
//	for i := range x { s += math.Abs(x[i]) }; return s
//
//go:noescape
func asumAVX512(x []float64) float64

//go:noescape
func asumAVX2(x []float64) float64

// sumSqAVX512 and sumSqAVX2 compute
//
//	for i := range x { v := scale * x[i]; s += v * v }; return s
//
//go:noescape
func sumSqAVX512(x []float64, scale float64) float64

//go:noescape
func sumSqAVX2(x []float64, scale float64) float64

// maxAbsAVX512 and maxAbsAVX2 compute
//
//	for i := range x { if a := math.Abs(x[i]); a > m || a != a { m = a } }; return m
//
// returning a NaN if any x[i] is NaN. They compare |x[i]| as 64-bit
// integers, which orders non-negative floats with NaN above +Inf.
//
//go:noescape
func maxAbsAVX512(x []float64) float64

//go:noescape
func maxAbsAVX2(x []float64) float64

// indexAbsAVX512 and indexAbsAVX2 compute
//
//	for i := range x { if math.Abs(x[i]) == m { return i } }; return -1
//
//go:noescape
func indexAbsAVX512(x []float64, m float64) int

//go:noescape
func indexAbsAVX2(x []float64, m float64) int

// rotAVX512 and rotAVX2 compute
//
//	for i := range x { xi, yi := x[i], y[i]; x[i] = c*xi + s*yi; y[i] = c*yi - s*xi }
//
//go:noescape
func rotAVX512(x, y []float64, c, s float64)

//go:noescape
func rotAVX2(x, y []float64, c, s float64)

// gemvNAVX512 and gemvNAVX2 compute
//
//	for i := 0; i < m; i++ {
//		var s float64
//		for j := 0; j < n; j++ { s += a[i*lda+j] * x[j] }
//		y[i] += alpha * s
//	}
//
//go:noescape
func gemvNAVX512(m, n int, alpha float64, a []float64, lda int, x, y []float64)

//go:noescape
func gemvNAVX2(m, n int, alpha float64, a []float64, lda int, x, y []float64)

// gemvTAVX512 and gemvTAVX2 compute
//
//	for i := 0; i < m; i++ {
//		t := alpha * x[i]
//		for j := 0; j < n; j++ { y[j] += t * a[i*lda+j] }
//	}
//
//go:noescape
func gemvTAVX512(m, n int, alpha float64, a []float64, lda int, x, y []float64)

//go:noescape
func gemvTAVX2(m, n int, alpha float64, a []float64, lda int, x, y []float64)

// gerAVX512 and gerAVX2 compute
//
//	for i := 0; i < m; i++ {
//		t := alpha * x[i]
//		for j := 0; j < n; j++ { a[i*lda+j] += t * y[j] }
//	}
//
// with each update one fused multiply-add, as axpy's.
//
//go:noescape
func gerAVX512(m, n int, alpha float64, a []float64, lda int, x, y []float64)

//go:noescape
func gerAVX2(m, n int, alpha float64, a []float64, lda int, x, y []float64)

// gemvNTAVX512 and gemvNTAVX2 compute gemvNTGeneric's loop, the rows in
// groups of four (both products of a group while its rows are in
// cache), each dot product summed as gemvN's.
//
//go:noescape
func gemvNTAVX512(m, n int, alpha float64, a []float64, lda int, x, y, xc []float64)

//go:noescape
func gemvNTAVX2(m, n int, alpha float64, a []float64, lda int, x, y, xc []float64)

// secularAVX2 computes
//
//	for i := range g {
//		inv := 1 / ((g[i] - o) - t)
//		tx := r[i] * inv
//		s += tx
//		ds += tx * inv
//	}
//	return s, ds
//
// with one true division per element (no paired reciprocals, as
// secularGeneric takes), ds's update one fused multiply-add, and s and
// ds each summed in a reduction's order.
//
// These division-bound kernels exist at 256 bits only: the AVX-512 level
// calls them too (see SecularAt).
//
//go:noescape
func secularAVX2(g, r []float64, o, t float64) (s, ds float64)

// secularVecAVX2 computes
//
//	for i := range z { v[i] = z[i] / ((d[i] - o) - t); s += v[i] * v[i] }; return s
//
// with each square added by a fused multiply-add, in a reduction's order.
//
//go:noescape
func secularVecAVX2(z, d []float64, o, t float64, v []float64) float64

// secularVec2AVX2 computes
//
//	for i := range z {
//		v[i] = z[i] / (((d[i] - o) - t) * ((d[i] + o) + t))
//		u[i] = d[i] * v[i]
//		nv += v[i] * v[i]
//		nu += u[i] * u[i]
//	}
//	return nv, nu
//
// with one true division per element (secularVec2Generic pairs them),
// each square added by a fused multiply-add, in a reduction's order.
//
//go:noescape
func secularVec2AVX2(z, d []float64, o, t float64, v, u []float64) (nv, nu float64)

// zhatAVX2 computes
//
//	q := 1.0
//	for i := range d { q *= ((o[i] - p) + t[i]) / (d[i] - p) }; return q
//
// and zhat2AVX2
//
//	for i := range d { q *= (((o[i] - p) + t[i]) * ((o[i] + p) + t[i])) / ((d[i] - p) * (d[i] + p)) }
//
// one true division per element, the products in a reduction's order.
//
//go:noescape
func zhatAVX2(o, t, d []float64, p float64) float64

//go:noescape
func zhat2AVX2(o, t, d []float64, p float64) float64

// axpyRowsAVX512 and axpyRowsAVX2 compute
//
//	for e := range idx { for j := range y { y[j] += coef[e] * x[int(idx[e])*ldx+j] } }
//
// with a fused multiply-add per element (AxpyRowsAt checks the indices).
//
//go:noescape
func axpyRowsAVX512(y, x []float64, ldx int, idx []int32, coef []float64)

//go:noescape
func axpyRowsAVX2(y, x []float64, ldx int, idx []int32, coef []float64)
