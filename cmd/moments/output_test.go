package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestOutputSymlink: writing to a symbolic link replaces the file it
// names and leaves the link a link.
func TestOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	out, err := createOutput("json", link)
	if err != nil {
		t.Fatal(err)
	}
	if err := out.commit(func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is now %v (%v)", info.Mode(), err)
	}
	got, err := os.ReadFile(real)
	if err != nil || string(got) != "new" {
		t.Fatalf("the linked file holds %q (%v), want %q", got, err, "new")
	}
	info, err := os.Stat(real)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the linked file's mode is %v (%v), want 0600 kept", info.Mode().Perm(), err)
	}
}
