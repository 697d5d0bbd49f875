package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/kernels"
)

// forPaths runs f as a sub-benchmark on every kernel path of this
// machine.
func forPaths(b *testing.B, f func(b *testing.B)) {
	info := kernels.Info()
	defer kernels.Use(info.Active)
	for _, p := range info.Implementations {
		if err := kernels.Use(p); err != nil {
			b.Fatal(err)
		}
		b.Run(p, f)
	}
}

func randVec(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	return x
}

// vecSizes: in L1, in L2, beyond the last-level cache.
var vecSizes = []int{1000, 100_000, 10_000_000}

// benchVec runs op on vectors of each size and reports GFLOP/s, counting
// flopsPer flops and bytesPer bytes of traffic per element.
func benchVec(b *testing.B, flopsPer, bytesPer float64, op func(x, y []float64)) {
	forPaths(b, func(b *testing.B) {
		for _, n := range vecSizes {
			b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, uint64(n)))
				x, y := randVec(r, n), randVec(r, n)
				b.SetBytes(int64(bytesPer * float64(n)))
				for b.Loop() {
					op(x, y)
				}
				b.ReportMetric(flopsPer*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	})
}

var sink float64

func BenchmarkDot(b *testing.B) {
	benchVec(b, 2, 16, func(x, y []float64) { sink += kernels.Dot(x, y) })
}

func BenchmarkAxpy(b *testing.B) {
	benchVec(b, 2, 24, func(x, y []float64) { kernels.Axpy(1e-9, x, y) })
}

func BenchmarkScal(b *testing.B) {
	benchVec(b, 1, 16, func(x, _ []float64) { kernels.Scal(1, x) })
}

func BenchmarkAsum(b *testing.B) {
	benchVec(b, 1, 8, func(x, _ []float64) { sink += kernels.Asum(x) })
}

func BenchmarkNrm2(b *testing.B) {
	benchVec(b, 2, 8, func(x, _ []float64) { sink += kernels.Nrm2(x) })
}

func BenchmarkIamax(b *testing.B) {
	benchVec(b, 1, 8, func(x, _ []float64) { sink += float64(kernels.Iamax(x)) })
}

func BenchmarkRot(b *testing.B) {
	benchVec(b, 6, 32, func(x, y []float64) { kernels.Rot(x, y, 0.6, 0.8) })
}

// matSizes for Gemv and Ger: in L2 and beyond the last-level cache.
var matSizes = []int{256, 4000}

func benchMatVec(b *testing.B, op func(n int, a, x, y []float64)) {
	forPaths(b, func(b *testing.B) {
		for _, n := range matSizes {
			b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(2, uint64(n)))
				a, x, y := randVec(r, n*n), randVec(r, n), randVec(r, n)
				b.SetBytes(int64(8 * n * n))
				for b.Loop() {
					op(n, a, x, y)
				}
				b.ReportMetric(2*float64(n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	})
}

func BenchmarkGemvN(b *testing.B) {
	benchMatVec(b, func(n int, a, x, y []float64) { kernels.Gemv(false, n, n, 1, a, n, x, 0, y) })
}

func BenchmarkGemvT(b *testing.B) {
	benchMatVec(b, func(n int, a, x, y []float64) { kernels.Gemv(true, n, n, 1, a, n, x, 0, y) })
}

func BenchmarkGer(b *testing.B) {
	benchMatVec(b, func(n int, a, x, y []float64) { kernels.Ger(n, n, 1e-9, x, y, a, n) })
}

// BenchmarkGemm is the raw kernel-level product on every path; the
// matrix-level comparison with gonum is BenchmarkMul.
func BenchmarkGemm(b *testing.B) {
	forPaths(b, func(b *testing.B) {
		for _, n := range []int{4, 10, 25, 64, 256, 1024} {
			b.Run(fmt.Sprintf("n=%d/workers=1", n), func(b *testing.B) {
				b.ReportAllocs()
				defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
				r := rand.New(rand.NewPCG(3, uint64(n)))
				a, bb, c := randVec(r, n*n), randVec(r, n*n), make([]float64, n*n)
				for b.Loop() {
					kernels.Gemm(false, false, n, n, n, 1, a, n, bb, n, 0, c, n)
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	})
}
