package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
)

// BenchmarkLinearDAG: LearnDAG on Example 2 of the linear-BN paper (150
// observed variables, 25 hidden, skewed noise, gamma = 0.5) from the
// sample moments of 10^4 samples; the moments are computed once, outside
// the timed loop, so this times the learner alone (third moments are
// evaluated from the samples inside it).
func BenchmarkLinearDAG(b *testing.B) {
	ctx := context.Background()
	m := synth.RandomDAG(rand.New(rand.NewPCG(1, 5)), 150, 25, 0.3, 0.5, synth.Skewed)
	src := m.Samples(10000, 1001)
	sm, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := linear.LearnDAG(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, 25, &linear.DAGOptions{Options: linear.Options{Seed: 1}}); err != nil {
			b.Fatal(err)
		}
	}
}
