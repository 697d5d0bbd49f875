package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLDAWarnings: an implausible model (k = 2 on three documents,
// alphas summing to about 236 for alpha0 = 1) is printed with its
// warnings on stderr, one "moments: warning:" line each.
func TestLDAWarnings(t *testing.T) {
	dir := t.TempDir()
	docword := filepath.Join(dir, "docword.tiny.txt")
	in := "3\n20\n7\n1 8 3\n1 14 3\n1 20 1\n2 4 3\n2 18 2\n3 10 2\n3 16 3\n"
	if err := os.WriteFile(docword, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	var voc strings.Builder
	for w := 0; w < 20; w++ {
		voc.WriteString("word" + itoa(w) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.tiny.txt"), []byte(voc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(bg, []string{"lda", "-k", "2", "-alpha0", "1", docword}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, want := range []string{"moments: warning: the learned alphas sum to", "moments: warning: only 3 documents for k = 2"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}
