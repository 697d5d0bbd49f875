package topic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// wordName names word i of a synthetic vocabulary: "q" and four letters,
// which no stop list or length rule touches.
func wordName(i int) string {
	b := []byte("qaaaa")
	for j := 4; j > 0; j-- {
		b[j] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

// outlierFiles are the outlier documents of TestOutlierDocuments: a long
// listing of files named after every word, a document of one word
// repeated 10^5 times, one word repeated 10^5 times amid a sentence,
// tables of a few words over and over, and HTML mails whose markup (tags,
// a style sheet, character references) would otherwise be words in every
// mail.
func outlierFiles(n int) map[string]string {
	var listing strings.Builder
	for rep := 0; rep < 20; rep++ {
		for w := 0; w < n; w++ {
			fmt.Fprintf(&listing, "-rw-r--r--  1 user  staff  %d Jan %2d 2020 %s.txt\n", 1000+37*w, 1+w%28, wordName(w))
		}
	}
	one := strings.Repeat(wordName(7)+" ", 100000)
	amid := wordName(11) + " " + wordName(12) + " " + wordName(13) + " " + strings.Repeat(wordName(14)+" ", 100000) + wordName(15)
	files := map[string]string{"listing.txt": listing.String(), "repeat.txt": one, "repeat-amid.txt": amid}
	// Tables of a few words over and over (as a file of categories).
	for m := 0; m < 5; m++ {
		var table strings.Builder
		for row := 0; row < 200; row++ {
			fmt.Fprintf(&table, "%s %s\n", wordName(100+m), wordName((m*17+row%8)%n))
		}
		files[fmt.Sprintf("table%d.txt", m)] = table.String()
	}
	for m := 0; m < 5; m++ {
		var mail strings.Builder
		mail.WriteString("<html><head><style type=\"text/css\">body { font-family: arial; color: black } .footer { margin: auto }</style></head>\n<body><table class=\"wrapper\"><tr><td style=\"padding: 10px\">")
		for w := 0; w < 12; w++ {
			fmt.Fprintf(&mail, "<span class=\"text\">%s</span>&nbsp;", wordName((m*31+w*7)%n))
		}
		mail.WriteString("</td></tr></table><div class=\"footer\">unsubscribe&#8217;s link <a href=\"http://example.com/unsubscribe\">here</a></div></body></html>\n")
		files[fmt.Sprintf("mail%d.html", m)] = mail.String()
	}
	return files
}

// learnText writes the documents of c as text files (plus extra files),
// reads them back with opts and learns k topics; it returns the mean l1
// error per topic against the model after matching, the topics mapped
// back to the model's word ids (words the reader dropped have
// probability 0).
func learnText(t *testing.T, c *moments.Corpus, model *synth.LDA, extra map[string]string, opts *moments.TextOptions) float64 {
	t.Helper()
	fsys := fstest.MapFS{}
	var b strings.Builder
	for i := 0; i < c.NumDocs(); i++ {
		b.Reset()
		d := c.Doc(i)
		for j, w := range d.Words {
			for r := uint32(0); r < d.Counts[j]; r++ {
				b.WriteString(wordName(int(w)))
				b.WriteByte(' ')
			}
		}
		fsys[fmt.Sprintf("doc%05d.txt", i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	for name, s := range extra {
		fsys[name] = &fstest.MapFile{Data: []byte(s)}
	}
	read, rep, err := moments.ReadTextReport(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	k := len(model.Alpha)
	res, err := LearnLDA(context.Background(), read, k, model.Alpha0(), &Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := model.Topics.Dims()
	id := make(map[string]int, n)
	for w := 0; w < n; w++ {
		id[wordName(w)] = w
	}
	full := mat.Zeros(n, k)
	for i, w := range read.Vocab {
		if m, ok := id[w]; ok {
			for j := 0; j < k; j++ {
				full.Set(m, j, res.Topics.At(i, j))
			}
		}
	}
	_, errs := eval.MatchTopics(model.Topics, full)
	t.Logf("%d files: %d documents, %d words (dropped %d binary, %d with few words, %d repetitive, %d short; %d rare, %d common words; capped %d tokens): mean l1 error %.4f",
		len(fsys), read.NumDocs(), read.VocabSize(), len(rep.Binary), len(rep.FewWords), len(rep.Repetitive), len(rep.Short), rep.Rare, rep.Common, rep.CappedTokens, eval.Mean(errs))
	return eval.Mean(errs)
}

// TestOutlierDocuments: an LDA corpus of 300 documents with 13 outlier
// documents (a long listing, extreme repetition, tables, HTML mails)
// learns as well, under the rules for real text, as the same corpus
// without them: the mean l1 error per topic after matching may grow by at
// most 0.01 (the clean error is about 0.10). Without the rules the same
// outliers must cost at least 0.02, or the test shows nothing.
// MaxDocFrac is off: the synthetic vocabulary has no stop words, and a
// topic's leading words are in more than half the documents.
func TestOutlierDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 31))
	const n, k = 200, 5
	alpha := []float64{0.1, 0.1, 0.1, 0.1, 0.1}
	model := synth.RandomLDA(r, n, k, 0.1, alpha)
	c := model.NewCorpus(300, 50, 150, 7).Materialize()
	opts := moments.RealText(nil)
	opts.MaxDocFrac = 1
	clean := learnText(t, c, model, nil, opts)
	dirty := learnText(t, c, model, outlierFiles(n), opts)
	if dirty > clean+0.01 {
		t.Fatalf("mean l1 error per topic %.4f with the outliers, %.4f without: want at most 0.01 more", dirty, clean)
	}
	raw := learnText(t, c, model, outlierFiles(n), nil)
	rawClean := learnText(t, c, model, nil, nil)
	if raw < rawClean+0.02 {
		t.Fatalf("without the rules the outliers cost only %.4f - %.4f: the test no longer shows what the rules do", raw, rawClean)
	}
}
