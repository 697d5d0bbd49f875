//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputNotRegular: an output path that is a named pipe (as
// /dev/stdout often is) is written in place; the old rename over it
// turned /dev/null into a regular file when a root user gave it as
// -json.
func TestOutputNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// Opened read-write, the pipe has a reader, so the writer's open
	// does not block.
	r, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out, err := createOutput("json", fifo)
	if err != nil {
		t.Fatal(err)
	}
	if err := out.commit(func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }); err != nil {
		t.Fatal(err)
	}
	// The path is checked first: were it replaced, the read below would
	// wait for ever.
	info, err := os.Lstat(fifo)
	if err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("after the write the path is %v (%v), not a named pipe", info.Mode(), err)
	}
	buf := make([]byte, 16)
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != "{}\n" {
		t.Fatalf("read %q, %v from the pipe; want %q", buf[:n], err, "{}\n")
	}
	out.discard() // after commit: nothing to do, and the pipe stays
	if _, err := os.Lstat(fifo); err != nil {
		t.Fatal("discard after commit removed the pipe:", err)
	}
}
