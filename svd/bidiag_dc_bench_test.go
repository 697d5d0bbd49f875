package svd

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/moments-go/moments/kernels"
)

// BenchmarkBidiagSVD times bidiagSVD with both sides of vectors with one
// worker and with all of them (GOMAXPROCS), and values only, reporting
// the process CPU time per call as well, on random bidiagonal matrices
// (Gaussian d and e, whose singular vectors are localized: much
// deflation) and on d = e = 1 (delocalized vectors: little deflation, the
// hard case for divide and conquer).
func BenchmarkBidiagSVD(b *testing.B) {
	for _, c := range []struct {
		kind string
		n    int
	}{{"random", 100}, {"random", 500}, {"random", 1000}, {"random", 2000},
		{"ones", 100}, {"ones", 500}, {"ones", 1000}, {"ones", 2000}} {
		n := c.n
		d0, e0 := bidiagCase(c.kind, n)
		ut := make([]float64, n*n)
		vt := make([]float64, n*n)
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/n=%d/vectors/workers=%d", c.kind, n, workers), func(b *testing.B) {
				defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(workers))
				defer cpuMetric(b)()
				for b.Loop() {
					if !bidiagSVD(slices.Clone(d0), slices.Clone(e0), ut, vt, n) {
						b.Fatal("no convergence")
					}
				}
			})
		}
		b.Run(fmt.Sprintf("%s/n=%d/values", c.kind, n), func(b *testing.B) {
			defer cpuMetric(b)()
			for b.Loop() {
				if !bidiagSVD(slices.Clone(d0), slices.Clone(e0), nil, nil, n) {
					b.Fatal("no convergence")
				}
			}
		})
	}
}
