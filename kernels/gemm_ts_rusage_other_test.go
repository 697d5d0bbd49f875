//go:build !unix

package kernels

import "time"

var start = time.Now()

// cpuTime returns the wall time since start (no getrusage here).
func cpuTime() float64 { return time.Since(start).Seconds() }
