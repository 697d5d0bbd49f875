package house

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestMulLeftConcurrent has 8 goroutines apply one set of reflectors,
// whose compact-WY T factors are formed lazily on first use under a
// mutex, at the same time (MulLeft both ways, MulRight), and checks that
// each gets the same bits as a product computed alone on a fresh
// factorisation. Run with -race (go test -race ./internal/house), it
// also checks that no goroutine reads a T factor another is forming.
func TestMulLeftConcurrent(t *testing.T) {
	const k, n, r = 200, 300, 24
	rng := rand.New(rand.NewPCG(3, 5))
	a := make([]float64, k*n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	x := make([]float64, n*r)
	for i := range x[:20*r] { // only the top 20 rows nonzero: [X; 0]
		x[i] = rng.NormFloat64()
	}
	y := make([]float64, r*n)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	apply := func(f *Reflectors, op int) []float64 {
		switch op % 3 {
		case 0, 1:
			c := append([]float64(nil), x...)
			f.MulLeft(op%3 == 1, r, c, r)
			return c
		default:
			c := append([]float64(nil), y...)
			f.MulRight(false, r, c, n)
			return c
		}
	}
	want := make([][]float64, 3)
	for op := range want {
		want[op] = apply(Factor(k, n, append([]float64(nil), a...), n), op)
	}
	shared := Factor(k, n, append([]float64(nil), a...), n)
	var wg sync.WaitGroup
	errs := make([]string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for it := 0; it < 3; it++ {
				op := g + it
				got := apply(shared, op)
				for i := range got {
					if got[i] != want[op%3][i] {
						errs[g] = "differs from the product computed alone"
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	for g, e := range errs {
		if e != "" {
			t.Errorf("goroutine %d: %s", g, e)
		}
	}
}
