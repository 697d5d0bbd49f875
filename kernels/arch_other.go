//go:build purego || !(amd64 || arm64)

package kernels

const purego = true

func detectCPU() {}

func gemmFor(Path) *gemmImpl { return &gemmGeneric }

func dot(x, y []float64) float64               { return dotGeneric(x, y) }
func axpy(alpha float64, x, y []float64)       { axpyGeneric(alpha, x, y) }
func scal(alpha float64, x []float64)          { scalGeneric(alpha, x) }
func asum(x []float64) float64                 { return asumGeneric(x) }
func sumSq(x []float64, scale float64) float64 { return sumSqGeneric(x, scale) }
func maxAbs(x []float64) float64               { return maxAbsGeneric(x) }
func indexAbs(x []float64, m float64) int      { return indexAbsGeneric(x, m) }
func rot(x, y []float64, c, s float64)         { rotGeneric(x, y, c, s) }
func gemvN(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	gemvNGeneric(m, n, alpha, a, lda, x, y)
}
func gemvT(m, n int, alpha float64, a []float64, lda int, x, y []float64) {
	gemvTGeneric(m, n, alpha, a, lda, x, y)
}
