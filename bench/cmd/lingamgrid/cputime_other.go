//go:build !unix

package main

import "time"

var start = time.Now()

// cpuSeconds returns the wall time since start where the CPU time of the
// process is not available.
func cpuSeconds() float64 { return time.Since(start).Seconds() }
