package kernels

import (
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// BenchmarkFMAPeak measures the floating-point peak of one core on each
// path: independent FMAs on registers, no memory traffic.
func BenchmarkFMAPeak(b *testing.B) {
	for _, p := range simd.Available() {
		im := table.For(p)
		probe, flops := im.peak, im.peakFlops
		if probe == nil {
			continue
		}
		b.Run(p.String(), func(b *testing.B) {
			const iters = 1 << 16
			for b.Loop() {
				probe(iters)
			}
			b.ReportMetric(flops*iters*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkMicroKernel measures each path's GEMM micro-kernel on panels
// of depth KC that stay in L1/L2, as the blocked GEMM feeds it: the
// ratio to BenchmarkFMAPeak is the micro-kernel's fraction of peak.
func BenchmarkMicroKernel(b *testing.B) {
	for _, p := range simd.Available() {
		g := &table.For(p).gemm
		mr, nr := g.mr, g.nr
		b.Run(p.String(), func(b *testing.B) {
			l1, l2, l3 := cacheSizes()
			kc := chooseBlocking(mr, nr, l1, l2, l3).KC
			r := rand.New(rand.NewPCG(1, 1))
			a := simdtest.RandSlice(r, 8*kc*mr) // eight A micro-panels, cycled
			bp := simdtest.RandSlice(r, kc*nr)
			c := make([]float64, mr*nr)
			for b.Loop() {
				for i := 0; i < 8; i++ {
					g.kernel(kc, a[i*kc*mr:(i+1)*kc*mr], bp, c, nr, 1)
				}
			}
			b.ReportMetric(2*float64(8*mr*nr*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
