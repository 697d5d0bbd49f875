package tensor3

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/carry"
)

// TestParallelForPanic makes one index of parallelFor panic under 1 to 8
// goroutines: the caller must recover the panic (a *carry.Panic with the
// original value and the worker's stack when it ran on a worker).
func TestParallelForPanic(t *testing.T) {
	for _, w := range []int{1, 2, 3, 8} {
		v := func() (v any) {
			defer func() { v = recover() }()
			parallelFor(w, 0, 100, func(i int) {
				if i == 5 {
					panicAt(i)
				}
			})
			return nil
		}()
		if w == 1 {
			if v != 5 {
				t.Fatalf("1 goroutine: recovered %T %v", v, v)
			}
			continue
		}
		p, ok := v.(*carry.Panic)
		if !ok || p.Value != 5 || !strings.Contains(string(p.Stack), "panicAt") {
			t.Fatalf("%d goroutines: recovered %T %v", w, v, v)
		}
	}
}

//go:noinline
func panicAt(i int) { panic(i) }

// TestPowerBadTol: a NaN or infinite PowerOptions.Tol is an error that
// names the option, not a silent early (or never) stop.
func TestPowerBadTol(t *testing.T) {
	s := New(2, nil)
	s.Set(0, 0, 0, 1)
	for _, tol := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := PowerMethod(context.Background(), s, 1, &PowerOptions{Tol: tol, Seed: 1})
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "PowerOptions.Tol") {
			t.Errorf("Tol %v: error %v", tol, err)
		}
	}
}
