//go:build !unix

package bench

// simplexCPUSeconds reports false where the process's CPU time is not
// available: the simplex benchmarks then report wall time only.
func simplexCPUSeconds() (float64, bool) { return 0, false }
