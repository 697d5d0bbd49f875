//go:build unix

package main

import "syscall"

// cpuSeconds returns the CPU time (user + system) this process has used,
// in seconds. The methods are timed by it, as lingam_grid.py times
// lingam by Python's process_time, so that the load of a shared machine
// does not enter the comparison; every method runs on one core.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
