package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/moments-go/moments/internal/carry"
)

var maxWorkers atomic.Int64

// SetMaxWorkers limits the goroutines one kernel call (GEMM, SYRK) may
// use to n; n <= 0 means GOMAXPROCS, the default. It returns the previous
// limit. Results never depend on it: every kernel gives bit-identical
// output for any number of workers.
func SetMaxWorkers(n int) int {
	return int(maxWorkers.Swap(int64(max(n, 0))))
}

// Workers returns how many goroutines a large kernel call uses now.
func Workers() int {
	w := runtime.GOMAXPROCS(0)
	if m := int(maxWorkers.Load()); m > 0 && m < w {
		w = m
	}
	return w
}

// workersFor returns the number of goroutines worth starting for a job
// of the given flop count: each must get at least minFlopsPerWorker, so
// that starting it costs little next to its share.
func workersFor(flops float64) int {
	const minFlopsPerWorker = 1 << 21
	w := Workers()
	if f := int(flops / minFlopsPerWorker); f < w {
		w = max(f, 1)
	}
	return w
}

// parallel runs f(0), ..., f(w-1), each on its own goroutine except
// f(0), which runs on the caller's, and returns when all are done. A
// panic in any f is carried back: once all have returned, parallel
// panics on the caller's goroutine with a *carry.Panic that holds the
// original value and the stack of the goroutine that panicked.
func parallel(w int, f func(worker int)) {
	if w <= 1 {
		f(0)
		return
	}
	var (
		wg     sync.WaitGroup
		caught carry.Catcher
	)
	wg.Add(w - 1)
	for i := 1; i < w; i++ {
		go func() {
			defer wg.Done()
			defer caught.Catch(nil)
			f(i)
		}()
	}
	func() {
		defer caught.Catch(nil)
		f(0)
	}()
	wg.Wait()
	caught.Repanic()
}

// buffers recycles the 64-byte aligned scratch space of the packing
// routines.
var buffers sync.Pool

type buffer struct {
	raw []float64
	buf []float64 // 64-byte aligned window into raw
}

// getBuffer returns a buffer with room for at least n aligned values.
func getBuffer(n int) *buffer {
	b, _ := buffers.Get().(*buffer)
	if b == nil || len(b.buf) < n {
		b = &buffer{raw: make([]float64, n+8)}
		off := alignOffset(b.raw)
		b.buf = b.raw[off : off+n]
	}
	return b
}

func putBuffer(b *buffer) { buffers.Put(b) }
