package fuzz

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// The targets that take data (readers and learners) also check that no
// input makes a call allocate without bound or run away. Every such
// call goes through bounded, which counts the bytes the process
// allocates on the heap while the call runs (runtime.MemStats.TotalAlloc:
// every allocation, freed or not, by the call's goroutines and by any it
// starts) and fails when they exceed the call's budget, a stated
// constant times the size of its input plus a fixed allowance. A
// watchdog samples a cheaper count of the same (runtime/metrics
// /gc/heap/allocs:bytes) every watchPeriod while the call runs, so
// that a runaway fails (the fuzzer then saves the input) soon after it
// passes its budget instead of exhausting the machine; it also fails a
// call that runs longer than callTimeLimit while fuzzing.

// memLimit is the soft heap limit of the test process, and so of every
// fuzz worker, set by TestMain with debug.SetMemoryLimit: far above any
// budget, it makes the garbage collector work hard before a runaway
// that the watchdog has not caught yet takes the machine's memory.
const memLimit = 1 << 30

// watchPeriod is how often the watchdog samples the allocation count.
const watchPeriod = 2 * time.Millisecond

// callTimeLimit is the longest a call may run while fuzzing: well
// below the fuzzer's own 10 s limit, which reports a hang without
// saying what hung, and far above what the bounded shapes of these
// targets need (milliseconds). Plain test runs (which run the seeds
// under the race detector and qemu too) leave time to go test -timeout.
const callTimeLimit = 5 * time.Second

func TestMain(m *testing.M) {
	debug.SetMemoryLimit(memLimit)
	os.Exit(m.Run())
}

// budget is the most a call may allocate: base bytes, plus perUnit bytes
// for each unit of its input (a byte of a file, an entry of a matrix,
// as each target states).
type budget struct {
	base, perUnit uint64
}

// bytes returns the budget of a call on an input of the given size.
func (b budget) bytes(units int) uint64 {
	return b.base + b.perUnit*uint64(max(units, 0))
}

// allocated returns the bytes allocated on the heap so far by the
// process, exactly (runtime.ReadMemStats, which stops the world for
// microseconds to flush the per-P caches).
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// allocatedRoughly is allocated without stopping the world, for the
// watchdog: runtime/metrics counts small objects when their span is
// taken, so the count runs ahead of the exact one by at most a span per
// size class and P (never behind by more than the allocations of spans
// still being filled).
func allocatedRoughly() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// callReport is what measure saw of one call.
type callReport struct {
	alloc   uint64        // bytes allocated during the call
	elapsed time.Duration // wall time of the call
	overrun string        // what the watchdog saw, if it fired
}

// measure runs call with a watchdog that calls abort (once, from its
// own goroutine) when the bytes allocated since the start pass limit or
// the call runs longer than maxTime (0: no limit), and reports what
// the call allocated and how long it ran. abort may return: measure
// still waits for the call to finish.
func measure(limit uint64, maxTime time.Duration, call func(), abort func(msg string)) callReport {
	start, rough, t0 := allocated(), allocatedRoughly(), time.Now()
	done, watched := make(chan struct{}), make(chan string, 1)
	go func() {
		tick := time.NewTicker(watchPeriod)
		defer tick.Stop()
		for {
			select {
			case <-done:
				watched <- ""
				return
			case <-tick.C:
				var msg string
				if a := allocatedRoughly() - rough; a > limit {
					msg = fmt.Sprintf("allocated %d bytes so far, over the budget of %d", a, limit)
				} else if el := time.Since(t0); maxTime > 0 && el > maxTime {
					msg = fmt.Sprintf("still running after %v, over the limit of %v", el.Round(time.Millisecond), maxTime)
				}
				if msg != "" {
					abort(msg)
					<-done
					watched <- msg
					return
				}
			}
		}
	}()
	var r callReport
	func() {
		// A panicking call must stop the watchdog too, or it would
		// fire later, on whatever runs then.
		defer close(done)
		call()
		r = callReport{alloc: allocated() - start, elapsed: time.Since(t0)}
	}()
	r.overrun = <-watched
	return r
}

// check returns an error when the report breaks the limits.
func (r callReport) check(limit uint64) error {
	switch {
	case r.overrun != "":
		return fmt.Errorf("watchdog: %s", r.overrun)
	case r.alloc > limit:
		return fmt.Errorf("allocated %d bytes, over the budget of %d", r.alloc, limit)
	}
	return nil
}

// fuzzing reports whether the test binary runs with -test.fuzz (the
// coordinator or a fuzz worker).
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// bounded runs call (the library call under test, nothing else: the
// checks of its result come after) and fails t if it allocates more
// than b.bytes(units), or, while fuzzing, runs longer than
// callTimeLimit. While fuzzing, the watchdog panics once the call is
// well past its budget, in its own goroutine, which ends the process: the
// call cannot be stopped, and the fuzzer saves the input of a crashed
// worker. (It stops the call at twice the budget plus watchSlack: its
// count of small objects runs ahead of the exact one, and the exact
// check after the call is the one that holds calls to their budgets.)
// In plain test runs (the seeds) it panics only past
// plainHardLimit, so that the test reports which seeds break their
// budgets and carries on. With FUZZ_ALLOC_LOG set in the environment it
// prints every call's allocation and budget to stderr, for choosing the
// constants.
func bounded(t testing.TB, what string, b budget, units int, call func()) {
	t.Helper()
	limit := b.bytes(units)
	watch, maxTime := 2*limit+watchSlack, time.Duration(0)
	if fuzzing() {
		maxTime = callTimeLimit
	} else {
		watch = max(limit, plainHardLimit)
	}
	r := measure(watch, maxTime, call, func(msg string) {
		panic(fmt.Sprintf("fuzz: %s (input of %d units): runaway call: %s", what, units, msg))
	})
	if os.Getenv("FUZZ_ALLOC_LOG") != "" {
		fmt.Fprintf(os.Stderr, "ALLOC %s units %d alloc %d limit %d ratio %.4f\n", what, units, r.alloc, limit, float64(r.alloc)/float64(limit))
	}
	if err := r.check(limit); err != nil {
		t.Fatalf("%s (input of %d units): %v", what, units, err)
	}
}

// watchSlack covers the lead of the watchdog's count over the exact
// one: a span (8 KiB or more) per size class and P.
const watchSlack = 8 << 20

// plainHardLimit is where the watchdog stops a call in plain test runs.
const plainHardLimit = memLimit / 2

// sink keeps allocations of the harness tests from being optimised away.
var sink []byte

// tbRecorder stands in for a testing.TB and records what bounded
// reports instead of failing.
type tbRecorder struct {
	testing.TB
	fatal string
}

func (r *tbRecorder) Helper() {}

func (r *tbRecorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

// TestBudgetHarness checks that the harness can fail: an allocation
// over the budget is reported after the call, a runaway is stopped by
// the watchdog while it runs, a slow call by the time limit, and a call
// within its budget passes; and that bounded fails its test on the
// first.
func TestBudgetHarness(t *testing.T) {
	noAbort := func(msg string) {}
	r := measure(1<<20, 0, func() { sink = make([]byte, 8<<20) }, noAbort)
	if r.alloc < 8<<20 || r.check(1<<20) == nil {
		t.Errorf("8 MiB against a budget of 1 MiB: measured %d bytes, check %v", r.alloc, r.check(1<<20))
	}
	r = measure(1<<20, 0, func() { sink = make([]byte, 100<<10) }, noAbort)
	if r.alloc < 100<<10 || r.check(1<<20) != nil {
		t.Errorf("100 KiB against a budget of 1 MiB: measured %d bytes, check %v", r.alloc, r.check(1<<20))
	}

	// A runaway: 1 MiB at a time until the watchdog says stop (or 4 GiB
	// allocated, of which at most 1 MiB is live at a time).
	stop := make(chan struct{})
	chunks := 0
	r = measure(8<<20, 0, func() {
		for ; chunks < 4096; chunks++ {
			select {
			case <-stop:
				return
			default:
				sink = make([]byte, 1<<20)
				time.Sleep(50 * time.Microsecond)
			}
		}
	}, func(string) { close(stop) })
	if r.overrun == "" || r.check(8<<20) == nil || chunks >= 512 {
		t.Errorf("runaway: watchdog %q after %d chunks of 1 MiB (budget 8 MiB)", r.overrun, chunks)
	}

	// A call that outlives its time limit.
	stop = make(chan struct{})
	r = measure(1<<30, 20*time.Millisecond, func() {
		select {
		case <-stop:
		case <-time.After(5 * time.Second):
		}
	}, func(string) { close(stop) })
	if r.overrun == "" || r.elapsed >= 5*time.Second {
		t.Errorf("slow call: watchdog %q after %v (limit 20ms)", r.overrun, r.elapsed)
	}

	rec := &tbRecorder{TB: t}
	bounded(rec, "make", budget{base: 1 << 20, perUnit: 1}, 1000, func() { sink = make([]byte, 4<<20) })
	if rec.fatal == "" {
		t.Error("bounded passed 4 MiB against a budget of 1 MiB + 1000 bytes")
	}
	rec = &tbRecorder{TB: t}
	bounded(rec, "make", budget{base: 1 << 20, perUnit: 1}, 1000, func() { sink = make([]byte, 512<<10) })
	if rec.fatal != "" {
		t.Errorf("bounded failed 512 KiB against a budget of 1 MiB + 1000 bytes: %s", rec.fatal)
	}
	sink = nil
}
