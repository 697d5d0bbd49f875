package house

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/moments-go/moments/kernels"
)

// TestPiecesWorkers checks that the factorization (whose trailing
// updates run in pieces of rows, the next panel factored ahead) and the
// blocked products (FormQ and MulRight in pieces of rows, MulLeft in
// pieces of columns) give the same bits on 1, 2, 3 and 8 workers, on
// sizes of one piece, of several, and with a last piece shorter than
// the others, and that the factorization still reproduces its matrix:
// ||A - L Q||_max <= 50 n eps ||A||_max, with L from the factored
// matrix and Q from FormQ.
func TestPiecesWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer kernels.SetMaxWorkers(kernels.SetMaxWorkers(1))
	for _, c := range []struct{ m, n, r int }{
		{100, 150, 100}, {300, 500, 200}, {437, 461, 301}, {520, 260, 145},
	} {
		t.Run(fmt.Sprintf("%dx%d/r=%d", c.m, c.n, c.r), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.m), uint64(c.n)))
			a0 := make([]float64, c.m*c.n)
			for i := range a0 {
				a0[i] = rng.NormFloat64()
			}
			k := min(c.m, c.n)
			left := make([]float64, c.n*c.r)
			right := make([]float64, c.r*c.n)
			for i := range left {
				left[i], right[i] = rng.NormFloat64(), rng.NormFloat64()
			}
			var ref [][]float64
			for _, w := range []int{1, 2, 3, 8} {
				kernels.SetMaxWorkers(w)
				a := slices.Clone(a0)
				f := Factor(c.m, c.n, a, c.n)
				q := make([]float64, k*c.n)
				f.FormQ(k, q, c.n)
				l, r := slices.Clone(left), slices.Clone(right)
				f.MulLeft(true, c.r, l, c.r)
				f.MulRight(false, c.r, r, c.n)
				got := [][]float64{a, f.Tau, q, l, r}
				if ref == nil {
					ref = got
					checkLQ(t, c.m, c.n, a0, a, q)
					continue
				}
				for i, name := range []string{"factor", "tau", "FormQ", "MulLeft", "MulRight"} {
					for j := range got[i] {
						if math.Float64bits(got[i][j]) != math.Float64bits(ref[i][j]) {
							t.Fatalf("%d workers: %s element %d is %v, on one worker %v", w, name, j, got[i][j], ref[i][j])
						}
					}
				}
			}
		})
	}
}

// checkLQ checks ||A - L Q||_max <= 50 n eps ||A||_max for the m x n
// a0, its factored form fa (L on and below the diagonal) and the first
// min(m, n) rows of Q.
func checkLQ(t *testing.T, m, n int, a0, fa, q []float64) {
	t.Helper()
	k := min(m, n)
	var amax, diff float64
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p <= min(i, k-1); p++ {
				s += fa[i*n+p] * q[p*n+j]
			}
			diff = math.Max(diff, math.Abs(a0[i*n+j]-s))
			amax = math.Max(amax, math.Abs(a0[i*n+j]))
		}
	}
	if tol := 50 * float64(n) * eps * amax; !(diff <= tol) {
		t.Fatalf("||A - L Q||_max = %g, above %g", diff, tol)
	}
}
