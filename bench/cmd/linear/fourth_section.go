package main

import (
	"fmt"
	"log"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/moments-go/moments/bench/lingam"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// gridBN draws a fully observed linear BN on p variables as in the grid
// of issue 18: a random DAG of expected degree deg (each pair of a
// random order an edge with probability deg/(p-1)), weights uniform in
// +-[0.5, 2], noises of the given families with variances uniform in
// [0.5, 1]; the variables are labelled at random. It returns Lambda (row
// i: the parents of x_i) and n samples (rows).
func gridBN(seed uint64, p int, deg float64, kinds []synth.NoiseKind, n int) (lambda, x *mat.Dense) {
	r := rand.New(rand.NewPCG(seed, 18))
	order := r.Perm(p) // order[t]: the variable at position t
	lambda = mat.Zeros(p, p)
	prob := deg / float64(p-1)
	for t := 0; t < p; t++ {
		for u := 0; u < t; u++ {
			if r.Float64() < prob {
				w := 0.5 + 1.5*r.Float64()
				if r.IntN(2) == 0 {
					w = -w
				}
				lambda.Set(order[t], order[u], w)
			}
		}
	}
	noise := synth.RandomNoise(r, p, kinds)
	x = mat.Zeros(n, p)
	rs := rand.New(rand.NewPCG(seed, 1818))
	for s := 0; s < n; s++ {
		row := x.RawRow(s)
		for _, v := range order {
			val := noise[v].Draw(rs)
			for u, w := range lambda.RawRow(v) {
				if w != 0 {
					val += w * row[u]
				}
			}
			row[v] = val
		}
	}
	return lambda, x
}

// edgeScores returns the structural Hamming distance (lingam.SHD) and
// the F1 score of the directed edges of est (|est[i][j]| > tol) against
// those of truth.
func edgeScores(truth, est *mat.Dense, tol float64) (shd int, f1 float64) {
	tp, fp, fn, shd := edgeCounts(truth, est, tol)
	if tp > 0 {
		f1 = 2 * float64(tp) / float64(2*tp+fp+fn)
	} else if fp+fn == 0 {
		f1 = 1
	}
	return shd, f1
}

// fourthTable compares LearnObservedBN with the third cumulant alone
// (DAGOptions.Cumulants = CumulantsThird; the learner before fourth
// moments, but with the order rule of ICA-LiNGAM) and with the default
// choice of cumulants, on the
// grid's DAGs (expected degrees 2 and 4) with the given noise families,
// and ICA-LiNGAM (log cosh) of package bench/lingam when ica is set.
func fourthTable(name string, kinds []synth.NoiseKind, ps, ns []int, models int, ica bool) {
	const tol = 0.1
	fmt.Printf("\nFully observed BNs, %s noises (%v), expected degree 2 and 4, weights +-[0.5, 2]; mean of %d models per degree\n", name, kinds, models)
	fmt.Printf("order: share of the true edges consistent with the learned order; SHD and F1 of the edges |B_ij| > %.1f of the OLS refit given the order (LambdaSecond); time per model (moments + learning)\n", tol)
	head := fmt.Sprintf("%-4s %-6s | %-30s | %-30s | %-6s", "p", "N", "third cumulant only", "default choice", "chosen")
	sub := fmt.Sprintf("%-4s %-6s | %-30s | %-30s | %-6s", "", "", "order  SHD    F1     time", "order  SHD    F1     time", "")
	if ica {
		head += fmt.Sprintf(" | %-24s", "ICA-LiNGAM (log cosh)")
		sub += fmt.Sprintf(" | %-24s", "SHD    F1     time")
	}
	fmt.Println(head)
	fmt.Println(sub)
	for _, p := range ps {
		for _, n := range ns {
			type acc struct {
				order, shd, f1 float64
				t              time.Duration
			}
			var a [3]acc
			chosen := map[linear.Cumulants]int{}
			count := 0
			for _, deg := range []float64{2, 4} {
				for s := 1; s <= models; s++ {
					seed := uint64(1000*p + 100*int(deg) + s)
					lam, x := gridBN(seed, p, deg, kinds, n)
					edges := 0
					for i := 0; i < p; i++ {
						for j := 0; j < p; j++ {
							if lam.At(i, j) != 0 {
								edges++
							}
						}
					}
					count++
					for k, c := range []linear.Cumulants{linear.CumulantsThird, linear.CumulantsAuto} {
						t0 := time.Now()
						src := moments.DenseSamples{X: x}
						sm, err := moments.NewSampleMoments(ctx, src, nil)
						if err != nil {
							log.Fatal(err)
						}
						bn, err := linear.LearnObservedBN(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, &linear.DAGOptions{Options: linear.Options{Seed: seed}, Cumulants: c})
						d := time.Since(t0)
						if err != nil {
							log.Fatalf("LearnObservedBN (%v): %v", c, err)
						}
						if k == 1 {
							chosen[bn.Cumulants]++
						}
						shd, f1 := edgeScores(lam, bn.LambdaSecond, tol)
						if edges > 0 {
							a[k].order += 1 - float64(orderErrors(lam, bn.Order))/float64(edges)
						} else {
							a[k].order++
						}
						a[k].shd += float64(shd)
						a[k].f1 += f1
						a[k].t += d
					}
					if ica {
						t0 := time.Now()
						il, err := lingam.ICALiNGAMOpts(x, rand.New(rand.NewPCG(seed, 3)), lingam.ICAOptions{Contrast: lingam.LogCosh})
						if err != nil {
							log.Fatalf("ICA-LiNGAM: %v", err)
						}
						d := time.Since(t0)
						shd, f1 := edgeScores(lam, il.B, tol)
						a[2].shd += float64(shd)
						a[2].f1 += f1
						a[2].t += d
					}
				}
			}
			f := 1 / float64(count)
			line := fmt.Sprintf("%-4d %-6d", p, n)
			for k := 0; k < 2; k++ {
				line += fmt.Sprintf(" | %5.3f  %5.1f  %5.3f  %7s", a[k].order*f, a[k].shd*f, a[k].f1*f, (a[k].t / time.Duration(count)).Round(time.Millisecond))
			}
			var ch []string
			for _, c := range []linear.Cumulants{linear.CumulantsThird, linear.CumulantsFourth, linear.CumulantsBoth} {
				if chosen[c] > 0 {
					ch = append(ch, fmt.Sprintf("%s %d", c, chosen[c]))
				}
			}
			line += " | " + strings.Join(ch, ", ")
			if ica {
				line += fmt.Sprintf(" | %5.1f  %5.3f  %7s", a[2].shd*f, a[2].f1*f, (a[2].t / time.Duration(count)).Round(time.Millisecond))
			}
			fmt.Println(line)
		}
	}
}
