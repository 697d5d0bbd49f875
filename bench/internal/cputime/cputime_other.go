//go:build !unix

package cputime

import "time"

// now returns the wall time since the process started and false: the
// CPU time of the process is not available on this platform.
func now() (time.Duration, bool) { return time.Since(start), false }
