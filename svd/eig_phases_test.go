package svd

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/fuzz"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// TestEigPhaseTimes prints, when EIG_PHASES is set (to a list of orders
// such as "200,500"), the median process CPU times of the phases of
// EigTridiagonal (the reduction to tridiagonal form, divide and conquer,
// the back-transformation) and of the whole of EigSym, on one goroutine,
// over EIG_ROUNDS (default 5) interleaved rounds, on a random symmetric
// matrix and on Q*diag(±1)*Qᵀ:
//
//	EIG_PHASES=200,500 go test -run EigPhaseTimes -v ./svd
func TestEigPhaseTimes(t *testing.T) {
	spec, rounds := phaseSetup(t, "EIG_PHASES", "EIG_ROUNDS", 5, "a list of orders")
	type tcase struct {
		name string
		a    *mat.Dense
	}
	var cases []tcase
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad order %q", f)
		}
		rs, pm := phaseMatrices(n)
		cases = append(cases, tcase{fmt.Sprintf("%d/random", n), rs}, tcase{fmt.Sprintf("%d/pm1", n), pm})
	}
	const phases = 4 // reduce, dc, back, EigSym total
	times := make([][phases][]float64, len(cases))
	cpu := func(f func()) float64 {
		s := cpuTime()
		f()
		return float64(cpuTime()-s) / 1e6
	}
	for round := 0; round < rounds; round++ {
		for ci, c := range cases {
			n, _ := c.a.Dims()
			var tr *tridiag
			zt := make([]float64, n*n)
			ms := [phases]float64{
				cpu(func() { tr = reduceTridiag(c.a.Clone().RawData(), n) }),
				cpu(func() { tridiagDC(slices.Clone(tr.d), slices.Clone(tr.e), zt, n) }),
				cpu(func() { tr.applyRight(n, zt, n, nil) }),
				cpu(func() {
					if _, err := EigSym(c.a, &EigOptions{Method: EigTridiagonal}); err != nil {
						t.Fatal(err)
					}
				}),
			}
			for k, v := range ms {
				times[ci][k] = append(times[ci][k], v)
			}
		}
	}
	fmt.Printf("%-12s %10s %10s %10s %10s   (ms CPU, median of %d, one goroutine)\n",
		"case", "reduce", "dc", "back", "total", rounds)
	for ci, c := range cases {
		fmt.Printf("%-12s", c.name)
		for k := 0; k < phases; k++ {
			slices.Sort(times[ci][k])
			fmt.Printf(" %10.3f", times[ci][k][len(times[ci][k])/2])
		}
		fmt.Println()
	}
}

// BenchmarkEigTridiagonal200 times EigTridiagonal at n = 200 on a random
// symmetric matrix and on Q*diag(±1)*Qᵀ, with only those two matrices
// built (for CPU profiles of the small-order path).
func BenchmarkEigTridiagonal200(b *testing.B) {
	rs, pm := phaseMatrices(200)
	for _, c := range []struct {
		name string
		a    *mat.Dense
	}{{"random", rs}, {"pm1", pm}} {
		b.Run(c.name, func(b *testing.B) {
			defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
			defer cpuMetric(b)()
			for b.Loop() {
				if _, err := EigSym(c.a, &EigOptions{Method: EigTridiagonal}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// phaseMatrices returns the two matrices of order n that the phase
// timings and BenchmarkEigTridiagonal200 run on: a random symmetric one
// (Gaussian upper triangle) and Q*diag(±1)*Qᵀ, drawn with seed n.
func phaseMatrices(n int) (random, pm1 *mat.Dense) {
	r := rand.New(rand.NewPCG(uint64(n), 2))
	random = mat.Zeros(n, n)
	for i := range n {
		for j := i; j < n; j++ {
			v := r.NormFloat64()
			random.Set(i, j, v)
			random.Set(j, i, v)
		}
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = float64(1 - 2*(i%2))
	}
	return random, fuzz.LatmsSym(r, d)
}
