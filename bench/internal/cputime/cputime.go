// Package cputime measures the CPU time of the benchmark process and
// starts CPU profiles, for the bench commands and tests. On a machine
// shared with other jobs the CPU time (user plus system) measures the
// work done, where wall time would add the time the process waited for
// a core; the Python anchors are timed the same way (process_time).
package cputime

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

// Now returns the CPU time (user plus system) the process has used;
// where the platform does not report it (see Available), the wall time
// since the process started.
func Now() time.Duration {
	d, _ := now()
	return d
}

// Seconds is Now in seconds.
func Seconds() float64 { return Now().Seconds() }

// Available reports whether Now is CPU time on this platform.
func Available() bool {
	_, ok := now()
	return ok
}

var start = time.Now()

// StartProfile writes a CPU profile of the process to path until the
// returned stop function is called; stop reports an error in closing
// the file.
func StartProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cputime: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
