package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/moments-go/moments/internal/testutil"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
)

// writeCorpusUCI writes c as docword.test.txt (with vocab.test.txt naming word
// i "word<i>") in dir and returns the docword path.
func writeCorpusUCI(t *testing.T, dir string, c *moments.Corpus) string {
	t.Helper()
	var doc, voc strings.Builder
	fmt.Fprintf(&doc, "%d\n%d\n%d\n", c.NumDocs(), c.VocabSize(), c.NNZ())
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		for j, w := range d.Words {
			fmt.Fprintf(&doc, "%d %d %d\n", i+1, w+1, d.Counts[j])
		}
	}
	for w := 0; w < c.VocabSize(); w++ {
		fmt.Fprintf(&voc, "word%d\n", w)
	}
	path := filepath.Join(dir, "docword.test.txt")
	if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.test.txt"), []byte(voc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readProportions parses the CSV of lda infer: the document names and
// the proportions.
func readProportions(t *testing.T, b []byte, k int) ([]string, [][]float64) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("CSV: %v\n%s", err, b)
	}
	head := "doc"
	for j := 0; j < k; j++ {
		head += ",topic" + strconv.Itoa(j)
	}
	if got := strings.Join(recs[0], ","); got != head {
		t.Fatalf("header %q, want %q", got, head)
	}
	var names []string
	var props [][]float64
	for _, r := range recs[1:] {
		names = append(names, r[0])
		p := make([]float64, k)
		for j := range p {
			if p[j], err = strconv.ParseFloat(r[j+1], 64); err != nil {
				t.Fatal(err)
			}
		}
		props = append(props, p)
	}
	return names, props
}

// TestLDAModelInfer learns and saves a model with the CLI, checks that
// the file holds exactly the model the library learns in process with
// the same settings, and that lda infer on the training corpus writes
// exactly the proportions topic.Model.Infer gives, as CSV and as JSON.
func TestLDAModelInfer(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 5))
	truth := synth.RandomLDA(r, 80, 3, 0.1, []float64{0.1, 0.1, 0.1})
	c := truth.NewCorpus(1500, 30, 60, 4).Materialize()
	docword := writeCorpusUCI(t, dir, c)
	modelPath := filepath.Join(dir, "model.json")
	var out, errb bytes.Buffer
	args := []string{"lda", "-k", "3", "-alpha0", "0.3", "-refine", "4", "-holdout", "0.2", "-model", modelPath, docword}
	if err := run(bg, args, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, want := range []string{"held out  300 documents", "refined   4 passes", "spectral", "model saved to"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	for p := 1; p <= 4; p++ {
		if !strings.Contains(errb.String(), fmt.Sprintf("refine pass %d/4: bound", p)) {
			t.Fatalf("stderr lacks pass %d:\n%s", p, errb.String())
		}
	}

	// The same model in process.
	read, err := readUCI(context.Background(), docword, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	read = dropUnused(io.Discard, read) // as the command does
	train, _ := splitHoldout(read, 0.2, 1)
	raw, err := topic.LearnLDA(context.Background(), train, 3, 0.3, &topic.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := topic.Refine(context.Background(), train, raw, &topic.RefineOptions{MaxPasses: 4})
	if err != nil {
		t.Fatal(err)
	}
	model := loadModel(t, modelPath)
	if !testutil.SameBits(model.Topics.RawData(), want.Topics.RawData()) || !testutil.SameBits(model.Alpha, want.Alpha) {
		t.Fatal("the saved model differs from the one learned in process")
	}
	if !slices.Equal(model.Vocab, read.Vocab) || model.Options["k"] != "3" || model.Options["refine"] != "4" || model.Options["alpha0"] != "0.3" {
		t.Fatalf("vocabulary or options not saved: %q %v", model.Vocab, model.Options)
	}

	// lda infer on the training corpus.
	out.Reset()
	errb.Reset()
	if err := run(bg, []string{"lda", "infer", modelPath, docword}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	names, props := readProportions(t, out.Bytes(), 3)
	if len(props) != c.NumDocs() {
		t.Fatalf("%d rows for %d documents", len(props), c.NumDocs())
	}
	for i, p := range props {
		if names[i] != strconv.Itoa(i+1) {
			t.Fatalf("row %d names document %q", i, names[i])
		}
		if w := want.Infer(read.Doc(i), 0); !testutil.SameBits(p, w) {
			t.Fatalf("document %d: lda infer %v, topic.Model.Infer %v", i+1, p, w)
		}
	}
	jsonPath := filepath.Join(dir, "props.json")
	if err := run(bg, []string{"lda", "infer", "-json", "-o", jsonPath, modelPath, docword}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Doc    string
		Topics []float64
	}
	b, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(b, &rows); err != nil || len(rows) != c.NumDocs() {
		t.Fatalf("JSON: %v, %d rows", err, len(rows))
	}
	for i, row := range rows {
		if !testutil.SameBits(row.Topics, props[i]) || row.Doc != names[i] {
			t.Fatalf("document %d: JSON %v, CSV %v", i+1, row.Topics, props[i])
		}
	}

	// Errors: a missing or invalid model, ids the model does not have.
	if err := run(bg, []string{"lda", "infer", filepath.Join(dir, "none.json"), docword}, &out, &errb); err == nil {
		t.Error("a missing model was accepted")
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, b[:len(b)/2], 0o644)
	if err := run(bg, []string{"lda", "infer", bad, docword}, &out, &errb); err == nil || !strings.Contains(err.Error(), "invalid model") {
		t.Errorf("a truncated model: %v", err)
	}
	notModel := filepath.Join(dir, "not-a-model.json")
	var sb bytes.Buffer
	if err := topic.Save(&sb, &topic.Model{Topics: model.Topics.Slice(0, 10, 0, 3).Clone(), Alpha: model.Alpha, Alpha0: 1}); err == nil {
		t.Fatal("a model whose topics do not sum to 1 was saved")
	}
	os.WriteFile(notModel, b, 0o644) // the proportions, not a model
	if err := run(bg, []string{"lda", "infer", notModel, docword}, &out, &errb); err == nil {
		t.Error("a file that is not a model was accepted")
	}
	if err := run(bg, []string{"lda", "infer", modelPath}, &out, &errb); err == nil {
		t.Error("a missing corpus was accepted")
	}
}

// TestLDAInferText saves a model learned from a directory of text files
// and infers the proportions of its documents, matched to the model's
// vocabulary by name, exactly as the loaded model does in process.
func TestLDAInferText(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	os.Mkdir(text, 0o755)
	r := rand.New(rand.NewPCG(6, 6))
	truth := synth.RandomLDA(r, 50, 3, 0.1, []float64{0.1, 0.1, 0.1})
	c := truth.NewCorpus(600, 30, 60, 8).Materialize()
	for i := 0; i < c.NumDocs(); i++ {
		var sb strings.Builder
		d := c.Doc(i)
		for j, w := range d.Words {
			for range d.Counts[j] {
				fmt.Fprintf(&sb, "zz%c%c ", 'a'+w/26, 'a'+w%26)
			}
		}
		os.WriteFile(filepath.Join(text, fmt.Sprintf("d%04d.txt", i)), []byte(sb.String()), 0o644)
	}
	os.WriteFile(filepath.Join(text, "README"), []byte("not a document"), 0o644)
	modelPath := filepath.Join(dir, "model.json")
	var out, errb bytes.Buffer
	if err := run(bg, []string{"lda", "-k", "3", "-alpha0", "0.3", "-refine", "2", "-include", `\.txt$`, "-model", modelPath, text}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	model := loadModel(t, modelPath)
	out.Reset()
	// -include comes from the model: README is not read.
	if err := run(bg, []string{"lda", "infer", modelPath, text}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	names, props := readProportions(t, out.Bytes(), 3)
	if len(props) != c.NumDocs() {
		t.Fatalf("%d rows for %d documents", len(props), c.NumDocs())
	}
	ids := make(map[string]int32)
	for i, w := range model.Vocab {
		ids[w] = int32(i)
	}
	for i := 0; i < c.NumDocs(); i++ {
		if want := fmt.Sprintf("d%04d.txt", i); names[i] != want {
			t.Fatalf("row %d names %q, want %q", i, names[i], want)
		}
		var b moments.Builder
		var ws []int32
		var cs []uint32
		d := c.Doc(i)
		for j, w := range d.Words {
			if id, ok := ids[fmt.Sprintf("zz%c%c", 'a'+w/26, 'a'+w%26)]; ok {
				ws = append(ws, id)
				cs = append(cs, d.Counts[j])
			}
		}
		b.Add(ws, cs)
		if w := model.Infer(b.Corpus().Doc(0), 0); !testutil.SameBits(props[i], w) {
			t.Fatalf("document %d: lda infer %v, in process %v", i, props[i], w)
		}
	}
}

// TestLDAChooseAlpha0 runs lda without -alpha0 on documents drawn with
// alpha0 = 0.3: it must print the scores and choose 0.3.
func TestLDAChooseAlpha0(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(12, 12))
	truth := synth.RandomLDA(r, 200, 3, 0.1, []float64{0.1, 0.1, 0.1})
	docword := writeCorpusUCI(t, dir, truth.NewCorpus(3000, 30, 80, 1).Materialize())
	var out, errb bytes.Buffer
	if err := run(bg, []string{"lda", "-k", "3", "-refine", "0", docword}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "alpha0    0.3, chosen by") || !strings.Contains(out.String(), "k = 3, alpha0 = 0.3,") {
		t.Fatalf("alpha0 not chosen as 0.3:\n%s", out.String())
	}
}

// loadModel reads the model file the command saved at path, failing t
// if it cannot be opened or read.
func loadModel(t *testing.T, path string) *topic.Model {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	model, err := topic.Load(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	return model
}
