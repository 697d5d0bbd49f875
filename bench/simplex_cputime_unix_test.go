//go:build unix

package bench

import "syscall"

// simplexCPUSeconds returns the CPU time (user + system) the process has
// used, in seconds, and true. The simplex benchmarks report it per
// operation (cpu-s/op) beside the wall time, as the anchors' HiGHS time
// is Python's process_time and glpsol's the CPU time of its process, so
// that the load of a shared machine does not enter the comparison.
func simplexCPUSeconds() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, true
}
