package moments

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/mat"
)

func randomCorpus(r *rand.Rand, docs, vocab, minLen, maxLen int) *Corpus {
	var b Builder
	b.SetVocabSize(vocab)
	for i := 0; i < docs; i++ {
		l := minLen + r.IntN(maxLen-minLen+1)
		ws := make([]int32, l)
		cs := make([]uint32, l)
		for t := range ws {
			ws[t] = int32(r.IntN(vocab))
			cs[t] = 1
		}
		if err := b.Add(ws, cs); err != nil {
			panic(err)
		}
	}
	return b.Corpus()
}

func TestReduceWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	r := rand.New(rand.NewPCG(1, 1))
	c := randomCorpus(r, 5000, 300, 0, 40)
	x := mat.Zeros(300, 7)
	for i := 0; i < 300; i++ {
		for j := 0; j < 7; j++ {
			x.Set(i, j, r.NormFloat64())
		}
	}
	var first *mat.Dense
	var firstM1 []float64
	for _, w := range []int{1, 2, 3, 8, 5} {
		var calls, last int
		m, err := NewDocMoments(context.Background(), c, LDA, 0.7, &Options{Workers: w, Progress: func(stage string, done, total int) {
			if stage != "mean" && stage != "pairs" {
				t.Fatalf("progress reports stage %q, want \"mean\" (NewDocMoments) or \"pairs\" (PairsTimes)", stage)
			}
			calls++
			if last == total {
				last = 0 // a new pass starts
			}
			if done < last || total != 5000 {
				t.Fatalf("progress %d/%d after %d", done, total, last)
			}
			last = done
		}})
		if err != nil {
			t.Fatal(err)
		}
		if last != 5000 || calls == 0 {
			t.Fatalf("progress ended at %d after %d calls", last, calls)
		}
		p, err := m.PairsTimes(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first, firstM1 = p, m.M1
			continue
		}
		if !mat.Equal(p, first) {
			t.Fatalf("%d workers: Pairs X differs from 1 worker", w)
		}
		for i := range m.M1 {
			if m.M1[i] != firstM1[i] {
				t.Fatalf("%d workers: M1 differs", w)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewDocMoments(ctx, c, Raw, 0, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled pass: %v", err)
	}
}

// TestPairsDocIdentity checks the per-document estimate against its
// definition: the average over ordered pairs of distinct token positions
// of e_{w_p} e_{w_q}^T.
func TestPairsDocIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	const n, k = 9, 3
	x := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			x.Set(i, j, r.NormFloat64())
		}
	}
	for trial := 0; trial < 50; trial++ {
		l := 2 + r.IntN(7)
		tokens := make([]int32, l)
		ones := make([]uint32, l)
		for i := range tokens {
			tokens[i] = int32(r.IntN(n))
			ones[i] = 1
		}
		var b Builder
		b.SetVocabSize(n)
		if err := b.Add(tokens, ones); err != nil {
			t.Fatal(err)
		}
		acc := NewPairsAccumulator(x)
		acc.Add(b.Corpus().Doc(0))
		got, docs := acc.Finalize()
		want := mat.Zeros(n, k)
		pairs := 0.0
		for p := range tokens {
			for q := range tokens {
				if p == q {
					continue
				}
				pairs++
				for j := 0; j < k; j++ {
					want.Set(int(tokens[p]), j, want.At(int(tokens[p]), j)+x.At(int(tokens[q]), j))
				}
			}
		}
		want.Scale(1/pairs, want)
		if docs != 1 || !mat.EqualApprox(got, want, 1e-13) {
			t.Fatalf("tokens %v: got\n%v\nwant\n%v", tokens, got, want)
		}
	}
}

// TestPairsVariants compares PairsTimes with a dense reference for every
// variant.
func TestPairsVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const n, k = 25, 4
	c := randomCorpus(r, 700, n, 0, 12)
	x := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			x.Set(i, j, r.NormFloat64())
		}
	}
	// Dense E[x1 x2^T] and M1 by the definitions.
	e12 := mat.Zeros(n, n)
	m1 := make([]float64, n)
	d1, d2 := 0, 0
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		l := float64(d.Len())
		if l >= 1 {
			d1++
			for j, w := range d.Words {
				m1[w] += float64(d.Counts[j]) / l
			}
		}
		if l >= 2 {
			d2++
			for a, wa := range d.Words {
				for b, wb := range d.Words {
					v := float64(d.Counts[a]) * float64(d.Counts[b])
					if a == b {
						v -= float64(d.Counts[a])
					}
					e12.Set(int(wa), int(wb), e12.At(int(wa), int(wb))+v/(l*(l-1)))
				}
			}
		}
	}
	e12.Scale(1/float64(d2), e12)
	for i := range m1 {
		m1[i] /= float64(d1)
	}
	for _, v := range []Variant{Raw, Central, LDA} {
		m, err := NewDocMoments(context.Background(), c, v, 2.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		pairs := e12.Clone()
		coef := map[Variant]float64{Raw: 0, Central: 1, LDA: 2.5 / 3.5}[v]
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				pairs.Set(a, b, pairs.At(a, b)-coef*m1[a]*m1[b])
			}
		}
		var want mat.Dense
		want.Mul(pairs, x)
		got, err := m.PairsTimes(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(got, &want, 1e-12) {
			t.Fatalf("%v: Pairs X differs from the dense reference", v)
		}
	}
	if _, err := NewDocMoments(context.Background(), c, LDA, 0, nil); err == nil {
		t.Fatal("LDA with alpha0 = 0 accepted")
	}
}

func TestSampleMoments(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(5, 5))
	const n, d = 3000, 6
	x := mat.Zeros(n, d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := r.ExpFloat64() + float64(j)
			x.Set(i, j, v)
		}
	}
	zetas := mat.Zeros(d, 2)
	for i := 0; i < d; i++ {
		zetas.Set(i, 0, r.NormFloat64())
		zetas.Set(i, 1, r.NormFloat64())
	}
	// Dense references.
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			mean[j] += x.At(i, j) / n
		}
	}
	sigma := mat.Zeros(d, d)
	psi := []*mat.Dense{mat.Zeros(d, d), mat.Zeros(d, d)}
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				va := x.At(i, a) - mean[a]
				vb := x.At(i, b) - mean[b]
				sigma.Set(a, b, sigma.At(a, b)+va*vb/n)
				for z := 0; z < 2; z++ {
					var dot float64
					for c := 0; c < d; c++ {
						dot += zetas.At(c, z) * (x.At(i, c) - mean[c])
					}
					psi[z].Set(a, b, psi[z].At(a, b)+va*vb*dot/n)
				}
			}
		}
	}
	// The chunks of 256 samples are loaded whole (blocks of the default
	// rows) and in blocks of 7 samples.
	defer func(f func(int, int) int) { blockRows = f }(blockRows)
	for _, rows := range []int{0, 7} {
		if rows > 0 {
			blockRows = func(int, int) int { return rows }
		}
		checkSampleMoments(t, x, zetas, sigma, psi)
	}
	x.Set(17, 3, math.NaN())
	if _, err := NewSampleMoments(context.Background(), DenseSamples{x}, nil); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("NaN sample: %v", err)
	}
}

// checkSampleMoments checks NewSampleMoments and Psi on the samples x
// against the dense references, and that their bits are the same for
// 1, 3 and 4 workers.
func checkSampleMoments(t *testing.T, x, zetas, sigma *mat.Dense, psi []*mat.Dense) {
	t.Helper()
	var first []*mat.Dense
	var firstSigma *mat.Dense
	for _, w := range []int{1, 3, 4} {
		m, err := NewSampleMoments(context.Background(), DenseSamples{x}, &Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(m.Sigma, sigma, 1e-12) {
			t.Fatal("Sigma differs from the dense reference")
		}
		p, err := m.Psi(context.Background(), zetas)
		if err != nil {
			t.Fatal(err)
		}
		for z := range p {
			if !mat.EqualApprox(p[z], psi[z], 1e-11) {
				t.Fatalf("Psi(zeta_%d) differs from the dense reference", z)
			}
			if first != nil && !mat.Equal(p[z], first[z]) {
				t.Fatalf("%d workers: Psi differs from 1 worker", w)
			}
		}
		if firstSigma != nil && !mat.Equal(m.Sigma, firstSigma) {
			t.Fatalf("%d workers: Sigma differs from 1 worker", w)
		}
		if first == nil {
			first, firstSigma = p, m.Sigma
		}
	}
}
