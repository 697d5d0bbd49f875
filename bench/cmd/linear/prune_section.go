package main

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"time"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// gridBN draws a fully observed linear BN of the grid of issue 18: a
// random DAG on p variables with expected degree deg (each pair an edge
// with probability deg/(p-1)), weights uniform in +-[0.5, 2], noises of
// the given family with variances in [0.5, 1], in a random labelling,
// and n samples (rows).
func gridBN(seed uint64, p int, deg float64, kind synth.NoiseKind, n int) (lambda, x *mat.Dense) {
	r := rand.New(rand.NewPCG(seed, 18))
	lam := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < i; j++ {
			if r.Float64() < deg/float64(p-1) {
				w := 0.5 + 1.5*r.Float64()
				if r.IntN(2) == 0 {
					w = -w
				}
				lam.Set(i, j, w)
			}
		}
	}
	m := &synth.DAG{A: mat.Identity(p), Lambda: lam, Eta: synth.RandomNoise(r, p, []synth.NoiseKind{kind}), Eps: make([]synth.Noise, p)}
	for i := range m.Eps {
		m.Eps[i] = synth.Noise{Kind: synth.Gaussian, Var: 0}
	}
	perm := r.Perm(p)
	raw := mat.Zeros(n, p)
	m.Samples(n, seed+7000).Block(0, n, raw)
	x = mat.Zeros(n, p)
	for t := 0; t < n; t++ {
		for i, pi := range perm {
			x.Set(t, i, raw.At(t, pi))
		}
	}
	lambda = mat.Zeros(p, p)
	for i, pi := range perm {
		for j, pj := range perm {
			lambda.Set(i, j, lam.At(pi, pj))
		}
	}
	return lambda, x
}

// edgeCounts compares the directed edges of est (|entries| > tol) with
// those of truth: true positives, false positives, false negatives and
// the structural Hamming distance (pairs whose edge state differs, as
// lingam.SHD).
func edgeCounts(truth, est *mat.Dense, tol float64) (tp, fp, fn, shd int) {
	p, _ := truth.Dims()
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			t, e := truth.At(i, j) != 0, math.Abs(est.At(i, j)) > tol
			switch {
			case t && e:
				tp++
			case e:
				fp++
			case t:
				fn++
			}
		}
		for j := i + 1; j < p; j++ {
			t := [2]bool{truth.At(i, j) != 0, truth.At(j, i) != 0}
			e := [2]bool{math.Abs(est.At(i, j)) > tol, math.Abs(est.At(j, i)) > tol}
			if t != e {
				shd++
			}
		}
	}
	return
}

// pruneTable compares the dense estimates of LearnObservedBN (thresholded
// at 0.1, the SHD threshold of the LiNGAM section) with the pruned
// Lambda (DAGOptions.Pruning = PruneBIC, the default) on the grid of
// issue 18 with skewed noises (exponential and chi-square, expected
// degrees 2 and 4, models seeds each).
func pruneTable(ps, ns []int, degs []float64, models int) {
	fmt.Printf("\nPruning of LearnObservedBN (issue 18 grid: weights +-[0.5, 2], exponential and chi-square noises, degrees %v, %d models each; mean per model)\n", degs, models)
	fmt.Println("dense: LambdaThird / LambdaSecond with |entries| > 0.1; pruned: Lambda (the default, PruneBIC); true order: SparseLambda given the true order; misord.: true edges against the learned order")
	fmt.Println("weight error ||B^ - B||_F / ||B||_F of the dense LambdaThird and of the pruned Lambda (least-squares refit on the support); time: moments + LearnObservedBN, and SparseLambda alone")
	fmt.Printf("%-3s %-6s | %-24s | %-24s | %-24s | %-24s | %-6s | %-24s | %s\n", "p", "N", "dense 3rd: SHD P R F1", "dense OLS: SHD P R F1", "pruned: SHD P R F1", "true order: SHD P R F1", "misord.", "weight error", "time (prune)")
	kinds := []synth.NoiseKind{synth.Exponential, synth.ChiSquared}
	for _, p := range ps {
		for _, n := range ns {
			var cnt [4][4]int
			var werr [2]float64
			var tLearn, tPrune time.Duration
			misordered := 0
			runs := 0
			for _, deg := range degs {
				for _, kind := range kinds {
					for s := 1; s <= models; s++ {
						lam, x := gridBN(uint64(s)+uint64(1000*deg), p, deg, kind, n)
						src := moments.DenseSamples{X: x}
						t0 := time.Now()
						sm, err := moments.NewSampleMoments(ctx, src, nil)
						if err != nil {
							log.Fatal(err)
						}
						bn, err := linear.LearnObservedBN(ctx, sm.Sigma, &linear.SampleThird{Moments: sm, Src: src}, &linear.DAGOptions{Options: linear.Options{Seed: uint64(s)}})
						tLearn += time.Since(t0)
						if err != nil {
							log.Fatalf("LearnObservedBN: %v", err)
						}
						t1 := time.Now()
						fit, err := linear.SparseLambda(sm.Sigma, bn.Order, n, nil)
						tPrune += time.Since(t1)
						if err != nil {
							log.Fatalf("SparseLambda: %v", err)
						}
						oracle, err := linear.SparseLambda(sm.Sigma, topoOrder(lam), n, nil)
						if err != nil {
							log.Fatalf("SparseLambda: %v", err)
						}
						for k, c := range []struct {
							m   *mat.Dense
							tol float64
						}{{bn.LambdaThird, 0.1}, {bn.LambdaSecond, 0.1}, {bn.Lambda, 0}, {oracle.Lambda, 0}} {
							tp, fp, fn, shd := edgeCounts(lam, c.m, c.tol)
							cnt[k][0] += tp
							cnt[k][1] += fp
							cnt[k][2] += fn
							cnt[k][3] += shd
						}
						misordered += orderErrors(lam, bn.Order)
						werr[0] += relErr(lam, bn.LambdaThird)
						werr[1] += relErr(lam, fit.Lambda)
						runs++
					}
				}
			}
			line := fmt.Sprintf("%-3d %-6s", p, short(n))
			for _, c := range cnt {
				prec := float64(c[0]) / math.Max(1, float64(c[0]+c[1]))
				rec := float64(c[0]) / math.Max(1, float64(c[0]+c[2]))
				line += fmt.Sprintf(" | %6.1f %5.3f %5.3f %5.3f", float64(c[3])/float64(runs), prec, rec, 2*prec*rec/math.Max(1e-300, prec+rec))
			}
			line += fmt.Sprintf(" | %6.2f", float64(misordered)/float64(runs))
			line += fmt.Sprintf(" | dense %6.4f pruned %6.4f", werr[0]/float64(runs), werr[1]/float64(runs))
			line += fmt.Sprintf(" | %v (%v)", (tLearn / time.Duration(runs)).Round(100*time.Microsecond), (tPrune / time.Duration(runs)).Round(10*time.Microsecond))
			fmt.Println(line)
		}
	}
}

// topoOrder returns a topological order of the DAG of lambda (an edge j
// -> i where lambda[i][j] != 0).
func topoOrder(lambda *mat.Dense) []int {
	p, _ := lambda.Dims()
	placed := make([]bool, p)
	var order []int
	for len(order) < p {
		for i := 0; i < p; i++ {
			if placed[i] {
				continue
			}
			ready := true
			for j := 0; j < p; j++ {
				if lambda.At(i, j) != 0 && !placed[j] {
					ready = false
					break
				}
			}
			if ready {
				order = append(order, i)
				placed[i] = true
			}
		}
	}
	return order
}
