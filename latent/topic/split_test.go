package topic

import (
	"slices"
	"testing"

	"github.com/moments-go/moments/latent/moments"
)

// idCorpus returns a corpus of docs documents, document i holding the
// single word i, so that a subset's documents name themselves.
func idCorpus(t *testing.T, docs int) *moments.Corpus {
	t.Helper()
	var b moments.Builder
	for i := range docs {
		if err := b.AddSorted(moments.Doc{Words: []int32{int32(i)}, Counts: []uint32{1}}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Corpus()
}

// TestSplitAlpha0: the split has the stated sizes (10% rounded, at most
// 2000, for valid; the rest, at most 20000, for fit), keeps the corpus
// order, never shares a document, repeats for a seed and changes with
// it; below 5 documents there is no split.
func TestSplitAlpha0(t *testing.T) {
	for _, docs := range []int{0, 4} {
		if fit, valid := SplitAlpha0(idCorpus(t, docs), 1); fit != nil || valid != nil {
			t.Errorf("%d documents: split %v, %v; want none", docs, fit, valid)
		}
	}
	ids := func(c *moments.Corpus) []int32 {
		var out []int32
		c.Range(0, c.NumDocs(), func(_ int, d moments.Doc) { out = append(out, d.Words[0]) })
		return out
	}
	for _, tc := range []struct{ docs, nf, nv int }{{5, 4, 1}, {14, 13, 1}, {15, 13, 2}, {100, 90, 10}, {30000, 20000, 2000}} {
		c := idCorpus(t, tc.docs)
		fit, valid := SplitAlpha0(c, 7)
		if fit.NumDocs() != tc.nf || valid.NumDocs() != tc.nv {
			t.Fatalf("%d documents: fit %d, valid %d; want %d, %d", tc.docs, fit.NumDocs(), valid.NumDocs(), tc.nf, tc.nv)
		}
		seen := make(map[int32]bool)
		for _, part := range [][]int32{ids(fit), ids(valid)} {
			for i, id := range part {
				if seen[id] || (i > 0 && id <= part[i-1]) {
					t.Fatalf("%d documents: document %d repeated or out of order", tc.docs, id)
				}
				seen[id] = true
			}
		}
		again, _ := SplitAlpha0(c, 7)
		other, _ := SplitAlpha0(c, 8)
		if a, b := ids(again), ids(fit); !slices.Equal(a, b) {
			t.Fatalf("%d documents: seed 7 gave two splits", tc.docs)
		}
		if tc.docs >= 100 && slices.Equal(ids(other), ids(fit)) {
			t.Errorf("%d documents: seeds 7 and 8 give the same split", tc.docs)
		}
	}
}
