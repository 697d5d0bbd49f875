package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv carries the command line of the moments that the test
// binary runs as a child process for TestCtrlC.
const helperEnv = "MOMENTS_TEST_MAIN_ARGS"

// TestMainHelper is main itself when the test binary runs as a child of
// TestCtrlC; otherwise it does nothing.
func TestMainHelper(t *testing.T) {
	args := os.Getenv(helperEnv)
	if args == "" {
		t.Skip("the child process of TestCtrlC")
	}
	os.Args = append([]string{"moments"}, strings.Fields(args)...)
	main()
}

// TestCtrlC sends SIGINT to a real moments process (main, with its
// signal.NotifyContext) while it learns: it exits with status 1 and
// "moments: example: interrupted" on a line of its own after the
// progress line, and leaves no output file.
func TestCtrlC(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainHelper$")
	// a run of minutes: 10^8 samples
	cmd.Env = append(os.Environ(), helperEnv+"=example -n 100000000 -vars 12 -k 2 -svg "+filepath.Join(dir, "ex.svg"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); errors.Is(err, syscall.ENOEXEC) {
		// the test binary runs under an emulator (go test -exec
		// qemu-aarch64-static) that the kernel does not know of
		t.Skipf("cannot run the test binary as a child: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	kill := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer kill.Stop()
	// Wait for the first progress line, then interrupt.
	var got bytes.Buffer
	buf := make([]byte, 4096)
	for !bytes.Contains(got.Bytes(), []byte("sampling + moments")) {
		n, err := stderr.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("no progress line: %v: %q", err, got.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	got.Write(rest)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v; stderr %q", err, got.String())
	}
	// the progress line, ended by a newline, then the message
	if s := got.String(); !strings.HasPrefix(s, "\r") || !strings.HasSuffix(s, "\nmoments: example: interrupted\n") {
		t.Fatalf("stderr %q", s)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("the interrupted run left %s", left[0].Name())
	}
}
