package linear

import (
	"context"
	"errors"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// TestBootstrapObservedBN: on 8-variable models at N = 3000, the true
// edges have a mean bootstrap probability of at least 0.9 and the other
// pairs at most 0.05; the same seed gives the same probabilities.
func TestBootstrapObservedBN(t *testing.T) {
	ctx := context.Background()
	const p = 8
	var inSum, outSum float64
	var in, out int
	for seed := uint64(1); seed <= 2; seed++ {
		lambda, _, x := sparseBN(seed, p, 2, 3000)
		opts := &BootstrapOptions{DAG: DAGOptions{Options: Options{Seed: seed}}, Resamples: 20}
		b, err := BootstrapObservedBN(ctx, moments.DenseSamples{X: x}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if b.Failed != 0 || b.Resamples != 20 {
			t.Errorf("seed %d: %d of %d resamples failed", seed, b.Failed, b.Resamples)
		}
		for i := 0; i < p; i++ {
			for j := 0; j < p; j++ {
				if i == j {
					continue
				}
				if lambda.At(i, j) != 0 {
					inSum, in = inSum+b.EdgeProb.At(i, j), in+1
				} else {
					outSum, out = outSum+b.EdgeProb.At(i, j), out+1
				}
			}
		}
		again, err := BootstrapObservedBN(ctx, moments.DenseSamples{X: x}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var d mat.Dense
		d.Sub(again.EdgeProb, b.EdgeProb)
		if d.NormMax() != 0 {
			t.Errorf("seed %d: the same seed gave different edge probabilities", seed)
		}
	}
	t.Logf("mean probability: true edges %.3f (%d), other ordered pairs %.3f (%d)", inSum/float64(in), in, outSum/float64(out), out)
	if inSum/float64(in) < 0.9 || outSum/float64(out) > 0.05 {
		t.Errorf("mean probability of the true edges %.3f (want >= 0.9), of the others %.3f (want <= 0.05)", inSum/float64(in), outSum/float64(out))
	}
}

// TestBootstrapObservedBNErrors: a negative Resamples is ErrBadOption,
// a cancelled context stops the work.
func TestBootstrapObservedBNErrors(t *testing.T) {
	_, _, x := sparseBN(1, 5, 2, 500)
	src := moments.DenseSamples{X: x}
	if _, err := BootstrapObservedBN(context.Background(), src, &BootstrapOptions{Resamples: -1}); !errors.Is(err, ErrBadOption) {
		t.Errorf("Resamples -1: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BootstrapObservedBN(ctx, src, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestResampled: the resample's rows are the source's rows at its
// indices, in blocks of any bounds.
func TestResampled(t *testing.T) {
	x := mat.Zeros(6, 2)
	for i := 0; i < 6; i++ {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, float64(10*i))
	}
	r := &resampled{src: moments.DenseSamples{X: x}, idx: []int{0, 0, 1, 2, 2, 2, 4, 5}}
	for lo := 0; lo < 8; lo++ {
		for hi := lo + 1; hi <= 8; hi++ {
			dst := mat.Zeros(hi-lo, 2)
			r.Block(lo, hi, dst)
			for s := lo; s < hi; s++ {
				if dst.At(s-lo, 0) != float64(r.idx[s]) || dst.At(s-lo, 1) != float64(10*r.idx[s]) {
					t.Fatalf("Block(%d, %d): row %d is %v, want sample %d", lo, hi, s, dst.RawRow(s-lo), r.idx[s])
				}
			}
		}
	}
}
