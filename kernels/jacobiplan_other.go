//go:build purego || !amd64

package kernels

func jacobiPlanRun(p *JacobiPlan, x []float64, n, ld int, sq []float64, tol2 float64, cs []float64) (int, int, float64, float64) {
	return jacobiSteps(x, n, ld, p.rows, p.steps, sq, tol2, cs)
}
