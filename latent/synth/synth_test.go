package synth

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/moments-go/moments/latent/moments"
)

// TestGamma checks the mean and variance (both equal to the shape) of
// 200000 draws to within 5 standard errors.
func TestGamma(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const n = 200000
	for _, shape := range []float64{0.05, 0.3, 1, 2.5, 10} {
		var s, s2 float64
		for i := 0; i < n; i++ {
			x := Gamma(r, shape)
			if !(x >= 0) {
				t.Fatalf("Gamma(%v) drew %v", shape, x)
			}
			s += x
			s2 += x * x
		}
		mean := s / n
		vr := s2/n - mean*mean
		// Var of the sample mean is shape/n; of the sample variance about
		// (mu4 - sigma^4)/n with mu4 = 3 shape^2 + 6 shape for Gamma.
		if d := math.Abs(mean - shape); d > 5*math.Sqrt(shape/n) {
			t.Errorf("Gamma(%v): mean %v", shape, mean)
		}
		if d := math.Abs(vr - shape); d > 5*math.Sqrt((2*shape*shape+6*shape)/n) {
			t.Errorf("Gamma(%v): variance %v", shape, vr)
		}
	}
}

func TestDirichlet(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	alpha := []float64{0.1, 0.5, 2, 0.4}
	a0 := 3.0
	p := make([]float64, 4)
	mean := make([]float64, 4)
	const n = 100000
	for i := 0; i < n; i++ {
		Dirichlet(r, alpha, p)
		var s float64
		for j, v := range p {
			if v < 0 {
				t.Fatal("negative proportion")
			}
			s += v
			mean[j] += v / n
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("sum %v", s)
		}
	}
	for j, a := range alpha {
		m := a / a0
		sd := math.Sqrt(m * (1 - m) / (a0 + 1) / n)
		if math.Abs(mean[j]-m) > 5*sd {
			t.Errorf("Dirichlet mean[%d] = %v, want %v", j, mean[j], m)
		}
	}
	// Tiny alphas: every Gamma draw may underflow; the result must still
	// be a probability vector.
	Dirichlet(r, []float64{1e-300, 1e-300}, p[:2])
	if p[0]+p[1] != 1 {
		t.Fatalf("tiny alphas: %v", p[:2])
	}
}

// TestAlias compares the frequencies of 10^6 draws with the weights by a
// chi-square statistic (seven non-zero weights: 6 degrees of freedom,
// whose 0.9999 quantile is about 27.9).
func TestAlias(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	w := []float64{1, 0, 3, 0.5, 7, 2, 0.01, 4}
	a := NewAlias(w)
	const n = 1000000
	counts := make([]float64, len(w))
	for i := 0; i < n; i++ {
		counts[a.Draw(r)]++
	}
	var s, chi float64
	for _, v := range w {
		s += v
	}
	df := -1
	for i, v := range w {
		e := n * v / s
		if e == 0 {
			if counts[i] != 0 {
				t.Fatalf("drew index %d of weight 0", i)
			}
			continue
		}
		chi += (counts[i] - e) * (counts[i] - e) / e
		df++
	}
	if df != 6 || chi > 27.9 {
		t.Fatalf("chi-square %v with %d degrees of freedom", chi, df)
	}
}

func TestLDACorpus(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	model := RandomLDA(r, 30, 3, 0.5, []float64{0.2, 0.3, 0.5})
	c := NewCorpus(model, 4000, 20, 40, 99)
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
	c := NewSwitchCorpus(m, 20000, 30, 30, 5).Materialize()
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
