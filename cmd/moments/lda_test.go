package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/synth"
)

func TestLDACommand(t *testing.T) {
	dir := t.TempDir()
	// A small LDA corpus in the UCI format.
	r := rand.New(rand.NewPCG(1, 1))
	model := synth.RandomLDA(r, 60, 3, 0.1, []float64{0.1, 0.1, 0.1})
	c := model.NewCorpus(3000, 30, 60, 2).Materialize()
	var doc, voc strings.Builder
	nnz := 0
	for i := 0; i < c.NumDocs(); i++ {
		nnz += len(c.Doc(i).Words)
	}
	doc.WriteString(strings.Join([]string{itoa(c.NumDocs()), itoa(60), itoa(nnz)}, "\n") + "\n")
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		for j, w := range d.Words {
			doc.WriteString(itoa(i+1) + " " + itoa(int(w)+1) + " " + itoa(int(d.Counts[j])) + "\n")
		}
	}
	for w := 0; w < 60; w++ {
		voc.WriteString("word" + itoa(w) + "\n")
	}
	docword := filepath.Join(dir, "docword.test.txt")
	if err := os.WriteFile(docword, []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.test.txt"), []byte(voc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonPath := filepath.Join(dir, "model.json")
	var out, errb bytes.Buffer
	if err := run(bg, []string{"lda", "-k", "3", "-alpha0", "0.3", "-json", jsonPath, docword}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, want := range []string{"3000 documents, 60 words", "top eigenvalues", "word"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	var model2 struct {
		K      int
		Topics []struct{ Alpha float64 }
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil || json.Unmarshal(b, &model2) != nil || model2.K != 3 || len(model2.Topics) != 3 {
		t.Fatalf("JSON: %v %s", err, b)
	}
	// A directory of text files, and the errors.
	text := filepath.Join(dir, "text")
	os.Mkdir(text, 0o755)
	for i, s := range []string{"cats purr and cats sleep", "dogs bark and dogs run", "cats and dogs play", "birds sing and birds fly", "dogs chase cats", "birds and cats"} {
		os.WriteFile(filepath.Join(text, "d"+itoa(i)+".txt"), []byte(s), 0o644)
	}
	out.Reset()
	if err := run(bg, []string{"lda", "-k", "2", text}, &out, &errb); err != nil && !strings.Contains(err.Error(), "whiten") {
		t.Fatalf("text directory: %v", err)
	}
	if err := run(bg, []string{"lda", text}, &out, &errb); err == nil {
		t.Fatal("missing -k accepted")
	}
	if err := run(bg, []string{"lda", "-k", "2", filepath.Join(dir, "missing")}, &out, &errb); err == nil {
		t.Fatal("missing corpus accepted")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestLDAMissingDefaultVocab: the default vocabulary (vocab.X.txt beside
// docword.X.txt) is optional; a docword file alone failed with "open
// vocab.X.txt: no such file". Without a vocabulary the words are
// named by their ids.
func TestLDAMissingDefaultVocab(t *testing.T) {
	path := filepath.Join(t.TempDir(), "docword.t.txt")
	if err := os.WriteFile(path, []byte("2\n3\n4\n1 1 3\n1 2 2\n2 2 1\n2 3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err := run(bg, []string{"lda", "-k", "1", "-refine", "0", "-holdout", "0", "-alpha0", "1", path}, &out, &errb)
	if err != nil {
		t.Fatalf("a docword file without its default vocabulary: %v", err)
	}
	if !strings.Contains(out.String(), "w2") {
		t.Errorf("words are not named by their ids:\n%s", out.String())
	}
}
