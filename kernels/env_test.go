package kernels

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/simd"
)

// TestEnvChild is run by TestEnvVar in a child process with
// MOMENTS_KERNELS set; it prints the active path.
func TestEnvChild(t *testing.T) {
	if os.Getenv("MOMENTS_KERNELS_CHILD") == "" {
		t.Skip("run by TestEnvVar")
	}
	os.Stdout.WriteString("active=" + Info().Active + "\n")
}

// TestEnvVar checks that MOMENTS_KERNELS selects a supported path and
// that naming an unsupported or unknown one stops the program at start-up
// with a message saying why.
func TestEnvVar(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	run := func(value string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnvChild$", "-test.v")
		cmd.Env = append(os.Environ(), "MOMENTS_KERNELS_CHILD=1", simd.EnvVar+"="+value)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			// Not a failure of the child but of starting it, as under
			// user-mode qemu without binfmt_misc.
			t.Skipf("cannot start the test binary as a child process here: %v", err)
		}
		return string(out), err
	}
	for _, p := range simd.Available() {
		out, err := run(strings.ToUpper(p.String()))
		if err != nil || !strings.Contains(out, "active="+p.String()) {
			t.Errorf("%s=%s: err %v, output:\n%s", simd.EnvVar, p, err, out)
		}
	}
	for _, p := range []simd.Level{simd.AVX2, simd.AVX512, simd.NEON} {
		if simd.Supported(p) {
			continue
		}
		out, err := run(p.String())
		if err == nil || !strings.Contains(out, "cannot run it") || !strings.Contains(out, simd.EnvVar) {
			t.Errorf("%s=%s on a CPU without it: err %v, output:\n%s", simd.EnvVar, p, err, out)
		}
	}
	if out, err := run("sse9"); err == nil || !strings.Contains(out, "unknown implementation") {
		t.Errorf("%s=sse9: err %v, output:\n%s", simd.EnvVar, err, out)
	}
}
