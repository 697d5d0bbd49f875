package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/treemix"
)

func TestTreemixCommand(t *testing.T) {
	dir := t.TempDir()
	m := treemix.RandomTreeMixture(10, 3, 2, &treemix.GenOptions{Seed: 1})
	x, _ := m.Sample(20000, 3)
	data := filepath.Join(dir, "data.csv")
	f, err := os.Create(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := treemix.WriteCSV(f, x); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dot := filepath.Join(dir, "trees.dot")
	var out, errb bytes.Buffer
	if err := run(bg, []string{"treemix", "-r", "2", "-restarts", "1", "-dot", dot, "-q", data}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{"union", "spectral", "EM from spectral", "EM random start 1", "H=0 weight", "H=1 weight", "held-out"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	b, err := os.ReadFile(dot)
	if err != nil || !bytes.HasPrefix(b, []byte("digraph treemix {")) || !bytes.Contains(b, []byte("cluster_1")) {
		t.Fatalf("DOT file: %v\n%s", err, b)
	}
	// errors: bad data with a line number, d <= r, missing file
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("0,1\n1,x\n"), 0o644)
	err = run(bg, []string{"treemix", "-q", bad}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad data: %v", err)
	}
	if err := run(bg, []string{"treemix", "-q", "-r", "3", data}, &out, &errb); err == nil || !strings.Contains(err.Error(), "d > r") {
		t.Fatalf("d <= r: %v", err)
	}
	if err := run(bg, []string{"treemix", "-q", filepath.Join(dir, "none.csv")}, &out, &errb); err == nil {
		t.Fatal("missing file accepted")
	}
}
