// Package lingam holds local implementations of two classic learners of
// fully observed linear non-Gaussian acyclic models, x = B x + e with
// independent non-Gaussian e (Shimizu et al.), written for the
// comparison with latent/linear.LearnObservedBN in cmd/linear:
//
//   - DirectLiNGAM (Shimizu et al. 2011) with the pairwise likelihood-
//     ratio measure of Hyvarinen and Smith (2013): find an exogenous
//     variable, regress it out of the others, repeat; then least squares
//     of each variable on its predecessors.
//   - ICA-LiNGAM (Shimizu et al. 2006): FastICA (symmetric; log cosh
//     or skewness contrast), the row permutation of the unmixing matrix
//     with the largest diagonal (Hungarian method on 1/|W_ij|), B = I -
//     W' (rows scaled to a unit diagonal), the causal order by zeroing
//     the smallest entries of B until it can be permuted to strictly
//     lower triangular, then least squares on the predecessors.
//
// Both work on the samples themselves (N x p, rows are samples).
package lingam

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// Result is a learned model: B[i][j] is the coefficient of x_j in the
// equation of x_i; Order is the causal order (Order[0] a root).
type Result struct {
	B     *mat.Dense
	Order []int
	// Converged is false when FastICA (ICA-LiNGAM only) stopped at its
	// iteration cap without meeting the tolerance; Iterations is the
	// number it ran (0 for DirectLiNGAM, which always sets Converged).
	Converged  bool
	Iterations int
}

// columns returns the columns of x (N x p) as slices.
func columns(x *mat.Dense) [][]float64 {
	n, p := x.Dims()
	cols := make([][]float64, p)
	for j := range cols {
		cols[j] = make([]float64, n)
		for i := 0; i < n; i++ {
			cols[j][i] = x.At(i, j)
		}
	}
	return cols
}

func meanVar(v []float64) (float64, float64) {
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, s / float64(len(v))
}

func center(v []float64) {
	m, _ := meanVar(v)
	for i := range v {
		v[i] -= m
	}
}

func cov(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s / float64(len(a))
}

// entropy is the maximum-entropy approximation of the differential
// entropy of a standardised variable u (Hyvarinen 1998): H(N(0,1)) -
// k1 (E log cosh u - gamma)^2 - k2 (E u exp(-u^2/2))^2.
func entropy(u []float64, scale float64) float64 {
	const k1, k2, gamma = 79.047, 7.4129, 0.37457
	var a, b float64
	for _, x := range u {
		v := x / scale
		a += logCosh(v)
		b += v * math.Exp(-v*v/2)
	}
	a /= float64(len(u))
	b /= float64(len(u))
	return (1+math.Log(2*math.Pi))/2 - k1*(a-gamma)*(a-gamma) - k2*b*b
}

func logCosh(x float64) float64 {
	x = math.Abs(x)
	return x + math.Log1p(math.Exp(-2*x)) - math.Ln2
}

// DirectLiNGAM learns the model from the samples x (N x p).
func DirectLiNGAM(x *mat.Dense) (*Result, error) {
	n, p := x.Dims()
	if n < 2 || p < 1 {
		return nil, errors.New("lingam: too few samples")
	}
	cols := columns(x)
	for _, c := range cols {
		center(c)
	}
	work := make([][]float64, p)
	for j := range work {
		work[j] = slices.Clone(cols[j])
	}
	remaining := make([]int, p)
	for j := range remaining {
		remaining[j] = j
	}
	var order []int
	ri := make([]float64, n)
	rj := make([]float64, n)
	for len(remaining) > 1 {
		// Standardise the remaining variables.
		h := make(map[int]float64, len(remaining))
		sd := make(map[int]float64, len(remaining))
		for _, i := range remaining {
			_, v := meanVar(work[i])
			sd[i] = math.Sqrt(v)
			h[i] = entropy(work[i], sd[i])
		}
		best, bestScore := -1, math.Inf(1)
		score := make(map[int]float64)
		for a, i := range remaining {
			for _, j := range remaining[a+1:] {
				xi, xj := work[i], work[j]
				c := cov(xi, xj) / (sd[i] * sd[j]) // correlation
				for t := range ri {
					ui, uj := xi[t]/sd[i], xj[t]/sd[j]
					ri[t] = ui - c*uj // residual of i on j
					rj[t] = uj - c*ui // residual of j on i
				}
				s := math.Sqrt(math.Max(1-c*c, 1e-300))
				// d > 0 favours i -> j: less total entropy.
				d := (h[j] + entropy(ri, s)) - (h[i] + entropy(rj, s))
				if d < 0 { // evidence that j causes i
					score[i] += d * d
				} else {
					score[j] += d * d
				}
			}
		}
		for _, i := range remaining {
			if score[i] < bestScore {
				best, bestScore = i, score[i]
			}
		}
		order = append(order, best)
		rest := remaining[:0:0]
		for _, i := range remaining {
			if i != best {
				rest = append(rest, i)
				b := cov(work[i], work[best]) / cov(work[best], work[best])
				for t := range work[i] {
					work[i][t] -= b * work[best][t]
				}
			}
		}
		remaining = rest
	}
	order = append(order, remaining...)
	b, err := olsGivenOrder(cols, order)
	if err != nil {
		return nil, err
	}
	return &Result{B: b, Order: order, Converged: true}, nil
}

// olsGivenOrder regresses each variable on its predecessors in order
// (the Cholesky factor of the covariance in that order, Remark 4.4).
func olsGivenOrder(cols [][]float64, order []int) (*mat.Dense, error) {
	p := len(cols)
	s := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j <= i; j++ {
			v := cov(cols[i], cols[j])
			s.Set(i, j, v)
			s.Set(j, i, v)
		}
	}
	l, _, err := linear.LambdaFromOrder(s, order)
	if err != nil {
		return nil, err
	}
	b := mat.Zeros(p, p)
	for i, oi := range order {
		for j, oj := range order {
			b.Set(oi, oj, l.At(i, j))
		}
	}
	return b, nil
}

// Contrast is the nonlinearity of FastICA.
type Contrast int

const (
	// LogCosh is G(y) = log cosh y (g = tanh), the usual default
	// (scikit-learn, the lingam package). Its fixed point is stable for a
	// source s only where E[s tanh s - 1 + tanh^2 s] != 0, which is
	// nearly zero for some skewed sources: for the centred Poisson with
	// mean 0.5 to 1 (the Poisson noise family of latent/synth) it is
	// 0.025 to -0.005, crossing zero near 0.85, against -0.13 for the
	// exponential, so those sources are left mixed with each other.
	LogCosh Contrast = iota
	// Skew is G(y) = y^3/3 (g = y^2), the skewness contrast of
	// Hyvarinen's FastICA package: its constant is E[s^3], so it
	// separates every skewed source (and no symmetric one).
	Skew
)

// String returns the contrast's name.
func (c Contrast) String() string {
	switch c {
	case LogCosh:
		return "log cosh"
	case Skew:
		return "skew"
	}
	return fmt.Sprintf("Contrast(%d)", int(c))
}

// ICAOptions tunes ICALiNGAMOpts; the zero value is log cosh with 200
// iterations and tolerance 1e-8.
type ICAOptions struct {
	Contrast Contrast
	// MaxIter caps the FastICA iterations (default 200).
	MaxIter int
	// Tol stops FastICA when max_a | |<w_a, w_a'>| - 1 | < Tol between
	// successive iterates (default 1e-8).
	Tol float64
}

// ICALiNGAM learns the model from the samples x (N x p) with FastICA
// (log cosh) started from rng. See ICALiNGAMOpts.
func ICALiNGAM(x *mat.Dense, rng *rand.Rand) (*Result, error) {
	return ICALiNGAMOpts(x, rng, ICAOptions{})
}

// ICALiNGAMOpts learns the model from the samples x (N x p) with FastICA
// started from rng: the unmixing matrix gives B and from it the causal
// order (by zeroing its smallest entries until it can be permuted to
// strictly lower triangular); the weights are then re-estimated by least
// squares of each variable on its predecessors in that order, as
// DirectLiNGAM does, instead of being read off the ICA estimate (whose
// entries carry the ICA error and are never exactly zero). Result's
// Converged and Iterations say whether FastICA met the tolerance; the
// result is returned either way.
func ICALiNGAMOpts(x *mat.Dense, rng *rand.Rand, opts ICAOptions) (*Result, error) {
	n, p := x.Dims()
	if n < 2 || p < 1 {
		return nil, errors.New("lingam: too few samples")
	}
	if opts.MaxIter <= 0 {
		opts.MaxIter = 200
	}
	if opts.Tol <= 0 {
		opts.Tol = 1e-8
	}
	cols := columns(x)
	for _, c := range cols {
		center(c)
	}
	// Whitening: K = D^{-1/2} E^T from Sigma = E D E^T; z = K x.
	sig := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j <= i; j++ {
			v := cov(cols[i], cols[j])
			sig.Set(i, j, v)
			sig.Set(j, i, v)
		}
	}
	f, err := svd.Factorize(sig, nil)
	if err != nil {
		return nil, err
	}
	k := mat.Zeros(p, p)
	for a := 0; a < p; a++ {
		if f.S[a] <= 0 {
			return nil, errors.New("lingam: singular covariance")
		}
		for j := 0; j < p; j++ {
			k.Set(a, j, f.U.At(j, a)/math.Sqrt(f.S[a]))
		}
	}
	z := mat.Zeros(n, p)
	for t := 0; t < n; t++ {
		for a := 0; a < p; a++ {
			var v float64
			for j := 0; j < p; j++ {
				v += k.At(a, j) * cols[j][t]
			}
			z.Set(t, a, v)
		}
	}
	w, iters, converged := fastICA(z, rng, opts)
	var unmix mat.Dense
	unmix.Mul(w, k) // s = unmix x
	// Row permutation with the largest diagonal: minimise sum 1/|W_ii|.
	cost := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			cost.Set(j, i, 1/math.Max(math.Abs(unmix.At(i, j)), 1e-300))
		}
	}
	rowFor, _ := eval.Assign(cost) // variable j takes row rowFor[j]
	b := mat.Zeros(p, p)
	for j := 0; j < p; j++ {
		r := rowFor[j]
		d := unmix.At(r, j)
		for c := 0; c < p; c++ {
			if c != j {
				b.Set(j, c, -unmix.At(r, c)/d)
			}
		}
	}
	order := triangularOrder(b)
	b, err = olsGivenOrder(cols, order)
	if err != nil {
		return nil, err
	}
	return &Result{B: b, Order: order, Converged: converged, Iterations: iters}, nil
}

// triangularOrder zeroes the entries of b in increasing magnitude until
// the remaining ones admit an order that makes b strictly lower
// triangular, and returns that order.
func triangularOrder(b *mat.Dense) []int {
	p, _ := b.Dims()
	type entry struct {
		i, j int
		v    float64
	}
	var es []entry
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			if i != j {
				es = append(es, entry{i, j, math.Abs(b.At(i, j))})
			}
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	keep := make([][]bool, p)
	for i := range keep {
		keep[i] = make([]bool, p)
	}
	for _, e := range es {
		keep[e.i][e.j] = true
	}
	for z := 0; ; z++ {
		if order := acyclicOrder(keep); order != nil {
			return order
		}
		e := es[z]
		keep[e.i][e.j] = false
	}
}

// acyclicOrder returns an order in which every kept (i, j) has j before
// i, or nil if there is none: repeatedly take a variable with no kept
// parent among the remaining ones.
func acyclicOrder(keep [][]bool) []int {
	p := len(keep)
	done := make([]bool, p)
	var order []int
	for len(order) < p {
		found := -1
		for i := 0; i < p && found < 0; i++ {
			if done[i] {
				continue
			}
			root := true
			for j := 0; j < p; j++ {
				if !done[j] && j != i && keep[i][j] {
					root = false
					break
				}
			}
			if root {
				found = i
			}
		}
		if found < 0 {
			return nil
		}
		done[found] = true
		order = append(order, found)
	}
	return order
}

// fastICA runs symmetric FastICA with the given contrast on the
// whitened samples z (N x p) and returns the p x p orthogonal unmixing
// matrix (s = W z), the number of iterations and whether they met the
// tolerance (if not, W is the last iterate).
func fastICA(z *mat.Dense, rng *rand.Rand, opts ICAOptions) (*mat.Dense, int, bool) {
	n, p := z.Dims()
	w := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			w.Set(i, j, rng.NormFloat64())
		}
	}
	w = symDecorrelate(w)
	y := mat.Zeros(n, p)
	gp := make([]float64, p)
	for it := 1; it <= opts.MaxIter; it++ {
		y.MulBT(z, w) // y[t][a] = w_a . z_t
		// next_a = E[z g(w_a . z)] - E[g'(w_a . z)] w_a
		next := mat.Zeros(p, p)
		clear(gp)
		for t := 0; t < n; t++ {
			zt := z.RawRow(t)
			yt := y.RawRow(t)
			for a := 0; a < p; a++ {
				var g float64
				switch opts.Contrast {
				case Skew:
					g = yt[a] * yt[a]
					gp[a] += 2 * yt[a]
				default:
					g = math.Tanh(yt[a])
					gp[a] += 1 - g*g
				}
				row := next.RawRow(a)
				for j, v := range zt {
					row[j] += g * v
				}
			}
		}
		for a := 0; a < p; a++ {
			row := next.RawRow(a)
			for j := range row {
				row[j] = row[j]/float64(n) - gp[a]/float64(n)*w.At(a, j)
			}
		}
		next = symDecorrelate(next)
		var lim float64
		for a := 0; a < p; a++ {
			var d float64
			for j := 0; j < p; j++ {
				d += next.At(a, j) * w.At(a, j)
			}
			lim = math.Max(lim, math.Abs(math.Abs(d)-1))
		}
		w = next
		if lim < opts.Tol {
			return w, it, true
		}
	}
	return w, opts.MaxIter, false
}

// symDecorrelate returns (W W^T)^{-1/2} W.
func symDecorrelate(w *mat.Dense) *mat.Dense {
	p, _ := w.Dims()
	var wwt mat.Dense
	wwt.MulBT(w, w)
	f, err := svd.Factorize(&wwt, nil)
	if err != nil {
		return w
	}
	m := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			var v float64
			for a := 0; a < p; a++ {
				v += f.U.At(i, a) * f.U.At(j, a) / math.Sqrt(f.S[a])
			}
			m.Set(i, j, v)
		}
	}
	var out mat.Dense
	out.Mul(m, w)
	return &out
}

// SHD is the structural Hamming distance between the true graph (edge
// j -> i where truth[i][j] != 0) and the estimated one (|est[i][j]| >
// tol): the number of pairs {i, j} whose edge is missing, extra or
// reversed.
func SHD(truth, est *mat.Dense, tol float64) int {
	p, _ := truth.Dims()
	d := 0
	for i := 0; i < p; i++ {
		for j := i + 1; j < p; j++ {
			t := edge(truth.At(i, j) != 0, truth.At(j, i) != 0)
			e := edge(math.Abs(est.At(i, j)) > tol, math.Abs(est.At(j, i)) > tol)
			if t != e {
				d++
			}
		}
	}
	return d
}

// edge codes a pair: 0 none, 1 j -> i, 2 i -> j, 3 both.
func edge(ji, ij bool) int {
	c := 0
	if ji {
		c |= 1
	}
	if ij {
		c |= 2
	}
	return c
}
