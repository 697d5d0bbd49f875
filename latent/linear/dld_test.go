package linear

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

func randMat(r *rand.Rand, m, n int) *mat.Dense {
	a := mat.Zeros(m, n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, r.NormFloat64())
		}
	}
	return a
}

// TestDLDExact: C = A B^T + D, not symmetric, any partition with parts
// of full rank.
func TestDLDExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	n, k := 30, 4
	a, b := randMat(r, n, k), randMat(r, n, k)
	var c mat.Dense
	c.MulBT(a, b)
	d := make([]float64, n)
	for i := range d {
		d[i] = r.Float64() + 0.5
		c.Set(i, i, c.At(i, i)+d[i])
	}
	dec, err := DLD(&c, k, RandomPartition(r, n), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d {
		if e := dec.D[i] - d[i]; e > 1e-10 || e < -1e-10 {
			t.Fatalf("D[%d] = %v, want %v", i, dec.D[i], d[i])
		}
	}
	if dec.OffDiagRatio > 1e-10 {
		t.Errorf("off-diagonal ratio %v", dec.OffDiagRatio)
	}
	// A part with fewer than k rows, and a rank-deficient block.
	if _, err := DLD(&c, k, Partition{{0, 1, 2}, seq(15)[3:], seq(30)[15:]}, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("small part: %v", err)
	}
	z := c.Clone()
	for i := 0; i < 10; i++ {
		for j := 10; j < 30; j++ {
			z.Set(i, j, 0)
			z.Set(j, i, 0)
		}
	}
	if _, err := DLD(z, k, Partition{seq(10), seq(20)[10:], seq(30)[20:]}, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("zero block: %v", err)
	}
}

// TestDLDSearchDeterministic: the search gives the same partition and
// bits for any number of workers.
func TestDLDSearchDeterministic(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(2, 1)), 45, 6, 0.3, 0.5, synth.Skewed)
	sm, err := moments.NewSampleMoments(context.Background(), m.Samples(3000, 1), moments.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var first *Decomposition
	for _, w := range []int{1, 2, 5} {
		dec, err := DLDSearch(context.Background(), sm.Sigma, 6, rand.New(rand.NewPCG(3, 3)), &DLDOptions{Partitions: 20, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = dec
			continue
		}
		if !slices.Equal(dec.D, first.D) || dec.OffDiagRatio != first.OffDiagRatio {
			t.Fatalf("workers %d: different result", w)
		}
	}
}

// TestSampleThirdDeterministic: the whitened pass gives the same bits
// for any number of workers and agrees with the slices of Psi.
func TestSampleThirdDeterministic(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(4, 1)), 12, 3, 0.5, 0.5, synth.Skewed)
	src := m.Samples(5000, 2)
	sm, err := moments.NewSampleMoments(context.Background(), src, moments.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := randMat(rand.New(rand.NewPCG(5, 5)), 12, 3)
	var ref *tensor3.Sym
	var refDiag []float64
	for _, workers := range []int{1, 3} {
		th := &SampleThird{Moments: sm, Src: src, Opts: moments.Options{Workers: workers}}
		got, diag, err := th.Whitened(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref, refDiag = got, diag
			continue
		}
		if !slices.Equal(got.RawData(), ref.RawData()) || !slices.Equal(diag, refDiag) {
			t.Fatal("different bits for a different number of workers")
		}
	}
	alt, altDiag, err := whitenedFromPsi(context.Background(), sm, w)
	if err != nil {
		t.Fatal(err)
	}
	var diff tensor3.Sym
	diff.Sub(alt, ref)
	if e := diff.NormFrob() / ref.NormFrob(); e > 1e-10 {
		t.Errorf("whitened pass and Psi slices differ by %.3g", e)
	}
	for i := range altDiag {
		if e := altDiag[i] - refDiag[i]; e > 1e-9*(1+abs(refDiag[i])) || -e > 1e-9*(1+abs(refDiag[i])) {
			t.Errorf("diagonal %d: %v and %v", i, altDiag[i], refDiag[i])
		}
	}
}

func TestTWMLearnErrors(t *testing.T) {
	if _, err := TWMLearn(context.Background(), mat.Zeros(5, 5), 2, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("zero L: %v", err)
	}
	if _, err := TWMLearn(context.Background(), mat.Identity(3), 4, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("k > n: %v", err)
	}
}
