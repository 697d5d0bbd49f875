// Command ldaprof runs the pipeline of bench/cmd/ldareal (and of
// "moments lda" with its defaults) once or more on one corpus, on one
// core, and prints the CPU seconds of each stage (read, alpha0 choice,
// spectral fit, 10 passes of refinement), the block products of the
// final eigensolve and the quality of both models; -cpuprofile writes a
// CPU profile of the whole run for go tool pprof. It is the tool behind
// the profile of issue 13's speed work:
//
//	go run ./cmd/ldaprof -dir BROWN -tagged -k 10 -cpuprofile brown10.prof
//	go run ./cmd/ldaprof -dir SOTU/data -include '\.txt$' -k 20
//
// -tol and -over set the eigensolver's tolerance and oversampling (0:
// the learners' defaults); -warm=false learns the final model without
// the warm start from the chosen alpha0's fit.
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/moments-go/moments/bench/internal/cputime"
	"log"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"slices"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/svd"
)

func main() {
	dir := flag.String("dir", "", "corpus directory")
	tagged := flag.Bool("tagged", false, "read word/TAG tokens (Brown)")
	include := flag.String("include", "", "regular expression on the files to read (empty: all)")
	k := flag.Int("k", 10, "topics")
	reps := flag.Int("reps", 1, "runs")
	prof := flag.String("cpuprofile", "", "write a CPU profile to this file")
	tol := flag.Float64("tol", 0, "eigensolver tolerance (0: the default)")
	warm := flag.Bool("warm", true, "warm-start the final fit from the chosen alpha0's")
	over := flag.Int("over", 0, "eigensolver oversampling (0: the default)")
	flag.Parse()
	log.SetFlags(0)
	if *dir == "" {
		log.Fatal("ldaprof: give -dir")
	}
	runtime.GOMAXPROCS(1)
	ctx := context.Background()
	var tok moments.Tokenizer
	if *tagged {
		tok = moments.Tagged('/')
	}
	if *prof != "" {
		stop, err := cputime.StartProfile(*prof)
		if err != nil {
			log.Fatal(err)
		}
		defer func() {
			if err := stop(); err != nil {
				log.Fatal(err)
			}
		}()
	}
	for r := 0; r < *reps; r++ {
		t0 := cputime.Now()
		// The CLI's reading defaults, as bench/cmd/ldareal sets them.
		opts := moments.RealText(tok)
		opts.MinDocFreq, opts.MaxDocFrac, opts.MaxVocab = 2, 0.5, 0
		opts.MinDocWords, opts.MaxWordShare = 3, 0.2
		if *include != "" {
			opts.Include = regexp.MustCompile(*include).MatchString
		}
		c, _, err := moments.ReadTextReport(os.DirFS(*dir), opts)
		if err != nil {
			log.Fatal(err)
		}
		c, _ = c.Compact()
		// The CLI's 10% held out.
		docs := c.NumDocs()
		nh := int(0.1*float64(docs) + 0.5)
		perm := rand.New(rand.NewPCG(1, 0x401d)).Perm(docs)
		hold, keep := slices.Clone(perm[:nh]), slices.Clone(perm[nh:])
		slices.Sort(hold)
		slices.Sort(keep)
		train, held := c.Subset(keep), c.Subset(hold)
		t1 := cputime.Now()
		o := &topic.Options{Seed: 1, Eigen: &svd.TopEigOptions{Tol: *tol, Oversample: *over}}
		fit, valid := topic.SplitAlpha0(train, 1)
		a0, scores, err := topic.SelectAlpha0(ctx, fit, valid, *k, nil, o)
		if err != nil {
			log.Fatal(err)
		}
		t2 := cputime.Now()
		if *warm {
			for _, s := range scores {
				if s.Alpha0 == a0 {
					o.Eigen.Start = s.Basis
				}
			}
		}
		res, err := topic.LearnLDA(ctx, train, *k, a0, o)
		if err != nil {
			log.Fatal(err)
		}
		t3 := cputime.Now()
		ref, rep, err := topic.Refine(ctx, train, res, &topic.RefineOptions{MaxPasses: 10})
		if err != nil {
			log.Fatal(err)
		}
		t4 := cputime.Now()
		p, err := res.Perplexity(ctx, held, 0)
		if err != nil {
			log.Fatal(err)
		}
		rp, err := ref.Perplexity(ctx, held, 0)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d words, %d training documents, %d stored counts; CPU s: read %.3f, alpha0 %.3f (chose %g), learn %.3f (%d products), raw total %.3f, refine %.3f (%d passes)\n",
			train.VocabSize(), train.NumDocs(), train.NNZ(), (t1 - t0).Seconds(), (t2 - t1).Seconds(), a0, (t3 - t2).Seconds(), res.Whitening.Products, (t3 - t0).Seconds(), (t4 - t3).Seconds(), len(rep.Bounds))
		fmt.Printf("  raw NPMI %.4f perplexity %.1f; refined NPMI %.4f perplexity %.1f\n",
			eval.Mean(eval.NPMI(eval.TopWords(res.Topics, 10), train)), p, eval.Mean(eval.NPMI(eval.TopWords(ref.Topics, 10), train)), rp)
		for _, s := range scores {
			fmt.Printf("  alpha0 %g: completion log-likelihood per token %.6f\n", s.Alpha0, s.LogLik)
		}
	}
}
