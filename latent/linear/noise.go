package linear

import (
	"context"
	"math"

	"github.com/moments-go/moments/mat"
)

// noiseRefineIters caps the EM steps of refineNoise.
const noiseRefineIters = 500

// noiseRefineTol stops refineNoise once no noise variance moves by more
// than this share of itself in a step.
const noiseRefineTol = 1e-7

// refineNoise returns the noise variances of the factor model sigma =
// F F^T + diag(d) (F n x k) at the Gaussian quasi-likelihood's fixed
// point reached from d0 (DLD's estimate) by the EM algorithm of factor
// analysis, and the number of steps taken:
//
//	beta = (I + F^T D^{-1} F)^{-1} F^T D^{-1},  M = sigma beta^T,
//	F <- M (I - beta F + beta M)^{-1},  d_i <- sigma_ii - (F M^T)_ii,
//
// F starting from the top k eigenpairs of sigma - diag(d0). DLD reads
// the noise off three off-diagonal blocks of one partition; these steps
// weigh every entry of sigma, which matters when a hidden variable's
// footprint on the off-diagonal entries is near their sampling noise
// (a column of A with few small entries). Exact moments of a model of
// rank k are a fixed point: the d0 of exact DLD comes back unchanged.
// Each step costs one n x n x k product. Variances stay at least 1e-9
// sigma_ii (a Heywood case pins them there). When a k x k system turns
// singular or a value is not finite, the last finite iterate is
// returned.
func refineNoise(ctx context.Context, sigma *mat.Dense, d0 []float64, k int) ([]float64, int) {
	n, _ := sigma.Dims()
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Max(d0[i], 1e-9*sigma.At(i, i))
		if !(d[i] > 0) {
			return d0, 0
		}
	}
	l := sigma.Clone()
	for i := range d {
		l.Set(i, i, l.At(i, i)-d[i])
	}
	l.Symmetrize()
	vals, u, err := topEigSym(l, k)
	if err != nil {
		return d0, 0
	}
	f := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			f.Set(i, j, u.At(i, j)*math.Sqrt(math.Max(vals[j], 0)))
		}
	}
	ld := mat.Zeros(n, k)
	next := make([]float64, n)
	var mk, beta, m, bm, bf, fn mat.Dense
	ezz := mat.Zeros(k, k)
	steps := 0
	for it := 0; it < noiseRefineIters; it++ {
		if ctx.Err() != nil {
			break // bestRefined returns the error
		}
		for i := 0; i < n; i++ {
			fr, lr := f.RawRow(i), ld.RawRow(i)
			for j := range lr {
				lr[j] = fr[j] / d[i]
			}
		}
		mk.Reset()
		mk.MulAT(f, ld)
		for j := 0; j < k; j++ {
			mk.Set(j, j, mk.At(j, j)+1)
		}
		mkInv, err := inverse(&mk)
		if err != nil {
			break
		}
		beta.Reset()
		beta.MulBT(mkInv, ld) // k x n
		m.Reset()
		m.MulBT(sigma, &beta) // n x k
		bm.Reset()
		bm.Mul(&beta, &m)
		bf.Reset()
		bf.Mul(&beta, f)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				v := bm.At(i, j) - bf.At(i, j)
				if i == j {
					v++
				}
				ezz.Set(i, j, v)
			}
		}
		ezzInv, err := inverse(ezz)
		if err != nil {
			break
		}
		fn.Reset()
		fn.Mul(&m, ezzInv)
		var move float64
		finite := true
		for i := 0; i < n; i++ {
			var v float64
			fr, mr := fn.RawRow(i), m.RawRow(i)
			for j := range fr {
				v += fr[j] * mr[j]
			}
			next[i] = math.Max(sigma.At(i, i)-v, 1e-9*sigma.At(i, i))
			if math.IsNaN(next[i]) || math.IsInf(next[i], 0) {
				finite = false
				break
			}
			move = math.Max(move, math.Abs(next[i]-d[i])/d[i])
		}
		if !finite {
			break
		}
		copy(d, next)
		f.Copy(&fn)
		steps = it + 1
		if move <= noiseRefineTol {
			break
		}
	}
	return d, steps
}

// noiseStarts is, with Options.RefineNoise, the number of DLD partitions (those with the smallest
// off-diagonal ratios) whose noise variances refineNoise starts from.
const noiseStarts = 5

// bestRefined refines the noise variances of each decomposition of decs
// (see refined) and returns the refinement with the least faDiscrepancy
// on sigma (the first on ties), with that discrepancy. The EM steps
// reach a fixed point of the likelihood near their start; two starts
// can reach different ones, whose columns of A differ, and the
// likelihood tells them apart once the samples resolve the difference.
// It returns ctx's error if ctx ends first.
func bestRefined(ctx context.Context, sigma *mat.Dense, k int, decs []*Decomposition) (*Decomposition, error) {
	var best *Decomposition
	bestF := math.Inf(1)
	for _, d := range decs {
		r := d.refined(ctx, sigma, k)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f := faDiscrepancy(sigma, r.D, k); best == nil || f < bestF {
			best, bestF = r, f
		}
	}
	return best, nil
}

// refined returns dec with its noise variances refined by refineNoise
// on sigma and L = sigma - diag(D) to match; the diagnostics of the
// partition (OffDiagRatio, Cond, Gap) stay those of DLD.
func (dec *Decomposition) refined(ctx context.Context, sigma *mat.Dense, k int) *Decomposition {
	d, steps := refineNoise(ctx, sigma, dec.D, k)
	if steps == 0 {
		return dec
	}
	out := *dec
	out.D = d
	out.L = sigma.Clone()
	for i, v := range d {
		out.L.Set(i, i, out.L.At(i, i)-v)
	}
	return &out
}

// faDiscrepancy returns the Gaussian factor-analysis discrepancy of the
// noise variances d for sigma and k factors, minimised over the
// loadings: sum over the eigenvalues theta_m of D^{-1/2} sigma D^{-1/2}
// below the k largest of theta_m - log theta_m - 1 (0 when sigma is
// exactly rank k plus diag(d); +Inf if some d_i is not positive or the
// eigendecomposition fails).
func faDiscrepancy(sigma *mat.Dense, d []float64, k int) float64 {
	n, _ := sigma.Dims()
	s := mat.Zeros(n, n)
	for i := 0; i < n; i++ {
		if !(d[i] > 0) {
			return math.Inf(1)
		}
		for j := 0; j < n; j++ {
			s.Set(i, j, sigma.At(i, j)/math.Sqrt(d[i]*d[j]))
		}
	}
	s.Symmetrize()
	vals, _, err := topEigSym(s, n)
	if err != nil {
		return math.Inf(1)
	}
	var f float64
	for _, t := range vals[k:] {
		if !(t > 0) {
			return math.Inf(1)
		}
		f += t - math.Log(t) - 1
	}
	return f
}
