package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/assign"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// halfSamples is samples lo..hi-1 of src.
type halfSamples struct {
	src    moments.Samples
	lo, hi int
}

func (h halfSamples) NumSamples() int { return h.hi - h.lo }
func (h halfSamples) Dim() int        { return h.src.Dim() }
func (h halfSamples) Block(lo, hi int, dst *mat.Dense) {
	h.src.Block(h.lo+lo, h.lo+hi, dst)
}

// splitResult is what the split-sample check measures: the coefficient
// step learned on each half of the samples, matched to the estimate on
// all of them.
type splitResult struct {
	// halves are the two estimates of A, columns matched and signed to
	// the full estimate's (nil where a half gave an error).
	halves [2]*mat.Dense
	// errs are the halves' errors.
	errs [2]error
	// n are the numbers of samples of the halves.
	n [2]int
}

// learnHalves learns the coefficient step on the first half of the
// samples of src and on the rest: DLD of each half's Sigma on the
// partition of the full estimate coef (no search), LearnTWM with o.TWM,
// and the canonical scale; it matches each half's columns to those of
// coef.A. When full holds the mean and Sigma of all of src, the second
// half's come from them and the first half's (one pass over half the
// samples instead of two).
func learnHalves(ctx context.Context, src moments.Samples, passes moments.Options, full *moments.SampleMoments, coef *Coefficients, o *Options) (*splitResult, error) {
	_, k := coef.A.Dims()
	total := src.NumSamples()
	n1 := total / 2
	res := &splitResult{n: [2]int{n1, total - n1}}
	passes.Progress = nil
	passes.MaxMemory = o.MaxMemory
	first, err := moments.NewSampleMoments(ctx, halfSamples{src, 0, n1}, &passes)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.errs[0], res.errs[1] = err, err
		return res, nil
	}
	var second *mat.Dense
	if full != nil && full.N == total && full.Sigma != nil && len(full.Mean) == src.Dim() {
		second = otherHalfSigma(full, first)
	} else {
		sm, err := moments.NewSampleMoments(ctx, halfSamples{src, n1, total}, &passes)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.errs[1] = err
		} else {
			second = sm.Sigma
		}
	}
	for h, sigma := range []*mat.Dense{first.Sigma, second} {
		if sigma == nil {
			continue
		}
		a, err := halfCoefficients(ctx, sigma, coef.DLD, k, o)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.errs[h] = err
			continue
		}
		res.halves[h] = matchColumns(coef.A, a)
	}
	return res, nil
}

// otherHalfSigma returns the centred second moment (1/N2 normalised) of
// the samples of full that are not in first, from N Sigma = sum_h N_h
// (Sigma_h + d_h d_h^T), d_h = mean_h - mean.
func otherHalfSigma(full, first *moments.SampleMoments) *mat.Dense {
	n := len(full.Mean)
	nf, n1 := float64(full.N), float64(first.N)
	n2 := nf - n1
	d1 := make([]float64, n)
	d2 := make([]float64, n)
	for i := range d1 {
		mu2 := (nf*full.Mean[i] - n1*first.Mean[i]) / n2
		d1[i] = first.Mean[i] - full.Mean[i]
		d2[i] = mu2 - full.Mean[i]
	}
	out := mat.Zeros(n, n)
	for i := 0; i < n; i++ {
		row := out.RawRow(i)
		for j := range row {
			row[j] = (nf*full.Sigma.At(i, j) - n1*first.Sigma.At(i, j) - n1*d1[i]*d1[j] - n2*d2[i]*d2[j]) / n2
		}
	}
	return out
}

// halfCoefficients returns the canonical A learned from a half's Sigma:
// without the noise refinement (Options.RefineNoise), DLD on
// the partition of the full estimate's decomposition full (no search);
// with it, the coefficient step's own search (the DLD partitions with
// the smallest off-diagonal ratios, drawn from o.Seed, each refined, the
// best fit kept), so that each half is estimated as the full data are.
func halfCoefficients(ctx context.Context, sigma *mat.Dense, full *Decomposition, k int, o *Options) (*mat.Dense, error) {
	var dec *Decomposition
	if !o.RefineNoise {
		var err error
		if dec, err = DLD(sigma, k, full.Partition, &o.DLD); err != nil {
			return nil, err
		}
	} else {
		decs, err := dldSearchTop(ctx, sigma, k, rand.New(rand.NewPCG(o.Seed, 0xc0ef)), &o.DLD, noiseStarts)
		if err != nil {
			return nil, err
		}
		if dec, err = bestRefined(ctx, sigma, k, decs); err != nil {
			return nil, err
		}
	}
	twm, err := LearnTWM(ctx, dec.L, k, &o.TWM)
	if err != nil {
		return nil, err
	}
	a, _, err := UnitVariance(twm.A, dec.L)
	return a, err
}

// matchColumns returns the columns of b matched to those of a (the
// assignment that maximises the sum of |cosines|) and signed to agree
// with them.
func matchColumns(a, b *mat.Dense) *mat.Dense {
	n, k := a.Dims()
	cost := mat.Zeros(k, k)
	dots := mat.Zeros(k, k)
	// columnPairs visits (j, c) with c running fastest.
	j, c := 0, 0
	columnPairs(a, b, func(_ int, dot, na, nb float64) {
		v := 0.0
		if na > 0 && nb > 0 {
			v = dot / (na * nb)
		}
		dots.Set(j, c, v)
		cost.Set(j, c, -math.Abs(v))
		if c++; c == k {
			j, c = j+1, 0
		}
	})
	perm, _ := assign.Hungarian(cost)
	out := mat.Zeros(n, k)
	col := make([]float64, n)
	for j, p := range perm {
		b.Col(col, p)
		s := 1.0
		if dots.At(j, p) < 0 {
			s = -1
		}
		kernels.Scal(s, col)
		for i, v := range col {
			out.Set(i, j, v)
		}
	}
	return out
}

// columnSE returns, for each column j of full, the standard error of
// its entries estimated from the halves relative to the column's
// largest: the root mean square over the rows of (a1_ij - a2_ij)/2,
// over max_i |full_ij|. Each half has twice the variance of the full
// estimate, so their difference has four times it.
func (s *splitResult) columnSE(full *mat.Dense) []float64 {
	n, k := full.Dims()
	out := make([]float64, k)
	for j := range out {
		var ss float64
		for i := 0; i < n; i++ {
			d := (s.halves[0].At(i, j) - s.halves[1].At(i, j)) / 2
			ss += d * d
		}
		out[j] = math.Sqrt(ss/float64(n)) / colMaxAbs(full, j)
	}
	return out
}

// splitRatio returns the split-sample ratio of column j (see
// MaxSplitRatio): the largest over the smallest of |a1 - a|, |a2 - a|
// and |a1 - a2|/sqrt 2, a the full estimate's column and a1, a2 the
// halves'.
func (s *splitResult) splitRatio(full *mat.Dense, j int) float64 {
	n, _ := full.Dims()
	var d1, d2, d12 float64
	for i := 0; i < n; i++ {
		v, a1, a2 := full.At(i, j), s.halves[0].At(i, j), s.halves[1].At(i, j)
		d1 += (a1 - v) * (a1 - v)
		d2 += (a2 - v) * (a2 - v)
		d12 += (a1 - a2) * (a1 - a2) / 2
	}
	lo, hi := min(d1, d2, d12), max(d1, d2, d12)
	if hi == 0 {
		return math.Sqrt2 // three equal estimates: the linear regime's value
	}
	return math.Sqrt(hi / lo)
}

// splitVerdict runs the split-sample checks of LearnDAG (see
// DAGOptions.SkipSplitCheck) on the coefficient step coef learned from
// the samples src, with the options o: the split-sample ratio (at most
// MaxSplitRatio) and the expansion property of the support resolved by
// the halves' standard errors (N(S) from the entries above
// SplitLowSigmas of them, d_max from those above SplitHighSigmas).
// It returns no checks when src has fewer than 2 (3k + 1) samples,
// too few for a half to fit, and only the context's error.
func splitVerdict(ctx context.Context, src moments.Samples, passes moments.Options, full *moments.SampleMoments, coef *Coefficients, o *Options) (Verdict, error) {
	var v Verdict
	_, k := coef.A.Dims()
	if src.NumSamples() < 2*(3*k+1) {
		return v, nil
	}
	progress(o.Progress, "split check", 0, 1)
	defer progress(o.Progress, "split check", 1, 1)
	sr, err := learnHalves(ctx, src, passes, full, coef, o)
	if err != nil {
		return v, err
	}
	for h, err := range sr.errs {
		if err != nil {
			v.add(Check{Name: "split stability", Value: math.NaN(), Bound: MaxSplitRatio, Margin: math.NaN(),
				Detail: fmt.Sprintf("half %d of the samples (%d) gives no estimate: %v", h+1, sr.n[h], err)})
			return v, nil
		}
	}
	worst, at := 0.0, -1
	for j := 0; j < k; j++ {
		if r := sr.splitRatio(coef.A, j); r > worst || math.IsNaN(r) {
			worst, at = r, j
		}
	}
	v.add(atMost("split stability", worst, MaxSplitRatio,
		fmt.Sprintf("largest split-sample ratio %.3g (column %d; sqrt 2 for an estimate linear in the moments): the estimates of A from the two halves of the samples (%d and %d) and from all of them", worst, at, sr.n[0], sr.n[1])))
	se := sr.columnSE(coef.A)
	m, set, exact := expansionMargin(supportAt(coef.A, se, SplitLowSigmas), supportAt(coef.A, se, SplitHighSigmas), 0)
	how := "exact"
	if !exact {
		how = "upper bound from pairs and triples"
	}
	detail := fmt.Sprintf("least |N(S)| - |S| - d_max is %d (%s; N(S) from the entries above %g and d_max from those above %g standard errors of their column, from the two halves, at most %g of its largest)", m, how, SplitLowSigmas, SplitHighSigmas, SupportTol)
	if m < 0 {
		detail += fmt.Sprintf(", at columns %v", set)
	}
	v.add(atLeast("split expansion", float64(m), 0, detail))
	return v, nil
}
