package fuzz

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// checkCorpus asserts the invariants every corpus must keep.
func checkCorpus(t *testing.T, c *moments.Corpus) {
	t.Helper()
	tokens, nnz := 0, 0
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		if len(d.Words) != len(d.Counts) {
			t.Fatalf("doc %d: %d words, %d counts", i, len(d.Words), len(d.Counts))
		}
		for j, w := range d.Words {
			if w < 0 || int(w) >= c.VocabSize() || (j > 0 && w <= d.Words[j-1]) || d.Counts[j] == 0 {
				t.Fatalf("doc %d: bad entry %d: word %d count %d", i, j, w, d.Counts[j])
			}
			tokens += int(d.Counts[j])
		}
		nnz += len(d.Words)
	}
	if tokens != c.Tokens() || nnz != c.NNZ() {
		t.Fatalf("tokens %d (reported %d), nnz %d (reported %d)", tokens, c.Tokens(), nnz, c.NNZ())
	}
	if c.Vocab != nil && len(c.Vocab) != c.VocabSize() {
		t.Fatalf("%d vocabulary names for %d words", len(c.Vocab), c.VocabSize())
	}
}

// readerBudget bounds what a reader may allocate for each byte of its
// input, and a fixed allowance for its buffers (ReadUCI's line buffers
// and its first 2^16 entries, 1.6 MB, whatever the header claims): the
// parsed form of a file is a few times its size, and a declared size (a
// header, a number of columns) must not make a reader allocate more
// than its data need. The targets set the readers' MaxMemory to half
// the budget.
var readerBudget = budget{base: 4 << 20, perUnit: 256}

// FuzzReadUCI: any input either fails with an error naming a line or
// gives a well-formed corpus, within readerBudget per byte of input.
func FuzzReadUCI(f *testing.F) {
	f.Add([]byte("3\n4\n5\n2 4 1\n1 1 2\n1 3 1\n3 2 7\n2 1 1\n"), []byte("a\nb\nc\nd\n"))
	f.Add([]byte("1\n1\n1\n1 1 4294967295\n"), []byte(""))
	f.Add([]byte("2\n2\n2\n1 1 1\n1 1 1\n"), []byte("x\ny\n"))
	f.Add([]byte("3\n10000000\n3\n1 1 2\n2 9999999 1\n3 5 4\n"), []byte("")) // W = 10^7, tiny data
	f.Add([]byte("16777216\n3\n1\n1 1 1\n"), []byte(""))                     // D = 2^24, one entry
	f.Add([]byte("1\n1\n10000000\n1 1 1\n"), []byte(""))                     // NNZ = 10^7, one entry
	f.Add([]byte("9999\n99\n0\n"), []byte(""))                               // empty documents
	f.Add([]byte("\ufeff1\n1\n1\n1 1 1\n"), []byte("\ufeffword\n"))          // BOMs
	f.Add([]byte("2\n3\n2\n1 1 1\n2 3 1\n"), []byte("a\nb\n"))               // vocabulary too short
	f.Fuzz(func(t *testing.T, docword, vocab []byte) {
		var c *moments.Corpus
		var err error
		size := len(docword) + len(vocab)
		opts := &moments.UCIOptions{MaxMemory: int64(readerBudget.bytes(size) / 2)}
		bounded(t, "moments.ReadUCI", readerBudget, size, func() {
			c, err = moments.ReadUCI(bytes.NewReader(docword), bytes.NewReader(vocab), opts)
		})
		if err != nil {
			if !strings.Contains(err.Error(), "moments: ReadUCI") {
				t.Fatalf("error without the reader's name: %v", err)
			}
			return
		}
		checkCorpus(t, c)
	})
}

// FuzzReadText: any files give a well-formed corpus whose words are
// letters in lower-case form (unicode.ToLower leaves them unchanged; an
// upper-case letter with no lower-case mapping, such as U+03D2, stays),
// at least three of them, with no stop word; within readerBudget per
// byte of the files.
func FuzzReadText(f *testing.F) {
	f.Add([]byte("The cat sat on the mat. Über naïve CAFÉ!"), []byte("dogs/nns bark/vb a/b/c x/ ''/''"), true)
	f.Add([]byte("\xff\xfe\x00 abc\tdef\nghi"), []byte(""), false)
	f.Add([]byte("\ufeffword another"), []byte("\ufeff"), false)                           // BOMs
	f.Add(bytes.Repeat([]byte("abc "), 2000), bytes.Repeat([]byte("xyz/nn "), 1000), true) // one word, many times
	stop := map[string]bool{}
	for _, w := range moments.EnglishStopWords() {
		stop[w] = true
	}
	f.Fuzz(func(t *testing.T, a, b []byte, tagged bool) {
		opts := moments.TextOptions{MaxMemory: int64(readerBudget.bytes(len(a)+len(b)) / 2)}
		if tagged {
			opts.Tokenizer = moments.Tagged('/')
		}
		var c *moments.Corpus
		var err error
		bounded(t, "moments.ReadText", readerBudget, len(a)+len(b), func() {
			c, err = moments.ReadText(fstest.MapFS{"a": {Data: a}, "b/c": {Data: b}}, &opts)
		})
		if err != nil {
			t.Fatal(err)
		}
		checkCorpus(t, c)
		if c.NumDocs() != 2 {
			t.Fatalf("%d documents from two files", c.NumDocs())
		}
		for _, w := range c.Vocab {
			if len([]rune(w)) < 3 || stop[w] {
				t.Fatalf("word %q kept", w)
			}
			for _, r := range w {
				if !unicode.IsLetter(r) || unicode.ToLower(r) != r {
					t.Fatalf("word %q is not letters in lower-case form", w)
				}
			}
		}
		// The rules for real text (markup, binary files, repetition, caps) give a
		// well-formed corpus too, of at most the two documents.
		rt := moments.RealText(opts.Tokenizer)
		rt.MinDocFreq = 1
		rc, rep, err := moments.ReadTextReport(fstest.MapFS{"a": {Data: a}, "b/c": {Data: b}}, rt)
		if err != nil {
			t.Fatal(err)
		}
		checkCorpus(t, rc)
		// Every file is a document or named by one of the rules that drop
		// files (binary, few words, repetitive, short).
		dropped := len(rep.Binary) + len(rep.FewWords) + len(rep.Repetitive) + len(rep.Short)
		if rc.NumDocs()+dropped != 2 || rep.Files != 2 {
			t.Fatalf("%d documents and %d dropped (binary %v, few words %v, repetitive %v, short %v) from two files",
				rc.NumDocs(), dropped, rep.Binary, rep.FewWords, rep.Repetitive, rep.Short)
		}
	})
}

// fuzzDoc turns bytes into a document over n words (at least three
// tokens) and a random n x k matrix.
func fuzzDoc(data []byte, n, k int, seed uint64) (moments.Doc, []int32, *mat.Dense) {
	var tokens []int32
	for _, b := range data {
		tokens = append(tokens, int32(b)%int32(n))
	}
	for len(tokens) < 3 {
		tokens = append(tokens, int32(len(tokens))%int32(n))
	}
	if len(tokens) > 12 {
		tokens = tokens[:12]
	}
	var bld moments.Builder
	bld.SetVocabSize(n)
	ones := make([]uint32, len(tokens))
	for i := range ones {
		ones[i] = 1
	}
	if err := bld.Add(tokens, ones); err != nil {
		panic(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	x := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			x.Set(i, j, r.NormFloat64()*math.Pow(2, float64(r.IntN(20)-10)))
		}
	}
	return bld.Corpus().Doc(0), tokens, x
}

// FuzzPairsAccumulator compares the per-document estimate of
// E[x1 x2^T] X with its definition, the average over ordered pairs of
// distinct token positions, within the rounding bound.
func FuzzPairsAccumulator(f *testing.F) {
	f.Add([]byte{1, 2, 3, 1}, uint64(1))
	f.Add([]byte{0, 0, 0, 0, 0}, uint64(2))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		const n, k = 6, 3
		d, tokens, x := fuzzDoc(data, n, k, seed)
		acc := moments.NewPairsAccumulator(x)
		acc.Add(d)
		got, _ := acc.Finalize()
		l := float64(len(tokens))
		for w := 0; w < n; w++ {
			for j := 0; j < k; j++ {
				// The estimate forms c (c^T X) - diag(c) X: for each
				// occurrence of w it adds all the rows of the document,
				// its own included, and subtracts its own row again, so
				// its error is relative to those terms, the own row
				// twice (it cancels).
				var s, bound float64
				for p, tp := range tokens {
					if int(tp) != w {
						continue
					}
					for q, tq := range tokens {
						if p != q {
							s += x.At(int(tq), j)
						}
						bound += math.Abs(x.At(int(tq), j))
					}
					bound += math.Abs(x.At(w, j))
				}
				s /= l * (l - 1)
				bound /= l * (l - 1)
				if d := math.Abs(got.At(w, j) - s); d > SumBound(4*len(tokens)*len(tokens), bound) {
					t.Fatalf("tokens %v: entry (%d,%d) = %v, definition %v", tokens, w, j, got.At(w, j), s)
				}
			}
		}
	})
}

// FuzzTriplesAccumulator compares the per-document whitened third moment
// with its definition, the average over ordered triples of distinct
// token positions of w_p(x)w_q(x)w_r.
func FuzzTriplesAccumulator(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint64(1))
	f.Add([]byte{4, 4, 4, 4, 1}, uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		const n, k = 5, 3
		d, tokens, w := fuzzDoc(data, n, k, seed)
		acc := moments.NewTriplesAccumulator(w)
		acc.Add(d)
		got, _, _, _ := acc.Finalize()
		want := tensor3.New(k, nil)
		bound := tensor3.New(k, nil)
		count := 0.0
		for p := range tokens {
			for q := range tokens {
				for r := range tokens {
					if p == q || p == r || q == r {
						continue
					}
					count++
					for a := 0; a < k; a++ {
						for b := a; b < k; b++ {
							for c := b; c < k; c++ {
								v := w.At(int(tokens[p]), a) * w.At(int(tokens[q]), b) * w.At(int(tokens[r]), c)
								want.Set(a, b, c, want.At(a, b, c)+v)
								bound.Set(a, b, c, bound.At(a, b, c)+math.Abs(v))
							}
						}
					}
				}
			}
		}
		m := float64(len(tokens))
		// The accumulator forms sums of products of up to three rows per
		// token, with cancellation between the y^3 and correction terms,
		// and the corrections go through a polarisation identity that
		// costs a few dozen ulps (see tensor3.AddCrossRows). Bound the
		// error relative to the largest terms it combines, (l^3 + 6 l^2)
		// times the largest |w|^3 over l(l-1)(l-2): 1e-12 of that is far
		// above rounding and far below any mistake in the formula.
		var wmax float64
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				wmax = math.Max(wmax, math.Abs(w.At(i, j)))
			}
		}
		scale := (m*m*m + 6*m*m) * wmax * wmax * wmax / (m * (m - 1) * (m - 2))
		for a := 0; a < k; a++ {
			for b := a; b < k; b++ {
				for c := b; c < k; c++ {
					def := want.At(a, b, c) / count
					if diff := math.Abs(got.At(a, b, c) - def); diff > 1e-12*scale {
						t.Fatalf("tokens %v: entry (%d,%d,%d) = %v, definition %v", tokens, a, b, c, got.At(a, b, c), def)
					}
				}
			}
		}
	})
}
