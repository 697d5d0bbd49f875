// Package testutil holds helpers for the module's tests. It is an
// ordinary (non-test) package so that the tests of several packages can
// share one copy; nothing outside the module's tests uses it.
package testutil

import "runtime"

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
