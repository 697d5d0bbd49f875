package treemix

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/sample"
	"github.com/moments-go/moments/internal/size"
)

// EMOptions controls LearnEM. The zero value (and nil) runs at most 100 iterations,
// stops when the mean log-likelihood per sample gains less than 1e-6,
// and smooths every pair table with one pseudo-sample.
type EMOptions struct {
	Options
	// MaxIter caps the iterations (M-steps); 0 means 100.
	MaxIter int
	// Tol: stop when an iteration raises the mean log-likelihood per
	// sample by less than Tol (nats); 0 means 1e-6.
	Tol float64
	// Prior is the weight, in samples, of a uniform Dirichlet prior on
	// every pair table of every component (spread as Prior/d^2 per
	// cell, Prior/d per state of the single tables derived from them),
	// which keeps held-out likelihoods finite; 0 means 1, a negative
	// value means none (maximum likelihood).
	Prior float64
	// OnPass, if not nil, is called after every pass over the data
	// (E-step) with its number (from 1; pass 1 scores the start), the
	// mean log-likelihood per sample of the current model and its change
	// from the previous pass (+Inf after the first), the gain that Tol
	// bounds: a trace of the objective as it is computed, which
	// EMResult.Trace holds once LearnEM returns. The progress within a
	// pass is Options.Progress.
	OnPass func(pass int, meanLogLik, change float64)
}

func (o EMOptions) maxIter() int {
	if o.MaxIter > 0 {
		return o.MaxIter
	}
	return 100
}

func (o EMOptions) prior() float64 {
	switch {
	case o.Prior < 0:
		return 0
	case o.Prior == 0:
		return 1
	}
	return o.Prior
}

// EMResult describes a run of LearnEM.
type EMResult struct {
	// Iterations is the number of M-steps taken.
	Iterations int
	// MeanLogLik is the mean log-likelihood per sample of the returned
	// model on the training data; Trace holds it for the start and after
	// every M-step.
	MeanLogLik float64
	Trace      []float64
	// Converged reports whether the tolerance was met.
	Converged bool
}

// LearnEM runs expectation-maximisation for a mixture of trees (Meilă and
// Jordan, 2001) on x from the model init, which may be any Mixture (a
// random start, the spectral estimate): each E-step computes the
// posteriors P(H = h | y_i) and from them the weighted single and pair
// tables of every component in one parallel pass (deterministic for any
// number of workers); each M-step sets the weights to the mean
// posteriors and every component to the Chow–Liu tree of its weighted
// (smoothed) tables. It returns the last model and a report of the run
// (its mean training log-likelihood, one entry a pass). Reaching MaxIter
// without meeting Tol returns both with an error that wraps
// ErrNoConvergence, and a cancelled ctx both with ctx.Err(); an option
// out of range (ErrBadOption), an init that fails Validate or does not
// match x (ErrBadData) return no model and no report. nil opts means the
// defaults; ctx must not be nil.
func LearnEM(ctx context.Context, x *Data, init *Mixture, opts *EMOptions) (*Mixture, *EMResult, error) {
	o := valueOf(opts)
	if err := o.check(); err != nil {
		return nil, nil, err
	}
	if err := init.Validate(); err != nil {
		return nil, nil, err
	}
	if err := init.matches(x); err != nil {
		return nil, nil, err
	}
	if x.n == 0 {
		return nil, nil, fmt.Errorf("treemix: %w: no samples", ErrBadData)
	}
	// Each accumulator of the E-step holds r weighted tables of every
	// pair, d x d; the M-step, the p x p mutual informations of each
	// component.
	r, p, d := len(init.Nets), x.p, init.States
	chunks := (x.n + chunkRows(x.n) - 1) / chunkRows(x.n)
	accs := 1 + min(2*o.workers(), chunks)
	need := size.Add(size.Scale(accs, size.Float64s(r, p*(p-1)/2, d, d)), size.Float64s(2, p, p))
	if err := o.checkMemory(fmt.Sprintf("the pair tables of %d variables and %d components", p, r), need); err != nil {
		return nil, nil, fmt.Errorf("treemix: LearnEM: %w", err)
	}
	m := init
	res := &EMResult{}
	prev := math.Inf(-1)
	for it := 0; ; it++ {
		st, err := eStep(ctx, x, m, o.Options)
		if err != nil {
			return m, res, err
		}
		mean := st.ll / float64(x.n)
		res.Trace = append(res.Trace, mean)
		res.MeanLogLik = mean
		change := math.Inf(1)
		if it > 0 {
			change = mean - prev
		}
		if o.OnPass != nil {
			o.OnPass(it+1, mean, change)
		}
		if it > 0 && change < orDefault(o.Tol, 1e-6) {
			res.Converged = true
			return m, res, nil
		}
		if it == o.maxIter() {
			return m, res, fmt.Errorf("treemix: LearnEM: %w after %d iterations", ErrNoConvergence, it)
		}
		prev = mean
		m = mStep(st, x.p, m.States, o.prior())
		res.Iterations++
	}
}

// emStats are the sufficient statistics of one E-step: for each
// component the total posterior weight, and the weighted pair tables
// (pairs a < b in row-major order of the upper triangle).
type emStats struct {
	r, p, d int
	ll      float64
	w       []float64   // r
	pairs   [][]float64 // r x (npairs*d*d)
	single  [][]float64 // r x (p*d), used when p == 1
}

func pairIndex(a, b, p int) int { return a*p - a*(a+1)/2 + b - a - 1 }

func eStep(ctx context.Context, x *Data, m *Mixture, opts Options) (*emStats, error) {
	r, p, d := len(m.Nets), x.p, m.States
	np := p * (p - 1) / 2
	lt := m.logTables(true)
	newAcc := func() *emStats {
		s := &emStats{r: r, p: p, d: d, w: make([]float64, r), pairs: make([][]float64, r), single: make([][]float64, r)}
		for h := range r {
			s.pairs[h] = make([]float64, np*d*d)
			s.single[h] = make([]float64, p*d)
		}
		return s
	}
	work := func(s *emStats, lo, hi int) {
		n := hi - lo
		post := make([]float64, n*r)
		m.componentLogs(x, lt, lo, hi, post)
		for i := range n {
			row := post[i*r : (i+1)*r]
			z := logSumExp(row)
			s.ll += z
			for h := range row {
				row[h] = math.Exp(row[h] - z)
				s.w[h] += row[h]
			}
		}
		gh := make([]float64, n)
		code := make([]int, n)
		for h := range r {
			for i := range n {
				gh[i] = post[i*r+h]
			}
			for a := range p {
				ca := x.x[a*x.n+lo : a*x.n+hi]
				sg := s.single[h][a*d : (a+1)*d]
				for i, sa := range ca {
					sg[sa] += gh[i]
				}
				for i, sa := range ca {
					code[i] = int(sa) * d
				}
				for b := a + 1; b < p; b++ {
					cb := x.x[b*x.n+lo : b*x.n+hi]
					t := s.pairs[h][pairIndex(a, b, p)*d*d:][:d*d]
					for i, sb := range cb {
						t[code[i]+int(sb)] += gh[i]
					}
				}
			}
		}
	}
	merge := func(dst, src *emStats) {
		dst.ll += src.ll
		for h := range r {
			dst.w[h] += src.w[h]
			for k, v := range src.pairs[h] {
				dst.pairs[h][k] += v
			}
			for k, v := range src.single[h] {
				dst.single[h][k] += v
			}
		}
	}
	reset := func(s *emStats) {
		s.ll = 0
		clear(s.w)
		for h := range r {
			clear(s.pairs[h])
			clear(s.single[h])
		}
	}
	return reduce(ctx, x.n, opts, "EM", newAcc, work, merge, reset)
}

// mStep returns the mixture of Chow–Liu trees of the weighted tables.
func mStep(st *emStats, p, d int, prior float64) *Mixture {
	r := st.r
	var total float64
	for _, w := range st.w {
		total += w
	}
	m := &Mixture{States: d, Weights: make([]float64, r)}
	for h := range r {
		m.Weights[h] = st.w[h] / total
		nh := st.w[h] + prior
		single := make([][]float64, p)
		for a := range p {
			single[a] = make([]float64, d)
			for i := range d {
				single[a][i] = (st.single[h][a*d+i] + prior/float64(d)) / nh
			}
		}
		pair := func(a, b int) *Table {
			t := NewTable([]int{a, b}, d)
			src := st.pairs[h][pairIndex(a, b, p)*d*d:][:d*d]
			for k, v := range src {
				t.P[k] = (v + prior/float64(d*d)) / nh
			}
			return t
		}
		m.Nets = append(m.Nets, ChowLiu(d, single, pair))
	}
	fixWeights(m.Weights)
	return m
}

// fixWeights replaces zero weights (an empty component) by a tiny value
// and renormalises, so that logarithms stay finite.
func fixWeights(w []float64) {
	var s float64
	for i := range w {
		w[i] = math.Max(w[i], 1e-12)
		s += w[i]
	}
	for i := range w {
		w[i] /= s
	}
}

// RandomStart returns a random mixture of k trees over the variables of
// x, the usual starting point of EM: uniform weights, for every
// component a uniformly random spanning tree with conditional rows drawn
// from a uniform Dirichlet, drawn by a generator seeded by seed (the
// same seed, the same start). It panics if k < 1.
func RandomStart(x *Data, k int, seed uint64) *Mixture {
	return randomStart(rand.New(rand.NewPCG(seed, startStream)), x, k)
}

// randomStart is RandomStart with the generator r.
func randomStart(r *rand.Rand, x *Data, k int) *Mixture {
	if k < 1 {
		panic(fmt.Sprintf("treemix: RandomStart: k = %d components", k))
	}
	p, d := x.p, x.d
	m := &Mixture{States: d, Weights: make([]float64, k)}
	ones := make([]float64, d)
	for i := range ones {
		ones[i] = 1
	}
	for h := range k {
		m.Weights[h] = 1 / float64(k)
		adj := make([][]int, p)
		for _, e := range randomTree(r, p) {
			adj[e[0]] = append(adj[e[0]], e[1])
			adj[e[1]] = append(adj[e[1]], e[0])
		}
		rows := func() []float64 {
			t := make([]float64, d*d)
			for i := range d {
				sample.Dirichlet(r, ones, t[i*d:(i+1)*d])
			}
			return t
		}
		single := make([][]float64, p)
		tabs := make(map[[2]int]*Table)
		for v := range p {
			single[v] = make([]float64, d)
			sample.Dirichlet(r, ones, single[v])
		}
		pair := func(a, b int) *Table {
			k := [2]int{min(a, b), max(a, b)}
			if t, ok := tabs[k]; ok {
				return t
			}
			t := &Table{Vars: []int{k[0], k[1]}, States: d, P: rows()}
			tabs[k] = t
			return t
		}
		m.Nets = append(m.Nets, orient(adj, pairCPT(d, single, pair)))
	}
	return m
}
