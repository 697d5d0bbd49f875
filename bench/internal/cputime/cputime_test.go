package cputime

import (
	"path/filepath"
	"runtime"
	"testing"
)

// TestNowAdvances: a busy loop of about 20 ms of work moves the CPU
// time forward (it cannot move back), and a profile file is written.
func TestNowAdvances(t *testing.T) {
	stop, err := StartProfile(filepath.Join(t.TempDir(), "cpu.prof"))
	if err != nil {
		t.Fatal(err)
	}
	a := Now()
	x := 1.0
	for i := 0; i < 20_000_000; i++ {
		x = x*1.0000001 + 1e-9
	}
	runtime.KeepAlive(x)
	b, ok := Now(), Available()
	if b <= a {
		t.Errorf("CPU time did not advance: %v then %v (CPU time: %v)", a, b, ok)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
