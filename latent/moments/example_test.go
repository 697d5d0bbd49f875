package moments_test

import (
	"fmt"
	"strings"
	"testing/fstest"

	"github.com/moments-go/moments/latent/moments"
)

// A corpus in the UCI bag-of-words format: three documents over four
// words.
func ExampleReadUCI() {
	docword := "3\n4\n5\n1 1 2\n1 3 1\n2 1 1\n2 4 1\n3 2 7\n"
	vocab := "apple\nbanana\ncherry\ndate\n"
	c, err := moments.ReadUCI(strings.NewReader(docword), strings.NewReader(vocab), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.NumDocs(), "documents,", c.VocabSize(), "words,", c.Tokens(), "tokens")
	d := c.Doc(0)
	for i, w := range d.Words {
		fmt.Println(c.Vocab[w], d.Counts[i])
	}
	// Output:
	// 3 documents, 4 words, 12 tokens
	// apple 2
	// cherry 1
}

// A directory of text files, one document each; stop words and words
// shorter than three letters are dropped.
func ExampleReadText() {
	fsys := fstest.MapFS{
		"one.txt": {Data: []byte("The cat sat on the mat.")},
		"two.txt": {Data: []byte("A cat and a dog.")},
	}
	c, err := moments.ReadText(fsys, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Vocab, c.Names)
	// Output: [cat dog mat sat] [one.txt two.txt]
}
