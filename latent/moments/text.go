package moments

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
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

// Tokenizer splits text into tokens and calls emit with each, lower-cased.
// The slice passed to emit is valid only during the call.
type Tokenizer func(text []byte, emit func(token []byte))

// Words is the default Tokenizer: maximal runs of letters, lower-cased.
// Everything else (digits, punctuation, apostrophes) separates words.
func Words(text []byte, emit func(token []byte)) {
	var buf []byte
	for len(text) > 0 {
		if c := text[0]; c < utf8.RuneSelf {
			text = text[1:]
			if byteClass[c] == classLetter {
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

// Tagged returns a Tokenizer for tagged text such as the Brown corpus
// ("The/at jury/nn said/vbd"): tokens are separated by white space, the
// tag after the last sep is removed, and a token is kept only if what
// remains is all letters (so "Atlanta's/np$" is dropped, not split).
func Tagged(sep byte) Tokenizer {
	return func(text []byte, emit func([]byte)) {
		var buf []byte
		i := 0
		for i < len(text) {
			if byteClass[text[i]] == classSpace {
				i++
				continue
			}
			// One pass over the field: lower-case it into buf, note the
			// last sep and whether a non-letter comes before it.
			buf = buf[:0]
			cut, bad := -1, -1
			for i < len(text) {
				c := text[i]
				switch byteClass[c] {
				case classSpace:
					goto end
				case classLetter:
					buf = append(buf, c|0x20)
					i++
					continue
				case classHigh:
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

// The classes of bytes for the tokenizers: ASCII white space, ASCII
// letters, the bytes of multi-byte runes, and the rest. Unicode spaces
// are rare enough in corpora to count as part of a token.
const (
	classOther uint8 = iota
	classSpace
	classLetter
	classHigh
)

var byteClass = func() (t [256]uint8) {
	for _, c := range " \n\t\r\v\f" {
		t[c] = classSpace
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = classLetter, classLetter
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = classHigh
	}
	return t
}()

//go:embed stopwords_en.txt
var stopwordsEn string

// EnglishStopWords returns the embedded English stop-word list (318
// words, the list scikit-learn uses), in alphabetical order.
func EnglishStopWords() []string { return strings.Fields(stopwordsEn) }

// TextOptions controls how ReadText turns files into documents. A nil
// *TextOptions means the zero value, which reads every file, splits it
// with Words, keeps words of at least three letters that are not English
// stop words, in at least one document, without a limit on the
// vocabulary, and keeps every document as it is: the rules for real text
// (RealText) are off.
type TextOptions struct {
	// Tokenizer splits a file into tokens; nil means Words.
	Tokenizer Tokenizer
	// MinWordLen is the fewest letters a word must have; 0 means 3.
	MinWordLen int
	// StopWords are dropped; nil means EnglishStopWords. Use an empty,
	// non-nil slice to keep every word.
	StopWords []string
	// MinDocFreq is the fewest documents a word must occur in; 0 means 1.
	MinDocFreq int
	// MaxDocFrac, if positive, drops the words that occur in more than
	// that fraction of the documents (words so common say little about
	// topics; peers bound the inverse document frequency likewise). It
	// applies only to corpora of at least 20 documents, below which a
	// fraction of the documents is too coarse to call a word common.
	MaxDocFrac float64
	// MaxVocab, if positive, keeps only that many words: those in the
	// most documents, ties broken alphabetically.
	MaxVocab int
	// Include, if not nil, says which files are documents (paths as
	// fs.WalkDir gives them, relative to the root of the file system).
	Include func(path string) bool
	// MaxMemory bounds (bytes) what reading holds: the corpus built so
	// far (twice: the documents, then the corpus) and the next file.
	// Reading stops with a *mat.MemoryError before a file that would
	// pass it. 0 means mat.DefaultMaxMemory (4 GiB), negative no limit.
	MaxMemory int64

	// SkipBinary drops the files that are not text: those with a NUL
	// byte in their first 8000 bytes (the test git and grep use).
	SkipBinary bool
	// StripMarkup removes HTML and XML markup before tokenizing: tags
	// (from a '<' followed by a letter, '/', '!' or '?' to the next '>'),
	// comments, the contents of style and script elements, and character
	// references such as &nbsp; or &#8217;, so that an HTML mail gives
	// its text and not "div", "span" or "nbsp".
	StripMarkup bool
	// MaxWordShare, if in (0, 1), caps the count of each word in a
	// document so that it is at most MaxWordShare/(1-MaxWordShare) times
	// the count of the document's other words (but at least 2): a word
	// repeated thousands of times, as in a log or a list, then weighs as
	// a frequent word and not as the whole document. Ordinary text, where
	// the most frequent content word is a few percent of a document, is
	// left as it is.
	MaxWordShare float64
	// DropRepetitive drops the documents with fewer distinct words than
	// the square root of their number of tokens (words kept by the
	// vocabulary rules, before MaxWordShare): the same few words over and
	// over, as in a table of categories, a log or a word repeated. Text
	// has far more: a few hundred distinct words in a thousand tokens.
	// Such a document's co-occurrences are concentrated on a few words
	// and would make a topic of its own.
	DropRepetitive bool
	// MinLenFrac, if positive, drops the documents with fewer tokens
	// (words kept, after MaxWordShare) than that fraction of the median
	// document's: the moments weigh documents alike, and a document
	// twenty times shorter than the median has some four hundred times
	// the variance in its pair counts (a README among articles).
	MinLenFrac float64
	// MinDocWords, if positive, drops the documents with fewer distinct
	// words than that (after MinWordLen and StopWords, before the
	// vocabulary rules): such documents (empty files, a word repeated)
	// say almost nothing about co-occurrence, and the moments weigh each
	// document alike, so a handful of them adds large spurious terms.
	MinDocWords int
}

// RealText returns the options that suit real text (the defaults of the
// command-line tool): English stop words and words of at least three
// letters as in the zero value; binary files skipped; markup stripped;
// no word above 20% of a document (MaxWordShare 0.2); words in at least
// 2 documents and at most half of them (MinDocFreq 2, MaxDocFrac 0.5,
// the bounds of gensim's filter_extremes but for the lower one, kept
// small for small corpora); and documents of at least 3 distinct words
// (MinDocWords 3: the least the third moment can use), not repetitive
// (DropRepetitive) and at least a twentieth of the median length
// (MinLenFrac 0.05).
// Very long documents need no rule: the moments weigh every document
// alike, however long.
func RealText(tok Tokenizer) *TextOptions {
	return &TextOptions{
		Tokenizer:      tok,
		MinDocFreq:     2,
		MaxDocFrac:     0.5,
		SkipBinary:     true,
		StripMarkup:    true,
		MaxWordShare:   0.2,
		MinDocWords:    3,
		DropRepetitive: true,
		MinLenFrac:     0.05,
	}
}

// TextReport says what ReadTextReport read and what its rules dropped.
type TextReport struct {
	// Files is the number of files read (those Include accepts).
	Files int
	// Binary, FewWords, Repetitive and Short name the files dropped by
	// SkipBinary, MinDocWords, DropRepetitive and MinLenFrac; the other
	// files are the documents.
	Binary, FewWords, Repetitive, Short []string
	// Capped is the number of documents in which MaxWordShare capped a
	// count, and CappedTokens the number of tokens it removed.
	Capped, CappedTokens int
	// Words is the number of distinct words after the length and stop
	// word rules; Rare, Common and OverVocab the numbers of those dropped
	// by MinDocFreq, MaxDocFrac and MaxVocab.
	Words, Rare, Common, OverVocab int
}

// ReadText reads every regular file of fsys (in the lexical order of
// fs.WalkDir) that opts.Include accepts as one document; nil opts means
// the zero TextOptions. The vocabulary is sorted alphabetically;
// Corpus.Names holds the file paths. Words are filtered by length and
// stop list before document frequencies are counted. A document may end
// up empty unless MinDocWords drops it. A UTF-8 byte order mark at the
// start of a file is skipped. See ReadTextReport for the order of the
// rules.
func ReadText(fsys fs.FS, opts *TextOptions) (*Corpus, error) {
	c, _, err := ReadTextReport(fsys, opts)
	return c, err
}

// ReadTextReport is ReadText, and reports what the rules dropped. The
// rules apply in this order: SkipBinary and StripMarkup to each file;
// the tokenizer, MinWordLen and StopWords to its tokens; MinDocWords to
// the document; MinDocFreq, MaxDocFrac (both counted over the documents
// kept so far) and MaxVocab to the vocabulary; then, to each document's
// counts of the words kept, DropRepetitive, MaxWordShare and MinLenFrac
// (the median over the documents DropRepetitive keeps).
func ReadTextReport(fsys fs.FS, opts *TextOptions) (*Corpus, *TextReport, error) {
	var o TextOptions
	if opts != nil {
		o = *opts
	}
	rep := &TextReport{}
	raw, err := readTextDocs(fsys, &o, rep)
	if err != nil {
		return nil, nil, fmt.Errorf("moments: ReadText: %w", err)
	}
	newID, vocab := raw.vocabulary(&o, rep)
	c, err := raw.corpus(newID, vocab, &o, rep)
	if err != nil {
		return nil, nil, err
	}
	return c, rep, nil
}

// rawText is what the first pass of ReadText reads: the documents over
// the words as they come (ids in the order of first occurrence, words
// the inverse of ids), with their file names.
type rawText struct {
	ids   map[string]int32
	names []string
	docs  []Doc
}

// tokenRules returns the tokenizer, the least word length and the stop
// words of o, with the defaults of TextOptions.
func tokenRules(o *TextOptions) (Tokenizer, int, map[string]bool) {
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
	stopSet := make(map[string]bool, len(stop))
	for _, w := range stop {
		stopSet[strings.ToLower(w)] = true
	}
	return tok, minLen, stopSet
}

// readTextDocs is the first pass of ReadText: it reads the files, applies
// the file rules (SkipBinary, StripMarkup), the token rules and
// MinDocWords, and interns the words of every document kept, counting
// them in a dense array indexed by word id, with the ids a document
// touches kept in a list. It checks the memory rule before each file.
func readTextDocs(fsys fs.FS, o *TextOptions, rep *TextReport) (*rawText, error) {
	tok, minLen, stopSet := tokenRules(o)
	raw := &rawText{ids: make(map[string]int32)}
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
			data = stripMarkup(data)
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
func (raw *rawText) vocabulary(o *TextOptions, rep *TextReport) (newID []int32, vocab []string) {
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
func (raw *rawText) corpus(newID []int32, vocab []string, o *TextOptions, rep *TextReport) (*Corpus, error) {
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
			if removed := capCounts(cs, s/(1-s)); removed > 0 {
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
		limit := math.Max(2, math.Floor(ratio*(total-float64(c))))
		if float64(c) > limit {
			removed += int(c) - int(limit)
			cs[j] = uint32(limit)
		}
	}
	return removed
}

// stripMarkup returns text with HTML and XML markup replaced by spaces
// (see TextOptions.StripMarkup).
func stripMarkup(text []byte) []byte {
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c == '&' {
			if n := charRef(text[i:]); n > 0 {
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
		if !(next == '/' || next == '!' || next == '?' || byteClass[next] == classLetter) {
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
					(rest[1+len(el)] == '>' || byteClass[rest[1+len(el)]] == classSpace) {
					if close := indexFold(rest[end:], []byte("</"+el)); close >= 0 {
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

// charRef returns the length of the character reference (&name; &#digits;
// &#xhex;) at the start of s, or 0.
func charRef(s []byte) int {
	i := 1
	if i < len(s) && s[i] == '#' {
		i++
		if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
			i++
		}
	}
	start := i
	for i < len(s) && i-start < 10 && (byteClass[s[i]] == classLetter || ('0' <= s[i] && s[i] <= '9')) {
		i++
	}
	if i > start && i < len(s) && s[i] == ';' {
		return i + 1
	}
	return 0
}

// indexFold is bytes.Index, ignoring case.
func indexFold(s, sub []byte) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// ReadLabels reads lines "name label" (white-space separated, extra
// fields ignored, blank lines skipped), such as the Brown corpus's
// cats.txt, into a map from name to label. A line with a single field or
// a name given twice is an error naming the line. A UTF-8 byte order
// mark at the start is skipped.
func ReadLabels(r io.Reader) (map[string]string, error) {
	sc := bufio.NewScanner(r)
	labels := make(map[string]string)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, csvscan.BOM)
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 {
			return nil, lineError("moments: ReadLabels", line, "want \"name label\", got %q", sc.Text())
		}
		if _, dup := labels[f[0]]; dup {
			return nil, lineError("moments: ReadLabels", line, "%q labelled twice", f[0])
		}
		labels[f[0]] = f[1]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("moments: ReadLabels: %w", err)
	}
	return labels, nil
}
