// Package testutil holds helpers for the module's tests. It is an
// ordinary (non-test) package so that the tests of several packages can
// share one copy; nothing outside the module's tests uses it. It imports
// no package of the module, so that the tests of every package,
// mat's included, can use it.
package testutil

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// Allocated returns the bytes f allocates on the heap
// (runtime.MemStats.TotalAlloc after f minus before it). It runs a
// garbage collection first so that the count starts from a settled heap;
// allocations by other goroutines running meanwhile are counted too.
func Allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// Eps is the unit roundoff of float64, 2^-53.
const Eps = 0x1p-53

// Scaled returns the LAPACK test ratio resid / (norm * max(n, 1) * Eps):
// a residual in units of the rounding error that a backward stable
// algorithm commits on an order-n problem of size norm. It is 0 when
// resid is 0, and a zero norm counts as 1.
func Scaled(resid, norm float64, n int) float64 {
	if resid == 0 {
		return 0
	}
	if norm == 0 {
		norm = 1
	}
	return resid / norm / float64(max(n, 1)) / Eps
}

// Normals returns n standard normal values drawn from rnd in order (for
// a row-major r x c matrix, n = r*c).
func Normals(rnd *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	return x
}

// MustPanic runs f and fails the test unless f panics with a string
// that starts with prefix (the package's "name: ") and contains every
// one of want.
func MustPanic(t testing.TB, f func(), prefix string, want ...string) {
	t.Helper()
	msg, panicked := func() (msg string, panicked bool) {
		defer func() {
			if r := recover(); r != nil {
				panicked = true
				s, ok := r.(string)
				if !ok {
					msg = "panic with a non-string value"
					return
				}
				msg = s
			}
		}()
		f()
		return "", false
	}()
	if !panicked {
		t.Fatalf("no panic; want one starting with %q and mentioning %q", prefix, want)
	}
	if !strings.HasPrefix(msg, prefix) {
		t.Fatalf("panic %q does not start with %q", msg, prefix)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Fatalf("panic %q does not mention %q", msg, w)
		}
	}
}
