package tensor3

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// BenchmarkMultilinear measures T(W, W, W) at a learner's size
// (d = 400, k = 50) on one worker and on all, reporting GFLOP/s counted
// as d^3 k (the count of the dense method, as bench/ does).
func BenchmarkMultilinear(b *testing.B) {
	for _, sz := range [][2]int{{400, 50}, {100, 20}} {
		d, k := sz[0], sz[1]
		for _, workers := range []int{1, 0} {
			b.Run(fmt.Sprintf("d=%d/k=%d/workers=%d", d, k, workers), func(b *testing.B) {
				defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(workers))
				r := rand.New(rand.NewPCG(6, uint64(d)))
				x := randSym(r, d)
				w := mat.New(d, k, randVec(r, d*k))
				var out Sym
				for b.Loop() {
					out.Multilinear(x, w)
				}
				b.ReportMetric(float64(d)*float64(d)*float64(d)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
