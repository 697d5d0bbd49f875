package moments

// The reader of text directories as it was before it was rewritten for
// speed (issue 13), kept as the oracle the new reader must match token
// for token: the same corpus and the same report.

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/moments-go/moments/internal/csvscan"
	memsize "github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// refWords is the default Tokenizer: maximal runs of letters, lower-cased.
// Everything else (digits, punctuation, apostrophes) separates words.
func refWords(text []byte, emit func(token []byte)) {
	var buf []byte
	for len(text) > 0 {
		if c := text[0]; c < utf8.RuneSelf {
			text = text[1:]
			if refByteClass[c] == refClassLetter {
				buf = append(buf, c|0x20)
				continue
			}
		} else {
			r, size := utf8.DecodeRune(text)
			text = text[size:]
			if unicode.IsLetter(r) {
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
				continue
			}
		}
		if len(buf) > 0 {
			emit(buf)
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		emit(buf)
	}
}

// refTagged returns a Tokenizer for tagged text such as the Brown corpus
// ("The/at jury/nn said/vbd"): tokens are separated by white space, the
// tag after the last sep is removed, and a token is kept only if what
// remains is all letters (so "Atlanta's/np$" is dropped, not split).
func refTagged(sep byte) Tokenizer {
	return func(text []byte, emit func([]byte)) {
		var buf []byte
		i := 0
		for i < len(text) {
			if refByteClass[text[i]] == refClassSpace {
				i++
				continue
			}
			// One pass over the field: lower-case it into buf, note the
			// last sep and whether a non-letter comes before it.
			buf = buf[:0]
			cut, bad := -1, -1
			for i < len(text) {
				c := text[i]
				switch refByteClass[c] {
				case refClassSpace:
					goto end
				case refClassLetter:
					buf = append(buf, c|0x20)
					i++
					continue
				case refClassHigh:
					r, size := utf8.DecodeRune(text[i:])
					if !unicode.IsLetter(r) && bad < 0 {
						bad = len(buf)
					}
					buf = utf8.AppendRune(buf, unicode.ToLower(r))
					i += size
					continue
				}
				switch {
				case c != sep:
					if bad < 0 {
						bad = len(buf)
					}
				case cut >= 0 && bad < 0:
					bad = cut // an earlier sep is part of the word
					cut = len(buf)
				default:
					cut = len(buf)
				}
				buf = append(buf, c)
				i++
			}
		end:
			word := buf
			if cut >= 0 {
				word = buf[:cut]
			}
			if len(word) > 0 && (bad < 0 || bad >= len(word)) {
				emit(word)
			}
		}
	}
}

// refReadText reads every regular file of fsys (in the lexical order of
// fs.WalkDir) that opts.Include accepts as one document; nil opts means
// the zero TextOptions. The vocabulary is sorted alphabetically;
// Corpus.Names holds the file paths. Words are filtered by length and
// stop list before document frequencies are counted. A document may end
// up empty unless MinDocWords drops it. A UTF-8 byte order mark at the
// start of a file is skipped. See refReadTextReport for the order of the
// rules.
func refReadText(fsys fs.FS, opts *TextOptions) (*Corpus, error) {
	c, _, err := refReadTextReport(fsys, opts)
	return c, err
}

// refReadTextReport is refReadText, and reports what the rules dropped. The
// rules apply in this order: SkipBinary and StripMarkup to each file;
// the tokenizer, MinWordLen and StopWords to its tokens; MinDocWords to
// the document; MinDocFreq, MaxDocFrac (both counted over the documents
// kept so far) and MaxVocab to the vocabulary; then, to each document's
// counts of the words kept, DropRepetitive, MaxWordShare and MinLenFrac
// (the median over the documents DropRepetitive keeps).
func refReadTextReport(fsys fs.FS, opts *TextOptions) (*Corpus, *TextReport, error) {
	var o TextOptions
	if opts != nil {
		o = *opts
	}
	rep := &TextReport{}
	raw, err := refReadTextDocs(fsys, &o, rep)
	if err != nil {
		return nil, nil, fmt.Errorf("moments: refReadText: %w", err)
	}
	newID, vocab := raw.vocabulary(&o, rep)
	c, err := raw.corpus(newID, vocab, &o, rep)
	if err != nil {
		return nil, nil, err
	}
	return c, rep, nil
}

// refRawText is what the first pass of refReadText reads: the documents over
// the words as they come (ids in the order of first occurrence, words
// the inverse of ids), with their file names.
type refRawText struct {
	ids   map[string]int32
	names []string
	docs  []Doc
}

// refTokenRules returns the tokenizer, the least word length and the stop
// words of o, with the defaults of TextOptions.
func refTokenRules(o *TextOptions) (Tokenizer, int, map[string]bool) {
	tok := o.Tokenizer
	if tok == nil {
		tok = refWords
	}
	minLen := o.MinWordLen
	if minLen <= 0 {
		minLen = 3
	}
	stop := o.StopWords
	if stop == nil {
		stop = EnglishStopWords()
	}
	stopSet := make(map[string]bool, len(stop))
	for _, w := range stop {
		stopSet[strings.ToLower(w)] = true
	}
	return tok, minLen, stopSet
}

// refReadTextDocs is the first pass of refReadText: it reads the files, applies
// the file rules (SkipBinary, StripMarkup), the token rules and
// MinDocWords, and interns the words of every document kept, counting
// them in a dense array indexed by word id, with the ids a document
// touches kept in a list. It checks the memory rule before each file.
func refReadTextDocs(fsys fs.FS, o *TextOptions, rep *TextReport) (*refRawText, error) {
	tok, minLen, stopSet := refTokenRules(o)
	raw := &refRawText{ids: make(map[string]int32)}
	var count []uint32
	var touched []int32
	var held int64 // bytes of ids, names and docs, estimated
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
		if err := mat.CheckMemory(fmt.Sprintf("the corpus of %d files read and %s", len(raw.docs), path),
			memsize.Add(memsize.Scale(2, held), memsize.Mul(4, len(count)), info.Size()), o.MaxMemory); err != nil {
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
			data = refStripMarkup(data)
		}
		words0 := len(raw.ids)
		touched = touched[:0]
		tok(data, func(t []byte) {
			if utf8.RuneCount(t) < minLen {
				return
			}
			id, ok := raw.ids[string(t)]
			if !ok {
				w := string(t)
				if stopSet[w] {
					return
				}
				id = int32(len(raw.ids))
				raw.ids[w] = id
				count = append(count, 0)
			}
			if count[id] == 0 {
				touched = append(touched, id)
			}
			count[id]++
		})
		if len(touched) < o.MinDocWords {
			for _, id := range touched {
				count[id] = 0
			}
			rep.FewWords = append(rep.FewWords, path)
			return nil
		}
		doc := Doc{Words: make([]int32, len(touched)), Counts: make([]uint32, len(touched))}
		for j, id := range touched {
			doc.Words[j], doc.Counts[j] = id, count[id]
			count[id] = 0
		}
		raw.names = append(raw.names, path)
		raw.docs = append(raw.docs, doc)
		// A word costs its map entry and string; a document its path,
		// two slice headers and 8 bytes a distinct word.
		held = memsize.Add(held, memsize.Mul(len(raw.ids)-words0, 64), memsize.Mul(len(touched), 8), memsize.Mul(len(path)+64, 1))
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
func (raw *refRawText) vocabulary(o *TextOptions, rep *TextReport) (newID []int32, vocab []string) {
	df := make([]int, len(raw.ids))
	for _, d := range raw.docs {
		for _, id := range d.Words {
			df[id]++
		}
	}
	minDF := max(o.MinDocFreq, 1)
	maxDF := len(raw.docs)
	if o.MaxDocFrac > 0 && len(raw.docs) >= 20 {
		maxDF = int(math.Floor(o.MaxDocFrac * float64(len(raw.docs))))
	}
	words := make([]string, len(raw.ids))
	for w, id := range raw.ids {
		words[id] = w
	}
	var kept []int32
	for id := range words {
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
	if o.MaxVocab > 0 && len(kept) > o.MaxVocab {
		slices.SortFunc(kept, func(a, b int32) int {
			if df[a] != df[b] {
				return df[b] - df[a]
			}
			return strings.Compare(words[a], words[b])
		})
		rep.OverVocab = len(kept) - o.MaxVocab
		kept = kept[:o.MaxVocab]
	}
	slices.SortFunc(kept, func(a, b int32) int { return strings.Compare(words[a], words[b]) })
	newID = make([]int32, len(raw.ids))
	for i := range newID {
		newID[i] = -1
	}
	vocab = make([]string, len(kept))
	for i, id := range kept {
		newID[id] = int32(i)
		vocab[i] = words[id]
	}
	return newID, vocab
}

// corpus renumbers the documents of raw over the vocabulary (newID,
// vocab) and applies the document rules (DropRepetitive, MaxWordShare,
// MinLenFrac) to build the corpus.
func (raw *refRawText) corpus(newID []int32, vocab []string, o *TextOptions, rep *TextReport) (*Corpus, error) {
	keep := make([]Doc, 0, len(raw.docs))
	keptNames := make([]string, 0, len(raw.docs))
	var lens []int
	for i, d := range raw.docs {
		var ws []int32
		var cs []uint32
		l := 0
		for j, id := range d.Words {
			if n := newID[id]; n >= 0 {
				ws = append(ws, n)
				cs = append(cs, d.Counts[j])
				l += int(d.Counts[j])
			}
		}
		if o.DropRepetitive && l > 0 && float64(len(ws)) < math.Sqrt(float64(l)) {
			rep.Repetitive = append(rep.Repetitive, raw.names[i])
			continue
		}
		if s := o.MaxWordShare; s > 0 && s < 1 {
			if removed := refCapCounts(cs, s/(1-s)); removed > 0 {
				rep.Capped++
				rep.CappedTokens += removed
			}
		}
		dd := Doc{Words: ws, Counts: cs}
		keep = append(keep, dd)
		keptNames = append(keptNames, raw.names[i])
		lens = append(lens, dd.Len())
	}
	minTokens := 0
	if o.MinLenFrac > 0 && len(lens) > 0 {
		sorted := slices.Clone(lens)
		slices.Sort(sorted)
		minTokens = int(math.Ceil(o.MinLenFrac * float64(sorted[len(sorted)/2])))
	}
	var b Builder
	b.SetVocabSize(len(vocab))
	var outNames []string
	for i, d := range keep {
		if lens[i] < minTokens {
			rep.Short = append(rep.Short, keptNames[i])
			continue
		}
		if err := b.Add(d.Words, d.Counts); err != nil {
			return nil, err
		}
		outNames = append(outNames, keptNames[i])
	}
	c := b.Corpus()
	c.vocabSize = len(vocab)
	c.Vocab = vocab
	c.Names = outNames
	return c, nil
}

// refCapCounts caps each count at max(2, ratio * (the sum of the others)),
// the others taken before any cap, and returns the number of tokens
// removed.
func refCapCounts(cs []uint32, ratio float64) int {
	var total float64
	for _, c := range cs {
		total += float64(c)
	}
	removed := 0
	for j, c := range cs {
		limit := math.Max(2, math.Floor(ratio*(total-float64(c))))
		if float64(c) > limit {
			removed += int(c) - int(limit)
			cs[j] = uint32(limit)
		}
	}
	return removed
}

// refStripMarkup returns text with HTML and XML markup replaced by spaces
// (see TextOptions.StripMarkup).
func refStripMarkup(text []byte) []byte {
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c == '&' {
			if n := refCharRef(text[i:]); n > 0 {
				out = append(out, ' ')
				i += n
				continue
			}
		}
		if c != '<' || i+1 >= len(text) {
			out = append(out, c)
			i++
			continue
		}
		next := text[i+1]
		if !(next == '/' || next == '!' || next == '?' || refByteClass[next] == refClassLetter) {
			out = append(out, c)
			i++
			continue
		}
		rest := text[i:]
		var end int
		if bytes.HasPrefix(rest, []byte("<!--")) {
			end = bytes.Index(rest, []byte("-->"))
			if end >= 0 {
				end += 3
			}
		} else if end = bytes.IndexByte(rest, '>'); end >= 0 {
			end++
			// The contents of style and script elements are not text.
			for _, el := range []string{"style", "script"} {
				if len(rest) > len(el)+1 && strings.EqualFold(string(rest[1:1+len(el)]), el) &&
					(rest[1+len(el)] == '>' || refByteClass[rest[1+len(el)]] == refClassSpace) {
					if close := refIndexFold(rest[end:], []byte("</"+el)); close >= 0 {
						if gt := bytes.IndexByte(rest[end+close:], '>'); gt >= 0 {
							end += close + gt + 1
						}
					}
				}
			}
		}
		if end < 0 {
			out = append(out, c)
			i++
			continue
		}
		out = append(out, ' ')
		i += end
	}
	return out
}

// refCharRef returns the length of the character reference (&name; &#digits;
// &#xhex;) at the start of s, or 0.
func refCharRef(s []byte) int {
	i := 1
	if i < len(s) && s[i] == '#' {
		i++
		if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
			i++
		}
	}
	start := i
	for i < len(s) && i-start < 10 && (refByteClass[s[i]] == refClassLetter || ('0' <= s[i] && s[i] <= '9')) {
		i++
	}
	if i > start && i < len(s) && s[i] == ';' {
		return i + 1
	}
	return 0
}

// refIndexFold is bytes.Index, ignoring case.
func refIndexFold(s, sub []byte) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// The classes of bytes for the tokenizers, as the reader had them.
const (
	refClassOther uint8 = iota
	refClassSpace
	refClassLetter
	refClassHigh
)

var refByteClass = func() (t [256]uint8) {
	for _, c := range " \n\t\r\v\f" {
		t[c] = refClassSpace
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = refClassLetter, refClassLetter
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = refClassHigh
	}
	return t
}()
