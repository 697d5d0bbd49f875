package moments

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRealTextRules checks each rule of RealText and its report.
func TestRealTextRules(t *testing.T) {
	fsys := fstest.MapFS{
		"bin":   {Data: []byte("cat dog bird\x00\x01 fish")},
		"mail":  {Data: []byte(`<html><style>p { color: red }</style><!-- hidden words --><p class="x">cat&nbsp;dog &amp; bird&#8217;s fish</p></html>`)},
		"rep":   {Data: []byte("cat dog bird " + strings.Repeat("fish ", 1000))},
		"one":   {Data: []byte(strings.Repeat("fish ", 1000))},
		"plain": {Data: []byte("a < b and c<d: cat dog bird")},
	}
	o := RealText(nil)
	c, rep, err := ReadTextReport(fsys, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Binary, []string{"bin"}) || !reflect.DeepEqual(rep.FewWords, []string{"one"}) || rep.Files != 5 {
		t.Fatalf("report %+v", rep)
	}
	// Markup is gone (no "color", "class", "hidden", "nbsp", "html");
	// "fish" is in 2 of the 3 documents kept and stays (MaxDocFrac
	// applies from 20 documents on).
	if want := []string{"bird", "cat", "dog", "fish"}; !reflect.DeepEqual(c.Vocab, want) {
		t.Fatalf("vocab %q, want %q", c.Vocab, want)
	}
	if want := []string{"mail", "plain", "rep"}; !reflect.DeepEqual(c.Names, want) {
		t.Fatalf("names %q", c.Names)
	}
	// In rep, fish is capped at 0.2/0.8 of the 3 other tokens, floored
	// at 2.
	if d := c.Doc(2); !reflect.DeepEqual(d.Counts, []uint32{1, 1, 1, 2}) || rep.Capped != 1 || rep.CappedTokens != 998 {
		t.Fatalf("rep: %+v, report %+v", d, rep)
	}
	if d := c.Doc(1); d.Len() != 3 {
		t.Fatalf("plain: %+v (a '<' before a space or a letter-less tag is text)", d)
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
