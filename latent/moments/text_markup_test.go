package moments

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestStripMarkupMatchesReference checks stripMarkup, whose searches for
// '>', "-->" and closing tags are remembered across the '<' of one text,
// against the reference reader's stripper on seeded random texts built
// from markup fragments, many of them unclosed (tags without '>',
// comments without "-->", style and script elements without their
// closing tag), where a remembered search is reused most.
func TestStripMarkupMatchesReference(t *testing.T) {
	frags := []string{
		"<a", "<b href=x>", "</p>", "<!--", "-->", "<!-- c -->", "<style>", "<STYLE type=t>",
		"</style>", "</Style", "<script>", "</script>", "</SCRIPT >", "<?xml ?>", "<!DOCTYPE",
		"&amp;", "&#38;", "&#x26;", "&bogus", ">", "<", "&", " word ", "Text", "<<", "<1", "\n",
	}
	rng := rand.New(rand.NewPCG(23, 1))
	var buf []byte
	for n := 0; n < 20000; n++ {
		var b bytes.Buffer
		for j := rng.IntN(40); j >= 0; j-- {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		text := b.Bytes()
		got, nb := stripMarkup(text, buf)
		buf = nb
		if want := refStripMarkup(text); !bytes.Equal(got, want) {
			t.Fatalf("stripMarkup(%q) = %q, want %q", text, got, want)
		}
	}
}
