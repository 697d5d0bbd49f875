package topic

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// TestDocSketch checks SelectAlpha0's starting block: the same seed gives
// the same bits, another seed other numbers, a word that no document
// uses a zero row, and a document's contribution is its word
// frequencies times its own Gaussian row (a corpus of one document gives
// rows proportional to the counts).
func TestDocSketch(t *testing.T) {
	var b moments.Builder
	for _, d := range [][2][]int{
		{{0, 2, 5}, {3, 1, 4}},
		{{1, 2}, {2, 2}},
		{{0, 1, 5}, {1, 1, 1}},
	} {
		words := make([]int32, len(d[0]))
		counts := make([]uint32, len(d[1]))
		for i := range words {
			words[i], counts[i] = int32(d[0][i]), uint32(d[1][i])
		}
		if err := b.Add(words, counts); err != nil {
			t.Fatal(err)
		}
	}
	b.SetVocabSize(7)
	c := b.Corpus()
	ctx := context.Background()
	a, a2, o := sketch(t, ctx, c, 4, 1), sketch(t, ctx, c, 4, 1), sketch(t, ctx, c, 4, 2)
	same, other := true, false
	for i := 0; i < 7; i++ {
		for j := 0; j < 4; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(a2.At(i, j)) {
				same = false
			}
			if a.At(i, j) != o.At(i, j) {
				other = true
			}
		}
	}
	if !same || !other {
		t.Fatalf("same seed same bits: %v; another seed other numbers: %v", same, other)
	}
	for _, w := range []int{3, 4, 6} {
		for j := 0; j < 4; j++ {
			if a.At(w, j) != 0 {
				t.Fatalf("word %d, which no document uses, has row %v", w, a.RawRow(w))
			}
		}
	}
	one := c.Subset([]int{0})
	s := sketch(t, ctx, one, 3, 5)
	// Words 0, 2, 5 with counts 3, 1, 4: rows 3g/8, g/8, 4g/8.
	for j := 0; j < 3; j++ {
		g := s.At(2, j) * 8
		for _, wc := range [][2]int{{0, 3}, {5, 4}} {
			if d := math.Abs(s.At(wc[0], j) - float64(wc[1])*g/8); d > 1e-15*math.Abs(g) {
				t.Fatalf("column %d: word %d has %v, want %v", j, wc[0], s.At(wc[0], j), float64(wc[1])*g/8)
			}
		}
		if g == 0 {
			t.Fatalf("column %d of a one-document sketch is zero", j)
		}
	}
}

func sketch(t *testing.T, ctx context.Context, src moments.Source, l int, seed uint64) *mat.Dense {
	t.Helper()
	s, err := docSketch(ctx, src, l, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDocSketchCanceled checks that a done ctx stops the sketch with its
// error.
func TestDocSketchCanceled(t *testing.T) {
	var b moments.Builder
	if err := b.Add([]int32{0, 1}, []uint32{1, 2}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := docSketch(ctx, b.Corpus(), 2, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
