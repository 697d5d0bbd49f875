package linear

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// crossMoments returns the population cross moments of the multi-view
// model with E[x_v | h] = A h, h = G eta: Pairs = B D2 B^T (B = A G, D2
// the variances of eta) and the whitened third cumulant sum_j mu3(eta_j)
// (W^T b_j)^(x)3.
func crossMoments(m *synth.DAG) (*mat.Dense, CrossTriples) {
	b := m.Mixing()
	n, k := b.Dims()
	bd := b.Clone()
	mu := make([]float64, k)
	for i := 0; i < n; i++ {
		row := bd.RawRow(i)
		for j := range row {
			row[j] *= m.Eta[j].Var
		}
	}
	for j := range mu {
		mu[j] = m.Eta[j].ThirdMoment()
	}
	var pairs mat.Dense
	pairs.MulBT(bd, b)
	pairs.Symmetrize()
	return &pairs, func(_ context.Context, w *mat.Dense) (*tensor3.Sym, error) {
		_, kw := w.Dims()
		var y mat.Dense
		y.MulAT(b, w) // row j: (W^T b_j)^T
		t := tensor3.New(kw, nil)
		t.AddOuterRows(1, &y, mu)
		return t, nil
	}
}

// TestLearnCrossDAGExact: TMLearn on exact cross moments recovers A and
// Lambda (canonical form) to 1e-8 relative, on the models of Example 2
// that satisfy the paper's conditions.
func TestLearnCrossDAGExact(t *testing.T) {
	cases := []struct {
		n, k  int
		gamma float64
	}{{60, 8, 0.5}, {150, 25, 0.5}}
	if testutil.SlowTarget() {
		cases = cases[:1]
	}
	for _, tc := range cases {
		ms, seeds := conditionedDAGs(t, tc.n, tc.k, tc.gamma, 1, false)
		m := ms[0]
		ta, tl := dagTruth(m)
		pairs, triples := crossMoments(m)
		d, err := LearnCrossDAG(context.Background(), pairs, triples, tc.k, &DAGOptions{Options: Options{Seed: seeds[0]}})
		if err != nil {
			t.Fatalf("n=%d k=%d: %v", tc.n, tc.k, err)
		}
		ea, el := alignDAG(ta, d, d.LambdaThird)
		_, el2 := alignDAG(ta, d, d.LambdaSecond)
		checkClose(t, "A", ta, ea, 1e-8)
		checkClose(t, "Lambda (third moments)", tl, el, 1e-8)
		checkClose(t, "Lambda (second moments)", tl, el2, 1e-8)
		if d.Triangularity > 1e-10 {
			t.Errorf("n=%d k=%d: triangularity %.3g on exact moments", tc.n, tc.k, d.Triangularity)
		}
	}
}

func TestLearnCrossDAGErrors(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(1, 1)), 12, 3, 0.3, 0.5, synth.Skewed)
	pairs, triples := crossMoments(m)
	if _, err := LearnCrossDAG(context.Background(), pairs, triples, 5, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("k = 5 of n = 12: %v, want ErrTooManyFactors", err)
	}
	bad := pairs.Clone()
	bad.Set(0, 1, nan())
	if _, err := LearnCrossDAG(context.Background(), bad, triples, 3, nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN in Pairs: %v, want ErrNotFinite", err)
	}
	failing := func(context.Context, *mat.Dense) (*tensor3.Sym, error) { return nil, errors.New("no triples") }
	if _, err := LearnCrossDAG(context.Background(), pairs, failing, 3, nil); err == nil {
		t.Error("the error of triples was dropped")
	}
}
