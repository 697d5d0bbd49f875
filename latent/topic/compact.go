package topic

import (
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// compactSource is a Source restricted to the words that occur in it,
// renumbered in increasing order of their old ids (so every document
// keeps its words sorted).
type compactSource struct {
	src   moments.Source
	newID []int32 // old id -> new id, -1 for words that never occur
	old   []int32 // new id -> old id
}

// compact returns src restricted to the words that occur in it and the
// old id of each kept word, or src and nil when at least half of the
// vocabulary occurs. Words that never occur have zero rows in M1, Pairs
// and Triples, and so zero rows in every topic: learning without them
// gives the same model, and spares the passes' vocabulary-sized
// accumulators the words that a corpus (or a corrupt header) declares
// but never uses. It costs one serial pass over the documents and n
// bytes.
func compact(src moments.Source) (moments.Source, []int32) {
	n := src.VocabSize()
	used := make([]bool, n)
	src.Range(0, src.NumDocs(), func(_ int, d moments.Doc) {
		for _, w := range d.Words {
			used[w] = true
		}
	})
	var old []int32
	for w, u := range used {
		if u {
			old = append(old, int32(w))
		}
	}
	if 2*len(old) > n {
		return src, nil
	}
	newID := make([]int32, n)
	for i := range newID {
		newID[i] = -1
	}
	for i, w := range old {
		newID[w] = int32(i)
	}
	return &compactSource{src: src, newID: newID, old: old}, old
}

func (c *compactSource) NumDocs() int   { return c.src.NumDocs() }
func (c *compactSource) VocabSize() int { return len(c.old) }

// Range renumbers the words of each document into a buffer of its own
// call, so that calls from several goroutines do not share it.
func (c *compactSource) Range(lo, hi int, f func(i int, d moments.Doc)) {
	var buf []int32
	c.src.Range(lo, hi, func(i int, d moments.Doc) {
		buf = buf[:0]
		for _, w := range d.Words {
			buf = append(buf, c.newID[w])
		}
		f(i, moments.Doc{Words: buf, Counts: d.Counts})
	})
}

// expandRows returns the n x k matrix whose row old[i] is row i of t and
// whose other rows are zero, or t itself when old is nil (no word was
// left out).
func expandRows(t *mat.Dense, old []int32, n int) *mat.Dense {
	if old == nil {
		return t
	}
	_, k := t.Dims()
	out := mat.Zeros(n, k)
	for i, w := range old {
		copy(out.RawRow(int(w)), t.RawRow(i))
	}
	return out
}
