package moments

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/moments-go/moments/internal/csvscan"
	memsize "github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// rawText is what the first pass of ReadText reads: the documents over
// the words as they come (ids in the order of first occurrence, interned
// in table), end to end (document i is words[ptr[i]:ptr[i+1]] with
// counts alike, in the order of the words' first occurrence in it), with
// their file names.
type rawText struct {
	table  *wordTable
	names  []string
	ptr    []int
	words  []int32
	counts []uint32
}

// docs returns the number of documents of raw.
func (raw *rawText) docs() int { return len(raw.names) }

// tokenRules returns the tokenizer, the least word length and the stop
// words of o, with the defaults of TextOptions, the stop words lower-cased.
func tokenRules(o *TextOptions) (Tokenizer, int, []string) {
	tok := o.Tokenizer
	if tok == nil {
		tok = Words
	}
	minLen := o.MinWordLen
	if minLen <= 0 {
		minLen = 3
	}
	stop := o.StopWords
	if stop == nil {
		stop = EnglishStopWords()
	}
	lower := make([]string, len(stop))
	for i, w := range stop {
		lower[i] = strings.ToLower(w)
	}
	return tok, minLen, lower
}

// docCounter counts the tokens of one document: count is indexed by
// the table's entries (word id + table.stops for a word) and is zero
// but for the entries in touched, in the order of their first
// occurrence.
type docCounter struct {
	table  *wordTable
	minLen int
	// shortLen is the fewest ASCII letters the reader's own tokenizers
	// look up: minLen, or 1 when the table holds the shorter words.
	shortLen int
	count    []uint32
	touched  []int32
	buf      []byte           // a word lower-cased
	full     bool             // a new word was met with maxWordEntries entries in the table
	cache    *[4096]tableSlot // the words met last, by bits 16 to 27 of their hash (see addHead)
}

// maxWordEntries is the most entries (words, stop words and the short
// words the reader's tokenizers count) the word table may hold: word ids
// are int32. A variable so that a test can lower it.
var maxWordEntries = math.MaxInt32 - 1

// tooManyWords is the error of a corpus whose distinct words reach
// maxWordEntries in the file path.
func tooManyWords(path string) error {
	return fmt.Errorf("moments: %s: %w: more distinct words than the reader's 32-bit word ids can number (%d)", path, ErrBadData, maxWordEntries)
}

// newDocCounter returns a docCounter for the stop words and MinWordLen.
func newDocCounter(stop []string, minLen int) *docCounter {
	t := newWordTable(stop, minLen)
	dc := &docCounter{table: t, minLen: minLen, shortLen: minLen, count: make([]uint32, t.stops), cache: new([4096]tableSlot)}
	if minLen <= 3 {
		dc.shortLen = 1 // the table holds the shorter words, as no words
	}
	return dc
}

// add is the tokenizer's emit: it applies MinWordLen and the stop words
// to token t and counts it, interning it if it is new.
func (dc *docCounter) add(t []byte) {
	if len(t) < dc.minLen { // a rune takes at least one byte
		return
	}
	h, head, ascii := dc.table.hash(t)
	if !ascii && utf8.RuneCount(t) < dc.minLen {
		return
	}
	e, found := dc.table.find(t, h, head)
	if !found {
		if len(dc.table.ends) >= maxWordEntries {
			dc.full = true
			return
		}
		e = dc.table.insert(t, h, head)
		dc.count = append(dc.count, 0)
	}
	if dc.count[e] == 0 {
		dc.touched = append(dc.touched, int32(e))
	}
	dc.count[e]++
}

// docWords ends a document: it drops from touched the entries that are
// not words (stop words, and the short words the reader's own
// tokenizers count to save a test per token), clearing their counts, and
// returns it.
func (dc *docCounter) docWords() []int32 {
	stops := int32(dc.table.stops)
	k := 0
	for _, e := range dc.touched {
		if e < stops {
			dc.count[e] = 0
			continue
		}
		dc.touched[k] = e
		k++
	}
	dc.touched = dc.touched[:k]
	return dc.touched
}

// readTextDocs is the first pass of ReadText: it reads the files, applies
// the file rules (SkipBinary, StripMarkup), the token rules and
// MinDocWords, and interns the words of every document kept, counting
// them in a dense array indexed by word id, with the ids a document
// touches kept in a list. It checks the memory rule before each file.
func readTextDocs(fsys fs.FS, o *TextOptions, rep *TextReport) (*rawText, error) {
	tok, minLen, stop := tokenRules(o)
	dc := newDocCounter(stop, minLen)
	raw := &rawText{table: dc.table, ptr: []int{0}}
	emit := dc.add
	own, tagged, sep := ownTokenizer(tok)
	var markup []byte // StripMarkup's output, reused from file to file
	var held int64    // bytes of words, names and docs, estimated
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || (o.Include != nil && !o.Include(path)) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := mat.CheckMemory(fmt.Sprintf("the corpus of %d files read and %s", raw.docs(), path),
			memsize.Add(memsize.Scale(2, held), memsize.Mul(4, dc.table.words()), info.Size()), o.MaxMemory); err != nil {
			return err
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		data = csvscan.TrimBOM(data)
		rep.Files++
		if o.SkipBinary && bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			rep.Binary = append(rep.Binary, path)
			return nil
		}
		if o.StripMarkup {
			data, markup = stripMarkup(data, markup)
		}
		words0 := dc.table.words()
		dc.touched = dc.touched[:0]
		// Word ids are 32-bit. The reader's own scans find at most one
		// new word a byte; where that bound could pass the limit, the
		// file goes through the Tokenizer and add, which stops at it.
		switch {
		case !own || len(dc.table.ends)+len(data) > maxWordEntries:
			if tok(data, emit); dc.full {
				return tooManyWords(path)
			}
		case tagged:
			dc.countTagged(data, sep)
		default:
			dc.countWords(data)
		}
		touched := dc.docWords()
		if len(touched) < o.MinDocWords {
			for _, e := range touched {
				dc.count[e] = 0
			}
			rep.FewWords = append(rep.FewWords, path)
			return nil
		}
		stops := int32(dc.table.stops)
		for _, e := range touched {
			raw.words = append(raw.words, e-stops)
			raw.counts = append(raw.counts, dc.count[e])
			dc.count[e] = 0
		}
		raw.ptr = append(raw.ptr, len(raw.words))
		raw.names = append(raw.names, path)
		// A word costs its map entry and string; a document its path,
		// two slice headers and 8 bytes a distinct word (the estimate
		// of a reader that held a map and a slice a document, kept so
		// that MaxMemory stops reading where it did).
		held = memsize.Add(held, memsize.Mul(dc.table.words()-words0, 64), memsize.Mul(len(touched), 8), memsize.Mul(len(path)+64, 1))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// vocabulary applies the vocabulary rules (MinDocFreq, MaxDocFrac,
// MaxVocab) to the words of raw and returns the words kept in
// alphabetical order with the map from raw's ids to their new ids (-1
// for a word dropped).
func (raw *rawText) vocabulary(o *TextOptions, rep *TextReport) (newID []int32, vocab []string) {
	nw := raw.table.words()
	df := make([]int, nw)
	for _, id := range raw.words {
		df[id]++
	}
	minDF := max(o.MinDocFreq, 1)
	maxDF := raw.docs()
	if o.MaxDocFrac > 0 && raw.docs() >= 20 {
		maxDF = int(math.Floor(o.MaxDocFrac * float64(raw.docs())))
	}
	var kept []int32
	for id := range nw {
		if df[id] > 0 {
			rep.Words++
		}
		switch {
		case df[id] == 0: // only in documents MinDocWords dropped
		case df[id] < minDF:
			rep.Rare++
		case df[id] > maxDF:
			rep.Common++
		default:
			kept = append(kept, int32(id))
		}
	}
	t := raw.table
	if o.MaxVocab > 0 && len(kept) > o.MaxVocab {
		slices.SortFunc(kept, func(a, b int32) int {
			if df[a] != df[b] {
				return df[b] - df[a]
			}
			return bytes.Compare(t.word(a), t.word(b))
		})
		rep.OverVocab = len(kept) - o.MaxVocab
		kept = kept[:o.MaxVocab]
	}
	sortWords(t, kept)
	newID = make([]int32, nw)
	for i := range newID {
		newID[i] = -1
	}
	// The words' strings are cut from one string of them all.
	var all strings.Builder
	n := 0
	for _, id := range kept {
		n += len(t.word(id))
	}
	all.Grow(n)
	for _, id := range kept {
		all.Write(t.word(id))
	}
	s := all.String()
	vocab = make([]string, len(kept))
	at := 0
	for i, id := range kept {
		newID[id] = int32(i)
		l := len(t.word(id))
		vocab[i] = s[at : at+l]
		at += l
	}
	return newID, vocab
}

// corpus renumbers the documents of raw over the vocabulary (newID,
// vocab) and applies the document rules (DropRepetitive, MaxWordShare,
// MinLenFrac) to build the corpus. It works in raw's arrays: each
// document's words kept are moved to the front of its span, renumbered
// and capped; the corpus's rows are then sorted by word id by placing
// them column by column (by word) and back.
func (raw *rawText) corpus(newID []int32, vocab []string, o *TextOptions, rep *TextReport) (*Corpus, error) {
	nd := raw.docs()
	kept := make([]int, len(raw.ptr)) // document i's words kept are at ptr[i]:ptr[i]+kept[i]
	lens := make([]int, 0, nd)
	keep := make([]int32, 0, nd) // the documents DropRepetitive keeps
	for i := range nd {
		lo, hi := raw.ptr[i], raw.ptr[i+1]
		m, l := lo, 0
		for j := lo; j < hi; j++ {
			if n := newID[raw.words[j]]; n >= 0 {
				raw.words[m], raw.counts[m] = n, raw.counts[j]
				l += int(raw.counts[j])
				m++
			}
		}
		m -= lo
		if o.DropRepetitive && l > 0 && float64(m) < math.Sqrt(float64(l)) {
			rep.Repetitive = append(rep.Repetitive, raw.names[i])
			continue
		}
		cs := raw.counts[lo : lo+m]
		if s := o.MaxWordShare; s > 0 && s < 1 {
			if removed := capCounts(cs, s/(1-s)); removed > 0 {
				rep.Capped++
				rep.CappedTokens += removed
				l -= removed
			}
		}
		kept[i] = m
		keep = append(keep, int32(i))
		lens = append(lens, l)
	}
	minTokens := 0
	if o.MinLenFrac > 0 && len(lens) > 0 {
		sorted := slices.Clone(lens)
		slices.Sort(sorted)
		minTokens = int(math.Ceil(o.MinLenFrac * float64(sorted[len(sorted)/2])))
	}

	// The documents of the corpus, their spans and the columns' sizes.
	c := &Corpus{Vocab: vocab, vocabSize: len(vocab), ptr: make([]int, 1, len(keep)+1)}
	col := make([]int, len(vocab)+1)
	var docs []int32
	for j, i := range keep {
		if lens[j] < minTokens {
			rep.Short = append(rep.Short, raw.names[i])
			continue
		}
		docs = append(docs, i)
		c.Names = append(c.Names, raw.names[i])
		c.ptr = append(c.ptr, c.ptr[len(c.ptr)-1]+kept[i])
		c.tokens += lens[j]
		for _, w := range raw.words[raw.ptr[i] : raw.ptr[i]+kept[i]] {
			col[w+1]++
		}
	}
	nnz := c.ptr[len(c.ptr)-1]
	if nnz == 0 {
		return c, nil
	}
	for w := range vocab {
		col[w+1] += col[w]
	}
	// Column by column: the document and count of each entry.
	colDoc := make([]int32, nnz)
	colCount := make([]uint32, nnz)
	for d, i := range docs {
		lo := raw.ptr[i]
		for j, w := range raw.words[lo : lo+kept[i]] {
			at := col[w]
			col[w]++
			colDoc[at], colCount[at] = int32(d), raw.counts[lo+j]
		}
	}
	raw.words, raw.counts = nil, nil
	// And back, row by row: col[w] is now where column w+1 starts.
	c.words = make([]int32, nnz)
	c.counts = make([]uint32, nnz)
	next := slices.Clone(c.ptr[:len(c.ptr)-1])
	at := 0
	for w := range vocab {
		for ; at < col[w]; at++ {
			d := colDoc[at]
			c.words[next[d]], c.counts[next[d]] = int32(w), colCount[at]
			next[d]++
		}
	}
	return c, nil
}

// capCounts caps each count at max(2, ratio * (the sum of the others)),
// the others taken before any cap, and returns the number of tokens
// removed.
func capCounts(cs []uint32, ratio float64) int {
	var total float64
	for _, c := range cs {
		total += float64(c)
	}
	removed := 0
	for j, c := range cs {
		if c <= 2 { // the limit is at least 2
			continue
		}
		limit := math.Max(2, math.Floor(ratio*(total-float64(c))))
		if float64(c) > limit {
			removed += int(c) - int(limit)
			cs[j] = uint32(limit)
		}
	}
	return removed
}

// sortWords sorts the word ids alphabetically (by the bytes of the
// words), comparing first the words' first eight bytes as big-endian
// numbers, which orders all but the words that share them.
func sortWords(t *wordTable, ids []int32) {
	type keyed struct {
		prefix uint64
		id     int32
	}
	ks := make([]keyed, len(ids))
	for i, id := range ids {
		w := t.word(id)
		var p [8]byte
		copy(p[:], w)
		ks[i] = keyed{binary.BigEndian.Uint64(p[:]), id}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if a.prefix != b.prefix {
			if a.prefix < b.prefix {
				return -1
			}
			return 1
		}
		return bytes.Compare(t.word(a.id), t.word(b.id))
	})
	for i := range ks {
		ids[i] = ks[i].id
	}
}
