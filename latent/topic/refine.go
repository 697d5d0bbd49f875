package topic

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// RefineOptions configures Refine. The zero value gives the documented
// defaults.
type RefineOptions struct {
	// MaxPasses is the most passes of variational EM; 0 means 20.
	MaxPasses int
	// Tol stops the passes once the bound changes by at most Tol times
	// its magnitude from one pass to the next (the relative change of
	// the bound is the convergence criterion); 0 means 1e-4, and a
	// negative Tol runs all MaxPasses passes.
	Tol float64
	// Eta is the pseudo-count added to every word of every topic in the
	// M-step: the parameter of the topics' symmetric Dirichlet prior, or
	// with Point, that prior is Dirichlet(1 + Eta). It keeps every
	// probability positive. 0 means 0.1 (on the Brown corpus at k = 10
	// and 20 it gave a better NPMI than 0.01, 0.3 and 1); it must not be
	// negative.
	Eta float64
	// DocIters bounds the fixed-point iterations of one document's
	// E-step in one pass; 0 means 100.
	DocIters int
	// DocTol ends a document's E-step once the mean absolute change of
	// its gamma per topic is below DocTol; 0 means 1e-3.
	DocTol float64
	// Passes configures the passes over the documents: the goroutines
	// (results never depend on them) and a progress callback called
	// with the stage "refine pass p" (p from 1) and the documents done
	// in that pass.
	Passes moments.Options
	// Point makes the topics point estimates (Blei et al.'s M-step)
	// rather than variational Dirichlet posteriors (the default); see
	// Refine.
	Point bool
	// OnPass, if not nil, is called after every pass with its number
	// (from 1), the bound and its relative change from the previous
	// pass (+Inf after the first): a trace of the objective as it is
	// computed, which RefineReport.Bounds holds once Refine returns. The
	// progress within a pass is Passes.Progress.
	OnPass func(pass int, bound, change float64)
}

func (o *RefineOptions) resolve() (RefineOptions, error) {
	var r RefineOptions
	if o != nil {
		r = *o
	}
	if r.MaxPasses <= 0 {
		r.MaxPasses = 20
	}
	if r.Tol == 0 {
		r.Tol = 1e-4
	}
	if r.Eta == 0 {
		r.Eta = 0.1
	}
	if !(r.Eta > 0) || math.IsInf(r.Eta, 1) {
		return r, fmt.Errorf("topic: Refine: %w: RefineOptions.Eta = %v, want a positive, finite number", ErrBadOption, r.Eta)
	}
	if r.Passes.Workers < 0 {
		return r, fmt.Errorf("topic: Refine: %w: RefineOptions.Passes.Workers = %d, want an integer >= 0", ErrBadOption, r.Passes.Workers)
	}
	if r.DocIters <= 0 {
		r.DocIters = 100
	}
	if r.DocTol <= 0 {
		r.DocTol = 1e-3
	}
	return r, nil
}

// RefineReport describes a run of Refine.
type RefineReport struct {
	// Bounds holds the objective after each pass's E-step: the
	// variational lower bound on the log-likelihood of the documents
	// plus the log-density of the topics under their prior, up to a
	// constant (see Refine);
	// it never decreases from one pass to the next.
	Bounds []float64
	// Converged says whether the passes stopped on Tol rather than
	// MaxPasses.
	Converged bool
}

// refineInitFloor is the weight of the uniform distribution mixed into
// the starting topics with Point, so that no word starts with
// probability 0 in every topic.
const refineInitFloor = 1e-6

// Refine improves an LDA model, such as the spectral estimate of LDA, by
// passes of batch variational EM over the documents of src, keeping
// Alpha fixed. Each document d has a variational Dirichlet gamma_d over
// its topic proportions; a pass runs, for every document, the E-step
//
//	phi_wj ∝ b_wj exp(digamma(gamma_dj)),  gamma_dj = alpha_j + sum_w c_dw phi_wj
//
// to a fixed point (from the document's gamma of the previous pass, or
// alpha_j + len/k in the first), then an M-step that sets the topics
// from the expected word counts s_wj = sum_d c_dw phi_dwj. By default the
// topics have a variational posterior Dirichlet(lambda_j) under a
// symmetric Dirichlet(Eta) prior (the batch variational Bayes of
// Hoffman, Blei and Bach, "Online Learning for Latent Dirichlet
// Allocation", 2010, which scikit-learn's batch learner runs):
//
//	b_wj = exp(digamma(lambda_wj) - digamma(sum_w lambda_wj)),  M-step lambda_wj = Eta + s_wj,
//
// lambda starts as Eta plus r's topics times the expected tokens of each
// topic (all tokens times alpha_j / sum alpha), and the topics returned
// are the posterior means, lambda_j normalised. With Point, the topics
// are point estimates as in Blei, Ng and Jordan ("Latent Dirichlet
// Allocation", 2003, section 5), the MAP estimate under a Dirichlet(1 +
// Eta) prior: b = beta, M-step beta_wj ∝ Eta + s_wj, starting from r's
// topics mixed with 1e-6 of the uniform distribution.
//
// The objective is the evidence lower bound sum_d L_d(gamma_d, b) plus the
// terms of the topics: with Point the log-density of beta under its prior
// without its constant, Eta sum_wj log beta_wj; by default E[log p(beta)]
// - E[log q(beta)] under Dirichlet(lambda). With phi at its optimum for
// gamma and E[log theta_j] = digamma(gamma_j) - digamma(sum gamma),
//
//	L_d = sum_w c_w log(sum_j b_wj exp(E[log theta_j]))
//	    + lgamma(sum alpha) - sum lgamma(alpha_j) - lgamma(sum gamma) + sum lgamma(gamma_j)
//	    + sum_j (alpha_j - gamma_j) E[log theta_j].
//
// Every step increases the objective, so the bounds are non-decreasing.
// The passes stop when the bound's relative change falls to Tol or after
// MaxPasses.
//
// A topic leaves a document's E-step for the rest of that pass once its
// increment of gamma_j, e_j sum_w c_w beta_wj / z_w with e_j =
// exp(E[log theta_j]), falls below 1e-30: every phi_wj is then below
// 1e-30 too, far under the rounding of z_w, so its gamma_j (alpha_j plus
// that increment) is kept and its expected counts, which would add less
// than 1e-30 per word, are left out. With a small alpha most topics of
// most documents leave after the first iteration (e_j ~ 1e-44 for gamma_j
// near alpha_j = 0.01), which roughly halves the E-step's work. The
// rule is a heuristic: a topic that has left is not looked at again, so
// if the other topics' z_w later fell by many orders of magnitude (topic
// rows with extremely small entries for every word of the document) the
// exact E-step could have brought it back. On a generated corpus where
// every document drops topics, the result has the same bits with the
// rule as without it.
//
// Refine uses no random numbers: its result depends on r and src alone,
// with the same bits for any number of workers (the documents are cut
// into chunks by their number alone, and the chunks' bounds and each
// document's expected counts are added in document order). It stores k
// numbers per document, three n x k matrices (the topics, lambda without
// Point, and the expected counts) and, per chunk in flight (at most twice the workers),
// the chunk's expected counts for its documents' words and remaining
// topics. The returned LDAResult is r with the refined Topics (r's other
// fields, which describe the spectral step, are kept). ctx must not be
// nil. An r that is not a valid LDA model is an error matching ErrModel,
// a bad option one matching ErrBadOption.
func Refine(ctx context.Context, src moments.Source, r *LDAResult, opts *RefineOptions) (*LDAResult, *RefineReport, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, nil, err
	}
	if r == nil || r.Topics == nil || r.Alpha == nil {
		return nil, nil, fmt.Errorf("%w: Refine needs an LDA model (Topics and Alpha)", ErrModel)
	}
	n, k := r.Topics.Dims()
	if len(r.Alpha) != k {
		return nil, nil, fmt.Errorf("%w: Refine: %d alphas for %d topics", ErrModel, len(r.Alpha), k)
	}
	for j, a := range r.Alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			return nil, nil, fmt.Errorf("%w: Refine: alpha[%d] = %v: want a positive, finite number", ErrModel, j, a)
		}
	}
	if v := src.VocabSize(); v > n {
		return nil, nil, fmt.Errorf("%w: Refine: the documents have %d words, the model %d", ErrModel, v, n)
	}
	beta := r.Topics.Clone()
	var lambda *mat.Dense // without Point
	var kl float64        // topicKL(lambda, beta) without Point
	col := make([]float64, n)
	for j := 0; j < k; j++ {
		beta.Col(col, j)
		var s float64
		for i, v := range col {
			if !(v >= 0) || math.IsInf(v, 1) {
				return nil, nil, fmt.Errorf("%w: Refine: topic %d, word %d: %v is not a probability", ErrModel, j, i, v)
			}
			s += v
		}
		if !(s > 0) {
			return nil, nil, fmt.Errorf("%w: Refine: topic %d is zero", ErrModel, j)
		}
		for i, v := range col {
			col[i] = (1-refineInitFloor)*v/s + refineInitFloor/float64(n)
		}
		beta.SetCol(j, col)
	}
	if !o.Point {
		// Start lambda from the spectral topics with the expected number
		// of tokens of each topic, tokens alpha_j / sum alpha.
		var tokens, a0 float64
		src.Range(0, src.NumDocs(), func(_ int, d moments.Doc) { tokens += float64(d.Len()) })
		for _, a := range r.Alpha {
			a0 += a
		}
		lambda = mat.Zeros(n, k)
		for i := 0; i < n; i++ {
			dst := lambda.RawRow(i)
			for j, b := range beta.RawRow(i) {
				dst[j] = o.Eta + b*tokens*r.Alpha[j]/a0
			}
		}
		kl = expElogKL(beta, lambda, o.Eta)
	}

	docs := src.NumDocs()
	gammas := make([]float64, docs*k)
	src.Range(0, docs, func(i int, d moments.Doc) {
		l := float64(d.Len())
		for j, a := range r.Alpha {
			gammas[i*k+j] = a + l/float64(k)
		}
	})
	alphaTerm := lgammaSum(r.Alpha)
	workers := o.Passes.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	size := max(16, (docs+255)/256)
	stats := mat.Zeros(n, k)
	var pool []*refineAcc
	rep := &RefineReport{}
	prev := math.Inf(-1)
	for pass := 1; pass <= o.MaxPasses; pass++ {
		// Each chunk keeps, per document, its expected counts c_w phi_wj
		// for its words and the topics left in its E-step; the merge,
		// which runs in document order, adds them to stats, so that the
		// sums are the same for any number of workers and no worker
		// holds an n x k matrix.
		used := 0
		acc, err := par.Reduce(ctx, docs, size, workers, par.Stage(o.Passes.Progress, fmt.Sprintf("refine pass %d", pass)),
			func() *refineAcc {
				// par.Reduce asks under its lock; the accumulators (and
				// their grown buffers) serve every pass.
				if used == len(pool) {
					pool = append(pool, &refineAcc{s: newEStepScratch(k)})
				}
				a := pool[used]
				used++
				a.reset()
				return a
			},
			func(a *refineAcc, lo, hi int) {
				src.Range(lo, hi, func(i int, d moments.Doc) {
					g := gammas[i*k : (i+1)*k]
					a.s.gather(beta, d)
					a.s.estep(r.Alpha, d, g, o.DocIters, o.DocTol)
					a.bound += a.s.docBound(r.Alpha, alphaTerm, d, g)
					a.keep(d)
				})
			},
			func(dst, src *refineAcc) {
				dst.bound += src.bound
				src.addCounts(stats)
			},
			func(a *refineAcc) { a.reset() })
		if err != nil {
			return nil, nil, err
		}
		var bound float64
		if !o.Point {
			bound = acc.bound + kl
		} else {
			bound = acc.bound + topicPrior(beta, o.Eta)
		}
		change := math.Inf(1)
		if pass > 1 {
			change = math.Abs(bound-prev) / math.Abs(prev)
		}
		rep.Bounds = append(rep.Bounds, bound)
		if o.OnPass != nil {
			o.OnPass(pass, bound, change)
		}
		converged := o.Tol > 0 && change <= o.Tol
		if !o.Point {
			unnormalise(lambda, stats, o.Eta)
			if pass < o.MaxPasses && !converged {
				// After the last pass only lambda's means are needed.
				kl = expElogKL(beta, lambda, o.Eta)
			}
		} else {
			mstep(beta, stats, o.Eta)
		}
		stats.Zero()
		if converged {
			rep.Converged = true
			break
		}
		prev = bound
	}
	if !o.Point {
		mstep(beta, lambda, 0) // the posterior means
	}
	out := *r
	out.Topics = beta
	return &out, rep, nil
}

// refineAcc holds one chunk's part of the bound and, for each of its
// documents in order, its expected word counts c_w phi_wj for the topics
// that stayed in its E-step (see estepScratch.docBound).
type refineAcc struct {
	bound  float64
	s      *estepScratch
	words  []int32   // the documents' word ids, one after the other
	topics []int     // each document's live topics
	lens   [][2]int  // per document: its words and its live topics
	phi    []float64 // per document: live x words counts, topic-major
}

// keep appends document d's expected counts (in a.s) to a.
func (a *refineAcc) keep(d moments.Doc) {
	m, live := len(d.Words), a.s.live
	a.words = append(a.words, d.Words...)
	a.topics = append(a.topics, a.s.perm[:live]...)
	a.lens = append(a.lens, [2]int{m, live})
	a.phi = append(a.phi, a.s.phi[:live*m]...)
}

// addCounts adds the expected counts of a's documents, in order, to
// stats.
func (a *refineAcc) addCounts(stats *mat.Dense) {
	var w0, j0, f0 int
	for _, l := range a.lens {
		m, live := l[0], l[1]
		addCounts(stats, a.words[w0:w0+m], a.topics[j0:j0+live], a.phi[f0:f0+live*m])
		w0, j0, f0 = w0+m, j0+live, f0+live*m
	}
}

// addCounts adds phi[p*m+t] to stats[words[t]][topics[p]].
func addCounts(stats *mat.Dense, words []int32, topics []int, phi []float64) {
	m := len(words)
	data, ld := stats.RawData(), stats.Stride()
	for t, w := range words {
		dst := data[int(w)*ld : int(w)*ld+ld]
		for p, j := range topics {
			dst[j] += phi[p*m+t]
		}
	}
}

// reset empties a.
func (a *refineAcc) reset() {
	a.bound = 0
	a.words, a.topics, a.lens, a.phi = a.words[:0], a.topics[:0], a.lens[:0], a.phi[:0]
}

type estepScratch struct {
	expPsi, next []float64
	// block holds the document's m rows of beta transposed, k x m
	// (topic-major): block[j*m+t] = beta[w_t][j], so that both products
	// of an E-step iteration run over rows of m contiguous numbers.
	block []float64
	z, u  []float64 // per word of the document
	c     []float64 // the document's counts
	// perm[p] is the topic of the block's row p (estep reorders them);
	// the first live rows are the topics still in the E-step. spare
	// and spareTopics are work space for the reordering.
	perm        []int
	live        int
	phi         []float64 // expected counts, live x m (docBound)
	spare       []float64
	spareTopics []int
}

func newEStepScratch(k int) *estepScratch {
	return &estepScratch{expPsi: make([]float64, k), next: make([]float64, k)}
}

// gather copies document d's rows of beta into s.block, transposed, and
// its counts into s.c.
func (s *estepScratch) gather(beta *mat.Dense, d moments.Doc) {
	_, k := beta.Dims()
	m := len(d.Words)
	s.block = slices.Grow(s.block[:0], m*k)[:m*k]
	s.z = slices.Grow(s.z[:0], m)[:m]
	s.u = slices.Grow(s.u[:0], m)[:m]
	s.c = slices.Grow(s.c[:0], m)[:m]
	data, ld := beta.RawData(), beta.Stride()
	for t, w := range d.Words {
		row := data[int(w)*ld : int(w)*ld+k]
		for j, b := range row {
			s.block[j*m+t] = b
		}
		s.c[t] = float64(d.Counts[t])
	}
	s.perm = s.perm[:0]
	for j := 0; j < k; j++ {
		s.perm = append(s.perm, j)
	}
	s.live = k
}

// estep runs at most iters fixed-point iterations of the E-step of
// document d from gamma, which it updates, and returns how many it ran:
// each sets gamma_j = alpha_j + sum_w c_w phi_wj with phi_w ∝ beta_w .*
// exp(digamma(gamma)), and the iterations stop once the mean absolute
// change of gamma is below tol. Words that every topic gives probability
// 0 are ignored.
func estep(beta *mat.Dense, alpha []float64, d moments.Doc, gamma []float64, iters int, tol float64, s *estepScratch) int {
	s.gather(beta, d)
	return s.estep(alpha, d, gamma, iters, tol)
}

// refineDead is the share below which a topic leaves a document's
// E-step: once e_j sum_w (c_w / z_w) beta_wj, the topic's increment of
// gamma_j, falls below it, every word's phi_wj (at most that increment)
// is below it too, 14 orders of magnitude under the rounding of z_w.
var refineDead = 1e-30 // a variable only so that a test can turn it off

// estep is the package-level estep on the block of d that s.gather
// stored. It permutes the rows of s.block: on return s.perm[p] is the
// topic of row p.
func (s *estepScratch) estep(alpha []float64, d moments.Doc, gamma []float64, iters int, tol float64) int {
	k := len(gamma)
	m := len(d.Words)
	// gamma_j = alpha_j + e_j sum_w (c_w / z_w) beta_wj with e_j =
	// exp(digamma(gamma_j)) and z_w = sum_j beta_wj e_j: with B^T the
	// k x m block, z = (B^T)^T e and the sum is B^T u with u_w = c_w /
	// z_w, two matrix-vector products per iteration whose rows are m
	// long (the SIMD kernels run along them), on a block that stays in
	// cache.
	//
	// A topic whose increment e_j sum_w u_w beta_wj falls below
	// refineDead (with a small alpha, most topics of most documents: for
	// gamma_j near alpha_j = 0.01, e_j = exp(digamma(0.01)) ~ 1e-44)
	// leaves the iterations of this document: its row moves behind the
	// live ones (the live rows keep their order) and its gamma_j, alpha_j
	// plus that increment, stays. Its terms would change no z_w by more
	// than refineDead relative and gamma_j by less than refineDead.
	live := k
	defer func() { s.live = live }()
	for it := 1; it <= iters; it++ {
		for p, j := range s.perm[:live] {
			s.expPsi[p] = expDigamma(gamma[j])
		}
		if m > 0 {
			kernels.Gemv(true, live, m, 1, s.block, m, s.expPsi, 0, s.z)
			divide(s.u[:m], s.c[:m], s.z[:m])
			kernels.Gemv(false, live, m, 1, s.block, m, s.u, 0, s.next)
		} else {
			clear(s.next[:live])
		}
		var change float64
		dead := false
		for p, j := range s.perm[:live] {
			inc := s.expPsi[p] * s.next[p]
			g := alpha[j] + inc
			change += math.Abs(g - gamma[j])
			gamma[j] = g
			dead = dead || inc < refineDead
		}
		if change/float64(k) < tol {
			return it
		}
		if dead {
			live = s.retire(live, m)
		}
	}
	return iters
}

// divide sets u[t] = c[t] / z[t], or 0 where z[t] is not positive. It
// takes the z four at a time with one division, the reciprocal of their
// product, and multiplications (a division costs several
// multiplications), so u[t] is within 3 ulps of c[t] / z[t]; groups
// with a z outside [2^-250, 2^250] (where the product could leave the
// normal range), and the last m%4, are divided one by one.
func divide(u, c, z []float64) {
	m := len(z)
	u, c = u[:m], c[:m]
	t := 0
	for ; t+4 <= m; t += 4 {
		z0, z1, z2, z3 := z[t], z[t+1], z[t+2], z[t+3]
		if !(inRecip(z0) && inRecip(z1) && inRecip(z2) && inRecip(z3)) {
			for i := t; i < t+4; i++ {
				u[i] = 0
				if z[i] > 0 {
					u[i] = c[i] / z[i]
				}
			}
			continue
		}
		a, b := z0*z1, z2*z3
		inv := 1 / (a * b)
		ia, ib := inv*b, inv*a // 1/a, 1/b
		u[t] = c[t] * (ia * z1)
		u[t+1] = c[t+1] * (ia * z0)
		u[t+2] = c[t+2] * (ib * z3)
		u[t+3] = c[t+3] * (ib * z2)
	}
	for ; t < m; t++ {
		u[t] = 0
		if z[t] > 0 {
			u[t] = c[t] / z[t]
		}
	}
}

// inRecip reports whether z is in [2^-250, 2^250], where divide may
// take it in a product of four.
func inRecip(z float64) bool { return z >= 0x1p-250 && z <= 0x1p250 }

// retire moves the rows of the block whose increment (s.expPsi[p] *
// s.next[p]) is below refineDead behind the other live rows, keeping
// both groups in order, and returns the number of live rows left.
func (s *estepScratch) retire(live, m int) int {
	q := 0
	s.spare = s.spare[:0]
	s.spareTopics = s.spareTopics[:0]
	for p := 0; p < live; p++ {
		if s.expPsi[p]*s.next[p] < refineDead {
			s.spare = append(s.spare, s.block[p*m:(p+1)*m]...)
			s.spareTopics = append(s.spareTopics, s.perm[p])
			continue
		}
		if q != p {
			copy(s.block[q*m:(q+1)*m], s.block[p*m:(p+1)*m])
			s.perm[q] = s.perm[p]
		}
		q++
	}
	copy(s.block[q*m:live*m], s.spare)
	copy(s.perm[q:live], s.spareTopics)
	return q
}

// docBound returns L_d of Refine for document d at gamma (with phi at its
// optimum for gamma) and adds c_w phi_w to row w of stats for each word
// w of d. alphaTerm is lgamma(sum alpha) - sum lgamma(alpha_j).
func docBound(beta *mat.Dense, alpha []float64, alphaTerm float64, d moments.Doc, gamma []float64, stats *mat.Dense, s *estepScratch) float64 {
	s.gather(beta, d)
	ll := s.docBound(alpha, alphaTerm, d, gamma)
	addCounts(stats, d.Words, s.perm[:s.live], s.phi)
	return ll
}

// docBound is the package-level docBound on the block of d that
// s.gather stored (its rows in the order s.perm), for the first s.live
// topics of s.perm, which the E-step left in: it stores the expected
// counts c_w phi_wj = (c_w / z_w) beta_wj exp(E[log theta_j]) of those
// topics in s.phi (s.live x m, in the order of s.perm) instead of adding
// them anywhere. The other topics' shares phi_wj are below refineDead.
func (s *estepScratch) docBound(alpha []float64, alphaTerm float64, d moments.Doc, gamma []float64) float64 {
	m, live := len(d.Words), s.live
	var g0 float64
	for j, g := range gamma {
		s.expPsi[j] = math.Exp(digamma(g))
		g0 += g
	}
	psi0 := digamma(g0)
	s.phi = slices.Grow(s.phi[:0], live*m)[:live*m]
	if m > 0 {
		for p, j := range s.perm[:live] {
			s.next[p] = s.expPsi[j]
		}
		kernels.Gemv(true, live, m, 1, s.block, m, s.next, 0, s.z)
	}
	// sum_w c_w (log z_w - psi0) = log prod_w z_w^c_w - psi0 sum_w c_w,
	// the product accumulated by logProd (counts above 4 by a logarithm).
	var ll, tokens float64
	prod := newLogProd()
	for t, z := range s.z {
		if !(z > 0) {
			s.u[t] = 0
			continue
		}
		c := s.c[t]
		tokens += c
		switch {
		case c <= 4:
			for range int(c) {
				prod.mul(z)
			}
		default:
			ll += c * math.Log(z)
		}
		s.u[t] = c / z
	}
	ll += prod.log() - psi0*tokens
	for p, j := range s.perm[:live] {
		e, row, dst := s.expPsi[j], s.block[p*m:(p+1)*m], s.phi[p*m:(p+1)*m]
		for t, u := range s.u {
			dst[t] = u * row[t] * e
		}
	}
	lg0, _ := math.Lgamma(g0)
	ll += alphaTerm - lg0
	for j, g := range gamma {
		lg, _ := math.Lgamma(g)
		ll += lg + (alpha[j]-g)*(digamma(g)-psi0)
	}
	return ll
}

// lgammaSum returns lgamma(sum a) - sum lgamma(a_j), the log normaliser
// of a Dirichlet(a).
func lgammaSum(a []float64) float64 {
	var s, l float64
	for _, v := range a {
		s += v
		lv, _ := math.Lgamma(v)
		l += lv
	}
	ls, _ := math.Lgamma(s)
	return ls - l
}

// topicPrior returns the log-density of the topics (columns of beta)
// under independent symmetric Dirichlet(1 + eta) priors, without its
// normalising constant: eta times the sum of the logs of the entries.
func topicPrior(beta *mat.Dense, eta float64) float64 {
	n, _ := beta.Dims()
	var s float64
	for i := 0; i < n; i++ {
		for _, b := range beta.RawRow(i) {
			s += math.Log(b)
		}
	}
	return eta * s
}

// mstep sets each topic (column of beta) to its expected word counts
// plus eta, normalised.
func mstep(beta, stats *mat.Dense, eta float64) {
	n, k := beta.Dims()
	sums := make([]float64, k)
	for i := 0; i < n; i++ {
		for j, v := range stats.RawRow(i) {
			sums[j] += v + eta
		}
	}
	for i := 0; i < n; i++ {
		dst, row := beta.RawRow(i), stats.RawRow(i)
		for j, v := range row {
			dst[j] = (v + eta) / sums[j]
		}
	}
}

// unnormalise sets lambda to stats + eta.
func unnormalise(lambda, stats *mat.Dense, eta float64) {
	n, _ := lambda.Dims()
	for i := 0; i < n; i++ {
		dst := lambda.RawRow(i)
		for j, v := range stats.RawRow(i) {
			dst[j] = v + eta
		}
	}
}

// expElogKL sets eb to exp(E[log beta]) under Dirichlet(lambda_j) for
// each column j, exp(digamma(lambda_wj) - digamma(sum_w lambda_wj)), and
// returns the terms of the evidence lower bound (without Point) that
// involve the topics: E[log p(beta | eta)] - E[log q(beta | lambda)],
// summed over the topics,
//
//	sum_j [lgamma(n eta) - n lgamma(eta) - lgamma(sum_w lambda_wj)]
//	    + sum_wj [lgamma(lambda_wj) + (eta - lambda_wj) E[log beta_wj]].
//
// One pass over lambda gives both, with digamma and log Gamma from one
// shift (digammaLgamma).
func expElogKL(eb, lambda *mat.Dense, eta float64) float64 {
	n, k := lambda.Dims()
	sums := make([]float64, k)
	for i := 0; i < n; i++ {
		for j, v := range lambda.RawRow(i) {
			sums[j] += v
		}
	}
	lgEta, _ := math.Lgamma(eta)
	lgNEta, _ := math.Lgamma(float64(n) * eta)
	var s float64
	for j, v := range sums {
		lg, _ := math.Lgamma(v)
		s += lgNEta - float64(n)*lgEta - lg
		sums[j] = digamma(v)
	}
	// Entries equal to eta (words that no document gave the topic more
	// than a rounding error of eta, often about half of them) take their
	// values from a table per topic: the same numbers, computed once.
	psiEta, lgEtaS := digammaLgamma(eta)
	// log Gamma(v) = log Gamma(v + 10) - log p(v) below 10: the log p
	// are summed as the logarithm of their product.
	shifts := newLogProd()
	ebEta := make([]float64, k)
	for j, v := range sums {
		ebEta[j] = math.Exp(psiEta - v)
	}
	// The terms are summed by rows, the rows in blocks of 32, the
	// blocks into s, so that rounding errors grow with the number of
	// blocks rather than of entries.
	var block float64
	var atEta int
	for i := 0; i < n; i++ {
		dst := eb.RawRow(i)
		var row float64
		for j, v := range lambda.RawRow(i) {
			if v == eta {
				dst[j] = ebEta[j]
				atEta++
				continue
			}
			psi, lgy, p := digammaLgammaSplit(v)
			elog := psi - sums[j]
			dst[j] = math.Exp(elog)
			row += lgy + (eta-v)*elog
			shifts.mul(p)
		}
		block += row
		if i%32 == 31 {
			s += block
			block = 0
		}
	}
	return s + block + float64(atEta)*lgEtaS - shifts.log()
}
