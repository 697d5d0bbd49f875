package moments

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRealTextRules checks each rule of RealText and its report.
func TestRealTextRules(t *testing.T) {
	var many strings.Builder
	for i := 0; i < 40; i++ {
		many.WriteString("word" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " ")
	}
	fsys := fstest.MapFS{
		"bin":   {Data: []byte("cat dog bird\x00\x01 fish")},
		"mail":  {Data: []byte(`<html><style>p { color: red }</style><!-- hidden words --><p class="x">cat&nbsp;dog &amp; bird&#8217;s fish</p></html>`)},
		"rep":   {Data: []byte("cat dog bird " + strings.Repeat("fish ", 1000))},
		"one":   {Data: []byte(strings.Repeat("fish ", 1000))},
		"plain": {Data: []byte("a < b and c<d: cat dog bird")},
		"cap":   {Data: []byte(many.String() + strings.Repeat("fish ", 30))},
	}
	o := RealText(nil)
	o.MinDocFreq = 1
	c, rep, err := ReadTextReport(fsys, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Binary, []string{"bin"}) || !reflect.DeepEqual(rep.FewWords, []string{"one"}) ||
		!reflect.DeepEqual(rep.Repetitive, []string{"rep"}) || len(rep.Short) != 0 || rep.Files != 6 {
		t.Fatalf("report %+v", rep)
	}
	// Markup is gone: no "color", "class", "hidden", "nbsp", "html".
	for _, w := range c.Vocab {
		switch w {
		case "color", "class", "hidden", "nbsp", "html", "red", "words", "style":
			t.Fatalf("markup word %q in the vocabulary %q", w, c.Vocab)
		}
	}
	if len(c.Vocab) != 44 {
		t.Fatalf("vocab %q: want bird, cat, dog, fish and 40 words", c.Vocab)
	}
	if want := []string{"cap", "mail", "plain"}; !reflect.DeepEqual(c.Names, want) {
		t.Fatalf("names %q", c.Names)
	}
	// In cap, fish is capped at 0.2/0.8 of the 40 other tokens.
	if d := c.Doc(0); d.Len() != 50 || rep.Capped != 1 || rep.CappedTokens != 20 {
		t.Fatalf("cap: %d tokens, report %+v", d.Len(), rep)
	}
	if d := c.Doc(2); d.Len() != 3 {
		t.Fatalf("plain: %+v (a '<' before a space or a letter-less tag is text)", d)
	}

	// MinLenFrac: a document of 3 tokens among documents of 100.
	short := fstest.MapFS{"s": {Data: []byte("cat dog bird")}}
	for i := 0; i < 10; i++ {
		short[string(rune('a'+i))] = &fstest.MapFile{Data: []byte(strings.Repeat(many.String(), 3)[:600])}
	}
	_, rep, err = ReadTextReport(short, o)
	if err != nil || !reflect.DeepEqual(rep.Short, []string{"s"}) {
		t.Fatalf("MinLenFrac: %v, report %+v", err, rep)
	}

	// MaxDocFrac on 20 documents: "cat" in all of them goes, "dog" in 10
	// (half) stays.
	big := fstest.MapFS{}
	for i := 0; i < 20; i++ {
		s := "cat bird fish"
		if i%2 == 0 {
			s += " dog"
		}
		big[strings.Repeat("d", i+1)] = &fstest.MapFile{Data: []byte(s)}
	}
	o.MinDocWords = 0
	c, rep, err = ReadTextReport(big, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Common != 3 || !reflect.DeepEqual(c.Vocab, []string{"dog"}) {
		t.Fatalf("MaxDocFrac 0.5: vocab %q, report %+v", c.Vocab, rep)
	}
}
