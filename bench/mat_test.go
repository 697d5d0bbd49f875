package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
	gmat "gonum.org/v1/gonum/mat"
)

// mulSizes are the sizes of the GEMM targets.
var mulSizes = []int{64, 256, 512, 1024}

// BenchmarkMul measures mat.Dense.Mul on one goroutine and on all cores.
func BenchmarkMul(b *testing.B) {
	for _, n := range mulSizes {
		for _, w := range []int{1, 0} {
			name := fmt.Sprintf("n=%d/workers=1", n)
			if w == 0 {
				name = fmt.Sprintf("n=%d/workers=%d", n, runtime.GOMAXPROCS(0))
			}
			b.Run(name, func(b *testing.B) {
				defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(w))
				r := rand.New(rand.NewPCG(4, uint64(n)))
				x := mat.New(n, n, randVec(r, n*n))
				y := mat.New(n, n, randVec(r, n*n))
				z := mat.Zeros(n, n)
				for b.Loop() {
					z.Mul(x, y)
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkGonumMul is the anchor: gonum v0.17's Dense.Mul (pure Go,
// parallel over GOMAXPROCS). Run with -cpu 1 for its single-core figure.
func BenchmarkGonumMul(b *testing.B) {
	for _, n := range mulSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(4, uint64(n)))
			x := gmat.NewDense(n, n, randVec(r, n*n))
			y := gmat.NewDense(n, n, randVec(r, n*n))
			z := gmat.NewDense(n, n, nil)
			for b.Loop() {
				z.Mul(x, y)
			}
			b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
