package linear

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestNonFiniteInputs: a NaN used to give CheckExpansion's Holds = true
// and a meaningless CausalOrder; bad orders made LambdaFromOrder panic or
// answer wrongly. Each now gives an error matching the package's
// sentinel.
func TestNonFiniteInputs(t *testing.T) {
	nan := math.NaN()
	a := mat.FromRows([][]float64{{1, 0}, {0, 1}, {1, 0}, {0, 1}, {nan, 1}})
	if _, err := CheckExpansion(a, 0); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "A[4][0] = NaN") {
		t.Errorf("CheckExpansion with a NaN entry: %v", err)
	}
	if _, err := CheckExpansion(mat.Identity(3), nan); !errors.Is(err, ErrNotFinite) {
		t.Errorf("CheckExpansion with a NaN tol: %v", err)
	}
	if ExpansionSufficient(a, 0) {
		t.Error("ExpansionSufficient reports that a matrix with NaN expands")
	}
	if ColumnsLeadRows(mat.FromRows([][]float64{{1, nan}, {0, 1}})) {
		t.Error("ColumnsLeadRows with a NaN: true")
	}
	if g := RowGaps(mat.FromRows([][]float64{{1, nan}, {2, 1}})); !math.IsNaN(g[0]) || g[1] != 0.5 {
		t.Errorf("RowGaps with a NaN row: %v", g)
	}
	c := mat.FromRows([][]float64{{1, 0, 0}, {0.5, 1, 0}, {0.2, nan, 1}})
	if _, _, err := CausalOrder(c); !errors.Is(err, ErrNotFinite) {
		t.Errorf("CausalOrder with a NaN: %v", err)
	}
	c.Set(2, 1, math.Inf(-1))
	if _, _, err := CausalOrder(c); !errors.Is(err, ErrNotFinite) {
		t.Errorf("CausalOrder with -Inf: %v", err)
	}
	h := mat.FromRows([][]float64{{2, 1, 0}, {1, 2, 1}, {0, 1, 2}})
	for _, c := range []struct {
		order []int
		want  string
	}{
		{[]int{0, 1}, "2 entries for 3 variables"},
		{[]int{0, 1, 2, 0}, "4 entries"},
		{[]int{0, 3, 1}, "order[1] = 3 is outside 0..2"},
		{[]int{0, -1, 1}, "order[1] = -1"},
		{[]int{2, 0, 2}, "order[2] = 2 appears twice"},
	} {
		if _, _, err := LambdaFromOrder(h, c.order); !errors.Is(err, ErrBadData) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LambdaFromOrder(%v): %v, want ErrBadData with %q", c.order, err, c.want)
		}
	}
	hn := h.Clone()
	hn.Set(1, 1, nan)
	if _, _, err := LambdaFromOrder(hn, []int{0, 1, 2}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("LambdaFromOrder with a NaN moment: %v", err)
	}
	// A valid order still works: the chain 0 -> 1 -> 2.
	if l, v, err := LambdaFromOrder(h, []int{0, 1, 2}); err != nil || len(v) != 3 || l.At(1, 0) == 0 {
		t.Errorf("LambdaFromOrder on a valid order: %v %v %v", l, v, err)
	}
}

// TestBadOptions: NaN, infinite and out-of-range option values are
// errors matching ErrBadOption that name the option (a NaN Prune used to
// prune nothing, silently).
func TestBadOptions(t *testing.T) {
	ctx := context.Background()
	sigma := mat.Identity(6)
	nan := math.NaN()
	for _, c := range []struct {
		opts DAGOptions
		want string
	}{
		{DAGOptions{Prune: nan}, "DAGOptions.Prune = NaN"},
		{DAGOptions{Prune: -0.1}, "DAGOptions.Prune = -0.1"},
		{DAGOptions{Tol: math.Inf(1)}, "DAGOptions.Tol = +Inf"},
		{DAGOptions{MaxIter: -1}, "DAGOptions.MaxIter = -1"},
		{DAGOptions{MaxNoiseSkew: nan}, "DAGOptions.MaxNoiseSkew = NaN"},
		{DAGOptions{Method: 5}, "DAGOptions.Method = 5"},
		{DAGOptions{Options: Options{TWM: TWMOptions{SparsityTol: nan}}}, "TWMOptions.SparsityTol = NaN"},
		{DAGOptions{Options: Options{TWM: TWMOptions{SparsityTol: 2}}}, "TWMOptions.SparsityTol = 2"},
		{DAGOptions{Options: Options{TWM: TWMOptions{NoiseSigmas: math.Inf(1)}}}, "TWMOptions.NoiseSigmas"},
		{DAGOptions{Options: Options{DLD: DLDOptions{RCond: nan}}}, "DLDOptions.RCond = NaN"},
		{DAGOptions{Options: Options{DLD: DLDOptions{Partitions: -4}}}, "DLDOptions.Partitions = -4"},
		{DAGOptions{Options: Options{DLD: DLDOptions{StopRatio: nan}}}, "DLDOptions.StopRatio = NaN"},
		{DAGOptions{Pruning: 7}, "DAGOptions.Pruning = 7"},
		{DAGOptions{PruneGamma: nan}, "DAGOptions.PruneGamma = NaN"},
		{DAGOptions{PruneGamma: -1}, "DAGOptions.PruneGamma = -1"},
		{DAGOptions{PruneEBIC: math.Inf(-1)}, "DAGOptions.PruneEBIC = -Inf"},
		{DAGOptions{Samples: -3}, "DAGOptions.Samples = -3"},
		{DAGOptions{Required: []Edge{{0, 1}}}, "for observed variables"},
	} {
		_, err := LearnDAG(ctx, sigma, nil, 2, &c.opts)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LearnDAG %q: %v", c.want, err)
		}
	}
	if _, err := LearnCoefficients(ctx, sigma, 2, &Options{TWM: TWMOptions{RowTol: nan}}); !errors.Is(err, ErrBadOption) {
		t.Errorf("LearnCoefficients with a NaN RowTol: %v", err)
	}
	if _, err := LearnTWM(ctx, sigma, 2, &TWMOptions{IndepTol: -1}); !errors.Is(err, ErrBadOption) {
		t.Errorf("LearnTWM with IndepTol -1: %v", err)
	}
	if _, err := LearnObservedBN(ctx, sigma, nil, &DAGOptions{Prune: nan}); !errors.Is(err, ErrBadOption) {
		t.Errorf("LearnObservedBN with a NaN Prune: %v", err)
	}
}

// TestUnitVarianceNaN: a NaN in A or L is ErrNotFinite.
func TestUnitVarianceNaN(t *testing.T) {
	a := mat.FromRows([][]float64{{1, 0}, {0, 1}, {1, 1}})
	l := mat.Identity(3)
	l.Set(2, 2, math.NaN())
	if _, _, err := UnitVariance(a, l); !errors.Is(err, ErrNotFinite) {
		t.Errorf("UnitVariance with a NaN in L: %v", err)
	}
}
