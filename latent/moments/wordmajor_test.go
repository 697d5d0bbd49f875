package moments

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestPairsWordMajor: on a corpus with no more documents than words,
// PairsTimes transposes the corpus once and gives the same bits as the
// document-major pass of PairsAccumulators, for every variant, for 1 to
// 5 workers, over several chunks, with documents of fewer than two
// tokens and words no document uses; the copies of a DocMoments share
// the index.
func TestPairsWordMajor(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	const docs, n, m = 700, 900, 6
	c := randomCorpus(r, docs, n, 0, 60) // lengths 0 and 1 included
	x := mat.Zeros(n, m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			x.Set(i, j, r.NormFloat64())
		}
	}
	if wideChunk(docs, c.NNZ(), n) >= docs {
		t.Fatal("one chunk: the test would not cover the merges")
	}
	for _, v := range []Variant{Raw, Central, LDA} {
		for _, w := range []int{1, 2, 5} {
			dm, err := NewDocMoments(ctx, c, v, 0.4, &Options{Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			got, err := dm.PairsTimes(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			if dm.words.idx == nil {
				t.Fatal("PairsTimes did not transpose a corpus of fewer documents than words")
			}
			copied := *dm
			if copied.index() != dm.words.idx {
				t.Fatal("a copy of the DocMoments does not share the index")
			}
			ref := *dm
			ref.words = nil // the document-major pass
			want, err := ref.PairsTimes(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			gr, _ := got.Dims()
			for i := 0; i < gr; i++ {
				for j, g := range got.RawRow(i) {
					if math.Float64bits(g) != math.Float64bits(want.At(i, j)) {
						t.Fatalf("%v, %d workers: entry (%d, %d) is %v, the document-major pass gives %v", v, w, i, j, g, want.At(i, j))
					}
				}
			}
		}
	}
	// A product that ends at -0: 0.5 * (-the smallest subnormal) rounds
	// to -0 in a fused multiply-add from +0, which the merge's add makes
	// +0 in both passes. And X with no columns, at any level.
	var b Builder
	b.SetVocabSize(3)
	if err := b.Add([]int32{0, 1}, []uint32{1, 1}); err != nil {
		t.Fatal(err)
	}
	tiny := b.Corpus()
	xt := mat.Zeros(3, 1)
	xt.Set(0, 0, -math.SmallestNonzeroFloat64)
	dm, err := NewDocMoments(ctx, tiny, Raw, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dm.PairsTimes(ctx, xt)
	if err != nil || dm.index() == nil {
		t.Fatalf("tiny corpus: err %v, index %v, want the word-major pass", err, dm.index())
	}
	ref := *dm
	ref.words = nil
	want, err := ref.PairsTimes(ctx, xt)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if g, w := got.At(i, 0), want.At(i, 0); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("subnormal product: entry %d is %v (%#x), the document-major pass gives %v (%#x)", i, g, math.Float64bits(g), w, math.Float64bits(w))
		}
	}
	if e, err := dm.PairsTimes(ctx, mat.Zeros(3, 0)); err != nil {
		t.Fatalf("X with no columns: %v", err)
	} else if r, c := e.Dims(); r != 3 || c != 0 {
		t.Fatalf("X with no columns: result %dx%d", r, c)
	}
	// More documents than words: the document-major pass.
	wide := randomCorpus(r, 300, 50, 2, 20)
	dm, err = NewDocMoments(ctx, wide, Raw, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dm.PairsTimes(ctx, mat.Zeros(50, 2)); err != nil || dm.index() != nil {
		t.Fatalf("300 documents over 50 words: err %v, index %v, want the document-major pass", err, dm.index())
	}
}
