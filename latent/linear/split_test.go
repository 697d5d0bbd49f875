package linear

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// TestOtherHalfSigma checks the second half's Sigma derived from the
// full moments and the first half's against a pass over the second
// half: the scaled residual ||derived - direct||_F / ||direct||_F is
// below 1e-12 (rounding of sums over 5001 samples; the derivation is
// exact in exact arithmetic).
func TestOtherHalfSigma(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(3, 1)), 12, 3, 0.3, 0.5, synth.Skewed)
	src := m.Samples(10001, 5)
	ctx := context.Background()
	full, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := moments.NewSampleMoments(ctx, halfSamples{src, 0, 5000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := moments.NewSampleMoments(ctx, halfSamples{src, 5000, 10001}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := otherHalfSigma(full, first)
	var d mat.Dense
	d.Sub(got, second.Sigma)
	if r := d.NormFrob() / second.Sigma.NormFrob(); !(r < 1e-12) {
		t.Errorf("derived Sigma of the second half: relative residual %g", r)
	}
}

// TestSplitRatio checks the split-sample ratio's geometry: sqrt 2 when
// the full estimate is the midpoint of the halves' (an estimate linear
// in the moments), and large when one half lands elsewhere.
func TestSplitRatio(t *testing.T) {
	full := mat.New(3, 1, []float64{1, 0.5, 0})
	mid := &splitResult{halves: [2]*mat.Dense{
		mat.New(3, 1, []float64{1.01, 0.49, 0.02}),
		mat.New(3, 1, []float64{0.99, 0.51, -0.02}),
	}}
	if r := mid.splitRatio(full, 0); math.Abs(r-math.Sqrt2) > 1e-12 {
		t.Errorf("midpoint: ratio %g, want sqrt 2", r)
	}
	jump := &splitResult{halves: [2]*mat.Dense{
		mat.New(3, 1, []float64{1.001, 0.499, 0.002}),
		mat.New(3, 1, []float64{0.6, 0.9, 0.4}),
	}}
	if r := jump.splitRatio(full, 0); !(r > MaxSplitRatio) {
		t.Errorf("one half on another solution: ratio %g, want above %g", r, MaxSplitRatio)
	}
	same := &splitResult{halves: [2]*mat.Dense{full, full}}
	if r := same.splitRatio(full, 0); r != math.Sqrt2 {
		t.Errorf("three equal estimates: ratio %g, want sqrt 2", r)
	}
}

// TestSplitCheckSwitch checks that LearnDAG runs the split-sample checks
// on samples (SampleThird) by default, and that SkipSplitCheck and
// population moments leave them out.
func TestSplitCheckSwitch(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(48, 1)), 24, 4, 0.3, 0.5, synth.Skewed)
	src := m.Samples(20000, 7)
	ctx := context.Background()
	sm, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	has := func(d *DAG) bool {
		return !math.IsNaN(checkValue(d, "split stability")) && !math.IsNaN(checkValue(d, "split expansion"))
	}
	for _, skip := range []bool{false, true} {
		d, err := LearnDAG(ctx, sm.Sigma, &SampleThird{Moments: sm, Src: src}, 4, &DAGOptions{SkipSplitCheck: skip})
		if err != nil {
			t.Fatal(err)
		}
		if has(d) == skip {
			t.Errorf("SkipSplitCheck %v: checks %v", skip, d.Checks)
		}
		if !skip && len(d.Warnings) != 0 {
			t.Errorf("a model that meets the conditions, N = 20k: warnings %q", d.Warnings)
		}
	}
	d, err := LearnDAG(ctx, m.Sigma(), PsiFunc(m.Psi), 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if has(d) {
		t.Errorf("population moments: split checks %v", d.Checks)
	}
}
