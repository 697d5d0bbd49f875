package testutil

import (
	"runtime"
	"testing"
)

// SlowTarget reports whether the tests may run on a slow target (CI runs
// arm64 under qemu) or with -short: tests skip their largest cases then.
func SlowTarget() bool { return testing.Short() || runtime.GOARCH != "amd64" }
