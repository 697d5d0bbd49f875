package moments

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	memsize "github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/latent/internal/csvscan"
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

// TextOptions controls how ReadText turns files into documents. The zero
// value reads every file, splits it with Words, keeps words of at least
// three letters that are not English stop words, in at least one
// document, without a limit on the vocabulary.
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
}

// ReadText reads every regular file of fsys (in the lexical order of
// fs.WalkDir) that opts.Include accepts as one document. The vocabulary
// is sorted alphabetically; Corpus.Names holds the file paths. Words are
// filtered by length and stop list before document frequencies are
// counted. A document may end up empty. A UTF-8 byte order mark at the
// start of a file is skipped.
func ReadText(fsys fs.FS, opts TextOptions) (*Corpus, error) {
	tok := opts.Tokenizer
	if tok == nil {
		tok = Words
	}
	minLen := opts.MinWordLen
	if minLen <= 0 {
		minLen = 3
	}
	stop := opts.StopWords
	if stop == nil {
		stop = EnglishStopWords()
	}
	stopSet := make(map[string]bool, len(stop))
	for _, w := range stop {
		stopSet[strings.ToLower(w)] = true
	}

	// First pass: intern the words of every document, counting them in a
	// dense array indexed by word id, with the ids a document touches
	// kept in a list.
	ids := make(map[string]int32)
	var names []string
	var docs []Doc
	var count []uint32
	var touched []int32
	var held int64 // bytes of ids, names and docs, estimated
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || (opts.Include != nil && !opts.Include(path)) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := mat.CheckMemory(fmt.Sprintf("the corpus of %d files read and %s", len(docs), path),
			memsize.Add(memsize.Scale(2, held), memsize.Mul(4, len(count)), info.Size()), opts.MaxMemory); err != nil {
			return err
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		data = csvscan.TrimBOM(data)
		words0 := len(ids)
		touched = touched[:0]
		tok(data, func(t []byte) {
			if utf8.RuneCount(t) < minLen {
				return
			}
			id, ok := ids[string(t)]
			if !ok {
				w := string(t)
				if stopSet[w] {
					return
				}
				id = int32(len(ids))
				ids[w] = id
				count = append(count, 0)
			}
			if count[id] == 0 {
				touched = append(touched, id)
			}
			count[id]++
		})
		doc := Doc{Words: make([]int32, len(touched)), Counts: make([]uint32, len(touched))}
		for j, id := range touched {
			doc.Words[j], doc.Counts[j] = id, count[id]
			count[id] = 0
		}
		names = append(names, path)
		docs = append(docs, doc)
		// A word costs its map entry and string; a document its path,
		// two slice headers and 8 bytes a distinct word.
		held = memsize.Add(held, memsize.Mul(len(ids)-words0, 64), memsize.Mul(len(touched), 8), memsize.Mul(len(path)+64, 1))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("moments: ReadText: %w", err)
	}

	// Keep the words frequent enough, then map them to alphabetical ids.
	df := make([]int, len(ids))
	for _, d := range docs {
		for _, id := range d.Words {
			df[id]++
		}
	}
	minDF := max(opts.MinDocFreq, 1)
	words := make([]string, len(ids))
	for w, id := range ids {
		words[id] = w
	}
	var kept []int32
	for id := range words {
		if df[id] >= minDF {
			kept = append(kept, int32(id))
		}
	}
	if opts.MaxVocab > 0 && len(kept) > opts.MaxVocab {
		slices.SortFunc(kept, func(a, b int32) int {
			if df[a] != df[b] {
				return df[b] - df[a]
			}
			return strings.Compare(words[a], words[b])
		})
		kept = kept[:opts.MaxVocab]
	}
	slices.SortFunc(kept, func(a, b int32) int { return strings.Compare(words[a], words[b]) })
	newID := make([]int32, len(ids))
	for i := range newID {
		newID[i] = -1
	}
	vocab := make([]string, len(kept))
	for i, id := range kept {
		newID[id] = int32(i)
		vocab[i] = words[id]
	}

	var b Builder
	b.SetVocabSize(len(vocab))
	var ws []int32
	var cs []uint32
	for _, d := range docs {
		ws, cs = ws[:0], cs[:0]
		for j, id := range d.Words {
			if n := newID[id]; n >= 0 {
				ws = append(ws, n)
				cs = append(cs, d.Counts[j])
			}
		}
		if err := b.Add(ws, cs); err != nil {
			return nil, err
		}
	}
	c := b.Corpus()
	c.vocabSize = len(vocab)
	c.Vocab = vocab
	c.Names = names
	return c, nil
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
			return nil, fmt.Errorf("moments: ReadLabels: line %d: want \"name label\", got %q", line, sc.Text())
		}
		if _, dup := labels[f[0]]; dup {
			return nil, fmt.Errorf("moments: ReadLabels: line %d: %q labelled twice", line, f[0])
		}
		labels[f[0]] = f[1]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("moments: ReadLabels: %v", err)
	}
	return labels, nil
}
