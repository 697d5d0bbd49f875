//go:build !purego

package vec

// Each routine below is implemented in assembly with 128-bit NEON vectors
// (neon_arm64.s). Its comment is the scalar loop it computes; the Go
// versions in generic.go are those loops. The callers check lengths: the
// assembly reads len(x) elements of every vector.

// dotNEON computes
//
//	for i := range x { s += x[i] * y[i] }; return s
//
//go:noescape
func dotNEON(x, y []float64) float64

// axpyNEON computes
//
//	for i := range x { y[i] += alpha * x[i] }
//
//go:noescape
func axpyNEON(alpha float64, x, y []float64)

// scalNEON computes
//
//	for i := range x { x[i] *= alpha }
//
//go:noescape
func scalNEON(alpha float64, x []float64)

// asumNEON computes
//
//	for i := range x { s += math.Abs(x[i]) }; return s
//
//go:noescape
func asumNEON(x []float64) float64

// sumSqNEON computes
//
//	for i := range x { v := scale * x[i]; s += v * v }; return s
//
//go:noescape
func sumSqNEON(x []float64, scale float64) float64

// maxAbsNEON computes
//
//	for i := range x { if a := math.Abs(x[i]); a > m || a != a { m = a } }; return m
//
// returning a NaN if any x[i] is NaN. It uses FMAX, which returns NaN
// when either operand is NaN.
//
//go:noescape
func maxAbsNEON(x []float64) float64

// indexAbsNEON computes
//
//	for i := range x { if math.Abs(x[i]) == m { return i } }; return -1
//
//go:noescape
func indexAbsNEON(x []float64, m float64) int

// rotNEON computes
//
//	for i := range x { xi, yi := x[i], y[i]; x[i] = c*xi + s*yi; y[i] = c*yi - s*xi }
//
//go:noescape
func rotNEON(x, y []float64, c, s float64)

// gemvNNEON computes
//
//	for i := 0; i < m; i++ {
//		var s float64
//		for j := 0; j < n; j++ { s += a[i*lda+j] * x[j] }
//		y[i] += alpha * s
//	}
//
//go:noescape
func gemvNNEON(m, n int, alpha float64, a []float64, lda int, x, y []float64)

// gemvTNEON computes
//
//	for i := 0; i < m; i++ {
//		t := alpha * x[i]
//		for j := 0; j < n; j++ { y[j] += t * a[i*lda+j] }
//	}
//
//go:noescape
func gemvTNEON(m, n int, alpha float64, a []float64, lda int, x, y []float64)
