package treemix

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// SpectralOptions controls LearnComponents. The zero value (and nil) takes
// the reference node among the isolated nodes of the graph, estimates
// every pair, with witnesses whose separators have at most 4 nodes, and
// seeds the random combinations with 0.
type SpectralOptions struct {
	Options
	// Reference lists the candidate reference nodes u*; empty means the
	// isolated nodes of the graph. The candidate whose view of the
	// hidden variable is best conditioned (the largest r-th singular
	// value of its pair tables with all other nodes) is used.
	Reference []int
	// Isolate removes the edges of the candidates in Reference from the
	// graph (all of them, the one used or not) instead of requiring them
	// to be isolated: an approximation for data with no isolated node.
	Isolate bool
	// EdgesOnly estimates the pairs joined in the graph only, and the
	// Chow–Liu trees are then subgraphs of it: the simplification of
	// Appendix A.1 for mixtures of trees. The default estimates every
	// pair (Algorithm 2).
	EdgesOnly bool
	// MaxSeparator bounds the separator between a target pair and its
	// witness; pairs that need more are skipped. 0 means 4.
	MaxSeparator int
	// MinCount: separator configurations seen fewer than MinCount times
	// are left out of the decomposition (sampled tables only); 0 means
	// 4*d*d.
	MinCount float64
	// Seed seeds the random combinations of the operators whose
	// eigenvectors label the components.
	Seed uint64
}

// Witness records how a target set of variables was decomposed: the
// witness node C and the separator S between the target and C.
type Witness struct {
	C int
	S []int
}

// Components is the spectral estimate of the mixture components: the
// output of LearnComponents. The hidden labels h are the same in
// every table.
type Components struct {
	// Reference is the reference node u*.
	Reference int
	// Weights are the mixing weights P(H = h).
	Weights []float64
	// RefTable[h] is P(Y_u* | H = h).
	RefTable [][]float64
	// Pairs[{a, b}][h] is P(Y_a, Y_b | H = h) as a table over [a b]
	// (a < b), for every pair estimated.
	Pairs map[[2]int][]*Table
	// Singles[h][v] is P(Y_v | H = h): the mean of the marginals of the
	// pairs containing v (nil for a node in no estimated pair, except the
	// reference, whose table is RefTable[h]).
	Singles [][][]float64
	// Witnesses records the witness and separator of every pair
	// decomposed by the eigenvalue method.
	Witnesses map[[2]int]Witness
	// Demixed lists the pairs without a witness (none outside their
	// neighbourhood, or none with a small enough separator), estimated
	// through the reference node alone: once M_{u*|H} is known,
	// P(H, Y_a, Y_b) = M_{u*|H}^+ P(Y_u*, Y_a, Y_b), because Y_u* depends
	// on H alone.
	Demixed [][2]int

	dec *decomposer
}

// decomposer holds what all decompositions share: the reference node,
// the basis U of the range of M_{u*|H}, and the diagonaliser R.
type decomposer struct {
	src      Source
	g        *Graph // with the reference isolated
	r, p, d  int
	ref      int
	u        *mat.Dense // d x r
	rr, rinv *mat.Dense // r x r
	f        *mat.Dense // d x r: P(Y_u* | H)
	fpinv    *mat.Dense // r x d
	quality  []float64  // per node c: sigma_r(U^T M_{u*,c})
	refMarg  []float64
	minCount float64
	maxSep   int
	opts     Options
	rng      *rand.Rand
}

// LearnComponents estimates the mixing weights and the pairwise
// marginals of every component (Algorithm 2 and Procedure 3 of
// Anandkumar et al.) from the tables of src and the union graph g (from
// LearnUnionGraph). nil opts means the defaults; ctx must not be nil.
//
// The reference node u* must be isolated in g (see Reference and
// Isolate). For every target pair {a, b} (the edges of g with
// EdgesOnly, else all pairs) it picks a witness c outside the
// neighbourhoods of a and b and a smallest separator S of {a, b} from c
// (a max-flow), choosing among the witnesses the one that maximises
// q_c d^(-|S|/2), q_c = sigma_r(U^T M_{u*,c}) its view of H. Given
// Y_S = k, Y_u*, Y_c and (Y_a, Y_b) are independent given H: a mixture
// of product distributions. With U the top r left singular vectors of
// [P(Y_u*, Y_j)]_j (one basis for every triplet) and V_k those of
// U^T M_{u*,c,{S;k}} on the right, the observable operators
// C_q = B_q A^{-1}, A = U^T M_{u*,c,{S;k}} V_k and B_q the same with
// (Y_a, Y_b) = q, all equal R diag(P(Y_a, Y_b = q | H, Y_S = k)) R^{-1}
// with one R = U^T M_{u*|H} (up to scale) for every triplet and
// configuration, because Y_u* depends on H alone. R is computed once
// from all the operators and reused for every triplet, which keeps the
// hidden labels consistent: the traceless parts of the operators,
// weighted by the inverse variances of their sampling errors, are
// stacked, their top r-1 principal directions kept, and R is the
// eigenvector matrix of the combination of those directions with the
// widest relative eigenvalue gap among 16 random combinations drawn
// from Seed. Then
// M_{u*|H} = U R (columns scaled to sum to 1), the weights from
// P(Y_u*) = M_{u*|H} P(H), P(H, Y_S = k) from
// P(Y_u*, Y_S = k) = M_{u*|H} P(H, Y_S = k), and
// P(Y_a, Y_b = q, H = h) = sum_k P(H = h, Y_S = k) [R^{-1} C_q R]_hh.
// Configurations seen fewer than MinCount times, or in which A is
// numerically singular, are left out. A pair without a witness within
// MaxSeparator is demixed through the reference alone (see Demixed).
//
// Estimated tables are clipped at zero and renormalised, and tables
// estimated from N samples are smoothed with one pseudo-sample spread
// uniformly, (N p + 1/cells)/(N + 1), so that no probability is zero. It needs d > r
// (ErrFewStates), an isolated reference (ErrNoReference), full-rank
// views and at least one pair with a witness (ErrRankDeficient), and at
// least 3 variables (ErrBadData); an operator with complex eigenvalues
// gives ErrComplexEigen; r < 1, a Reference node out of range or an
// option out of range give ErrBadOption.
func LearnComponents(ctx context.Context, src Source, g *Graph, r int, opts *SpectralOptions) (*Components, error) {
	o := valueOf(opts)
	if err := o.check(); err != nil {
		return nil, err
	}
	if p, _ := src.Dims(); p < 3 {
		return nil, fmt.Errorf("treemix: %w: the data have %d variables; the spectral decomposition needs at least 3 (a reference node and a pair of others)", ErrBadData, p)
	}
	dc, err := newDecomposer(ctx, src, g, r, o)
	if err != nil {
		return nil, err
	}
	p := dc.p
	var targets [][]int
	for a := range p {
		for b := a + 1; b < p; b++ {
			if a == dc.ref || b == dc.ref || (o.EdgesOnly && !dc.g.Has(a, b)) {
				continue
			}
			targets = append(targets, []int{a, b})
		}
	}
	comp := &Components{Reference: dc.ref, Pairs: make(map[[2]int][]*Table), Witnesses: make(map[[2]int]Witness), dec: dc}
	tabs, wits, err := dc.decompose(ctx, targets)
	if err != nil {
		return nil, err
	}
	if dc.rr == nil {
		return nil, fmt.Errorf("%w: no pair has a witness within the separator bound", ErrRankDeficient)
	}
	for i, t := range targets {
		key := [2]int{t[0], t[1]}
		comp.Pairs[key] = tabs[i]
		if wits[i].C >= 0 {
			comp.Witnesses[key] = wits[i]
		} else {
			comp.Demixed = append(comp.Demixed, key)
		}
	}
	comp.Weights, comp.RefTable = dc.weights()
	comp.Singles = make([][][]float64, r)
	for h := range r {
		comp.Singles[h] = make([][]float64, p)
		counts := make([]int, p)
		for _, t := range targets {
			key := [2]int{t[0], t[1]}
			ts := comp.Pairs[key]
			for _, v := range key {
				m := ts[h].Marginal(v).P
				if comp.Singles[h][v] == nil {
					comp.Singles[h][v] = make([]float64, dc.d)
				}
				for s, x := range m {
					comp.Singles[h][v][s] += x
				}
				counts[v]++
			}
		}
		for v, n := range counts {
			if n > 0 {
				for s := range comp.Singles[h][v] {
					comp.Singles[h][v][s] /= float64(n)
				}
			}
		}
		comp.Singles[h][dc.ref] = comp.RefTable[h]
	}
	return comp, nil
}

func newDecomposer(ctx context.Context, src Source, g *Graph, r int, opts SpectralOptions) (*decomposer, error) {
	p, d := src.Dims()
	if r < 1 {
		return nil, fmt.Errorf("treemix: %w: LearnComponents: r = %d components, want at least 1", ErrBadOption, r)
	}
	if d <= r {
		return nil, fmt.Errorf("%w: d = %d, r = %d", ErrFewStates, d, r)
	}
	if g.n != p {
		panic(fmt.Sprintf("treemix: LearnComponents: graph on %d nodes for %d variables", g.n, p))
	}
	g = g.Clone()
	cands := slices.Clone(opts.Reference)
	if len(cands) == 0 {
		cands = g.Isolated()
	}
	for _, v := range cands {
		if v < 0 || v >= p {
			return nil, fmt.Errorf("treemix: %w: SpectralOptions.Reference: node %d out of range for %d variables", ErrBadOption, v, p)
		}
		if g.Degree(v) > 0 {
			if !opts.Isolate {
				return nil, fmt.Errorf("%w: node %d has %d neighbours", ErrNoReference, v, g.Degree(v))
			}
			for _, u := range g.Neighbors(v) {
				g.Remove(u, v)
			}
		}
	}
	if len(cands) == 0 {
		return nil, ErrNoReference
	}
	dc := &decomposer{src: src, g: g, r: r, p: p, d: d, opts: opts.Options, maxSep: opts.MaxSeparator,
		rng: rand.New(rand.NewPCG(opts.Seed, 0x5eed))}
	if dc.maxSep == 0 {
		dc.maxSep = 4
	}
	dc.minCount = opts.MinCount
	if dc.minCount == 0 {
		dc.minCount = float64(4 * d * d)
	}
	if src.Samples() == 0 {
		dc.minCount = 0
	}
	// Pair tables of every candidate with every other node.
	var sets [][]int
	for _, u := range cands {
		for v := range p {
			if v != u {
				sets = append(sets, []int{u, v})
			}
		}
	}
	// The reference view of each candidate, d x (p-1)d, twice (the one
	// being tried and the best so far), and what the SVD of one holds
	// (about two copies of it and a few d x d blocks).
	need := size.Add(size.Float64s(4, d, p-1, d), size.Float64s(4, d, d))
	if err := dc.opts.checkMemory(fmt.Sprintf("the reference views of %d variables with %d states", p, d), need); err != nil {
		return nil, fmt.Errorf("treemix: LearnComponents: %w", err)
	}
	tables, err := src.Joints(ctx, sets)
	if err != nil {
		return nil, err
	}
	bestSigma := -1.0
	var bestW, w *mat.Dense
	var bestS []float64
	for ci, u := range cands {
		if w == nil {
			w = mat.Zeros(d, (p-1)*d)
		}
		for j := range p - 1 {
			t := tables[ci*(p-1)+j]
			for a := range d {
				for b := range d {
					w.Set(a, j*d+b, t.P[a*d+b])
				}
			}
		}
		s, err := singularValues(w)
		if err != nil {
			return nil, err
		}
		if s[r-1] > bestSigma {
			bestSigma, dc.ref, bestS = s[r-1], u, s
			bestW, w = w, bestW // every entry of w is written again
		}
	}
	if !(bestS[r-1] > 1e-12*bestS[0]) {
		return nil, fmt.Errorf("%w: the reference view has singular values %v", ErrRankDeficient, bestS)
	}
	dc.u, err = leftSingular(bestW, r)
	if err != nil {
		return nil, err
	}
	dc.refMarg = make([]float64, d)
	dc.quality = make([]float64, p)
	ci := slices.Index(cands, dc.ref)
	for j := range p - 1 {
		v := j
		if j >= dc.ref {
			v = j + 1
		}
		t := tables[ci*(p-1)+j]
		m := mat.Zeros(d, d)
		for a := range d {
			for b := range d {
				m.Set(a, b, t.P[a*d+b])
				if j == 0 {
					dc.refMarg[a] += t.P[a*d+b]
				}
			}
		}
		var um mat.Dense
		um.MulAT(dc.u, m)
		sv, err := singularValues(&um)
		if err != nil {
			return nil, err
		}
		dc.quality[v] = sv[r-1]
	}
	return dc, nil
}

// plan chooses the witness of a target set among the nodes c outside
// the target's closed neighbourhood (and not the reference): the one
// that maximises q_c d^(-|S|/2), where q_c is the r-th singular value of
// U^T P(Y_u*, Y_c) (how well c sees H) and S the smallest separator of c
// from the target; the sampling error of the decomposition grows like
// the inverse of that score (each of the d^|S| configurations gets a
// share of the samples). Ties go to the smaller node.
func (dc *decomposer) plan(target []int) (Witness, bool) {
	g := dc.g
	type cand struct {
		c       int
		quality float64
		degree  int
	}
	var cs []cand
	for c := range dc.p {
		if c == dc.ref || slices.Contains(target, c) {
			continue
		}
		near := false
		for _, a := range target {
			if g.Has(a, c) {
				near = true
			}
		}
		if !near {
			cs = append(cs, cand{c, dc.quality[c], g.Degree(c)})
		}
	}
	best := Witness{C: -1}
	bestScore := 0.0
	for _, c := range cs {
		sep, ok := g.separator(target, c.c, []int{dc.ref}, dc.maxSep)
		if !ok {
			continue
		}
		score := c.quality / math.Sqrt(float64(pow(dc.d, len(sep))))
		if best.C < 0 || score > bestScore || (score == bestScore && c.c < best.C) {
			best, bestScore = Witness{C: c.c, S: sep}, score
		}
	}
	return best, best.C >= 0
}

// configOps are the observable operators of one target and one
// separator configuration.
type configOps struct {
	pk  float64
	q   float64      // sigma_r(A)/pk: how well the configuration sees H
	mk  []float64    // P(Y_u* = i, Y_S = k)
	ops []*mat.Dense // C_q for every state q of the target
}

// decompose estimates P(Y_A | H = h) for every target A and returns the
// witnesses (C = -1 where none is found: those targets are demixed
// through the reference alone). It computes R first if it is not known
// yet, and returns no tables if no target has a witness then.
func (dc *decomposer) decompose(ctx context.Context, targets [][]int) ([][]*Table, []Witness, error) {
	wits := make([]Witness, len(targets))
	okT := make([]bool, len(targets))
	if err := parallelFor(ctx, len(targets), dc.opts, func(i int) {
		wits[i], okT[i] = dc.plan(targets[i])
	}); err != nil {
		return nil, nil, err
	}
	var sets [][]int
	var idx []int
	for i, t := range targets {
		if okT[i] {
			set := append([]int{dc.ref, wits[i].C}, wits[i].S...)
			sets = append(sets, append(set, t...))
			idx = append(idx, i)
		}
	}
	if len(sets) == 0 && dc.rr == nil {
		return make([][]*Table, len(targets)), wits, nil
	}
	if dc.opts.Progress != nil {
		dc.opts.Progress("spectral tables", 0, len(sets))
	}
	tables, err := dc.src.Joints(ctx, sets)
	if err != nil {
		return nil, nil, err
	}
	ops := make([][]configOps, len(sets))
	errs := make([]error, len(sets))
	if err := parallelFor(ctx, len(sets), dc.opts, func(j int) {
		i := idx[j]
		ops[j], errs[j] = dc.operators(tables[j], len(wits[i].S), len(targets[i]))
	}); err != nil {
		return nil, nil, err
	}
	for _, e := range errs {
		if e != nil {
			return nil, nil, e
		}
	}
	if dc.rr == nil {
		if err := dc.diagonaliser(ops); err != nil {
			return nil, nil, err
		}
	}
	out := make([][]*Table, len(targets))
	for j, i := range idx {
		out[i] = dc.extract(ops[j], targets[i])
	}
	// targets without a witness: demix through the reference
	var rest [][]int
	var restIdx []int
	for i, t := range targets {
		if !okT[i] {
			wits[i].C = -1
			rest = append(rest, append([]int{dc.ref}, t...))
			restIdx = append(restIdx, i)
		}
	}
	if len(rest) > 0 {
		tables, err := dc.src.Joints(ctx, rest)
		if err != nil {
			return nil, nil, err
		}
		for j, i := range restIdx {
			out[i] = dc.demix(tables[j], targets[i])
		}
	}
	return out, wits, nil
}

// operators computes the observable operators of a table over
// [u*, c, S..., A...] for every configuration of S.
func (dc *decomposer) operators(t *Table, ns, na int) ([]configOps, error) {
	d, r := dc.d, dc.r
	nk, nq := pow(d, ns), pow(d, na)
	n := float64(dc.src.Samples())
	var out []configOps
	m := mat.Zeros(d, d)
	for k := range nk {
		m.Zero()
		md := m.RawData()
		for i := range d {
			for j := range d {
				base := ((i*d+j)*nk + k) * nq
				var s float64
				for _, x := range t.P[base : base+nq] {
					s += x
				}
				md[i*d+j] = s
			}
		}
		var pk float64
		mk := make([]float64, d)
		for i := range d {
			for j := range d {
				pk += md[i*d+j]
				mk[i] += md[i*d+j]
			}
		}
		if !(pk > 0) || (n > 0 && pk*n < dc.minCount) {
			continue
		}
		var um mat.Dense
		um.MulAT(dc.u, m) // r x d
		v, err := rightSingular(&um, r)
		if err != nil {
			return nil, err
		}
		var a mat.Dense
		a.Mul(&um, v) // r x r
		sv, err := singularValues(&a)
		if err != nil {
			return nil, err
		}
		if !(sv[r-1] > 1e-12*pk) {
			continue // no view of H in this configuration
		}
		ainv, err := inverse(&a)
		if err != nil {
			continue
		}
		co := configOps{pk: pk, q: sv[r-1] / pk, mk: mk, ops: make([]*mat.Dense, nq)}
		mq := mat.Zeros(d, d)
		for q := range nq {
			mqd := mq.RawData()
			for i := range d {
				for j := range d {
					mqd[i*d+j] = t.P[((i*d+j)*nk+k)*nq+q]
				}
			}
			var b, tmp mat.Dense
			tmp.MulAT(dc.u, mq)
			b.Mul(&tmp, v)
			c := mat.Zeros(r, r)
			c.Mul(&b, ainv)
			co.ops[q] = c
		}
		out = append(out, co)
	}
	return out, nil
}

// diagonaliser sets R, the common eigenvectors of all operators, and
// derives M_{u*|H} = U R (columns scaled to sum to 1).
//
// Every operator is R diag(lambda) R^{-1}, so the operators span (at
// most) r dimensions, the identity among them. The traceless parts of
// all operators, weighted by P(Y_S = k) q^2 (q the conditioning of the
// configuration: these are the inverse variances of their sampling
// errors up to a constant), are stacked and their top r-1 principal
// directions E_1..E_{r-1} kept: this averages the noise of thousands of
// operators. R is the eigenvector matrix of a combination of the E_i,
// the one with the widest relative eigenvalue gap among 16 random
// combinations (Jennrich's method is only as stable as that gap).
func (dc *decomposer) diagonaliser(ops [][]configOps) error {
	r, d := dc.r, dc.d
	r2 := r * r
	gram := mat.Zeros(r2, r2)
	gd := gram.RawData()
	c0 := make([]float64, r2)
	for _, t := range ops {
		for _, co := range t {
			w := co.pk * co.q * co.q
			for _, c := range co.ops {
				tr := c.Trace() / float64(r)
				for i := range r {
					for j := range r {
						c0[i*r+j] = c.At(i, j)
					}
					c0[i*r+i] -= tr
				}
				for a, x := range c0 {
					if x == 0 {
						continue
					}
					row := gd[a*r2 : (a+1)*r2]
					for b, y := range c0 {
						row[b] += w * x * y
					}
				}
			}
		}
	}
	if gram.Trace() == 0 {
		return fmt.Errorf("%w: no configuration sees the hidden variable", ErrRankDeficient)
	}
	basis, err := leftSingular(gram, r-1)
	if err != nil {
		return err
	}
	var vecs *mat.Dense
	bestGap := -1.0
	alpha := make([]float64, r-1)
	comb := mat.Zeros(r, r)
	for try := range 16 {
		var norm float64
		for i := range alpha {
			alpha[i] = dc.rng.NormFloat64()
			if try == 0 {
				alpha[i] = 0
			}
			norm += alpha[i] * alpha[i]
		}
		if try == 0 {
			alpha[0], norm = 1, 1
		}
		comb.Zero()
		for i, a := range alpha {
			for e := range r2 {
				comb.RawData()[e] += a / math.Sqrt(norm) * basis.At(e, i)
			}
		}
		vals, v, err := eigReal(comb)
		if err != nil {
			continue
		}
		gap := math.Inf(1)
		for i := 1; i < r; i++ {
			gap = math.Min(gap, vals[i-1]-vals[i])
		}
		if spread := vals[0] - vals[r-1]; spread > 0 && gap/spread > bestGap {
			bestGap, vecs = gap/spread, v
		}
	}
	if vecs == nil {
		return ErrComplexEigen
	}
	// F = U R, columns scaled to sum to 1.
	var f mat.Dense
	f.Mul(dc.u, vecs)
	for h := range r {
		var s float64
		for i := range d {
			s += f.At(i, h)
		}
		if s == 0 {
			return fmt.Errorf("%w: reference view of component %d sums to zero", ErrRankDeficient, h)
		}
		for i := range d {
			f.Set(i, h, f.At(i, h)/s)
		}
		for i := range r {
			vecs.Set(i, h, vecs.At(i, h)/s)
		}
	}
	dc.rr = vecs
	rinv, err := inverse(vecs)
	if err != nil {
		return fmt.Errorf("%w: diagonaliser is singular", ErrRankDeficient)
	}
	dc.rinv = rinv
	dc.f = &f
	dc.fpinv, err = pseudoInverse(&f)
	return err
}

// extract returns P(Y_A | H = h) for every h.
func (dc *decomposer) extract(ops []configOps, target []int) []*Table {
	r, d := dc.r, dc.d
	nq := pow(d, len(target))
	joint := make([][]float64, r) // P(Y_A = q, H = h)
	for h := range joint {
		joint[h] = make([]float64, nq)
	}
	var tmp, lam mat.Dense
	for _, co := range ops {
		pik := dc.fpinv.MulVec(nil, co.mk) // P(H = h, Y_S = k)
		for q, c := range co.ops {
			tmp.Reset()
			lam.Reset()
			tmp.Mul(dc.rinv, c)
			lam.Mul(&tmp, dc.rr)
			for h := range r {
				joint[h][q] += pik[h] * lam.At(h, h)
			}
		}
	}
	return dc.tables(joint, target)
}

// tables turns the joint estimates P(H = h, Y_A = q), one row per h,
// into the smoothed conditional tables P(Y_A | H = h) over target, the
// smoothing weighted by the samples' share of each component.
func (dc *decomposer) tables(joint [][]float64, target []int) []*Table {
	n := float64(dc.src.Samples())
	out := make([]*Table, dc.r)
	for h := range out {
		var mass float64
		for _, x := range joint[h] {
			mass += math.Max(x, 0)
		}
		out[h] = &Table{Vars: slices.Clone(target), States: dc.d, P: smoothed(joint[h], n*mass)}
	}
	return out
}

// demix returns P(Y_A | H = h) from a table over [u*, A...]:
// P(H, Y_A = q) = M_{u*|H}^+ P(Y_u*, Y_A = q).
func (dc *decomposer) demix(t *Table, target []int) []*Table {
	r, d := dc.r, dc.d
	nq := pow(d, len(target))
	joint := make([][]float64, r)
	for h := range joint {
		joint[h] = make([]float64, nq)
	}
	col := make([]float64, d)
	for q := range nq {
		for i := range d {
			col[i] = t.P[i*nq+q]
		}
		ph := dc.fpinv.MulVec(nil, col)
		for h := range r {
			joint[h][q] = ph[h]
		}
	}
	return dc.tables(joint, target)
}

// weights returns P(H) from P(Y_u*) = M_{u*|H} P(H), and M_{u*|H}.
func (dc *decomposer) weights() ([]float64, [][]float64) {
	w := normalized(dc.fpinv.MulVec(nil, dc.refMarg))
	n := float64(dc.src.Samples())
	ref := make([][]float64, dc.r)
	for h := range ref {
		col := make([]float64, dc.d)
		for i := range col {
			col[i] = dc.f.At(i, h)
		}
		ref[h] = smoothed(col, n*w[h])
	}
	return w, ref
}

// smoothed clips the estimate p at zero and normalises it; for an
// estimate from n (> 0) samples it adds one pseudo-sample spread
// uniformly, (n p + 1/len(p)) / (n + 1), so that no probability of a
// sampled estimate is zero (a zero makes held-out likelihoods -Inf).
func smoothed(p []float64, n float64) []float64 {
	q := normalized(p)
	if n > 0 {
		for i := range q {
			q[i] = (n*q[i] + 1/float64(len(q))) / (n + 1)
		}
	}
	return q
}

// Mixture returns the mixture of Chow–Liu trees of the components: for
// every h the maximum-weight spanning forest of the estimated pairs,
// weighted by their mutual information under P(. | H = h), with the
// reference node an isolated root with table RefTable[h].
func (c *Components) Mixture() *Mixture {
	r, d, p := len(c.Weights), c.dec.d, c.dec.p
	m := &Mixture{States: d, Weights: slices.Clone(c.Weights)}
	for h := range r {
		single := make([][]float64, p)
		for v := range p {
			single[v] = c.Singles[h][v]
			if single[v] == nil {
				single[v] = make([]float64, d) // normalized() makes it uniform
			}
		}
		pair := func(a, b int) *Table {
			if ts, ok := c.Pairs[[2]int{a, b}]; ok {
				return ts[h]
			}
			return nil
		}
		m.Nets = append(m.Nets, ChowLiu(d, single, pair))
	}
	fixWeights(m.Weights)
	return m
}

var _ = math.Abs

// Decompose estimates P(Y_A | H = h) for every component h, for any
// small set A of variables other than the reference node (SpecDecom,
// Procedure 3, with the diagonaliser of c so that the labels match c's):
// with a witness and a separator when there is one within the bound,
// else through the reference alone (the returned witness then has
// C = -1). The tables have d^(|A| + |S| + 2) cells: keep A small.
func (c *Components) Decompose(ctx context.Context, target []int) ([]*Table, Witness, error) {
	dc := c.dec
	seen := make(map[int]bool)
	for _, v := range target {
		if v < 0 || v >= dc.p || v == dc.ref || seen[v] {
			return nil, Witness{}, fmt.Errorf("treemix: Decompose: bad target %v (reference %d)", target, dc.ref)
		}
		seen[v] = true
	}
	tabs, wits, err := dc.decompose(ctx, [][]int{slices.Clone(target)})
	if err != nil {
		return nil, Witness{}, err
	}
	return tabs[0], wits[0], nil
}
