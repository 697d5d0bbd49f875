package bench

import (
	"testing"

	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
	gmat "gonum.org/v1/gonum/mat"
)

// BenchmarkLQ measures lq.Factorize, lq.FactorizeQR (the LQ of the transpose,
// transpose included) and lq.FactorizePivoted on Gaussian matrices of the
// SVD shapes with M >= N, one goroutine; the flop rate counts the 2mn² - 2n³/3 flops
// of a Householder QR of an m x n matrix (m >= n).
func BenchmarkLQ(b *testing.B) {
	for _, s := range svdShapes {
		m, n := s[0], s[1]
		if m < n {
			continue // QR shapes only (M >= N), as in TestSVDAnchors
		}
		a := mat.New(m, n, svdGaussian(m, n))
		at := a.T()
		flops := 2*float64(m)*float64(n)*float64(n) - 2*float64(n)*float64(n)*float64(n)/3
		for _, c := range []struct {
			name string
			f    func() error
		}{
			{"LQ(Aᵀ)", func() error { _, err := lq.Factorize(at); return err }},
			{"QR", func() error { _, err := lq.FactorizeQR(a); return err }},
			{"pivotedLQ(Aᵀ)", func() error { _, err := lq.FactorizePivoted(at); return err }},
		} {
			b.Run(svdShapeName(s)+"/"+c.name, func(b *testing.B) {
				svdOneWorker(b, func(b *testing.B) {
					for b.Loop() {
						if err := c.f(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			})
		}
	}
}

// BenchmarkGonumQR is the gonum anchor for the QR factorization (the
// shapes with M >= N).
func BenchmarkGonumQR(b *testing.B) {
	for _, s := range svdShapes {
		m, n := s[0], s[1]
		if m < n {
			continue // QR shapes only (M >= N), as in TestSVDAnchors
		}
		a := gmat.NewDense(m, n, svdGaussian(m, n))
		flops := 2*float64(m)*float64(n)*float64(n) - 2*float64(n)*float64(n)*float64(n)/3
		b.Run(svdShapeName(s), func(b *testing.B) {
			var f gmat.QR
			for b.Loop() {
				f.Factorize(a)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
