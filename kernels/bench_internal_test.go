package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkGemmSquare(b *testing.B) {
	for _, n := range []int{64, 256, 512, 1024} {
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				defer SetMaxWorkers(SetMaxWorkers(w))
				r := rand.New(rand.NewPCG(1, 2))
				a, bb, c := randSlice(r, n*n), randSlice(r, n*n), make([]float64, n*n)
				for b.Loop() {
					Gemm(false, false, n, n, n, 1, a, n, bb, n, 0, c, n)
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
