package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// momentSizes are the whitened third moments of issue 5: N samples in k
// dimensions, with numpy's figures in the issue (GEMM form / einsum):
// k = 50, N = 100000: 806 ms / 18.5 s; k = 10: 24 ms; N = 20000, k = 100:
// 1.0 s. tensor3_anchors.sh measures both sides in one run.
var momentSizes = [][2]int{{100000, 10}, {100000, 50}, {20000, 100}}

// workerRuns runs f once on one goroutine and once on all of them.
func workerRuns(b *testing.B, name string, f func(b *testing.B)) {
	for _, w := range []int{1, 0} {
		label := fmt.Sprintf("%s/workers=1", name)
		if w == 0 {
			label = fmt.Sprintf("%s/workers=%d", name, runtime.GOMAXPROCS(0))
		}
		b.Run(label, func(b *testing.B) {
			defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(w))
			f(b)
		})
	}
}

// BenchmarkTensor3Moment measures the weighted third moment
// sum_s w_s y_s(x)y_s(x)y_s of N rows in k dimensions (Sym.AddOuterRows),
// reporting useful GFLOP/s: 2 flops per stored value and sample, a sixth
// of what the GEMM form does.
func BenchmarkTensor3Moment(b *testing.B) {
	for _, sz := range momentSizes {
		n, k := sz[0], sz[1]
		workerRuns(b, fmt.Sprintf("k=%d/N=%d", k, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(5, uint64(k)))
			y := mat.New(n, k, randVec(r, n*k))
			w := make([]float64, n)
			for i := range w {
				w[i] = r.Float64()
			}
			t := tensor3.New(k, nil)
			for b.Loop() {
				t.Zero()
				t.AddOuterRows(1, y, w)
			}
			b.ReportMetric(2*float64(n)*float64(tensor3.PackedLen(k))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkTensor3Multilinear measures T(W, W, W) for a d-dimensional
// tensor and W d x k (numpy einsum in the issue: 190 ms for d = 400,
// k = 50), reporting GFLOP/s counted as d^3 k.
func BenchmarkTensor3Multilinear(b *testing.B) {
	for _, sz := range [][2]int{{400, 50}, {100, 20}} {
		d, k := sz[0], sz[1]
		workerRuns(b, fmt.Sprintf("d=%d/k=%d", d, k), func(b *testing.B) {
			r := rand.New(rand.NewPCG(6, uint64(d)))
			t := tensor3.New(d, randVec(r, tensor3.PackedLen(d)))
			w := mat.New(d, k, randVec(r, d*k))
			var out tensor3.Sym
			for b.Loop() {
				out.Multilinear(t, w)
			}
			b.ReportMetric(float64(d)*float64(d)*float64(d)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkTensor3Contract measures T(I, v, v), the step of the power
// method, on the whitened tensors of the moment sizes.
func BenchmarkTensor3Contract(b *testing.B) {
	for _, k := range []int{10, 50, 100} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			r := rand.New(rand.NewPCG(7, uint64(k)))
			t := tensor3.New(k, randVec(r, tensor3.PackedLen(k)))
			v := randVec(r, k)
			dst := make([]float64, k)
			for b.Loop() {
				t.ContractVec(dst, v)
			}
		})
	}
}

// BenchmarkTensor3PowerMethod decomposes a planted orthogonal k x k x k
// tensor with a little noise by the robust tensor power method (default
// options).
func BenchmarkTensor3PowerMethod(b *testing.B) {
	for _, k := range []int{10, 50} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			r := rand.New(rand.NewPCG(8, uint64(k)))
			t := tensor3.New(k, nil)
			for i := 0; i < k; i++ {
				e := make([]float64, k)
				e[i] = 1
				t.AddOuter(1+float64(i)/float64(k), e)
			}
			noise := tensor3.New(k, randVec(r, tensor3.PackedLen(k)))
			t.AddScaled(t, 1e-4/noise.NormFrob(), noise)
			for b.Loop() {
				if _, err := tensor3.PowerMethod(context.Background(), t, k, &tensor3.PowerOptions{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
