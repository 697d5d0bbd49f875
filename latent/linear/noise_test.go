package linear

import (
	"context"
	"math"
	"testing"

	"github.com/moments-go/moments/latent/moments"
)

// TestRefineNoiseExact checks that exact moments are a fixed point of
// the noise refinement (the noise variances come back within 1e-9 of
// themselves, relative) with a vanishing discrepancy, and that
// LearnCoefficients with RefineNoise still gives the exact A.
func TestRefineNoiseExact(t *testing.T) {
	ms, seeds := conditionedDAGs(t, 60, 8, 0.5, 1, false)
	m := ms[0]
	sigma := m.Sigma()
	d0 := make([]float64, len(m.Eps))
	for i, e := range m.Eps {
		d0[i] = e.Var
	}
	d, _ := refineNoise(context.Background(), sigma, d0, 8)
	for i := range d {
		if r := math.Abs(d[i]-d0[i]) / d0[i]; r > 1e-9 {
			t.Fatalf("noise %d: %v after refinement, want %v", i, d[i], d0[i])
		}
	}
	if f := faDiscrepancy(sigma, d0, 8); !(math.Abs(f) < 1e-9) {
		t.Errorf("discrepancy of the exact split %g, want 0", f)
	}
	c, err := LearnCoefficients(context.Background(), sigma, 8, &Options{Seed: seeds[0], RefineNoise: true})
	if err != nil {
		t.Fatal(err)
	}
	ta, _ := dagTruth(m)
	est, _, _ := alignCols(ta, c.A)
	checkClose(t, "A", ta, est, 1e-8)
}

// TestRefineNoiseSamples checks on samples that the refinement moves
// DLD's noise variances towards the truth and never to a worse fit of
// Sigma: on a conditioned 60 x 8 model at N = 10k the root mean square
// relative error of the variances falls, and the discrepancy of the
// refined variances is at most DLD's.
func TestRefineNoiseSamples(t *testing.T) {
	ms, seeds := conditionedDAGs(t, 60, 8, 0.5, 1, false)
	m := ms[0]
	src := m.Samples(10000, 3)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := LearnCoefficients(context.Background(), sm.Sigma, 8, &Options{Seed: seeds[0]})
	if err != nil {
		t.Fatal(err)
	}
	refined, err := LearnCoefficients(context.Background(), sm.Sigma, 8, &Options{Seed: seeds[0], RefineNoise: true})
	if err != nil {
		t.Fatal(err)
	}
	rms := func(d []float64) float64 {
		var s float64
		for i, e := range m.Eps {
			r := (d[i] - e.Var) / e.Var
			s += r * r
		}
		return math.Sqrt(s / float64(len(d)))
	}
	ep, er := rms(plain.NoiseVar), rms(refined.NoiseVar)
	fp, fr := faDiscrepancy(sm.Sigma, plain.NoiseVar, 8), faDiscrepancy(sm.Sigma, refined.NoiseVar, 8)
	t.Logf("rms relative error of the noise variances: DLD %.4f, refined %.4f; discrepancy %.5g and %.5g", ep, er, fp, fr)
	if !(er < ep) || !(fr <= fp) {
		t.Errorf("the refinement should lower the error (%.4f -> %.4f) and the discrepancy (%.5g -> %.5g)", ep, er, fp, fr)
	}
}
