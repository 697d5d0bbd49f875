//go:build purego || !(amd64 || arm64)

package kernels

func rotPairs(x []float64, n int, o []int, cs []float64) { rotPairsGeneric(x, n, o, cs) }
func jacobiSteps(x []float64, n, ld int, rows, steps []int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	return jacobiStepsGeneric(x, n, ld, rows, steps, sq, tol2, cs)
}

func jacobiSweepT(t []float64, m, n, ntot int, sq []float64, tol2 float64) (int, int, float64, float64) {
	return jacobiSweepTGeneric(t, m, n, ntot, sq, tol2)
}

func jacobiSweepTFast() bool { return false }
