package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// WhitenedThirdMoments are ThirdMoments that also give the whitened third
// moment directly, which the ECATensor route of LearnDAG needs;
// SampleThird computes it in one pass of N k^3/6 multiply-adds.
type WhitenedThirdMoments interface {
	ThirdMoments
	// Whitened returns the k x k x k tensor E[y(x)y(x)y], y = W^T x, for
	// W n x k, and the diagonal third moments E[x_i^3] (n values), all
	// centred.
	Whitened(ctx context.Context, w *mat.Dense) (*tensor3.Sym, []float64, error)
}

// SampleThird gives the third moments of samples: Psi through
// SampleMoments.Psi, and the whitened third moment by its own pass over
// the samples. Both are centred by the mean of the SampleMoments.
type SampleThird struct {
	// Moments are the samples' mean and Sigma (moments.NewSampleMoments).
	Moments *moments.SampleMoments
	// Src are the samples the moments came from.
	Src moments.Samples
	// Passes set the workers and progress of the passes.
	Passes moments.Options
}

// blockRows is par.BlockRows, the samples SampleThird.Whitened loads at
// once; tests make it small to load chunks in many blocks.
var blockRows = par.BlockRows

// Psi returns Moments.Psi(ctx, zetas).
func (s *SampleThird) Psi(ctx context.Context, zetas *mat.Dense) ([]*mat.Dense, error) {
	return s.Moments.Psi(ctx, zetas)
}

// Whitened returns (1/N) sum_s y_s(x)y_s(x)y_s with y_s = W^T (x_s - mean)
// and the centred diagonal third moments, in one pass over Src in chunks
// that depend on N alone (so the result is the same for any number of
// workers), each chunk loaded in blocks of par.BlockRows samples (about
// 1 MiB of them, at least 256) and accumulated by
// tensor3.Sym.AddOuterRows.
func (s *SampleThird) Whitened(ctx context.Context, w *mat.Dense) (*tensor3.Sym, []float64, error) {
	checkCtx("SampleThird.Whitened", ctx)
	n, k := w.Dims()
	total := s.Src.NumSamples()
	if s.Src.Dim() != n || len(s.Moments.Mean) != n {
		panic(fmt.Sprintf("linear: SampleThird.Whitened: W has %d rows for samples of dimension %d", n, s.Src.Dim()))
	}
	size := max(256, (total+255)/256)
	rows := blockRows(n, size) // a chunk is loaded in blocks of rows samples
	type acc struct {
		t     *tensor3.Sym
		diag  []float64
		block *mat.Dense
		y     *mat.Dense
	}
	mean := s.Moments.Mean
	res, err := par.Reduce(ctx, total, size, workers(s.Passes.Workers), par.Stage(s.Passes.Progress, "third moment"),
		func() *acc {
			return &acc{t: tensor3.New(k, nil), diag: make([]float64, n), block: mat.Zeros(rows, n), y: mat.Zeros(rows, k)}
		},
		func(a *acc, lo, hi int) {
			par.Blocks(lo, hi, rows, func(lo, hi int) {
				b := a.block.Slice(0, hi-lo, 0, n)
				s.Src.Block(lo, hi, b)
				for i := 0; i < hi-lo; i++ {
					row := b.RawRow(i)
					for j, m := range mean {
						v := row[j] - m
						row[j] = v
						a.diag[j] += v * v * v
					}
				}
				y := a.y.Slice(0, hi-lo, 0, k)
				y.Mul(b, w)
				a.t.AddOuterRows(1, y, nil)
			})
		},
		func(dst, src *acc) {
			dst.t.Add(dst.t, src.t)
			for j, v := range src.diag {
				dst.diag[j] += v
			}
		},
		func(a *acc) { a.t.Zero(); clear(a.diag) })
	if err != nil {
		return nil, nil, err
	}
	res.t.Scale(1/float64(total), res.t)
	for j := range res.diag {
		res.diag[j] /= float64(total)
	}
	return res.t, res.diag, nil
}

// whitenedFromPsi assembles E[y(x)y(x)y] from the k slices M_c = W^T
// Psi(W e_c) W: T[a][b][c] = M_c[a][b], symmetrised over the three
// placements; and the diagonal E[x_i^3] from the slices Psi(e_i).
func whitenedFromPsi(ctx context.Context, third ThirdMoments, w *mat.Dense) (*tensor3.Sym, []float64, error) {
	n, k := w.Dims()
	psis, err := third.Psi(ctx, w)
	if err != nil {
		return nil, nil, err
	}
	m := make([]*mat.Dense, k)
	for c, p := range psis {
		if err := checkFinite("Psi", p); err != nil {
			return nil, nil, fmt.Errorf("linear: %w", err)
		}
		var t, mc mat.Dense
		t.Mul(p, w)
		mc.MulAT(w, &t)
		m[c] = &mc
	}
	t := tensor3.New(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			for c := b; c < k; c++ {
				t.Set(a, b, c, (m[c].At(a, b)+m[a].At(b, c)+m[b].At(a, c))/3)
			}
		}
	}
	unit, err := third.Psi(ctx, mat.Identity(n))
	if err != nil {
		return nil, nil, err
	}
	diag := make([]float64, n)
	for i, p := range unit {
		diag[i] = p.At(i, i)
	}
	return t, diag, nil
}

// tensor is the ECATensor route. The whitened third moment is
//
//	T = sum_j skew_j v_j(x)v_j(x)v_j + sum_i mu_i w_i(x)w_i(x)w_i,
//
// mu_i = E[eps_i^3] and w_i = W^T e_i. By default mu is found by
// alternating: decompose T less the current noise term by the robust
// tensor power method; the components give the signal's share of each
// diagonal third moment, kappa_i = sum_j skew_j s_ij^3 (s_j = (W^+)^T v_j,
// the columns of the mixing matrix scaled by the noise deviations); mu_i
// = E[x_i^3] - kappa_i. This needs no slice Psi and is exact at its fixed
// point; errors in mu_i enter through |w_i|^3, small where the signal is
// large. With opts.Zetas > 0, mu comes instead from DLD of that many
// random slices Psi(zeta), whose diagonals are zeta_i mu_i.
func (e *eca) tensor(ctx context.Context, rng *rand.Rand) (*mat.Dense, []float64, error) {
	n, k := e.w.Dims()
	progress(e.opts.Progress, "whitened third moment", 0, 1)
	t, diag, err := e.whitenedTensor(ctx)
	if err != nil {
		return nil, nil, err
	}
	progress(e.opts.Progress, "whitened third moment", 1, 1)
	decompose := func(mu []float64) (*tensor3.Decomposition, error) {
		tt := t
		if mu != nil {
			tt = t.Clone()
			tt.AddOuterRows(-1, e.w, mu)
		}
		// Each decomposition draws its own seed from the learner's
		// generator, so the power method's starts differ from call to
		// call as a shared stream would make them.
		dec, err := tensor3.PowerMethod(ctx, tt, k, &tensor3.PowerOptions{Seed: rng.Uint64()})
		if err != nil {
			return nil, fmt.Errorf("linear: tensor power method: %w", err)
		}
		return dec, nil
	}
	if !e.noisy {
		dec, err := decompose(nil)
		if err != nil {
			return nil, nil, err
		}
		e.iters = 1
		return dec.Vectors, dec.Values, nil
	}
	if e.opts.Zetas > 0 {
		mu, err := e.noiseFromSlices(ctx, rng)
		if err != nil {
			return nil, nil, err
		}
		e.noiseThird = mu
		dec, err := decompose(mu)
		if err != nil {
			return nil, nil, err
		}
		e.iters = 1
		return dec.Vectors, dec.Values, nil
	}
	// The fixed point mu = f(mu) = E[x^3] - kappa(decompose(T - noise(mu))),
	// with Anderson acceleration (memory 5): f is close to linear and
	// contracting, but slowly for large k.
	var mu []float64
	var dec *tensor3.Decomposition
	var s mat.Dense
	var scale float64
	for _, v := range diag {
		scale = math.Max(scale, math.Abs(v))
	}
	f := func(mu []float64) ([]float64, error) {
		var err error
		if dec, err = decompose(mu); err != nil {
			return nil, err
		}
		s.Mul(e.winvT, dec.Vectors)
		out := make([]float64, n)
		for i := 0; i < n; i++ {
			var kappa float64
			for j, l := range dec.Values {
				v := s.At(i, j)
				kappa += l * v * v * v
			}
			out[i] = e.clipNoise(i, diag[i]-kappa)
		}
		return out, nil
	}
	// Safeguards for sampled moments, where the map is only nearly a
	// contraction: keep the iterate with the smallest residual |f(mu) -
	// mu|, restart the acceleration when the residual grows, and stop
	// when the best residual has not improved for 5 iterations.
	mu = make([]float64, n)
	best, bestRes, since := mu, math.Inf(1), 0
	prevRes := math.Inf(1)
	var hist anderson
	for it := 1; it <= e.opts.MaxIter; it++ {
		progress(e.opts.Progress, "noise third moments", it-1, e.opts.MaxIter)
		fx, err := f(mu)
		if err != nil {
			return nil, nil, err
		}
		e.iters = it
		var res float64
		for i := range fx {
			res = math.Max(res, math.Abs(fx[i]-mu[i]))
		}
		if res < bestRes {
			best, bestRes, since = mu, res, 0
		} else {
			since++
		}
		if res <= 1e-13*scale || res <= e.opts.Tol*scale || since >= 5 ||
			e.opts.NoiseIters > 0 && it >= max(3, e.opts.NoiseIters) {
			break
		}
		if res > prevRes {
			hist = anderson{}
		}
		prevRes = res
		mu = hist.next(mu, fx)
	}
	mu = best
	e.noiseThird = mu
	if dec, err = decompose(mu); err != nil {
		return nil, nil, err
	}
	return dec.Vectors, dec.Values, nil
}

// noiseFromSlices estimates E[eps_i^3] from the diagonals zeta_i
// E[eps_i^3] of opts.Zetas random slices Psi(zeta), each split by DLD,
// combined by least squares.
func (e *eca) noiseFromSlices(ctx context.Context, rng *rand.Rand) ([]float64, error) {
	n, _ := e.w.Dims()
	m := e.opts.Zetas
	z := mat.Zeros(n, m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			z.Set(i, j, rng.NormFloat64())
		}
	}
	psis, err := e.third.Psi(ctx, z)
	if err != nil {
		return nil, err
	}
	num := make([]float64, n)
	den := make([]float64, n)
	for j, p := range psis {
		if err := checkFinite("Psi", p); err != nil {
			return nil, fmt.Errorf("linear: %w", err)
		}
		_, d, err := e.denoise(p)
		if err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			zi := z.At(i, j)
			num[i] += zi * d[i]
			den[i] += zi * zi
		}
	}
	mu := make([]float64, n)
	for i := range mu {
		mu[i] = e.clipNoise(i, num[i]/den[i])
	}
	return mu, nil
}

// anderson is the state of Anderson acceleration (type II, memory 5) of
// a fixed-point iteration x <- f(x).
type anderson struct {
	x, g   [][]float64 // recent iterates and their residuals f(x) - x
	fx     [][]float64 // recent f(x)
	memory int
}

// next returns the accelerated iterate after x with f(x) = fx.
func (a *anderson) next(x, fx []float64) []float64 {
	if a.memory == 0 {
		a.memory = 5
	}
	n := len(x)
	g := make([]float64, n)
	for i := range g {
		g[i] = fx[i] - x[i]
	}
	a.x = append(a.x, slices.Clone(x))
	a.g = append(a.g, g)
	a.fx = append(a.fx, slices.Clone(fx))
	if len(a.x) > a.memory+1 {
		a.x, a.g, a.fx = a.x[1:], a.g[1:], a.fx[1:]
	}
	m := len(a.x) - 1
	if m == 0 {
		return slices.Clone(fx)
	}
	// gamma = argmin || g_m - sum_j gamma_j (g_{j+1} - g_j) ||.
	dg := mat.Zeros(n, m)
	rhs := mat.Zeros(n, 1)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			dg.Set(i, j, a.g[j+1][i]-a.g[j][i])
		}
		rhs.Set(i, 0, g[i])
	}
	var gamma mat.Dense
	if _, err := lq.LeastSquares(&gamma, dg, rhs, 1e-10); err != nil {
		a.x, a.g, a.fx = a.x[m:], a.g[m:], a.fx[m:]
		return slices.Clone(fx)
	}
	out := slices.Clone(fx)
	for j := 0; j < m; j++ {
		c := gamma.At(j, 0)
		for i := range out {
			out[i] -= c * (a.fx[j+1][i] - a.fx[j][i])
		}
	}
	return out
}

// clipNoise bounds the estimate mu of E[eps_i^3] by MaxNoiseSkew
// sigma_i^3.
func (e *eca) clipNoise(i int, mu float64) float64 {
	if e.opts.MaxNoiseSkew < 0 || e.noiseVar == nil {
		return mu
	}
	b := e.opts.MaxNoiseSkew * math.Pow(math.Max(e.noiseVar[i], 0), 1.5)
	return math.Max(-b, math.Min(b, mu))
}
