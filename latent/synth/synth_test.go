package synth

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/moments-go/moments/internal/sample"
	"github.com/moments-go/moments/latent/moments"
)

// TestSamplers: Gamma, Dirichlet and NewAlias are package sample's
// (whose tests check their distributions): the same stream gives the same
// draws.
func TestSamplers(t *testing.T) {
	r1, r2 := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 1))
	alpha := []float64{0.1, 0.5, 2, 0.4}
	p1, p2 := make([]float64, 4), make([]float64, 4)
	w := []float64{1, 0, 3, 0.5}
	a1, a2 := NewAlias(w), sample.NewAlias(w)
	if a1.Len() != len(w) {
		t.Fatalf("Len = %d for %d weights", a1.Len(), len(w))
	}
	for i := range 1000 {
		if g1, g2 := Gamma(r1, 0.3), sample.Gamma(r2, 0.3); g1 != g2 {
			t.Fatalf("draw %d: Gamma %v, sample.Gamma %v", i, g1, g2)
		}
		Dirichlet(r1, alpha, p1)
		sample.Dirichlet(r2, alpha, p2)
		if !reflect.DeepEqual(p1, p2) {
			t.Fatalf("draw %d: Dirichlet %v, sample.Dirichlet %v", i, p1, p2)
		}
		if d1, d2 := a1.Draw(r1), a2.Draw(r2); d1 != d2 {
			t.Fatalf("draw %d: alias %d, sample's %d", i, d1, d2)
		}
	}
}

func TestLDACorpus(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	model := RandomLDA(r, 30, 3, 0.5, []float64{0.2, 0.3, 0.5})
	c := model.NewCorpus(4000, 20, 40, 99)
	var first []moments.Doc
	c.Range(0, 5, func(_ int, d moments.Doc) {
		first = append(first, moments.Doc{Words: append([]int32(nil), d.Words...), Counts: append([]uint32(nil), d.Counts...)})
	})
	// Regenerating gives the same documents, in any order.
	c.Range(3, 4, func(_ int, d moments.Doc) {
		if !reflect.DeepEqual(d.Words, first[3].Words) || !reflect.DeepEqual(d.Counts, first[3].Counts) {
			t.Fatal("document 3 differs when generated again")
		}
	})
	corpus := c.Materialize()
	if corpus.NumDocs() != 4000 || corpus.VocabSize() != 30 {
		t.Fatalf("%d docs, %d words", corpus.NumDocs(), corpus.VocabSize())
	}
	// Expected word frequencies: O E[theta] = O alpha/a0.
	freq := make([]float64, 30)
	for i := 0; i < corpus.NumDocs(); i++ {
		d := corpus.Doc(i)
		if l := d.Len(); l < 20 || l > 40 {
			t.Fatalf("document %d has %d tokens", i, l)
		}
		for j, w := range d.Words {
			freq[w] += float64(d.Counts[j])
		}
	}
	for w := range freq {
		var want float64
		for j, a := range model.Alpha {
			want += model.Topics.At(w, j) * a / model.Alpha0()
		}
		got := freq[w] / float64(corpus.Tokens())
		// Tokens are not independent (documents share theta); allow 6
		// standard errors of a document-level average.
		if sd := math.Sqrt(want / float64(corpus.NumDocs()) / 20); math.Abs(got-want) > 6*sd+1e-3 {
			t.Errorf("word %d: frequency %v, expected %v", w, got, want)
		}
	}
	if th := c.Theta(7); len(th) != 3 || math.Abs(th[0]+th[1]+th[2]-1) > 1e-12 {
		t.Fatalf("Theta(7) = %v", th)
	}
}

// TestSwitchCorpus checks the mean word distribution of a switch corpus
// against Base + O P and that O is what Factors says.
func TestSwitchCorpus(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	m := RandomSwitches(r, 40, 4, 0.5, 0.8)
	o, vr, third := m.Factors()
	for j, p := range m.P {
		if math.Abs(vr[j]-p*(1-p)) > 1e-15 || third[j] <= 0 {
			t.Fatalf("factor %d: variance %v third %v for p %v", j, vr[j], third[j], p)
		}
	}
	c := m.NewCorpus(20000, 30, 30, 5).Materialize()
	freq := make([]float64, 40)
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		for j, w := range d.Words {
			freq[w] += float64(d.Counts[j]) / float64(c.Tokens())
		}
	}
	for w := range freq {
		want := m.Base[w]
		for j, p := range m.P {
			want += o.At(w, j) * p
		}
		if sd := math.Sqrt(want / float64(c.Tokens()) * 30); math.Abs(freq[w]-want) > 6*sd+1e-4 {
			t.Errorf("word %d: frequency %v, expected %v", w, freq[w], want)
		}
	}
}

// TestSymmetricLDA: SymmetricLDA is RandomLDA on the stream
// rand.NewPCG(seed, 0) with alpha0/k for each topic, bit for bit, and
// another seed gives other topics.
func TestSymmetricLDA(t *testing.T) {
	const n, k = 50, 4
	got := SymmetricLDA(7, n, k, 0.1, 2)
	want := RandomLDA(rand.New(rand.NewPCG(7, 0)), n, k, 0.1, []float64{0.5, 0.5, 0.5, 0.5})
	if !reflect.DeepEqual(got, want) {
		t.Fatal("SymmetricLDA differs from RandomLDA with its stream and alphas")
	}
	if other := SymmetricLDA(8, n, k, 0.1, 2); reflect.DeepEqual(other.Topics, got.Topics) {
		t.Fatal("seeds 7 and 8 give the same topics")
	}
}
