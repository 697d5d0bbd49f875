package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/mat"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// TestLDAModelFile runs "moments-beam lda" on counts shards and checks
// that the model file loads with topic.Load and matches the in-process
// learner within the package's tolerance.
func TestLDAModelFile(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	c := synth.RandomLDA(r, 40, 3, 0.1, []float64{0.3, 0.3, 0.3}).NewCorpus(900, 10, 30, 4).Materialize()
	dir := t.TempDir()
	for s := 0; s < 3; s++ {
		var b strings.Builder
		for i := s * 300; i < (s+1)*300; i++ {
			d := c.Doc(i)
			for j, w := range d.Words {
				fmt.Fprintf(&b, "%d:%d ", w, d.Counts[j])
			}
			b.WriteByte('\n')
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d", s)), []byte(b.String()), 0o644)
	}
	modelPath := filepath.Join(t.TempDir(), "model")
	*in, *format, *words, *k, *alpha0, *model, *seed, *temp = filepath.Join(dir, "s*"), "counts", 40, 3, 0.9, modelPath, 7, t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), "lda", &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "topic 2 (alpha") {
		t.Errorf("output:\n%s", out.String())
	}
	f, err := os.Open(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := topic.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := topic.LearnLDA(context.Background(), c, 3, 0.9, &topic.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	n, kk := want.Topics.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < kk; j++ {
			if d := m.Topics.At(i, j) - want.Topics.At(i, j); d > 1e-12 || d < -1e-12 {
				t.Fatalf("topic %d word %d: %v, in process %v", j, i, m.Topics.At(i, j), want.Topics.At(i, j))
			}
		}
	}
	if err := run(context.Background(), "nonsense", &out, &out); err == nil {
		t.Error("an unknown command runs")
	}
	_ = moments.Raw
}

// TestDAGAndTreemix runs "moments-beam dag" and "moments-beam treemix"
// on generated shards and checks what they print and write.
func TestDAGAndTreemix(t *testing.T) {
	ctx := context.Background()
	m := synth.RandomDAG(rand.New(rand.NewPCG(5, 5)), 9, 3, 0.3, 0.5, synth.Skewed)
	src := m.Samples(3000, 2)
	dir := t.TempDir()
	for s := 0; s < 2; s++ {
		var b strings.Builder
		row := make([]float64, src.Dim())
		for i := s * 1500; i < (s+1)*1500; i++ {
			x := mat.Zeros(1, src.Dim())
			src.Block(i, i+1, x)
			copy(row, x.RawRow(0))
			for j, v := range row {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
			b.WriteByte('\n')
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("x%d.csv", s)), []byte(b.String()), 0o644)
	}
	*in, *k, *temp, *coef = filepath.Join(dir, "x*.csv"), 3, t.TempDir(), false
	var out bytes.Buffer
	if err := run(ctx, "dag", &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Lambda") || strings.Count(out.String(), "\n") != 2+9+3 {
		t.Errorf("dag output:\n%s", out.String())
	}

	mix := treemix.RandomTreeMixture(5, 3, 2, &treemix.GenOptions{Seed: 1})
	x, _ := mix.Sample(4000, 2)
	var b bytes.Buffer
	if err := treemix.WriteCSV(&b, x); err != nil {
		t.Fatal(err)
	}
	tdir := t.TempDir()
	os.WriteFile(filepath.Join(tdir, "a.csv"), b.Bytes(), 0o644)
	os.WriteFile(filepath.Join(tdir, "b.csv"), nil, 0o644) // an empty shard
	dotPath := filepath.Join(t.TempDir(), "m.dot")
	*in, *r, *dot = filepath.Join(tdir, "*.csv"), 2, dotPath
	out.Reset()
	if err := run(ctx, "treemix", &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "component 1: weight") {
		t.Errorf("treemix output:\n%s", out.String())
	}
	d, err := os.ReadFile(dotPath)
	if err != nil || !strings.Contains(string(d), "graph") {
		t.Errorf("DOT file: %v\n%s", err, d)
	}
}
