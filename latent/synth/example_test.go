package synth_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/moments-go/moments/latent/synth"
)

// A synthetic LDA corpus is generated on demand: document i always comes
// out the same, so the corpus need not be stored.
func ExampleLDA_NewCorpus() {
	r := rand.New(rand.NewPCG(1, 2))
	model := synth.RandomLDA(r, 500, 10, 0.1, []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1})
	corpus := model.NewCorpus(20000, 50, 150, 7)
	c := corpus.Materialize()
	fmt.Println(c.NumDocs(), "documents over", c.VocabSize(), "words, alpha0 =", model.Alpha0())
	fmt.Println("mean length in range:", c.Tokens() > 20000*50 && c.Tokens() < 20000*150)
	// Output:
	// 20000 documents over 500 words, alpha0 = 0.9999999999999999
	// mean length in range: true
}
