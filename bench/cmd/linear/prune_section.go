package main

import (
	"fmt"
	"log"
	"math"
	"time"

	"github.com/moments-go/moments/bench/lingam"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// edgeCounts compares the directed edges of est (|entries| > tol) with
// those of truth: true positives, false positives, false negatives and
// the structural Hamming distance (lingam.SHD).
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
	}
	return tp, fp, fn, lingam.SHD(truth, est, tol)
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
						lam, x := gridBN(uint64(s)+uint64(1000*deg), p, deg, []synth.NoiseKind{kind}, n)
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
