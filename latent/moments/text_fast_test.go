package moments

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// randomTextPieces are what randomText strings together: words of ASCII
// letters in mixed case (some of exactly 8, 9 or 17 letters, the edges
// of the reader's short-word path), letters beyond ASCII (some that
// lower-case to ASCII, some that change length), digits, apostrophes,
// hyphens, tags, white space of every kind, non-letters beyond ASCII,
// invalid UTF-8, markup and character references.
var randomTextPieces = []string{
	"the", "The", "THE", "and", "of", "cat", "Cat", "dog", "DOG", "bird", "fish", "jury", "said",
	"abcdefgh", "ABCDEFGH", "abcdefghi", "Abcdefghi", "abcdefghijklmnopq", "abcdefghijklmnopQ",
	"internationalization", "Internationalisation", "x", "ab", "ox", "Ox", "q",
	"café", "CAFÉ", "naïve", "straße", "STRASSE", "Σίσυφος", "ΣΊΣΥΦΟΣ", "İstanbul", "ǅemal", "KELVIN", "K",
	"日本語", "ﬁsh", "é", "ß",
	"0", "42", "3rd", "1990s", "'", "'s", "n't", "-", "--", "over-all", "e-mail", ".", ",", ";", "$", "``", "''",
	"/", "/nn", "/np$", "/at", "/NN-TL", "//", "/é", "/nn/x", "_", "_nn", "x/",
	" ", " ", " ", " ", "\n", "\t", "\r", "\r\n", "\v", "\f", "\n\n\t",
	"\u00a0", "\u2014", "\u2019", "\u2028", "\u3000", "½", "²",
	"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80",
	"<p>", "</p>", "<div class=\"x\">", "<br/>", "<!-- hidden words -->", "<!--", "-->", "<?xml x?>", "<!DOCTYPE html>",
	"<style>p { color: red }</style>", "<STYLE type=x>q</Style>", "<script>var z</script>", "<scripts>", "<a", "<", ">", "a<b", "< b",
	"&nbsp;", "&amp;", "&#8217;", "&#x2019;", "&", "&nbsp", "&;", "&abcdefghijkl;",
}

// randomText returns n random pieces of randomTextPieces, mostly
// separated by spaces, with tags after some words.
func randomText(rng *rand.Rand, n int) []byte {
	var b []byte
	if rng.IntN(10) == 0 {
		b = append(b, "\uFEFF"...)
	}
	for range n {
		b = append(b, randomTextPieces[rng.IntN(len(randomTextPieces))]...)
		switch rng.IntN(4) {
		case 0:
			b = append(b, " "...)
		case 1:
			b = append(b, "/nn "...)
		}
	}
	return b
}

// tokens returns the tokens tok gives for text.
func tokens(tok Tokenizer, text []byte) []string {
	var out []string
	tok(text, func(w []byte) { out = append(out, string(w)) })
	return out
}

// TestTokenizersMatchReference checks Words and Tagged against the
// reference tokenizers, token for token, on random text.
func TestTokenizersMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	nonASCII := 0
	for trial := range 2000 {
		text := randomText(rng, rng.IntN(60))
		for cut := range []int{0, 1} {
			if cut == 1 && len(text) > 0 {
				text = text[:rng.IntN(len(text))] // a random end, maybe within a rune
			}
			if got, want := tokens(Words, text), tokens(refWords, text); !slices.Equal(got, want) {
				t.Fatalf("trial %d: Words(%q) = %q, want %q", trial, text, got, want)
			}
			for _, sep := range []byte{'/', '_', '$', 'x', ' ', 0xc3} {
				got, want := tokens(Tagged(sep), text), tokens(refTagged(sep), text)
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d: Tagged(%q)(%q) = %q, want %q", trial, sep, text, got, want)
				}
				for _, w := range want {
					if !isASCII(w) {
						nonASCII++
					}
				}
			}
		}
	}
	if nonASCII < 1000 {
		t.Fatalf("only %d tokens beyond ASCII: the test does not exercise them", nonASCII)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// TestOwnTokenizer checks that the reader knows its own tokenizers (and
// Tagged's sep) and no other.
func TestOwnTokenizer(t *testing.T) {
	for _, c := range []struct {
		tok         Tokenizer
		own, tagged bool
		sep         int
		name        string
	}{
		{Words, true, false, -1, "Words"},
		{Tagged('/'), true, true, '/', "Tagged('/')"},
		{Tagged('_'), true, true, '_', "Tagged('_')"},
		{Tagged('x'), true, true, -1, "Tagged('x')"},
		{Tagged('~'), true, true, '~', "Tagged('~')"},
		{Tagged(' '), true, true, -1, "Tagged(' ')"},
		{Tagged(0xc3), true, true, -1, "Tagged(0xc3)"},
		{RealText(Tagged('/')).Tokenizer, true, true, '/', "RealText(Tagged('/'))"},
		{refWords, false, false, -1, "refWords"},
		{func(text []byte, emit func([]byte)) { Words(text, emit) }, false, false, -1, "a closure"},
	} {
		own, tagged, sep := ownTokenizer(c.tok)
		if own != c.own || tagged != c.tagged || sep != c.sep {
			t.Errorf("ownTokenizer(%s) = %v, %v, %d; want %v, %v, %d", c.name, own, tagged, sep, c.own, c.tagged, c.sep)
		}
	}
}

// TestCountersMatchReference checks the reader's own runs of Words and
// Tagged (countWords, countTagged) against the reference tokenizers'
// tokens counted through the Tokenizer's emit: the same words in the
// same order of first occurrence, with the same counts, for every word
// length (MinWordLen 1, no stop words) and with the defaults.
func TestCountersMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	for _, minLen := range []int{1, 2, 3, 4} {
		var stop []string
		if minLen >= 3 {
			stop = EnglishStopWords()
		}
		for _, sep := range []int{-2, '/', '_', 'x'} { // -2: Words
			own, ref := newDocCounter(stop, minLen), newDocCounter(stop, minLen)
			for trial := range 300 {
				own.touched, ref.touched = own.touched[:0], ref.touched[:0]
				text := randomText(rng, rng.IntN(200))
				if sep == -2 {
					own.countWords(text)
					refWords(text, ref.add)
				} else {
					_, _, s := ownTokenizer(Tagged(byte(sep)))
					own.countTagged(text, s)
					refTagged(byte(sep))(text, ref.add)
				}
				own.docWords()
				ref.docWords()
				if !slices.Equal(own.touched, ref.touched) {
					t.Fatalf("minLen %d sep %d trial %d: words %v, want %v", minLen, sep, trial, own.touched, ref.touched)
				}
				for _, e := range ref.touched {
					if own.count[e] != ref.count[e] {
						t.Fatalf("minLen %d sep %d trial %d: word %q counted %d times, want %d",
							minLen, sep, trial, ref.table.key(int(e)), own.count[e], ref.count[e])
					}
					own.count[e], ref.count[e] = 0, 0
				}
				for e, c := range own.count {
					if c != 0 {
						t.Fatalf("minLen %d sep %d trial %d: entry %q left counted %d times", minLen, sep, trial, own.table.key(e), c)
					}
				}
			}
			if own.table.words() != ref.table.words() || own.table.words() < 50 {
				t.Fatalf("minLen %d sep %d: %d words, want %d (and at least 50)", minLen, sep, own.table.words(), ref.table.words())
			}
			for id := range int32(ref.table.words()) {
				if string(own.table.word(id)) != string(ref.table.word(id)) {
					t.Fatalf("minLen %d sep %d: word %d is %q, want %q", minLen, sep, id, own.table.word(id), ref.table.word(id))
				}
			}
		}
	}
}

// TestReadTextMatchesReference reads random corpora with ReadTextReport
// and with the reference reader under several options and checks that
// the corpora and reports are identical.
func TestReadTextMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	custom := func(text []byte, emit func([]byte)) { refWords(text, emit) } // not the reader's own
	optionSets := []struct {
		name string
		opts *TextOptions
	}{
		{"nil", nil},
		{"RealText(nil)", RealText(nil)},
		{"RealText(Tagged('/'))", RealText(Tagged('/'))},
		{"RealText(custom)", RealText(custom)},
		{"RealText(Tagged('x'))", RealText(Tagged('x'))},
		{"MaxVocab", &TextOptions{MaxVocab: 30, MinDocFreq: 2, StopWords: []string{}, MinWordLen: 2}},
		{"Include", &TextOptions{Tokenizer: Tagged('_'), Include: func(p string) bool { return !strings.HasSuffix(p, "7") }, StopWords: []string{"Cat", "DOG", "straße"}}},
		{"keep all", &TextOptions{StopWords: []string{}, MinWordLen: 1, SkipBinary: true, StripMarkup: true, MaxWordShare: 0.05}},
	}
	for trial := range 40 {
		fsys := fstest.MapFS{}
		docs := 1 + rng.IntN(40)
		for d := range docs {
			text := randomText(rng, rng.IntN(400))
			switch rng.IntN(12) {
			case 0:
				text = append(text, 0) // binary
			case 1:
				text = nil
			case 2:
				text = []byte(strings.Repeat("fish ", 1+rng.IntN(300)) + "cat dog bird")
			}
			fsys[fmt.Sprintf("dir%d/doc%02d", d%3, d)] = &fstest.MapFile{Data: text}
		}
		for _, o := range optionSets {
			want, wantRep, wantErr := refReadTextReport(fsys, o.opts)
			got, gotRep, err := ReadTextReport(fsys, o.opts)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("trial %d %s: error %v, want %v", trial, o.name, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d %s: corpus\n%+v\nwant\n%+v", trial, o.name, got, want)
			}
			if !reflect.DeepEqual(gotRep, wantRep) {
				t.Fatalf("trial %d %s: report %+v, want %+v", trial, o.name, gotRep, wantRep)
			}
		}
	}
}

// FuzzTokenizersMatchReference: on any bytes, Words, Tagged and the
// reader's own runs of them give the tokens of the reference reader.
func FuzzTokenizersMatchReference(f *testing.F) {
	rng := rand.New(rand.NewPCG(13, 4))
	for range 20 {
		f.Add(randomText(rng, 30), byte('/'))
	}
	f.Add([]byte("The/at Fulton/np-tl ``/`` Atlanta's/np$ café/nn x/y/z"), byte('/'))
	f.Fuzz(func(t *testing.T, text []byte, sep byte) {
		if got, want := tokens(Words, text), tokens(refWords, text); !slices.Equal(got, want) {
			t.Fatalf("Words(%q) = %q, want %q", text, got, want)
		}
		if got, want := tokens(Tagged(sep), text), tokens(refTagged(sep), text); !slices.Equal(got, want) {
			t.Fatalf("Tagged(%q)(%q) = %q, want %q", sep, text, got, want)
		}
		for _, tagged := range []bool{false, true} {
			own, ref := newDocCounter(nil, 1), newDocCounter(nil, 1)
			if tagged {
				_, _, s := ownTokenizer(Tagged(sep))
				own.countTagged(text, s)
				refTagged(sep)(text, ref.add)
			} else {
				own.countWords(text)
				refWords(text, ref.add)
			}
			own.docWords()
			ref.docWords()
			if !slices.Equal(own.touched, ref.touched) || own.table.words() != ref.table.words() {
				t.Fatalf("tagged %v: words %v, want %v", tagged, own.touched, ref.touched)
			}
			for _, e := range ref.touched {
				if own.count[e] != ref.count[e] || string(own.table.key(int(e))) != string(ref.table.key(int(e))) {
					t.Fatalf("tagged %v: entry %d is %q x %d, want %q x %d", tagged, e,
						own.table.key(int(e)), own.count[e], ref.table.key(int(e)), ref.count[e])
				}
			}
		}
	})
}

// TestWordTableGrow fills a table through many grows with keys of every
// length (with NUL and high bytes) and finds each of them at its entry,
// through find, and the ASCII ones of at most 16 bytes through addHead,
// while keys not inserted are not found.
func TestWordTableGrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	dc := newDocCounter([]string{"the", "and"}, 1)
	tab := dc.table
	seen := map[string]int{}
	var keys []string
	for len(keys) < 60000 {
		b := make([]byte, 1+rng.IntN(30))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = 'a' + byte(rng.IntN(26))
			}
		}
		if _, ok := seen[string(b)]; ok || string(b) == "the" || string(b) == "and" {
			continue
		}
		h, head, _ := tab.hash(b)
		if _, found := tab.find(b, h, head); found {
			t.Fatalf("%q found before it was inserted", b)
		}
		seen[string(b)] = tab.insert(b, h, head)
		keys = append(keys, string(b))
	}
	if len(tab.slots) < 2*len(keys) {
		t.Fatalf("%d slots for %d keys", len(tab.slots), len(keys))
	}
	for _, k := range keys {
		b := []byte(k)
		h, head, ascii := tab.hash(b)
		e, found := tab.find(b, h, head)
		if !found || e != seen[k] || string(tab.key(e)) != k {
			t.Fatalf("%q: entry %d (found %v), want %d", k, e, found, seen[k])
		}
		if ascii && len(b) <= 16 && isLower(b) {
			dc.touched = dc.touched[:0]
			var tail uint64
			if len(b) > 8 {
				tail = loadHead(b[8:])
			}
			dc.count = append(dc.count, make([]uint32, len(tab.ends)-len(dc.count))...)
			dc.addHead(loadHead(b), tail, len(b))
			if len(dc.touched) != 1 || int(dc.touched[0]) != e || len(tab.ends) != len(keys)+tab.stops {
				t.Fatalf("addHead(%q) counted entry %v, want %d", k, dc.touched, e)
			}
			dc.count[e] = 0
		}
	}
}

func isLower(b []byte) bool {
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
