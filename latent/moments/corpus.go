package moments

import (
	"fmt"
	"slices"
)

// Doc is one document as sparse word counts: Words holds word ids in
// strictly increasing order and Counts their numbers of occurrences (all
// positive). A Doc returned by a Corpus or a Source aliases its storage
// and must not be modified.
type Doc struct {
	Words  []int32
	Counts []uint32
}

// Len returns the number of tokens in d, the sum of its counts.
func (d Doc) Len() int {
	n := 0
	for _, c := range d.Counts {
		n += int(c)
	}
	return n
}

// Source is a collection of documents that can be read repeatedly, in
// any range, from several goroutines at once: what the moment
// accumulators need to make several passes in parallel. A Corpus is a
// Source; so is a synthetic generator that recreates each document from
// its index.
type Source interface {
	// NumDocs returns the number of documents.
	NumDocs() int
	// VocabSize returns the number of distinct words; every word id is
	// in [0, VocabSize()).
	VocabSize() int
	// Range calls f(i, doc) for the documents lo <= i < hi in order. The
	// Doc is valid only during the call.
	Range(lo, hi int, f func(i int, d Doc))
}

// Corpus is a document-term matrix in compressed sparse row form:
// documents are rows, words are columns. It is immutable once built.
type Corpus struct {
	// Vocab names the words (Vocab[id]); it may be nil when the words
	// have no names.
	Vocab []string
	// Names names the documents (file names for a text directory); it
	// may be nil.
	Names []string

	vocabSize int
	ptr       []int    // document i is words[ptr[i]:ptr[i+1]]
	words     []int32  // word ids
	counts    []uint32 // their counts
	tokens    int      // sum of all counts
}

// NumDocs returns the number of documents.
func (c *Corpus) NumDocs() int { return len(c.ptr) - 1 }

// VocabSize returns the number of words.
func (c *Corpus) VocabSize() int { return c.vocabSize }

// NNZ returns the number of stored (document, word) pairs.
func (c *Corpus) NNZ() int { return len(c.words) }

// Tokens returns the total number of tokens, the sum of all counts.
func (c *Corpus) Tokens() int { return c.tokens }

// Doc returns document i.
func (c *Corpus) Doc(i int) Doc {
	lo, hi := c.ptr[i], c.ptr[i+1]
	return Doc{Words: c.words[lo:hi:hi], Counts: c.counts[lo:hi:hi]}
}

// Range calls f for documents lo..hi-1; see Source.
func (c *Corpus) Range(lo, hi int, f func(i int, d Doc)) {
	for i := lo; i < hi; i++ {
		f(i, c.Doc(i))
	}
}

// DocFreq returns, for every word, the number of documents it occurs in.
func (c *Corpus) DocFreq() []int {
	df := make([]int, c.vocabSize)
	for _, w := range c.words {
		df[w]++
	}
	return df
}

// Subset returns the corpus of the documents with the given indices, in
// that order, sharing nothing with c. Vocab is shared (it is read-only).
func (c *Corpus) Subset(docs []int) *Corpus {
	b := Builder{vocabSize: c.vocabSize, ptr: []int{0}}
	for _, i := range docs {
		d := c.Doc(i)
		b.words = append(b.words, d.Words...)
		b.counts = append(b.counts, d.Counts...)
		b.ptr = append(b.ptr, len(b.words))
		b.tokens += d.Len()
	}
	out := b.corpus()
	out.Vocab = c.Vocab
	if c.Names != nil {
		out.Names = make([]string, len(docs))
		for j, i := range docs {
			out.Names[j] = c.Names[i]
		}
	}
	return out
}

// Compact returns the corpus restricted to the words that occur in at
// least one document, renumbered in the order of their ids, with old[j]
// the id in c of word j of the result; Vocab, if any, is restricted
// alike and Names is shared. When every word occurs, Compact returns c
// itself and a nil old. The documents keep their order and counts, so
// every moment of the result is that of c on the occurring words.
func (c *Corpus) Compact() (*Corpus, []int32) {
	to := make([]int32, c.vocabSize)
	for _, w := range c.words {
		to[w] = 1
	}
	var old []int32
	for w, used := range to {
		if used != 0 {
			to[w] = int32(len(old))
			old = append(old, int32(w))
		}
	}
	if len(old) == c.vocabSize {
		return c, nil
	}
	out := &Corpus{Names: c.Names, vocabSize: len(old), ptr: c.ptr, counts: c.counts, tokens: c.tokens,
		words: make([]int32, len(c.words))}
	for i, w := range c.words {
		out.words[i] = to[w]
	}
	if c.Vocab != nil {
		out.Vocab = make([]string, len(old))
		for j, w := range old {
			out.Vocab[j] = c.Vocab[w]
		}
	}
	return out, old
}

// Builder assembles a Corpus one document at a time. The zero value is
// ready to use.
type Builder struct {
	vocabSize int
	ptr       []int
	words     []int32
	counts    []uint32
	tokens    int
	scratch   map[int32]uint32
}

// Add appends a document given as word ids with counts; ids may repeat
// and come in any order (their counts are added). It returns an error
// matching ErrBadData for slices of different lengths, a negative id or
// a total count that overflows.
func (b *Builder) Add(words []int32, counts []uint32) error {
	if len(words) != len(counts) {
		return fmt.Errorf("moments: Builder.Add: %w: %d words but %d counts", ErrBadData, len(words), len(counts))
	}
	if b.scratch == nil {
		b.scratch = make(map[int32]uint32)
	}
	clear(b.scratch)
	for i, w := range words {
		if w < 0 {
			return fmt.Errorf("moments: Builder.Add: %w: negative word id %d", ErrBadData, w)
		}
		s := b.scratch[w] + counts[i]
		if s < counts[i] {
			return fmt.Errorf("moments: Builder.Add: %w: count of word %d overflows", ErrBadData, w)
		}
		b.scratch[w] = s
	}
	start := len(b.words)
	for w, c := range b.scratch {
		if c == 0 {
			continue
		}
		b.words = append(b.words, w)
		b.vocabSize = max(b.vocabSize, int(w)+1)
	}
	slices.Sort(b.words[start:])
	for _, w := range b.words[start:] {
		c := b.scratch[w]
		b.counts = append(b.counts, c)
		b.tokens += int(c)
	}
	if len(b.ptr) == 0 {
		b.ptr = append(b.ptr, 0)
	}
	b.ptr = append(b.ptr, len(b.words))
	return nil
}

// AddSorted appends a document whose word ids are strictly increasing
// and whose counts are positive, without copying through a map; it
// returns an error matching ErrBadData if they are not (or if Words and
// Counts differ in length).
func (b *Builder) AddSorted(d Doc) error {
	if len(d.Words) != len(d.Counts) {
		return fmt.Errorf("moments: Builder.AddSorted: %w: %d words but %d counts", ErrBadData, len(d.Words), len(d.Counts))
	}
	for i, w := range d.Words {
		if w < 0 || (i > 0 && w <= d.Words[i-1]) || d.Counts[i] == 0 {
			return fmt.Errorf("moments: Builder.AddSorted: %w: word ids must be non-negative and strictly increasing with positive counts (at position %d: id %d, count %d)", ErrBadData, i, w, d.Counts[i])
		}
	}
	if len(b.ptr) == 0 {
		b.ptr = append(b.ptr, 0)
	}
	b.words = append(b.words, d.Words...)
	b.counts = append(b.counts, d.Counts...)
	if n := len(d.Words); n > 0 {
		b.vocabSize = max(b.vocabSize, int(d.Words[n-1])+1)
	}
	b.tokens += d.Len()
	b.ptr = append(b.ptr, len(b.words))
	return nil
}

// SetVocabSize declares the vocabulary size, for words that occur in no
// document; it only ever grows the size the documents imply.
func (b *Builder) SetVocabSize(n int) { b.vocabSize = max(b.vocabSize, n) }

// Corpus returns the corpus built so far; the Builder is reset.
func (b *Builder) Corpus() *Corpus {
	c := b.corpus()
	*b = Builder{}
	return c
}

func (b *Builder) corpus() *Corpus {
	ptr := b.ptr
	if len(ptr) == 0 {
		ptr = []int{0}
	}
	return &Corpus{vocabSize: b.vocabSize, ptr: ptr, words: b.words, counts: b.counts, tokens: b.tokens}
}
