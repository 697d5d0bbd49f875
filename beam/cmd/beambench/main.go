// Command beambench measures what running spectral LDA as Beam
// pipelines costs against the in-process learner, on the corpus of
// bench/cmd/ldascale (the same generator, parameters and seed) written
// to shards of the counts format:
//
//	go run ./cmd/beambench [-docs 20000] [-vocab 5000] [-k 20] [-shards 8] [-dir DIR]
//
// It learns the model in process (topic.LearnLDA on the corpus in
// memory) and with dist.LearnLDA on the prism runner in this process,
// with the tree passes and with the exact ones (Options.Exact), and
// prints the time of each, the ratios, every pass's wall time and
// the bytes its shards send to the combine (PassStats.PartBytes) and
// the bytes it broadcasts (X or W), and the largest relative difference
// between the two models' topics. -docs 1000000 -vocab 50000 -k 50 is
// ldascale's full size.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/moments-go/moments/beam/dist"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/mat"
)

func main() {
	docs := flag.Int("docs", 20_000, "documents (ldascale: 1000000)")
	vocab := flag.Int("vocab", 5_000, "words (ldascale: 50000)")
	k := flag.Int("k", 20, "topics (ldascale: 50)")
	alpha0 := flag.Float64("alpha0", 1, "sum of the Dirichlet parameters (spread evenly)")
	beta := flag.Float64("beta", 0.01, "Dirichlet parameter of the topics")
	minLen := flag.Int("minlen", 50, "shortest document")
	maxLen := flag.Int("maxlen", 150, "longest document")
	shards := flag.Int("shards", 8, "shards")
	dir := flag.String("dir", "", "directory for the shards (default: a temporary directory, removed at the end)")
	seed := flag.Uint64("seed", 1, "seed")
	modes := flag.String("mode", "both", "passes to run on prism: tree, exact or both")
	flag.Parse()
	beam.Init()
	log.SetFlags(0)
	ctx := context.Background()

	// The generator of bench/cmd/ldascale.
	model := synth.SymmetricLDA(*seed, *vocab, *k, *beta, *alpha0)
	gen := model.NewCorpus(*docs, *minLen, *maxLen, *seed)
	fmt.Printf("beambench: %d documents, %d words, k = %d, lengths %d..%d, %d shards, %d cores (GOMAXPROCS %d)\n",
		*docs, *vocab, *k, *minLen, *maxLen, *shards, runtime.NumCPU(), runtime.GOMAXPROCS(0))

	d := *dir
	if d == "" {
		var err error
		if d, err = os.MkdirTemp("", "beambench-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
	}
	start := time.Now()
	var disk int64
	for s := 0; s < *shards; s++ {
		lo, hi := s**docs / *shards, (s+1)**docs / *shards
		n, err := writeShard(filepath.Join(d, fmt.Sprintf("docs-%05d.txt", s)), gen, lo, hi)
		if err != nil {
			log.Fatal(err)
		}
		disk += n
	}
	fmt.Printf("write     %.2f s: %d bytes of shards\n", time.Since(start).Seconds(), disk)

	start = time.Now()
	c := gen.Materialize()
	fmt.Printf("generate  %.2f s: %d tokens, %d stored counts (in memory, for the in-process run)\n", time.Since(start).Seconds(), c.Tokens(), c.NNZ())
	to := &topic.Options{Seed: *seed}
	passes := 0
	ito := *to
	ito.Passes.Progress = func(_ string, done, total int) {
		if done == total {
			passes++
		}
	}
	start = time.Now()
	want, err := topic.LearnLDA(ctx, c, *k, *alpha0, &ito)
	if err != nil {
		log.Fatal(err)
	}
	inProc := time.Since(start)
	fmt.Printf("in process %.2f s in %d passes (eigensolver: %d block products)\n", inProc.Seconds(), passes, want.Whitening.Products)

	for _, exact := range []bool{false, true} {
		mode := "tree"
		if exact {
			mode = "exact"
		}
		if *modes != "both" && *modes != mode {
			continue
		}
		var stats []dist.PassStats
		start = time.Now()
		got, err := dist.LearnLDA(ctx, dist.Docs{Glob: filepath.Join(d, "docs-*.txt"), Format: dist.Counts, VocabSize: *vocab}, *k, *alpha0, to,
			&dist.Options{Exact: exact, OnPass: func(s dist.PassStats) { stats = append(stats, s) }})
		if err != nil {
			log.Fatal(err)
		}
		onBeam := time.Since(start)
		fmt.Printf("prism, %s passes: %.2f s in %d pipelines (eigensolver: %d block products): %.2f times the in-process time\n", mode, onBeam.Seconds(), len(stats), got.Whitening.Products, onBeam.Seconds()/inProc.Seconds())
		var parts, bcast int64
		for i, s := range stats {
			fmt.Printf("  pass %2d %-8s %7.2f s  %4d shards  %5d keys/chunks  %12d bytes of parts  %11d bytes broadcast\n", i+1, s.Name, s.Wall.Seconds(), s.Shards, s.Blocks, s.PartBytes, s.BroadcastBytes)
			parts += s.PartBytes
			bcast += s.BroadcastBytes
		}
		fmt.Printf("  total    %d bytes of parts, %d bytes broadcast (per worker)\n", parts, bcast)
		if exact {
			same := true
			n, kk := want.Topics.Dims()
			for i := 0; i < n; i++ {
				for j := 0; j < kk; j++ {
					same = same && math.Float64bits(got.Topics.At(i, j)) == math.Float64bits(want.Topics.At(i, j))
				}
			}
			fmt.Printf("  topics   bit-identical to in process: %v\n", same)
		} else {
			fmt.Printf("  topics   largest relative difference beam vs in process %.3g\n", relDiff(got.Topics, want.Topics))
		}
	}
	// What the order of summation alone does in process: the same
	// documents in reverse order.
	rev := make([]int, c.NumDocs())
	for i := range rev {
		rev[i] = len(rev) - 1 - i
	}
	back, err := topic.LearnLDA(ctx, c.Subset(rev), *k, *alpha0, to)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("topics    largest relative difference in process, documents reversed vs in order %.3g\n", relDiff(back.Topics, want.Topics))
}

// relDiff returns max|a-b| / max|b|.
func relDiff(a, b *mat.Dense) float64 {
	var diff, scale float64
	n, k := b.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			diff = max(diff, math.Abs(a.At(i, j)-b.At(i, j)))
			scale = max(scale, math.Abs(b.At(i, j)))
		}
	}
	return diff / scale
}

// writeShard writes documents lo..hi-1 of src, one a line of id:count.
func writeShard(path string, src moments.Source, lo, hi int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	buf := make([]byte, 0, 4096)
	src.Range(lo, hi, func(_ int, d moments.Doc) {
		buf = buf[:0]
		for j, word := range d.Words {
			if j > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(word), 10)
			buf = append(buf, ':')
			buf = strconv.AppendUint(buf, uint64(d.Counts[j]), 10)
		}
		buf = append(buf, '\n')
		m, _ := w.Write(buf)
		n += int64(m)
	})
	if err := w.Flush(); err != nil {
		f.Close()
		return n, err
	}
	return n, f.Close()
}
