package jacobi

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/vec"
)

// BenchmarkJacobiSteps times one step of np disjoint pairs of rows of
// length n (tol 0: every pair is rotated), on every path, by Steps
// and by a plan of the same step.
func BenchmarkJacobiSteps(b *testing.B) {
	for _, n := range []int{32, 104, 304} {
		for _, np := range []int{1, 8, 16} {
			for _, kind := range []string{"steps", "plan"} {
				for _, p := range simd.Available() {
					b.Run(fmt.Sprintf("n=%d/np=%d/%s/%v", n, np, kind, p), func(b *testing.B) {
						im := table.For(p)
						r := rand.New(rand.NewPCG(1, 2))
						x := make([]float64, 2*np*n)
						for i := range x {
							x[i] = r.NormFloat64()
						}
						sq := make([]float64, 2*np)
						rows := make([]int, 2*np)
						for i := range sq {
							sq[i] = vec.DotAt(p, x[i*n:(i+1)*n], x[i*n:(i+1)*n])
							rows[i] = i
						}
						cs := make([]float64, 2*np)
						plan := NewPlan(rows, []int{np})
						for b.Loop() {
							if kind == "plan" {
								im.planSteps(plan, x, n, n, sq, 0, cs)
							} else {
								im.Steps(x, n, n, rows, []int{np}, sq, 0, cs)
							}
						}
						b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(np), "ns/pair")
					})
				}
			}
		}
	}
}

// BenchmarkJacobiSweepT times one sweep of the slot kernel on r rows of
// r columns.
func BenchmarkJacobiSweepT(b *testing.B) {
	for _, r := range []int{10, 16, 25, 32} {
		for _, p := range simd.Available() {
			b.Run(fmt.Sprintf("r=%d/%v", r, p), func(b *testing.B) {
				im := table.For(p)
				rnd := rand.New(rand.NewPCG(3, 4))
				m := (r + 1) / 2
				tt, sq := slotCase(rnd, m, r, r)
				for b.Loop() {
					im.SweepT(tt, m, r, r, sq, 0)
				}
			})
		}
	}
}
