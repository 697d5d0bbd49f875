package topic

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// randomModel returns a model whose entries use all the bits of a
// float64 (and some subnormal and tiny ones), with a vocabulary that
// needs escaping in JSON.
func randomModel(r *rand.Rand, n, k int) *Model {
	alpha := make([]float64, k)
	for j := range alpha {
		alpha[j] = 0.01 + r.Float64()
	}
	topics := synth.RandomLDA(r, n, k, 0.2, alpha).Topics
	topics.Set(0, 0, 0)
	topics.Set(1, 0, 5e-324)
	topics.Set(2, 0, 1e-300)
	col := make([]float64, n)
	for j := 0; j < k; j++ {
		topics.Col(col, j)
		ProjectSimplex(col) // sums to 1 within rounding
		topics.SetCol(j, col)
	}
	vocab := make([]string, n)
	for i := range vocab {
		vocab[i] = "w" + string(rune('a'+i%26)) + strings.Repeat("\"\\é\n", i%3)
	}
	return &Model{Vocab: vocab, Topics: topics, Alpha: alpha, Alpha0: 0.7,
		Options: map[string]string{"k": "3", "seed": "1", "tagged": "true"}}
}

func TestModelRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	m := randomModel(r, 40, 3)
	var buf bytes.Buffer
	if err := Save(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	a, b := m.Topics.RawData(), got.Topics.RawData()
	if len(a) != len(b) {
		t.Fatalf("%d entries back for %d", len(b), len(a))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("entry %d: %v saved, %v loaded", i, a[i], b[i])
		}
	}
	for j := range m.Alpha {
		if math.Float64bits(m.Alpha[j]) != math.Float64bits(got.Alpha[j]) {
			t.Fatalf("alpha %v saved, %v loaded", m.Alpha, got.Alpha)
		}
	}
	if got.Alpha0 != m.Alpha0 || len(got.Vocab) != len(m.Vocab) || len(got.Options) != len(m.Options) {
		t.Fatalf("loaded %+v", got)
	}
	for i := range m.Vocab {
		if got.Vocab[i] != m.Vocab[i] {
			t.Fatalf("word %d: %q saved, %q loaded", i, m.Vocab[i], got.Vocab[i])
		}
	}
	for key, v := range m.Options {
		if got.Options[key] != v {
			t.Fatalf("option %s: %q saved, %q loaded", key, v, got.Options[key])
		}
	}
	// Saving what was loaded gives the same bytes.
	var again bytes.Buffer
	if err := Save(&again, got); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Fatalf("second save differs (%v)", err)
	}
	// Without vocabulary or options.
	m.Vocab, m.Options = nil, nil
	buf.Reset()
	if err := Save(&buf, m); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(&buf); err != nil || got.Vocab != nil || got.Options != nil {
		t.Fatalf("without vocabulary: %v, %+v", err, got)
	}
}

func TestModelFromResult(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 22))
	alpha := []float64{0.3, 0.4, 0.5}
	model := synth.RandomLDA(r, 30, 3, 0.3, alpha)
	res, err := LearnLDAMoments(context.Background(), LDAMoments{Topics: model.Topics, Alpha: alpha}, 3, 1.2, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(res, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Save(&buf, m); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	c := model.NewCorpus(20, 50, 50, 3).Materialize()
	for i := 0; i < c.NumDocs(); i++ {
		a, b := res.Infer(c.Doc(i), 0), loaded.Infer(c.Doc(i), 0)
		for j := range a {
			if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
				t.Fatalf("document %d: proportions %v in process, %v from the loaded model", i, a, b)
			}
		}
	}
	// A result without Alpha (ECA factors have none) is not an LDA model.
	eca := &LDAResult{Model: Model{Topics: mat.Zeros(3, 2)}}
	if _, err := NewModel(eca, nil, nil); !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "ECA") {
		t.Fatalf("ECA result: %v", err)
	}
}

// TestLoadErrors edits a valid file into invalid ones; each must fail
// with ErrModel and a message naming the problem.
func TestLoadErrors(t *testing.T) {
	m := &Model{Topics: mat.New(2, 2, []float64{0.25, 0.5, 0.75, 0.5}), Alpha: []float64{0.5, 1}, Alpha0: 1.5, Vocab: []string{"a", "b"}}
	var buf bytes.Buffer
	if err := Save(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if _, err := Load(strings.NewReader(good)); err != nil {
		t.Fatalf("valid file: %v", err)
	}
	cases := []struct{ name, file, want string }{
		{"empty", "", "truncated"},
		{"truncated", good[:len(good)/2], "truncated"},
		{"not JSON", "model", "malformed"},
		{"trailing data", good + "{}", "after the model"},
		{"format", strings.Replace(good, ModelFormat, "other", 1), "format"},
		{"version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "version 2"},
		{"unknown field", strings.Replace(good, `"version"`, `"extra": 1, "version"`, 1), "unknown field"},
		{"type", strings.Replace(good, `"words": 2`, `"words": "2"`, 1), "words"},
		{"huge", strings.Replace(good, `"words": 2`, `"words": 4000000000000`, 1), "exceeds"},
		{"words", strings.Replace(good, `"words": 2`, `"words": 3`, 1), "vocabulary"},
		{"no words", strings.Replace(good, `"words": 2`, `"words": 0`, 1), "at least 1"},
		{"topics", strings.Replace(good, `"topics": 2`, `"topics": 1`, 1), "alphas"},
		{"alpha", strings.Replace(good, `"alpha": [0.5, 1]`, `"alpha": [0.5, -1]`, 1), "alpha[1]"},
		{"alpha0", strings.Replace(good, `"alpha0": 1.5`, `"alpha0": 0`, 1), "alpha0"},
		{"overflow", strings.Replace(good, `"alpha0": 1.5`, `"alpha0": 1e999`, 1), "alpha0"},
		{"negative", strings.Replace(good, "[0.25,0.75]", "[-0.25,1.25]", 1), "not a probability"},
		{"sum", strings.Replace(good, "[0.25,0.75]", "[0.25,0.76]", 1), "sums to"},
		{"short topic", strings.Replace(good, "[0.25,0.75]", "[1]", 1), "entries"},
		{"missing topic", strings.Replace(good, "[0.25,0.75],", "", 1), "topic_word"},
		{"null entry", strings.Replace(good, "[0.25,0.75]", "[null,0.75]", 1), "sums to"},
	}
	for _, c := range cases {
		if c.file == good {
			t.Fatalf("%s: the edit did not apply", c.name)
		}
		_, err := Load(strings.NewReader(c.file))
		if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrModel mentioning %q", c.name, err, c.want)
		}
	}
	// Save refuses what Load would.
	bad := &Model{Topics: mat.New(2, 1, []float64{math.NaN(), 1}), Alpha: []float64{1}, Alpha0: 1}
	if err := Save(&buf, bad); !errors.Is(err, ErrModel) {
		t.Errorf("Save of a NaN topic: %v", err)
	}
}

// TestInferScratch: infer with one work space reused over documents of
// different lengths (longest first) gives the bits of Infer with a fresh
// one.
func TestInferScratch(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	model := synth.RandomLDA(r, 60, 4, 0.1, []float64{0.3, 0.2, 0.2, 0.3})
	c := model.NewCorpus(40, 5, 120, 11).Materialize()
	m := &Model{Topics: model.Topics, Alpha: []float64{0.3, 0.2, 0.2, 0.3}}
	var s inferScratch
	for i := c.NumDocs() - 1; i >= 0; i-- {
		d := c.Doc(i)
		a, b := m.infer(d, 0, &s), m.Infer(d, 0)
		for j := range a {
			if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
				t.Fatalf("document %d: infer with a reused work space %v, Infer %v", i, a, b)
			}
		}
	}
}
