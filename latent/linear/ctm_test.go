package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// ctmTruth returns A and Lambda of m in the canonical form of
// DAG: topic activities of unit variance.
func ctmTruth(m *synth.CorrelatedTopics) (a, lambda *mat.Dense) {
	g := m.G()
	n, k := m.Dims()
	v := m.EtaVar()
	sd := make([]float64, k)
	for i := 0; i < k; i++ {
		for j, gij := range g.RawRow(i) {
			sd[i] += gij * gij * v[j]
		}
		sd[i] = math.Sqrt(sd[i])
	}
	a, lambda = mat.Zeros(n, k), mat.Zeros(k, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			a.Set(i, j, m.A.At(i, j)*sd[j])
		}
	}
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			lambda.Set(i, j, m.Lambda.At(i, j)*sd[j]/sd[i])
		}
	}
	return a, lambda
}

// lambdaError returns max |Lambda_ij - est| over the entries, with the
// learned topics matched to the true ones by A's columns (and signed).
func lambdaError(ta, tl *mat.Dense, d *DAG) float64 {
	perm := eval.MatchColumns(ta, d.A)
	n, k := ta.Dims()
	sign := make([]float64, k)
	for j, p := range perm {
		var dot float64
		for i := 0; i < n; i++ {
			dot += ta.At(i, j) * d.A.At(i, p)
		}
		sign[j] = math.Copysign(1, dot)
	}
	var worst float64
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			est := sign[i] * sign[j] * d.Lambda.At(perm[i], perm[j])
			worst = math.Max(worst, math.Abs(est-tl.At(i, j)))
		}
	}
	return worst
}

// TestCorrelatedSampled learns correlated topic models (30 words, 3
// topics, documents of 100-300 tokens) from sampled corpora and asks for
// dist(A, Â) and the largest error of an entry of Lambda (canonical
// scale) below stated thresholds. The test is mostly about the signal:
// A is scaled so that every document's word distribution stays
// non-negative, which makes the topics' share of the cross moments small
// (seed 1 moves at most 29% of a word's background probability, seed 2
// 63%), and the error falls with N accordingly.
func TestCorrelatedSampled(t *testing.T) {
	cases := []struct {
		seed       uint64
		docs       int
		dist, lerr float64
	}{{2, 50000, 0.01, 0.1}, {2, 200000, 0.002, 0.05}, {1, 200000, 0.15, 0.3}}
	if testing.Short() || runtime.GOARCH != "amd64" {
		cases = cases[:1]
	}
	for _, tc := range cases {
		m := synth.RandomCorrelatedTopics(rand.New(rand.NewPCG(tc.seed, 7)), 30, 3, 0.4)
		ta, tl := ctmTruth(m)
		c := m.NewCorpus(tc.docs, 100, 300, 1)
		d, err := LearnCorrelatedTopics(context.Background(), c, 3, &CorrelatedTopicsOptions{DAG: DAGOptions{Options: Options{Seed: tc.seed}}})
		if err != nil {
			t.Fatalf("seed %d, %d docs: %v", tc.seed, tc.docs, err)
		}
		dist := eval.Dist(ta, d.A)
		le := lambdaError(ta, tl, d)
		t.Logf("seed %d, %d docs: dist(A) %.3g, max Lambda error %.3g, triangularity %.3g", tc.seed, tc.docs, dist, le, d.Triangularity)
		if dist > tc.dist || le > tc.lerr {
			t.Errorf("seed %d, %d docs: dist(A) %.3g (limit %g), Lambda error %.3g (limit %g)", tc.seed, tc.docs, dist, tc.dist, le, tc.lerr)
		}
	}
}

func TestCorrelatedErrors(t *testing.T) {
	m := synth.RandomCorrelatedTopics(rand.New(rand.NewPCG(1, 7)), 12, 3, 0.5)
	c := m.NewCorpus(100, 5, 10, 1)
	if _, err := LearnCorrelatedTopics(context.Background(), c, 5, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("k = 5 with 12 words: %v, want ErrTooManyFactors", err)
	}
}

// TestCorrelatedMemoryLimit: the memory rule of LearnCorrelatedTopics
// refuses a job over MaxMemory before any pass (40 words, k = 3: the
// eigensolver's blocks alone take more than 10 kB).
func TestCorrelatedMemoryLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	c := synth.RandomLDA(r, 40, 3, 0.1, []float64{0.3, 0.3, 0.4}).NewCorpus(200, 20, 40, 8).Materialize()
	co := &CorrelatedTopicsOptions{MaxMemory: 10_000}
	if _, err := LearnCorrelatedTopics(context.Background(), c, 3, co); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LearnCorrelatedTopics under 10 kB: %v, want ErrTooLarge", err)
	}
}
