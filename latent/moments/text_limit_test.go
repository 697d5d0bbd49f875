package moments

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestTooManyWords checks that a corpus whose distinct words outnumber
// the 32-bit word ids is ErrBadData, with the reader's own tokenizers
// (a file that could pass the limit is counted word by word) and with a
// caller's Tokenizer, by lowering the limit to a few hundred entries.
func TestTooManyWords(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "w%sx ", strings.Repeat("q", i%20)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	fsys := fstest.MapFS{"a.txt": {Data: []byte(b.String())}, "b.txt": {Data: []byte("cats sat")}}
	own := func(text []byte, emit func([]byte)) { Words(text, emit) }
	for _, c := range []struct {
		name string
		tok  Tokenizer
	}{{"Words", nil}, {"a caller's Tokenizer", own}} {
		opts := &TextOptions{Tokenizer: c.tok}
		if _, err := ReadText(fsys, opts); err != nil {
			t.Fatalf("%s, default limit: %v", c.name, err)
		}
		old := maxWordEntries
		maxWordEntries = 300
		_, err := ReadText(fsys, opts)
		maxWordEntries = old
		if !errors.Is(err, ErrBadData) || !strings.Contains(err.Error(), "a.txt") {
			t.Errorf("%s, limit 300: err = %v, want ErrBadData naming a.txt", c.name, err)
		}
	}
}
