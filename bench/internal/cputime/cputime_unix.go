//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// now returns the CPU time (user plus system) the process has used, and
// true; when getrusage fails, the wall time since the process started
// and false.
func now() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Since(start), false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
