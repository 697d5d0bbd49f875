package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// TestLearnCrossDAGEigExact: LearnCrossDAGEig from the top k eigenpairs
// of exact cross moments (found by svd.TopEigSym on the product with
// Pairs, as package topic does) recovers A and both Lambdas to 1e-8
// relative, as LearnCrossDAG does from Pairs itself, and LearnTWMEig
// gives LearnTWM's columns to 1e-8 (up to their order).
func TestLearnCrossDAGEigExact(t *testing.T) {
	ms, seeds := conditionedDAGs(t, 60, 8, 0.5, 1, false)
	m := ms[0]
	ta, tl := dagTruth(m)
	pairs, triples := crossMoments(m)
	eig, err := svd.TopEigSym(context.Background(), svd.DenseOperator(pairs), 8, &svd.TopEigOptions{Tol: 1e-12, MaxIter: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	d, err := LearnCrossDAGEig(context.Background(), eig.Values, eig.Vectors, triples, 8, &DAGOptions{Options: Options{Seed: seeds[0]}})
	if err != nil {
		t.Fatal(err)
	}
	ea, el := alignDAG(ta, d, d.LambdaThird)
	_, el2 := alignDAG(ta, d, d.LambdaSecond)
	checkClose(t, "A", ta, ea, 1e-8)
	checkClose(t, "Lambda (third moments)", tl, el, 1e-8)
	checkClose(t, "Lambda (second moments)", tl, el2, 1e-8)

	dense, err := LearnTWM(context.Background(), pairs, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := LearnTWMEig(context.Background(), eig.Values, eig.Vectors, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Several rows can give the same column (their l1 problems tie), so
	// the columns are compared up to their order.
	aligned, _, _ := alignCols(dense.A, imp.A)
	checkClose(t, "LearnTWMEig's A against LearnTWM's", dense.A, aligned, 1e-8)
}

func TestLearnCrossDAGEigErrors(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(1, 1)), 12, 3, 0.3, 0.5, synth.Skewed)
	pairs, triples := crossMoments(m)
	eig, err := svd.TopEigSym(context.Background(), svd.DenseOperator(pairs), 4, &svd.TopEigOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LearnCrossDAGEig(context.Background(), eig.Values, eig.Vectors, triples, 5, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("k = 5 of n = 12: %v, want ErrTooManyFactors", err)
	}
	// The fourth eigenvalue of a rank-3 Pairs is zero to rounding.
	if _, err := LearnTWMEig(context.Background(), eig.Values, eig.Vectors, 4, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("k = 4 of rank 3: %v, want ErrRankDeficient", err)
	}
	vals := append([]float64(nil), eig.Values...)
	vals[1] = math.NaN()
	if _, err := LearnCrossDAGEig(context.Background(), vals, eig.Vectors, triples, 3, nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN eigenvalue: %v, want ErrNotFinite", err)
	}
	if err := (&DAGOptions{Options: Options{MaxMemory: 1000}}).CheckMemoryEig(12, 3); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("CheckMemoryEig under 1000 bytes: %v, want mat.ErrTooLarge", err)
	}
	// Linear in n: 20 000 variables and k = 10 fit the default 4 GiB.
	if err := (*DAGOptions)(nil).CheckMemoryEig(20000, 10); err != nil {
		t.Errorf("CheckMemoryEig(20000, 10): %v", err)
	}
}

// TestTWMLearnMaxRows: with MaxRows the l1 problems of the rows of
// largest norm alone give on exact moments the columns that all rows
// give (1e-8 relative, up to their order), in at most k * MaxRows
// problems.
func TestTWMLearnMaxRows(t *testing.T) {
	ms, _ := conditionedDAGs(t, 60, 8, 0.5, 1, false)
	m := ms[0]
	pairs, _ := crossMoments(m)
	all, err := LearnTWM(context.Background(), pairs, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := LearnTWM(context.Background(), pairs, 8, &TWMOptions{MaxRows: 30})
	if err != nil {
		t.Fatal(err)
	}
	if res.Problems > 8*30 {
		t.Errorf("%d problems, above k * MaxRows = 240", res.Problems)
	}
	aligned, _, _ := alignCols(all.A, res.A)
	checkClose(t, "A from the 30 rows of largest norm", all.A, aligned, 1e-8)
	if _, err := LearnTWM(context.Background(), pairs, 8, &TWMOptions{MaxRows: -1}); !errors.Is(err, ErrBadOption) {
		t.Errorf("MaxRows -1: %v, want ErrBadOption", err)
	}
}
