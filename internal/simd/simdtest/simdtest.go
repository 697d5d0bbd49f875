// Package simdtest runs tests on every kernel implementation this machine
// can run. It is the one copy of that loop for the module's tests.
package simdtest

import (
	"sync"
	"testing"

	"github.com/moments-go/moments/internal/simd"
)

// EachLevel runs f(t, l) as a subtest named l for every level l that
// can run here. It selects nothing: f passes l to the kernel package's
// Table.For and calls that implementation directly, so a test that uses
// it can call t.Parallel (unless it changes other process state, such as
// GOMAXPROCS).
func EachLevel(t *testing.T, f func(t *testing.T, l simd.Level)) {
	t.Helper()
	for _, l := range simd.Available() {
		t.Run(l.String(), func(t *testing.T) { f(t, l) })
	}
}

// selecting serializes the tests that select a level, across packages
// run in one process.
var selecting sync.Mutex

// EachSelected runs f as a subtest, one after the other, with every level
// that can run here selected process-wide by simd.Use, and restores the
// selection afterwards. It is for tests of algorithms (svd, tensor3, ...)
// that reach the kernels through their package-level functions.
//
// Because it changes what every kernel call in the process runs, a test
// that uses it must not call t.Parallel (top-level parallel tests start
// only after all sequential ones have finished, so they never see its
// selections), and f must not either.
func EachSelected(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	ForSelected(t, func(l simd.Level) { t.Run(l.String(), f) })
}

// ForSelected calls f(l) for every level l that can run here, with l
// selected process-wide, and restores the selection afterwards: the
// form of EachSelected for fuzz targets and benchmarks, which report the
// level themselves. The rules of EachSelected apply.
func ForSelected(tb testing.TB, f func(l simd.Level)) {
	tb.Helper()
	selecting.Lock()
	defer selecting.Unlock()
	saved := simd.Current()
	defer func() {
		if err := simd.Use(saved); err != nil {
			tb.Fatal(err)
		}
	}()
	for _, l := range simd.Available() {
		if err := simd.Use(l); err != nil {
			tb.Fatal(err)
		}
		f(l)
	}
}
