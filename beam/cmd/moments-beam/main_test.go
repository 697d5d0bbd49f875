package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
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
