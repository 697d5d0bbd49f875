package treemix

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/moments-go/moments/internal/sample"
	"github.com/moments-go/moments/mat"
)

// Net is a discrete Bayesian network: one component of a Mixture. Node
// v has parents Parents[v] (a tree has at most one parent per node, a
// forest's roots have none) and the conditional table CPT[v], where
// CPT[v][c*d+s] = P(Y_v = s | parents in configuration c) and c is the
// mixed-radix code of the parents' states in the order of Parents[v],
// the first the most significant digit (c = 0 for a root).
type Net struct {
	Parents [][]int
	CPT     [][]float64
}

// NumVars returns the number of nodes.
func (n *Net) NumVars() int { return len(n.Parents) }

// IsForest reports whether every node has at most one parent.
func (n *Net) IsForest() bool {
	for _, ps := range n.Parents {
		if len(ps) > 1 {
			return false
		}
	}
	return true
}

// Graph returns the Markov graph of the network: its moral graph, each
// node joined to its parents and the parents of a node to each other.
// For a forest these are the forest's edges.
func (n *Net) Graph() *Graph {
	g := NewGraph(len(n.Parents))
	for v, ps := range n.Parents {
		for i, a := range ps {
			g.Add(a, v)
			for _, b := range ps[i+1:] {
				g.Add(a, b)
			}
		}
	}
	return g
}

// order returns the nodes in a topological order (parents first), or an
// error if the parent relation has a cycle.
func (n *Net) order() ([]int, error) {
	p := len(n.Parents)
	state := make([]int8, p) // 0 new, 1 on stack, 2 done
	out := make([]int, 0, p)
	var visit func(v int) error
	visit = func(v int) error {
		switch state[v] {
		case 1:
			return fmt.Errorf("the parents of node %d form a cycle", v)
		case 2:
			return nil
		}
		state[v] = 1
		for _, u := range n.Parents[v] {
			if err := visit(u); err != nil {
				return err
			}
		}
		state[v] = 2
		out = append(out, v)
		return nil
	}
	for v := range p {
		if err := visit(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Mixture is a finite mixture of Bayesian networks over p discrete
// variables with States states each: a hidden H = h with probability
// Weights[h], then Y from Nets[h]. The learners of this package return
// mixtures of trees (every Net a forest).
type Mixture struct {
	States  int
	Weights []float64
	Nets    []*Net
}

// Dims returns the number of variables p, of states d and of
// components r.
func (m *Mixture) Dims() (p, d, r int) {
	if len(m.Nets) > 0 {
		p = m.Nets[0].NumVars()
	}
	return p, m.States, len(m.Weights)
}

// Validate checks the shapes and that every table is a probability
// distribution (non-negative, summing to 1 within 1e-9) and every
// network acyclic. A mixture that fails is an error matching ErrBadData
// (LearnEM returns it as is; Exact's tables wrap it).
func (m *Mixture) Validate() error {
	d := m.States
	if d < 1 || d > MaxStates {
		return badMixture("%d states, want 1 to %d", d, MaxStates)
	}
	if len(m.Weights) == 0 || len(m.Weights) != len(m.Nets) {
		return badMixture("%d weights for %d networks", len(m.Weights), len(m.Nets))
	}
	if err := checkDist(m.Weights); err != nil {
		return badMixture("weights: %v", err)
	}
	p := m.Nets[0].NumVars()
	for h, n := range m.Nets {
		if len(n.Parents) != p || len(n.CPT) != p {
			return badMixture("network %d has %d nodes and %d tables, network 0 has %d nodes", h, len(n.Parents), len(n.CPT), p)
		}
		for v, ps := range n.Parents {
			for _, u := range ps {
				if u < 0 || u >= p || u == v {
					return badMixture("network %d: node %d has parent %d", h, v, u)
				}
			}
		}
		if _, err := n.order(); err != nil {
			return badMixture("network %d: %v", h, err)
		}
		for v, ps := range n.Parents {
			if len(n.CPT[v]) != pow(d, len(ps)+1) {
				return badMixture("network %d: table of node %d has %d entries, want %d", h, v, len(n.CPT[v]), pow(d, len(ps)+1))
			}
			for c := 0; c < len(n.CPT[v]); c += d {
				if err := checkDist(n.CPT[v][c : c+d]); err != nil {
					return badMixture("network %d, node %d: %v", h, v, err)
				}
			}
		}
	}
	return nil
}

// badMixture is Validate's error: ErrBadData with what is wrong.
func badMixture(format string, args ...any) error {
	return fmt.Errorf("treemix: %w: invalid mixture: %s", ErrBadData, fmt.Sprintf(format, args...))
}

func checkDist(p []float64) error {
	var s float64
	for _, v := range p {
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("entry %v is not a probability", v)
		}
		s += v
	}
	if math.Abs(s-1) > 1e-9 {
		return fmt.Errorf("entries sum to %v, not 1", s)
	}
	return nil
}

// logComponents sets lp[h] = log P(Y = y, H = h).
func (m *Mixture) logComponents(y []int, lp []float64) {
	d := m.States
	for h, n := range m.Nets {
		s := math.Log(m.Weights[h])
		for v, ps := range n.Parents {
			c := 0
			for _, u := range ps {
				c = c*d + y[u]
			}
			s += math.Log(n.CPT[v][c*d+y[v]])
		}
		lp[h] = s
	}
}

// logSumExp returns log(sum(exp(x))).
func logSumExp(x []float64) float64 {
	mx := math.Inf(-1)
	for _, v := range x {
		mx = math.Max(mx, v)
	}
	if math.IsInf(mx, -1) {
		return mx
	}
	var s float64
	for _, v := range x {
		s += math.Exp(v - mx)
	}
	return mx + math.Log(s)
}

// LogProb returns log P(Y = y), natural logarithm.
func (m *Mixture) LogProb(y []int) float64 {
	lp := make([]float64, len(m.Weights))
	m.logComponents(y, lp)
	return logSumExp(lp)
}

// Posterior writes P(H = h | Y = y) for every h into dst (grown if
// needed) and returns it.
func (m *Mixture) Posterior(y []int, dst []float64) []float64 {
	r := len(m.Weights)
	if cap(dst) < r {
		dst = make([]float64, r)
	}
	dst = dst[:r]
	m.logComponents(y, dst)
	z := logSumExp(dst)
	for h := range dst {
		dst[h] = math.Exp(dst[h] - z)
	}
	return dst
}

// logTables returns the logarithms of the conditional tables; with
// floor, of the tables floored at 1e-300 (EM: a sample impossible under
// every component must not stop the iteration).
func (m *Mixture) logTables(floor bool) [][][]float64 {
	lt := make([][][]float64, len(m.Nets))
	for h, n := range m.Nets {
		lt[h] = make([][]float64, len(n.CPT))
		for v, t := range n.CPT {
			lt[h][v] = make([]float64, len(t))
			for k, x := range t {
				if floor {
					x = math.Max(x, 1e-300)
				}
				lt[h][v][k] = math.Log(x)
			}
		}
	}
	return lt
}

// componentLogs sets out[(i-lo)*r+h] = log P(Y = y_i, H = h) for samples
// lo..hi-1 of x, working variable by variable over the columns.
func (m *Mixture) componentLogs(x *Data, lt [][][]float64, lo, hi int, out []float64) {
	r, d := len(m.Nets), m.States
	n := hi - lo
	code := make([]int, n)
	for h, net := range m.Nets {
		lw := math.Log(m.Weights[h])
		for i := range n {
			out[i*r+h] = lw
		}
		for v, ps := range net.Parents {
			clear(code)
			for _, u := range ps {
				col := x.x[u*x.n+lo : u*x.n+hi]
				for i, s := range col {
					code[i] = code[i]*d + int(s)
				}
			}
			col, t := x.x[v*x.n+lo:v*x.n+hi], lt[h][v]
			for i, s := range col {
				out[i*r+h] += t[code[i]*d+int(s)]
			}
		}
	}
}

// LogLikelihood returns the log-likelihood of the samples of x, the sum
// of log P(Y = y_i) (natural logarithm). It runs in parallel with a
// result independent of the number of workers. It returns an error if x
// does not match the mixture's variables and states (ErrBadData), an
// option is out of range (ErrBadOption) or ctx is cancelled. nil opts
// means the defaults; ctx must not be nil.
func (m *Mixture) LogLikelihood(ctx context.Context, x *Data, opts *Options) (float64, error) {
	o := valueOf(opts)
	if err := o.check(); err != nil {
		return 0, err
	}
	if err := m.matches(x); err != nil {
		return 0, err
	}
	lt := m.logTables(false)
	r := len(m.Nets)
	type acc struct{ ll float64 }
	res, err := reduce(ctx, x.n, o, "log-likelihood", func() *acc { return &acc{} },
		func(a *acc, lo, hi int) {
			buf := make([]float64, (hi-lo)*r)
			m.componentLogs(x, lt, lo, hi, buf)
			for i := 0; i < hi-lo; i++ {
				a.ll += logSumExp(buf[i*r : (i+1)*r])
			}
		},
		func(dst, src *acc) { dst.ll += src.ll },
		func(a *acc) { a.ll = 0 })
	return res.ll, err
}

// Posteriors returns the N x r matrix of P(H = h | Y = y_i). Data that
// do not match the mixture give ErrBadData, options out of range
// ErrBadOption. nil opts means the defaults; ctx must not be nil.
func (m *Mixture) Posteriors(ctx context.Context, x *Data, opts *Options) (*mat.Dense, error) {
	o := valueOf(opts)
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := m.matches(x); err != nil {
		return nil, err
	}
	r := len(m.Nets)
	post := mat.Zeros(x.n, r)
	lt := m.logTables(false)
	rows := chunkRows(max(x.n, 1))
	chunks := (x.n + rows - 1) / rows
	err := parallelFor(ctx, chunks, o, func(c int) {
		lo, hi := c*rows, min((c+1)*rows, x.n)
		buf := post.RawData()[lo*r : hi*r]
		m.componentLogs(x, lt, lo, hi, buf)
		for i := 0; i < hi-lo; i++ {
			row := buf[i*r : (i+1)*r]
			z := logSumExp(row)
			for h := range row {
				row[h] = math.Exp(row[h] - z)
			}
		}
	})
	return post, err
}

func (m *Mixture) matches(x *Data) error {
	p, d, _ := m.Dims()
	if x.p != p || x.d > d {
		return fmt.Errorf("treemix: %w: data has %d variables with %d states, the mixture %d with %d", ErrBadData, x.p, x.d, p, d)
	}
	return nil
}

// Sample draws n samples from the mixture, with a generator seeded by
// seed (the same seed, the same samples), and returns them with their
// hidden components. The mixture must be valid (Validate); Sample
// panics if a network has a cycle.
func (m *Mixture) Sample(n int, seed uint64) (*Data, []int) {
	return m.sample(rand.New(rand.NewPCG(seed, sampleStream)), n)
}

// sample is Sample with the generator r.
func (m *Mixture) sample(r *rand.Rand, n int) (*Data, []int) {
	p, d, _ := m.Dims()
	orders := make([][]int, len(m.Nets))
	for h, net := range m.Nets {
		o, err := net.order()
		if err != nil {
			panic(fmt.Sprintf("treemix: Sample: network %d: %v", h, err))
		}
		orders[h] = o
	}
	alias := sample.NewAlias(m.Weights)
	x := NewData(n, p, d)
	hidden := make([]int, n)
	y := make([]int, p)
	for i := range n {
		h := alias.Draw(r)
		hidden[i] = h
		net := m.Nets[h]
		for _, v := range orders[h] {
			c := 0
			for _, u := range net.Parents[v] {
				c = c*d + y[u]
			}
			y[v] = sample.Categorical(r, net.CPT[v][c*d:(c+1)*d])
			x.x[v*n+i] = uint8(y[v])
		}
	}
	return x, hidden
}

// ComponentMarginal returns the exact joint table P(Y_vars | H = h), by
// variable elimination over the ancestors of vars in network h.
func (m *Mixture) ComponentMarginal(h int, vars []int) *Table {
	d := m.States
	net := m.Nets[h]
	// ancestors of vars
	keep := make([]bool, net.NumVars())
	stack := slices.Clone(vars)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if keep[v] {
			continue
		}
		keep[v] = true
		stack = append(stack, net.Parents[v]...)
	}
	var fs []*factor
	for v, k := range keep {
		if k {
			fs = append(fs, cptFactor(net, v, d))
		}
	}
	return eliminate(d, fs, vars).toTable(vars, d)
}

// cptFactor returns the conditional table of node v as a factor over
// its family, variables in increasing order.
func cptFactor(net *Net, v, d int) *factor {
	fam := append(slices.Clone(net.Parents[v]), v)
	f := &factor{vars: sortedCopy(fam), p: make([]float64, pow(d, len(fam)))}
	t := &Table{Vars: fam, States: d, P: net.CPT[v]}
	// reorder t (family order) into f (sorted order)
	st := make([]int, len(fam)) // stride in f of each family position
	for i, u := range fam {
		s := 1
		for j := len(f.vars) - 1; j > slices.Index(f.vars, u); j-- {
			s *= d
		}
		st[i] = s
	}
	states := make([]int, len(fam))
	idx := 0
	for _, x := range t.P {
		f.p[idx] = x
		for j := len(fam) - 1; j >= 0; j-- {
			states[j]++
			idx += st[j]
			if states[j] < d {
				break
			}
			states[j] = 0
			idx -= d * st[j]
		}
	}
	return f
}

// Marginal returns the exact joint table P(Y_vars) of the mixture.
func (m *Mixture) Marginal(vars []int) *Table {
	out := NewTable(slices.Clone(vars), m.States)
	for h, w := range m.Weights {
		t := m.ComponentMarginal(h, vars)
		for k, v := range t.P {
			out.P[k] += w * v
		}
	}
	return out
}

// UnionGraph returns the union of the components' Markov graphs.
func (m *Mixture) UnionGraph() *Graph {
	p, _, _ := m.Dims()
	g := NewGraph(p)
	for _, n := range m.Nets {
		g.Union(n.Graph())
	}
	return g
}

// Exact returns the Source of the exact marginal tables of m: the
// learners read them exactly as they read empirical frequencies. Its
// Joints returns an error matching ErrBadData if m is not valid (see
// Mixture.Validate: a NaN, a table that is not a distribution).
func Exact(m *Mixture) Source { return &exact{m: m} }

type exact struct {
	m     *Mixture
	check sync.Once
	bad   error
}

func (e *exact) Dims() (p, d int) { p, d, _ = e.m.Dims(); return }
func (e *exact) Samples() int     { return 0 }
func (e *exact) Joints(ctx context.Context, sets [][]int) ([]*Table, error) {
	// A NaN or a table that is not a distribution would give
	// meaningless tables, or a panic on a bad shape.
	e.check.Do(func() {
		if err := e.m.Validate(); err != nil {
			e.bad = fmt.Errorf("treemix: Exact: %w", err)
		}
	})
	if e.bad != nil {
		return nil, e.bad
	}
	out := make([]*Table, len(sets))
	err := parallelFor(ctx, len(sets), Options{}, func(i int) { out[i] = e.m.Marginal(sets[i]) })
	return out, err
}
