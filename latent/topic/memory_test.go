package topic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
var allocated = testutil.Allocated

// hugeHeaderUCI writes c (30 words) as a UCI file whose header declares
// W = 10^7 words, word w becoming id 1 + w*333331: a 60 KB file whose
// header claims ten million words.
func hugeHeaderUCI(c *moments.Corpus) []byte {
	var body bytes.Buffer
	for i := range c.NumDocs() {
		d := c.Doc(i)
		for j, w := range d.Words {
			fmt.Fprintf(&body, "%d %d %d\n", i+1, 1+int(w)*333331, d.Counts[j])
		}
	}
	return append([]byte(fmt.Sprintf("%d\n%d\n%d\n", c.NumDocs(), 10_000_000, c.NNZ())), body.Bytes()...)
}

// TestHugeDeclaredVocabulary: a small corpus whose UCI header declares
// 10^7 words is learned on the words that occur (the topics of the
// others are zero), with the same bits as the same corpus over its 30
// words, and without allocating more than the n x k topics it returns
// and a few bytes a declared word; a limit below that refuses it before
// any pass.
func TestHugeDeclaredVocabulary(t *testing.T) {
	const n, k, alpha0 = 30, 3, 1.0
	r := rand.New(rand.NewPCG(14, 1))
	model := synth.RandomLDA(r, n, k, 1, []float64{0.3, 0.3, 0.4})
	native := model.NewCorpus(300, 20, 40, 7).Materialize()
	if _, old := compact(native); old != nil || countWords(native) != n {
		t.Fatalf("the native corpus uses %d of its %d words; the comparison needs all", countWords(native), n)
	}
	file := hugeHeaderUCI(native)
	if len(file) > 80_000 {
		t.Fatalf("the UCI file has %d bytes; the case wants about 60 KB", len(file))
	}
	huge, err := moments.ReadUCI(bytes.NewReader(file), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if huge.VocabSize() != 10_000_000 {
		t.Fatalf("VocabSize %d", huge.VocabSize())
	}
	ctx := context.Background()
	opts := &Options{Seed: 3}
	want, err := LearnLDA(ctx, native, k, alpha0, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got *LDAResult
	bytesUsed := allocated(func() { got, err = LearnLDA(ctx, huge, k, alpha0, opts) })
	if err != nil {
		t.Fatal(err)
	}
	// The topics returned (8 n k = 240 MB), the marks and the map of the
	// declared words (5 n = 50 MB), and little else.
	if limit := uint64(8*k+5)*10_000_000 + 50<<20; bytesUsed > limit {
		t.Errorf("LDA on the declared 10^7 words allocated %d bytes, more than %d", bytesUsed, limit)
	}
	for w := range 10_000_000 {
		for j := range k {
			v := got.Topics.At(w, j)
			if w%333331 == 0 && w/333331 < n { // id 1 + w*333331, row w*333331
				if wv := want.Topics.At(w/333331, j); v != wv {
					t.Fatalf("topic %d, word %d: %v, want %v (the native corpus's)", j, w, v, wv)
				}
			} else if v != 0 {
				t.Fatalf("topic %d, word %d that never occurs: %v, want 0", j, w, v)
			}
		}
	}
	for j := range k {
		if got.Alpha[j] != want.Alpha[j] {
			t.Errorf("alpha %d: %v, want %v", j, got.Alpha[j], want.Alpha[j])
		}
	}

	// Under a limit of 100 MB the topics alone (240 MB) do not fit.
	bytesUsed = allocated(func() { _, err = LearnLDA(ctx, huge, k, alpha0, &Options{Seed: 3, MaxMemory: 100 << 20}) })
	var me *mat.MemoryError
	if !errors.As(err, &me) || !errors.Is(err, mat.ErrTooLarge) {
		t.Fatalf("MaxMemory 100 MB: want a *mat.MemoryError, got %v", err)
	}
	if me.Need <= me.Limit || me.Limit != 100<<20 {
		t.Errorf("Need %d, Limit %d", me.Need, me.Limit)
	}
	if bytesUsed > 1<<20 {
		t.Errorf("the refusal allocated %d bytes", bytesUsed)
	}
	t.Logf("refused: %v", err)
}

// countWords returns the number of distinct words in c.
func countWords(c *moments.Corpus) int {
	seen := map[int32]bool{}
	for i := range c.NumDocs() {
		for _, w := range c.Doc(i).Words {
			seen[w] = true
		}
	}
	return len(seen)
}

// TestLearnMemoryLimit: the memory rule of learn, with the passes'
// accumulators counted, refuses a job over MaxMemory before any pass,
// for LDA and ECA alike; a negative MaxMemory lifts the limit.
func TestLearnMemoryLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	c := synth.RandomLDA(r, 40, 3, 0.1, []float64{0.3, 0.3, 0.4}).NewCorpus(200, 20, 40, 8).Materialize()
	ctx := context.Background()
	// 40 words, k = 3: the sketches alone take 4*40*14*8 = 17920 bytes.
	o := &Options{MaxMemory: 10_000, Passes: moments.Options{Workers: 1}}
	if _, err := LearnLDA(ctx, c, 3, 1, o); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LDA under 10 kB: %v, want ErrTooLarge", err)
	}
	if _, err := LearnECA(ctx, c, 3, o); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("ECA under 10 kB: %v, want ErrTooLarge", err)
	}
	o.MaxMemory = -1
	if _, err := LearnLDA(ctx, c, 3, 1, o); err != nil {
		t.Errorf("LDA without a limit: %v", err)
	}
}
