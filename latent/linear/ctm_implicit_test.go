package linear

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// maxDiff returns max |a_ij - b_ij| / max |a_ij|.
func maxDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return d.NormMax() / a.NormMax()
}

// TestCorrelatedDenseAgrees runs LearnCorrelatedTopics (the top k eigenpairs of the
// central Pairs from its products, LearnCrossDAGEig) and the
// dense path (the n x n Pairs formed by PairsTimes with the
// identity, LearnCrossDAG) on one generated corpus and asks that
// A, Lambda and the hidden second moment agree to a stated relative
// tolerance (1e-4 of the largest entry; measured 5e-7 for A, 2e-7 for
// Lambda and 2e-6 for the hidden second moment, which the implicit path
// takes from the rank-k part of Pairs), with the same causal order.
func TestCorrelatedDenseAgrees(t *testing.T) {
	n, k, docs := 60, 3, 50000
	if s := os.Getenv("MOMENTS_CTM_AGREE_WORDS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	m := synth.RandomCorrelatedTopics(rand.New(rand.NewPCG(2, 7)), n, k, 0.3)
	ta, _ := ctmTruth(m)
	c := m.NewCorpus(docs, 100, 300, 1).Materialize()
	ctx := context.Background()
	opts := &CorrelatedTopicsOptions{DAG: DAGOptions{Options: Options{Seed: 2}}}
	imp, err := LearnCorrelatedTopics(ctx, c, k, opts)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := moments.NewDocMoments(ctx, c, moments.Central, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := dm.PairsTimes(ctx, mat.Identity(n))
	if err != nil {
		t.Fatal(err)
	}
	dense, err := LearnCrossDAG(ctx, pairs, dm.WhitenedTriples, k, &opts.DAG)
	if err != nil {
		t.Fatal(err)
	}
	da, dl := maxDiff(dense.A, imp.A), maxDiff(dense.Lambda, imp.Lambda)
	dh := maxDiff(dense.Coefficients.HiddenSigma, imp.Coefficients.HiddenSigma)
	t.Logf("%d words: dense vs implicit: A %.3g, Lambda %.3g, hidden %.3g (relative max); dist(A) dense %.3g implicit %.3g",
		n, da, dl, dh, eval.Dist(ta, dense.A), eval.Dist(ta, imp.A))
	// Up to the order of the columns (which a near tie in the causal
	// order can change): the largest difference of matched columns.
	perm := eval.MatchColumns(dense.A, imp.A)
	var colDiff float64
	for j, p := range perm {
		for i := 0; i < n; i++ {
			colDiff = max(colDiff, math.Abs(dense.A.At(i, j)-imp.A.At(i, p)))
		}
	}
	t.Logf("matched columns of A differ by %.3g (relative max)", colDiff/dense.A.NormMax())
	for j := range dense.Order {
		if dense.Order[j] != imp.Order[j] {
			t.Fatalf("orders differ: %v and %v", dense.Order, imp.Order)
		}
	}
	if !(da <= 1e-4 && dl <= 1e-4 && dh <= 1e-4) {
		t.Errorf("dense and implicit paths differ by A %.3g, Lambda %.3g, hidden %.3g (limit 1e-4)", da, dl, dh)
	}
}
