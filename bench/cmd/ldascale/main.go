// Command ldascale runs issue 6's scale test: spectral LDA on a generated
// corpus of a million documents over 50,000 words with k = 50, reporting
// the time of each stage, the time per million tokens, the peak memory
// (the process's peak resident set) and the error of the learned topics.
//
//	go run ./cmd/ldascale [-docs 1000000] [-vocab 50000] [-k 50] [-stream]
//
// By default the corpus is generated once into memory (about 9 bytes per
// stored word count); -stream regenerates it on every pass instead, which
// keeps memory small at the price of generating it six times.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
)

func main() {
	docs := flag.Int("docs", 1_000_000, "documents")
	vocab := flag.Int("vocab", 50_000, "words")
	k := flag.Int("k", 50, "topics")
	alpha0 := flag.Float64("alpha0", 1, "sum of the Dirichlet parameters (spread evenly)")
	beta := flag.Float64("beta", 0.01, "Dirichlet parameter of the topics")
	minLen := flag.Int("minlen", 50, "shortest document")
	maxLen := flag.Int("maxlen", 150, "longest document")
	stream := flag.Bool("stream", false, "regenerate the corpus on every pass instead of storing it")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	log.SetFlags(0)

	model := synth.SymmetricLDA(*seed, *vocab, *k, *beta, *alpha0)
	gen := model.NewCorpus(*docs, *minLen, *maxLen, *seed)

	fmt.Printf("LDA scale test: %d documents, %d words, k = %d, lengths %d..%d, %d cores (GOMAXPROCS %d)\n",
		*docs, *vocab, *k, *minLen, *maxLen, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	var src moments.Source = gen
	tokens := 0
	start := time.Now()
	if !*stream {
		c := gen.Materialize()
		tokens = c.Tokens()
		fmt.Printf("generate  %.2f s: %d tokens, %d stored counts\n", time.Since(start).Seconds(), c.Tokens(), c.NNZ())
		src = c
	} else {
		gen.Range(0, *docs, func(_ int, d moments.Doc) { tokens += d.Len() })
		fmt.Printf("count     %.2f s: %d tokens (streamed: regenerated on every pass)\n", time.Since(start).Seconds(), tokens)
	}

	start = time.Now()
	pass := 0
	res, err := topic.LearnLDA(context.Background(), src, *k, *alpha0, &topic.Options{Seed: *seed, Passes: moments.Options{Progress: func(_ string, done, total int) {
		if done == total {
			pass++
			fmt.Fprintf(os.Stderr, "pass %d done at %.2f s\n", pass, time.Since(start).Seconds())
		}
	}}})
	if err != nil {
		log.Fatal(err)
	}
	learn := time.Since(start)
	_, errs := eval.MatchTopics(model.Topics, res.Topics)
	fmt.Printf("learn     %.2f s in %d passes: %.3f s per million tokens\n", learn.Seconds(), pass, learn.Seconds()/(float64(tokens)/1e6))
	fmt.Printf("topics    mean l1 error %.4f (max %.4f); pairs condition %.3g\n", eval.Mean(errs), maxOf(errs), res.Whitening.Cond)
	fmt.Printf("memory    peak resident %s\n", peakRSS())
}

func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	return m
}

// peakRSS returns the VmHWM line of /proc/self/status (Linux).
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}
