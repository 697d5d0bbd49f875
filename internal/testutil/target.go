package testutil

import (
	"math"
	"runtime"
	"testing"
)

// SlowTarget reports whether the tests may run on a slow target (CI runs
// arm64 under qemu) or with -short: tests skip their largest cases then.
func SlowTarget() bool { return testing.Short() || runtime.GOARCH != "amd64" }

// SameBits reports whether a and b have the same length and the same
// bits in every element (NaNs of one payload compare equal, 0 and -0
// do not): the test of results that must not depend on the number of
// workers or on the path that computed them.
func SameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
