package moments

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/moments-go/moments/internal/csvscan"
)

// Tokenizer splits text into tokens and calls emit with each, lower-cased.
// The slice passed to emit is valid only during the call.
type Tokenizer func(text []byte, emit func(token []byte))

// Words is the default Tokenizer: maximal runs of letters, lower-cased.
// Everything else (digits, punctuation, apostrophes) separates words.
func Words(text []byte, emit func(token []byte)) {
	var buf []byte
	n := len(text)
	for i := 0; i < n; {
		if c := text[i]; c < utf8.RuneSelf && !isLetter(c) {
			i++
			continue
		}
		// A run of ASCII letters, whole when it ends before an ASCII
		// byte or the end.
		j, lower := letterRun(text, i)
		if j == n || text[j] < utf8.RuneSelf {
			buf = emitLower(emit, buf, text[i:j], lower)
			i = j
			continue
		}
		// The word goes on past ASCII: decode it rune by rune.
		buf, i = appendWord(appendLower(buf[:0], text[i:j]), text, j)
		if len(buf) > 0 {
			emit(buf)
		}
	}
}

// appendWord appends to buf, lower-cased, the letters of text from i up
// to the first rune that is not a letter, and returns buf and where it
// stopped: at that rune if it is ASCII (Words' loop skips it), past it
// otherwise.
func appendWord(buf, text []byte, i int) ([]byte, int) {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if !isLetter(c) {
				break
			}
			buf = append(buf, c|0x20)
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i += size
		if !unicode.IsLetter(r) {
			break
		}
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
	}
	return buf, i
}

// isLetter says whether c is an ASCII letter.
func isLetter(c byte) bool { return (c|0x20)-'a' < 26 }

// appendLower appends the ASCII letters w to buf in lower case.
func appendLower(buf, w []byte) []byte {
	for _, c := range w {
		buf = append(buf, c|0x20)
	}
	return buf
}

// letterRun returns the end of the run of ASCII letters at text[i:] and
// whether they are all lower case.
func letterRun(text []byte, i int) (end int, lower bool) {
	and := byte(0xff)
	for i < len(text) && isLetter(text[i]) {
		and &= text[i]
		i++
	}
	return i, and&0x20 != 0
}

// emitLower emits the ASCII letters w lower-cased: w itself when lower
// says it already is, else a copy in buf, which it returns.
func emitLower(emit func([]byte), buf, w []byte, lower bool) []byte {
	if lower {
		emit(w)
		return buf
	}
	buf = appendLower(buf[:0], w)
	emit(buf)
	return buf
}

// Tagged returns a Tokenizer for tagged text such as the Brown corpus
// ("The/at jury/nn said/vbd"): tokens are separated by white space, the
// tag after the last sep is removed, and a token is kept only if what
// remains is all letters (so "Atlanta's/np$" is dropped, not split).
//
//go:noinline (ReadText knows its Tokenizers by their code: see ownTokenizer)
func Tagged(sep byte) Tokenizer {
	return func(text []byte, emit func([]byte)) {
		var buf []byte
		n := len(text)
		for i := 0; i < n; {
			if byteClass[text[i]] == classSpace {
				i++
				continue
			}
			// The field's leading ASCII letters: the word when the field
			// ends there or at a sep that is its only one.
			j, lower := letterRun(text, i)
			if j < n && text[j] >= utf8.RuneSelf {
				// Not ASCII: the field rune by rune.
				var word []byte
				word, i = taggedField(text, i, sep, buf[:0])
				if len(word) > 0 {
					emit(word)
				}
				buf = word[:0]
				continue
			}
			letters := j
			word := j > i
			if j < n && byteClass[text[j]] != classSpace {
				// A non-letter: the field holds a word only if it is
				// its only sep, after a letter.
				word = word && text[j] == sep
				for j++; j < n && byteClass[text[j]] != classSpace; j++ {
					if text[j] == sep {
						word = false
					}
				}
			}
			if word {
				buf = emitLower(emit, buf, text[i:letters], lower)
			}
			i = j
		}
	}
}

// taggedField reads the field of tagged text that starts at text[i], a
// byte that is not white space, lower-casing it into buf (appended to):
// it notes the last sep and whether a non-letter comes before it. It
// returns the word (a prefix of buf's new bytes, empty if the field
// has none) and where the field ends.
func taggedField(text []byte, i int, sep byte, buf []byte) ([]byte, int) {
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
		return word, i
	}
	return buf[:0], i
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
