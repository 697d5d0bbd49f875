package main

import (
	"fmt"
	"log"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/moments-go/moments/latent/eval/report"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// lambdaSweep compares the two estimates of Lambda that LearnDAG
// returns, from the third moments (I - diag(C~) C~^{-1}, LambdaThird)
// and from the second moments given the learned order (Remark 4.4,
// LambdaSecond), on random Example-2 models (gap 0.5, skewed noises) of
// every size, edge density p (of A and Lambda alike) and N: the mean
// relative Frobenius error and dist of each after alignment and how many
// models each wins, over the results without a warning of the verdict
// (the models inside the conditions) and over all of them.
func lambdaSweep(models int, sizes [][2]int, ps []float64, ns []int) {
	fmt.Printf("\nLambda: third-moment (I - diag(C~) C~^{-1}) against second-moment (Remark 4.4, given the learned order) estimate, %d random models per row\n", models)
	fmt.Println("rel F: mean ||Lambda^ - Lambda||_F / ||Lambda||_F after alignment (canonical form); wins: models where that estimate has the smaller rel F")
	fmt.Println("clean: the results without a warning (inside the conditions); all: every result")
	fmt.Println("mean: rel F of the mean of the two estimates")
	fmt.Printf("%-8s %-4s %-6s | %-5s %-17s %-17s %-8s %-9s | %-5s %-17s %-17s %-8s %-9s | %s\n", "n x k", "p", "N",
		"clean", "third: rel F dist", "second: rel F dist", "mean", "wins 2nd", "all", "third: rel F dist", "second: rel F dist", "mean", "wins 2nd", "time/model")
	type acc struct {
		rel, dist [3]float64
		wins2, n  int
	}
	cell := func(a acc) string {
		if a.n == 0 {
			return fmt.Sprintf("%-5d %-17s %-17s %-8s %-9s", 0, "-", "-", "-", "-")
		}
		f := 1 / float64(a.n)
		return fmt.Sprintf("%-5d %7.4f  %7.4f  %7.4f  %7.4f  %7.4f  %-9s", a.n, a.rel[0]*f, a.dist[0]*f, a.rel[1]*f, a.dist[1]*f, a.rel[2]*f, fmt.Sprintf("%d/%d", a.wins2, a.n))
	}
	for _, sz := range sizes {
		n, k := sz[0], sz[1]
		for _, p := range ps {
			for _, N := range ns {
				var clean, all acc
				var fails []string
				t0 := time.Now()
				for s := 1; s <= models; s++ {
					m := synth.RandomDAG(rand.New(rand.NewPCG(uint64(s), 0x1a3b)), n, k, p, 0.5, synth.Skewed)
					src := m.Samples(N, uint64(2000+s))
					sm, err := moments.NewSampleMoments(ctx, src, nil)
					if err != nil {
						log.Fatal(err)
					}
					d, err := linear.LearnDAG(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, k, &linear.DAGOptions{Options: linear.Options{Seed: uint64(s)}})
					if err != nil {
						fails = append(fails, fmt.Sprintf("model %d: %v", s, err))
						continue
					}
					ta, tl := report.CanonicalDAG(m)
					var r, di [3]float64
					var mean mat.Dense
					mean.Add(d.LambdaThird, d.LambdaSecond)
					mean.Scale(0.5, &mean)
					for i, est := range []*mat.Dense{d.LambdaThird, d.LambdaSecond, &mean} {
						_, el := report.AlignDAG(ta, d, est)
						c := report.Compare(tl, el, 0)
						r[i], di[i] = c.RelErr, c.Dist
					}
					add := func(a *acc) {
						a.n++
						for i := range r {
							a.rel[i] += r[i]
							a.dist[i] += di[i]
						}
						if r[1] < r[0] {
							a.wins2++
						}
					}
					add(&all)
					if len(d.Warnings) == 0 {
						add(&clean)
					}
				}
				fmt.Printf("%-8s %-4g %-6s | %s | %s | %.2fs\n", fmt.Sprintf("%dx%d", n, k), p, short(N), cell(clean), cell(all),
					(time.Since(t0) / time.Duration(models)).Seconds())
				for _, e := range fails {
					fmt.Println("   failed:", e)
				}
			}
		}
	}
}

// sizes parses "24x4,60x8" into (n, k) pairs.
func sizes(s string) [][2]int {
	var out [][2]int
	for _, f := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(f), "x")
		n, err1 := strconv.Atoi(a)
		k, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || k < 1 || n < 3*k {
			log.Fatalf("bad size %q in %q: want n x k with n >= 3k", f, s)
		}
		out = append(out, [2]int{n, k})
	}
	return out
}
