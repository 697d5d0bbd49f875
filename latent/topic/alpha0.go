package topic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

// Alpha0Grid is the grid of alpha0 that SelectAlpha0 tries when given
// none.
var Alpha0Grid = []float64{0.1, 0.3, 1, 3}

// Alpha0Score is the result of one alpha0 of SelectAlpha0.
type Alpha0Score struct {
	Alpha0 float64
	// LogLik is the document-completion log-likelihood per token of the
	// validation documents under the spectral model learned with Alpha0
	// (see SelectAlpha0); -Inf when learning failed.
	LogLik float64
	// Err is the error of learning with Alpha0, if any.
	Err error
	// Basis holds orthonormal columns, one row per word of train's
	// vocabulary: the Ritz vectors of the Pairs of Alpha0 in the common
	// basis (see SelectAlpha0), in decreasing order of Ritz value,
	// followed by the rest of the eigensolver's block made orthogonal to
	// them; nil when learning failed. As Options.Eigen.Start it
	// warm-starts LearnLDA with Alpha0 on a corpus of the same
	// vocabulary, such as the one SplitAlpha0 split.
	Basis *mat.Dense
}

// SplitAlpha0 splits the training corpus c into the documents fit and
// valid on which SelectAlpha0 chooses alpha0 when alpha0 is not given:
// a seeded random 10% of the documents (rounded,
// at most 2000) are valid and the next 90% (at most 20000) are fit, each
// in the order of c. With too few documents to make both non-empty it
// returns nil, nil. The same c and seed give the same split.
func SplitAlpha0(c *moments.Corpus, seed uint64) (fit, valid *moments.Corpus) {
	const maxFit, maxValid = 20000, 2000
	docs := c.NumDocs()
	nv := min((docs+5)/10, maxValid)
	nf := min(docs-nv, maxFit)
	if nv == 0 || nf == 0 {
		return nil, nil
	}
	perm := rand.New(rand.NewPCG(seed+1, 0xa1fa0)).Perm(docs)
	pick := func(p []int) *moments.Corpus {
		p = slices.Clone(p)
		slices.Sort(p)
		return c.Subset(p)
	}
	return pick(perm[nv : nv+nf]), pick(perm[:nv])
}

// SelectAlpha0 chooses the sum of the Dirichlet parameters of LDA from
// the data: for each alpha0 of grid (nil means Alpha0Grid) it learns a
// spectral model of k topics from train and scores it by the
// document-completion log-likelihood per token of the documents of valid
// (which should be distinct from train): each document's tokens, taken
// in the order of their word ids, go alternately to an observed half,
// from which Model.Infer estimates the topic proportions (with 20
// iterations), and an evaluated half, scored as Model.LogLikelihood scores words (topics
// mixed with SmoothFloor of the uniform distribution). Scoring the words
// the proportions were fitted to would favour ever smaller alpha0. It
// returns the alpha0 with the highest score (the smaller alpha0 on a
// tie) and every score. An alpha0 whose learning fails (most often a
// WhiteningError) is skipped; if all fail, the error joins theirs. ctx
// must not be nil.
//
// The fits share one common basis, so that the grid costs about one
// LearnLDA. The Pairs of two alpha0 differ only by a multiple of
// M1 M1^T, and their whitened third moments by terms in M1 and
// E[x1 x2^T]. SelectAlpha0 therefore makes one eigensolve, of the Pairs
// of the reference alpha0 (the grid value whose a0/(a0+1), the weight of
// M1 M1^T, lies nearest the middle of the grid's range of weights), to
// the relative residual 10 SampleTol(documents of train) =
// 0.1/sqrt(documents), a tenth of the sampling error of the moments,
// when Options.Eigen.Tol is 0, started from Options.Eigen.Start if set
// and otherwise from a random sketch of the documents, sum_d x_d g_d^T
// (x_d a document's word frequencies, g_d Gaussian, drawn from
// Options.Seed and d), whose span leans toward the top eigenvectors
// already (on Brown and SOTU it saved up to two products of this solve
// and of the final LearnLDA warm-started from it), with an oversampling of max(5, k/4) when Options.Eigen sets none (so
// loose a tolerance takes few steps, and a narrower block makes each
// cheaper: on Brown and SOTU, k = 10 and 20, the scores moved by at most
// 0.04 nats per token, most by less than 0.01, from those of the default
// max(10, k/2) and ranked alpha0 the same, for 10 to 18% less time). Its
// top k eigenvectors and M1, made orthonormal, are the common basis Q
// (n x m, m = k+1, or k when M1 lies in their span), in which one pass
// over train gives the raw moments Q^T E[x1 x2^T] Q and
// E[x1(x)x2(x)x3](Q, Q, Q). Each alpha0 then takes the Rayleigh-Ritz
// approximation of its Pairs in span Q: the top k eigenpairs U = Q Y,
// D of Q^T Pairs Q (m x m), whitened by W = Q Y D^{-1/2}, whose whitened
// third moment follows from the moments in Q by algebra (see
// moments.DocMoments.WhitenedRaw); the tensor is decomposed and the
// topics un-whitened and normalised as LearnLDA does. For the reference
// alpha0 the fit is, to the eigensolve's residual, LearnLDA's with
// Eigen.Tol set to that tolerance; for the others the
// eigenpairs are approximate, with relative residuals of a few 1e-3 at
// most on the Brown and State of the Union corpora (k = 10 and 20, grid
// 0.1 to 3), far below the sampling error of order 1/sqrt(documents) of
// the moments themselves. The scores therefore rank alpha0 as separate
// fits would, without touching the documents again; LearnLDA with the
// chosen alpha0 then makes the exact fit.
func SelectAlpha0(ctx context.Context, train, valid moments.Source, k int, grid []float64, opts *Options) (float64, []Alpha0Score, error) {
	if grid == nil {
		grid = Alpha0Grid
	}
	if len(grid) == 0 {
		return 0, nil, fmt.Errorf("topic: SelectAlpha0: %w: empty grid", ErrBadOption)
	}
	if err := opts.check(); err != nil {
		return 0, nil, err
	}
	o := opts.resolve()
	n := train.VocabSize()
	src, old, err := o.prepare(train, k)
	if err != nil {
		return 0, nil, err
	}
	scores := make([]Alpha0Score, len(grid))
	for i, a0 := range grid {
		scores[i] = Alpha0Score{Alpha0: a0, LogLik: math.Inf(-1)}
		if !(a0 > 0) || math.IsInf(a0, 1) {
			scores[i].Err = fmt.Errorf("%w: alpha0 = %v, want a positive, finite number", ErrBadOption, a0)
		}
	}
	ref := refAlpha0(grid)
	if ref < 0 {
		return 0, scores, noAlpha0(grid, scores)
	}
	dm, err := moments.NewDocMoments(ctx, src, moments.LDA, grid[ref], &o.Passes)
	if err != nil {
		return 0, nil, err
	}
	eo := *WithSampleTol(&o, src.NumDocs()).Eigen
	if o.Eigen == nil || o.Eigen.Tol == 0 {
		eo.Tol = selectTolFactor * SampleTol(src.NumDocs())
	}
	if eo.Start != nil {
		o2 := o
		o2.Eigen = &eo
		eo = *restrictStart(&o2, old, n).Eigen
	}
	eo.Seed = o.Seed
	nc := src.VocabSize()
	if eo.Oversample == 0 && eo.Start == nil {
		eo.Oversample = max(5, k/4)
	}
	if eo.Start == nil {
		if eo.Start, err = docSketch(ctx, src, min(k+max(eo.Oversample, 0), nc), o.Seed); err != nil {
			return 0, nil, err
		}
	}
	eig, err := svd.TopEigSym(ctx, svd.SymOperator(nc, dm.PairsTimes), k, &eo)
	if errors.Is(err, svd.ErrBadOption) {
		return 0, nil, fmt.Errorf("%w: Options.Eigen: %w", ErrBadOption, err)
	}
	if err != nil && !errors.Is(err, svd.ErrNoConvergence) {
		return 0, nil, fmt.Errorf("topic: SelectAlpha0: eigenpairs of Pairs: %w", err)
	}
	cb, err := newCommonBasis(ctx, dm, eig, k)
	if err != nil {
		return 0, nil, err
	}
	split := splitCompletion(valid)
	var scratch inferScratch
	best := -1
	for i, a0 := range grid {
		if scores[i].Err != nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return 0, nil, err
		}
		res, basis, err := cb.fit(ctx, a0, k, o)
		if err != nil {
			if ctx.Err() != nil {
				return 0, nil, ctx.Err()
			}
			scores[i].Err = err
			continue
		}
		scores[i].Basis = expandRows(basis, old, n)
		model := res.Model
		model.Topics = expandRows(res.Topics, old, n)
		ll, tokens := split.logLik(&model, &scratch)
		if tokens > 0 {
			scores[i].LogLik = ll / float64(tokens)
		}
		if best < 0 || scores[i].LogLik > scores[best].LogLik {
			best = i
		}
	}
	if best < 0 {
		return 0, scores, noAlpha0(grid, scores)
	}
	return grid[best], scores, nil
}

// selectTolFactor times SampleTol is the relative residual of
// SelectAlpha0's eigensolve when Options.Eigen.Tol is 0: 0.1/sqrt(docs),
// a tenth of the sampling error of the moments. The Rayleigh-Ritz
// approximations of the other grid values are of that order anyway, and
// on Brown and SOTU (k = 10, 20) the scores moved by less than 0.01 nats
// per token from those of a thousandth of the sampling error, with the
// same ranking. (The sampling error itself, 1/sqrt(docs), is too loose:
// one or two steps, and scores up to 0.3 nats per token lower.)
const selectTolFactor = 10

// noAlpha0 is SelectAlpha0's error when no alpha0 of grid learns.
func noAlpha0(grid []float64, scores []Alpha0Score) error {
	errs := make([]error, len(scores))
	for i, s := range scores {
		errs[i] = s.Err
	}
	return fmt.Errorf("topic: SelectAlpha0: no alpha0 of %v learns: %w", grid, errors.Join(errs...))
}

// refAlpha0 returns the index of the reference alpha0 of grid (see
// SelectAlpha0): among the positive, finite values, the one whose
// a0/(a0+1) lies nearest the middle of their range (the first on a tie);
// -1 when there is none.
func refAlpha0(grid []float64) int {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, a := range grid {
		if a > 0 && !math.IsInf(a, 1) {
			c := a / (a + 1)
			lo, hi = math.Min(lo, c), math.Max(hi, c)
		}
	}
	mid := (lo + hi) / 2
	ref := -1
	for i, a := range grid {
		if a > 0 && !math.IsInf(a, 1) {
			if ref < 0 || math.Abs(a/(a+1)-mid) < math.Abs(grid[ref]/(grid[ref]+1)-mid) {
				ref = i
			}
		}
	}
	return ref
}

// commonBasis holds SelectAlpha0's shared work: the orthonormal basis Q
// (n x m) of the top k eigenvectors of the reference Pairs and M1, the
// raw moments in it, Q^T M1, and the rest of the eigensolver's block made
// orthogonal to Q (which completes each alpha0's Basis).
type commonBasis struct {
	dm    *moments.DocMoments
	q     *mat.Dense
	pairs *mat.Dense   // Q^T E[x1 x2^T] Q
	t3    *tensor3.Sym // E[x1(x)x2(x)x3](Q, Q, Q)
	q1    []float64    // Q^T M1
	rest  *mat.Dense   // n x r, orthonormal, orthogonal to Q
	eig   *svd.TopEigen
}

// newCommonBasis builds the common basis from the eigenpairs eig of the
// reference Pairs of dm, with one pass over dm's documents.
func newCommonBasis(ctx context.Context, dm *moments.DocMoments, eig *svd.TopEigen, k int) (*commonBasis, error) {
	n, l := eig.Basis.Dims()
	cols := [][]float64{}
	for j := 0; j < k; j++ {
		cols = append(cols, eig.Basis.Col(nil, j))
	}
	cols = orthonormalAppend(cols, [][]float64{slices.Clone(dm.M1)})
	m := len(cols)
	var rest [][]float64
	for j := k; j < l; j++ {
		rest = append(rest, eig.Basis.Col(nil, j))
	}
	all := orthonormalAppend(cols, rest)
	q := fromCols(n, all[:m])
	cb := &commonBasis{dm: dm, q: q, q1: q.MulVecT(nil, dm.M1), eig: eig}
	if len(all) > m {
		cb.rest = fromCols(n, all[m:])
	}
	raw := *dm
	raw.Variant = moments.Raw
	t3, p, err := raw.WhitenedRaw(ctx, q)
	if err != nil {
		return nil, err
	}
	cb.t3, cb.pairs = t3, p
	return cb, nil
}

// fit learns the LDA model of alpha0 a0 in the common basis (see
// SelectAlpha0) and returns it with its Basis: the m Ritz vectors of its
// Pairs in span Q, in decreasing order of Ritz value, followed by rest.
func (cb *commonBasis) fit(ctx context.Context, a0 float64, k int, o Options) (*LDAResult, *mat.Dense, error) {
	d := *cb.dm
	d.Alpha0 = a0
	c := d.M1Coef()
	c2, c3 := d.TriplesCoef()
	m := len(cb.q1)
	h := cb.pairs.Clone()
	for i := 0; i < m; i++ {
		row := h.RawRow(i)
		for j := range row {
			row[j] -= c * cb.q1[i] * cb.q1[j]
		}
	}
	h.Symmetrize()
	e, err := svd.EigSym(h, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("topic: SelectAlpha0: eigenpairs of Pairs in the common basis: %w", err)
	}
	// The Ritz values of a Pairs in the common basis, with the
	// reference eigensolve's products, residuals and convergence.
	vals := e.Values
	white := whiteningOf(vals, math.Max(math.Abs(vals[0]), math.Abs(vals[len(vals)-1])), k, cb.eig)
	if err := white.check(k, o.MaxCond); err != nil {
		return nil, nil, err
	}
	// B = Y D^{-1/2} (m x k): W = Q B.
	b := mat.Zeros(m, k)
	for i := 0; i < m; i++ {
		row := b.RawRow(i)
		for j := 0; j < k; j++ {
			row[j] = e.Vectors.At(i, j) / math.Sqrt(e.Values[j])
		}
	}
	t := tensor3.New(k, nil)
	t.Multilinear(cb.t3, b)
	if c2 != 0 {
		var pb, p mat.Dense
		pb.Mul(cb.pairs, b)
		p.MulAT(b, &pb)
		p.Symmetrize()
		mw := b.MulVecT(nil, cb.q1)
		t.AddSymMatOuter(-c2, &p, mw)
		t.AddOuter(c3, mw)
	}
	vals, vecs, res, err := decompose(ctx, t, k, o)
	if err != nil {
		return nil, nil, err
	}
	// Topics Q Y D^{1/2} V.
	sv := vecs.Clone()
	for j := 0; j < k; j++ {
		row := sv.RawRow(j)
		for i := range row {
			row[i] *= math.Sqrt(e.Values[j])
		}
	}
	var ysv, topics mat.Dense
	ysv.Mul(e.Vectors.Slice(0, m, 0, k), sv)
	topics.Mul(cb.q, &ysv)
	rel := res
	if nt := t.NormFrob(); nt > 0 {
		rel = res / nt
	}
	r, err := ldaResult(&topics, Spectral{Lambda: vals, Residual: rel, Whitening: white}, k, a0)
	if err != nil {
		return nil, nil, err
	}
	n, _ := cb.q.Dims()
	r0 := 0
	if cb.rest != nil {
		_, r0 = cb.rest.Dims()
	}
	basis := mat.Zeros(n, m+r0)
	basis.Slice(0, n, 0, m).Mul(cb.q, e.Vectors)
	if r0 > 0 {
		basis.Slice(0, n, m, m+r0).Copy(cb.rest)
	}
	return r, basis, nil
}

// orthonormalAppend returns basis (orthonormal columns) followed by the
// parts of the vectors of add orthogonal to it and to each other, each
// normalised, by Gram-Schmidt applied twice; a vector whose part is below
// 1e-10 of its norm is dropped. The vectors of add are overwritten.
func orthonormalAppend(basis, add [][]float64) [][]float64 {
	for _, v := range add {
		n0 := kernels.Nrm2(v)
		if !(n0 > 0) {
			continue
		}
		for pass := 0; pass < 2; pass++ {
			for _, b := range basis {
				kernels.Axpy(-kernels.Dot(b, v), b, v)
			}
		}
		nv := kernels.Nrm2(v)
		if !(nv > 1e-10*n0) {
			continue
		}
		kernels.Scal(1/nv, v)
		basis = append(basis, v)
	}
	return basis
}

// fromCols returns the n x len(cols) matrix with the given columns.
func fromCols(n int, cols [][]float64) *mat.Dense {
	out := mat.Zeros(n, len(cols))
	for j, c := range cols {
		out.SetCol(j, c)
	}
	return out
}

// scoreIters is the number of fixed-point iterations of Model.Infer in
// SelectAlpha0's scores. Most validation documents of Brown and SOTU
// reach Infer's default cap of 50 without meeting its stopping test, but
// at 20 the scores moved by less than 0.002 nats per token (k = 10, 20,
// every grid value) and ranked alpha0 the same, for 2.5 times less work.
const scoreIters = 20

// completionSplit holds the documents of a validation source split into
// observed and evaluated halves (see SelectAlpha0), made once for all
// the alpha0 of the grid.
type completionSplit struct {
	obs, eva []moments.Doc
}

// splitCompletion splits the documents of src for completionLogLik.
func splitCompletion(src moments.Source) *completionSplit {
	s := &completionSplit{}
	src.Range(0, src.NumDocs(), func(_ int, d moments.Doc) {
		var obs, eva moments.Doc
		odd := false // whether the next token is evaluated
		for t, w := range d.Words {
			c := d.Counts[t]
			// c tokens alternate from the current parity.
			ce := c / 2
			if odd && c%2 == 1 {
				ce++
			}
			if co := c - ce; co > 0 {
				obs.Words, obs.Counts = append(obs.Words, w), append(obs.Counts, co)
			}
			if ce > 0 {
				eva.Words, eva.Counts = append(eva.Words, w), append(eva.Counts, ce)
			}
			if c%2 == 1 {
				odd = !odd
			}
		}
		s.obs = append(s.obs, obs)
		s.eva = append(s.eva, eva)
	})
	return s
}

// logLik returns the document-completion log-likelihood of the split
// documents under r and the tokens it scores.
func (s *completionSplit) logLik(r *Model, scratch *inferScratch) (ll float64, tokens int) {
	n, _ := r.Topics.Dims()
	floor := SmoothFloor / float64(n)
	for i, obs := range s.obs {
		theta := r.infer(obs, scoreIters, scratch)
		r.addLogLikelihood(s.eva[i], theta, floor, &ll, &tokens)
	}
	return ll, tokens
}

// completionLogLik returns the document-completion log-likelihood of the
// documents of src under r (see SelectAlpha0) and the tokens it scores.
func completionLogLik(r *Model, src moments.Source) (ll float64, tokens int) {
	var scratch inferScratch
	return splitCompletion(src).logLik(r, &scratch)
}

// docSketch returns the n x l sketch sum_d x_d g_d^T of the documents of
// src (x_d = c/len, a document's word frequencies; g_d l Gaussian numbers
// drawn for document d alone from a generator seeded by seed and d, so
// that the sketch does not depend on how the pass is split): a random
// combination of the documents, whose span leans toward the top
// eigenvectors of E[x1 x2^T] as a randomized range finder's does, at the
// cost of half a product with Pairs, in one serial pass. As the eigensolver's starting block
// it saved up to two of SelectAlpha0's products (and one or two of the
// final LearnLDA's, warm-started from it) on Brown and SOTU at k = 10
// and 20, against a Gaussian block. It returns ctx.Err() once ctx is
// done (checked every 1024 documents).
func docSketch(ctx context.Context, src moments.Source, l int, seed uint64) (*mat.Dense, error) {
	out := mat.Zeros(src.VocabSize(), l)
	g := make([]float64, l)
	var pcg rand.PCG
	rnd := rand.New(&pcg)
	add := func(i int, d moments.Doc) {
		pcg.Seed(seed, sketchStream+uint64(i)*powerSeedStep)
		for j := range g {
			g[j] = rnd.NormFloat64()
		}
		inv := 1 / float64(max(d.Len(), 1))
		for j, w := range d.Words {
			kernels.Axpy(float64(d.Counts[j])*inv, g, out.RawRow(int(w)))
		}
	}
	const chunk = 1024 // documents between checks of ctx
	for lo := 0; lo < src.NumDocs(); lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		src.Range(lo, min(lo+chunk, src.NumDocs()), add)
	}
	return out, nil
}

// sketchStream is the second PCG word of docSketch's generator for the
// first document; document i adds i times the golden-ratio step.
const sketchStream = 0x5e7c4a1fa0
