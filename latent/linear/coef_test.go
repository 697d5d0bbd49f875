package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// dagHiddenSigma returns E[h h^T] = G diag(var eta) G^T of a DAG model.
func dagHiddenSigma(m *synth.DAG) *mat.Dense {
	g := m.G()
	_, k := m.Dims()
	gd := g.Clone()
	for i := 0; i < k; i++ {
		row := gd.RawRow(i)
		for j := range row {
			row[j] *= m.Eta[j].Var
		}
	}
	var h mat.Dense
	h.MulBT(gd, g)
	return &h
}

// satisfiesConditions reports whether the support of a has the expansion
// property and the l1 step of LearnTWM (the projection variant, and the
// basic one if basic) recovers every column from the exact low-rank
// part A H A^T (Theorem 3.1, Lemma 4.2).
func satisfiesConditions(t *testing.T, a, h *mat.Dense, basic bool) bool {
	if rep, err := CheckExpansion(a, 0); err != nil || !rep.Holds {
		return false
	}
	variants := []bool{false}
	if basic {
		variants = append(variants, true)
	}
	for _, basic := range variants {
		cov, err := L1Recovery(context.Background(), a, h, &TWMOptions{Basic: basic})
		if err != nil || slices.Contains(cov, false) {
			return false
		}
	}
	return true
}

// conditionedDAGs returns count random DAG models of Example 2's kind
// (n x k, gap gamma) that satisfy the conditions (for the basic variant
// too if basic), with their seeds.
func conditionedDAGs(t *testing.T, n, k int, gamma float64, count int, basic bool) ([]*synth.DAG, []uint64) {
	var ms []*synth.DAG
	var seeds []uint64
	for s := uint64(1); len(ms) < count && s < 200; s++ {
		m := synth.RandomDAG(rand.New(rand.NewPCG(s, 1)), n, k, 0.3, gamma, synth.Skewed)
		if satisfiesConditions(t, m.A, dagHiddenSigma(m), basic) {
			ms, seeds = append(ms, m), append(seeds, s)
		}
	}
	if len(ms) < count {
		t.Fatalf("only %d of the models %dx%d satisfy the conditions", len(ms), n, k)
	}
	return ms, seeds
}

func TestCoefficientMatrixExact(t *testing.T) {
	cases := []struct {
		n, k   int
		gamma  float64
		models int
	}{{60, 8, 0.5, 2}, {90, 12, 0.3, 1}, {150, 25, 0.5, 1}, {150, 25, 0.3, 1}}
	if testutil.SlowTarget() {
		cases = cases[:2]
	}
	for _, tc := range cases {
		// The basic variant rarely recovers every column at the paper's
		// size; it is tested on the smaller models.
		withBasic := tc.n < 150
		ms, seeds := conditionedDAGs(t, tc.n, tc.k, tc.gamma, tc.models, withBasic)
		for i, m := range ms {
			for _, basic := range []bool{false, true} {
				if basic && !withBasic {
					continue
				}
				c, err := LearnCoefficients(context.Background(), m.Sigma(), tc.k, &Options{Seed: seeds[i], TWM: TWMOptions{Basic: basic}})
				if err != nil {
					t.Fatalf("n=%d k=%d seed %d: %v", tc.n, tc.k, seeds[i], err)
				}
				truth := canonical(m.A, diagSqrt(dagHiddenSigma(m)))
				est, _, _ := alignCols(truth, c.A)
				checkClose(t, "A", truth, est, 1e-8)
				// The noise variances too.
				for j, nz := range m.Eps {
					if d := c.NoiseVar[j] - nz.Var; d > 1e-8 || d < -1e-8 {
						t.Fatalf("noise variance %d: %v, want %v", j, c.NoiseVar[j], nz.Var)
					}
				}
				// The hidden second moment is the correlation of h.
				hs := dagHiddenSigma(m)
				sd := diagSqrt(hs)
				perm := eval.MatchColumns(truth, c.A)
				for a := 0; a < tc.k; a++ {
					for b := 0; b < tc.k; b++ {
						want := hs.At(a, b) / (sd[a] * sd[b])
						got := c.HiddenSigma.At(perm[a], perm[b])
						if d := abs(abs(got) - abs(want)); d > 1e-8 {
							t.Fatalf("hidden second moment (%d,%d): %v, want %v", a, b, got, want)
						}
					}
				}
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// alignHierarchy compares every level of a learned hierarchy with the
// truth in canonical form (unit-variance variables at every level), the
// rows of each level following the matching of the level below, and
// returns the largest relative error.
func alignHierarchy(h *synth.Hierarchy, res *HierarchyResult) []float64 {
	levels := len(h.A)
	errs := make([]float64, levels)
	var perm []int
	var signs []float64
	for l := levels - 1; l >= 0; l-- {
		truth := canonical(h.A[l], diagSqrt(h.LevelSigma(l)))
		est := res.A[l]
		if l < levels-1 {
			truth = rowScale(truth, diagSqrt(h.LevelSigma(l+1)))
			est = permuteRows(est, perm, signs)
		}
		var e *mat.Dense
		e, perm, signs = alignCols(truth, est)
		errs[l] = mattest.MaxRelErr(truth, e)
	}
	return errs
}

// deepHierarchy builds a hierarchy with three hidden levels, 2 -> 8 ->
// 40 -> 200, level l drawn from the stream (seeds[l-1], l) with density
// ps[l-1] and gap 0.5: seeds chosen so that every level satisfies the
// conditions (checked by the test).
func deepHierarchy(levels int) *synth.Hierarchy {
	sizes := []int{2, 8, 40, 200}[:levels+1]
	ps := []float64{0.5, 0.25, 0.25}
	seeds := []uint64{4, 6, 1}
	h := &synth.Hierarchy{Noise: [][]synth.Noise{synth.RandomNoise(rand.New(rand.NewPCG(0, 9)), sizes[0], synth.All)}}
	for l := 1; l < len(sizes); l++ {
		r := rand.New(rand.NewPCG(seeds[l-1], uint64(l)))
		a := synth.BernoulliGaussian(r, sizes[l], sizes[l-1], ps[l-1])
		synth.EnsureGap(a, 0.5)
		h.A = append(h.A, a)
		h.Noise = append(h.Noise, synth.RandomNoise(r, sizes[l], synth.All))
	}
	return h
}

func TestLearnHierarchyExact(t *testing.T) {
	cases := []struct {
		name  string
		h     *synth.Hierarchy
		sizes []int
	}{
		// Example 1 of the paper (5 -> 30 -> 180, p = 0.3, gamma = 0.5),
		// the first seed whose levels satisfy the conditions.
		{"example 1", synth.RandomHierarchy(rand.New(rand.NewPCG(18, 2)), []int{5, 30, 180}, 0.3, 0.5, synth.All), []int{5, 30}},
		{"three hidden levels", deepHierarchy(3), []int{2, 8, 40}},
		{"two small hidden levels", deepHierarchy(2), []int{2, 8}},
	}
	if testutil.SlowTarget() {
		cases = cases[2:]
	}
	for _, tc := range cases {
		for l, a := range tc.h.A {
			if rep, err := CheckExpansion(a, 0); err != nil || !rep.Holds {
				t.Fatalf("%s: level %d lacks the expansion property", tc.name, l)
			}
			cov, err := L1Recovery(context.Background(), a, tc.h.LevelSigma(l), nil)
			if err != nil || slices.Contains(cov, false) {
				t.Fatalf("%s: level %d: l1 recovery %v %v", tc.name, l, cov, err)
			}
		}
		res, err := LearnHierarchy(context.Background(), tc.h.Sigma(), tc.sizes, &Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for l, e := range alignHierarchy(tc.h, res) {
			if !(e <= 1e-8) {
				t.Errorf("%s: level %d: max relative error %.3g", tc.name, l, e)
			} else {
				t.Logf("%s: level %d: max relative error %.3g", tc.name, l, e)
			}
		}
		// The top level is independent: its second moment is I.
		if !mat.EqualApprox(absDense(res.TopSigma), mat.Identity(tc.sizes[0]), 1e-8) {
			t.Errorf("%s: top second moment\n%v", tc.name, mat.Formatted(res.TopSigma))
		}
	}
}

func absDense(m *mat.Dense) *mat.Dense {
	out := m.Clone()
	r, c := out.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out.Set(i, j, abs(out.At(i, j)))
		}
	}
	return out
}

// TestCoefficientMatrixSampled: with sampled moments the error shrinks
// with N.
func TestCoefficientMatrixSampled(t *testing.T) {
	ms, _ := conditionedDAGs(t, 60, 6, 0.5, 1, false)
	m := ms[0]
	truth := canonical(m.A, diagSqrt(dagHiddenSigma(m)))
	var last float64 = 1
	for _, n := range []int{5000, 50000} {
		sm, err := moments.NewSampleMoments(context.Background(), m.Samples(n, 7), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := LearnCoefficients(context.Background(), sm.Sigma, 6, &Options{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		d := eval.Dist(truth, c.A)
		t.Logf("N=%d: dist %.3g", n, d)
		if d > last || d > 0.01 {
			t.Errorf("N=%d: dist %.3g (previous %.3g)", n, d, last)
		}
		last = d
	}
}

func TestCoefficientMatrixErrors(t *testing.T) {
	sig := mat.Identity(9)
	if _, err := LearnCoefficients(context.Background(), sig, 4, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("k = 4, n = 9: %v", err)
	}
	if _, err := LearnCoefficients(context.Background(), sig, 2, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("identity: %v", err)
	}
	sig.Set(3, 3, nan())
	if _, err := LearnCoefficients(context.Background(), sig, 2, nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
}

func nan() float64 { var z float64; return z / z }

// TestUnitVarianceScale: UnitVariance of L = A H A^T scaled by 4^514 or
// 4^-500 gives the columns of the unscaled L times 2^514 or 2^-500,
// bit for bit, and the same hidden second moment. With A's entries near
// 0.01, H is 10^4 times L, and at the scale 4^514 it overflowed: found
// by FuzzCoefficientMatrix, where a Sigma of entries near 1e307 gave an
// A of infinities and no error. H is now formed from L brought back to
// unit scale.
func TestUnitVarianceScale(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 7))
	a := mat.Zeros(6, 2)
	for i := 0; i < 6; i++ {
		for j := 0; j < 2; j++ {
			a.Set(i, j, 0.005+0.01*r.Float64())
		}
	}
	hid := mat.FromRows([][]float64{{20, 5}, {5, 30}})
	var ah, l mat.Dense
	ah.Mul(a, hid)
	l.MulBT(&ah, a)
	l.Symmetrize()
	want, wantH, err := UnitVariance(a, &l)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int{514, -500} {
		var ls mat.Dense
		ls.Scale(math.Ldexp(1, m), &l)
		ls.Scale(math.Ldexp(1, m), &ls)
		got, gotH, err := UnitVariance(a, &ls)
		if err != nil {
			t.Fatalf("L times 4^%d: %v", m, err)
		}
		var back mat.Dense
		back.Scale(math.Ldexp(1, -m), got)
		if !mat.Equal(&back, want) || !mat.Equal(gotH, wantH) {
			t.Errorf("L times 4^%d: A/2^%d =\n%v\nwant\n%v\nH =\n%v\nwant\n%v", m, m, &back, want, gotH, wantH)
		}
	}
}

// TestUnitScaleCorrelations: the correlations of H come out right where
// the product of two standard deviations is subnormal (variances of
// 1e-310), and an H whose covariance is far beyond its variances (not
// positive semidefinite) is an error matching ErrNotFinite, never an
// infinity in HiddenSigma (FuzzCoefficientMatrix found one).
func TestUnitScaleCorrelations(t *testing.T) {
	a := mat.New(3, 2, []float64{1, 0, 0, 1, 1, 1})
	h := mat.New(2, 2, []float64{1e-310, 0.5e-310, 0.5e-310, 1e-310})
	_, hs, err := unitScale(a, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v := hs.At(0, 1); !(math.Abs(v-0.5) <= 1e-12) {
		t.Errorf("correlation %v, want 0.5", v)
	}
	bad := mat.New(2, 2, []float64{1e-300, 1e10, 1e10, 1e-300})
	if _, _, err := unitScale(a, bad, 0); !errors.Is(err, ErrNotFinite) {
		t.Errorf("covariance 1e10 with variances 1e-300: %v, want ErrNotFinite", err)
	}
}
