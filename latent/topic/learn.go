package topic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

// Method selects how the whitened third moment is decomposed.
type Method uint8

const (
	// TensorPower is the robust tensor power method (the default; the
	// papers recommend it for its robustness to noise).
	TensorPower Method = iota
	// SingleTheta is step 3 of the paper's Algorithms 1 and 2: the
	// eigenvectors of T(I, I, theta) for one theta uniform on the sphere.
	SingleTheta
)

// Options configures the learners. The zero value gives the documented
// defaults.
type Options struct {
	// Method decomposes the whitened third moment; the zero value is
	// TensorPower.
	Method Method
	// Power configures the tensor power method; nil means tensor3's
	// defaults.
	Power *tensor3.PowerOptions
	// Eigen configures the block eigensolver (svd.TopEigSym) that finds
	// the k algebraically largest eigenpairs of Pairs, each block product
	// a pass over the documents; nil means svd's defaults (oversampling
	// max(10, k/2), or max(5, k/4) from a Start, relative residual 1e-6,
	// at most 60 products after the first). The empirical Pairs of real text is indefinite, often
	// with negative eigenvalues larger in magnitude than the positive
	// ones whitening needs, so the largest eigenvalues in magnitude will
	// not do. On a corpus (LearnLDA, LearnECA) an Eigen.Tol of 0 means
	// SampleTol of its number of documents rather than svd's 1e-6 (10
	// times that for SelectAlpha0, whose eigensolve only sets a common
	// basis). Eigen.Start warm-starts the eigensolver; LearnLDA and
	// LearnECA take a Start with a row for every word of the source's
	// vocabulary (as Alpha0Score.Basis has) also when they learn on the
	// words that occur.
	Eigen *svd.TopEigOptions
	// MaxCond is the largest condition number of the top-k spectrum of
	// Pairs that whitening accepts; 0 means 1e8. Other values below 1,
	// NaN and infinities are errors (ErrBadOption).
	MaxCond float64
	// Seed seeds every random choice: the eigensolver's starting block
	// (svd.TopEigSym runs with TopEigOptions.Seed = Seed; SelectAlpha0's
	// sketch of the documents), the power
	// method's starts (tensor3.PowerMethod runs with PowerOptions.Seed =
	// Seed + 0x9e3779b97f4a7c15, the golden-ratio step, so that the two
	// calls get seeds of their own) and the random theta of SingleTheta.
	// The Seed fields of Eigen and Power are ignored.
	Seed uint64
	// Passes configures the passes over the documents of LearnLDA and
	// LearnECA: the workers and the progress callback (moments.Progress,
	// with the stages documented on moments.Options.Progress). Its zero
	// value means the defaults.
	Passes moments.Options
	// MaxMemory bounds (bytes) what learning allocates: the n x r
	// sketches of Pairs (r = k+1 plus the oversampling) and the
	// accumulators of the passes, up to 1 + 2 workers of them, each
	// about n x (r+1) or n x (2k+2) plus the packed k x k x k tensor.
	// A job that would need more is refused with a *mat.MemoryError
	// before the first pass. 0 means mat.DefaultMaxMemory (4 GiB),
	// negative no limit; it also bounds Passes when Passes.MaxMemory is
	// 0.
	MaxMemory int64
}

// ErrBadOption is wrapped by the error for an option or argument value
// that makes no sense: in Options an unknown Method, a NaN, infinite or
// below-one MaxCond, a bad tensor power option, or an Eigen that
// svd.TopEigSym refuses (a negative MaxIter, a Tol outside [0, 1), a
// Start with a NaN or an infinity or with rows that do not fit the
// vocabulary); in RefineOptions a
// negative, NaN or infinite Eta or a negative Passes.Workers; a number
// of topics k outside 1..n for a vocabulary of n words; an alpha0 that
// is not positive and finite; an empty grid for SelectAlpha0. The
// message names the option and its value.
var ErrBadOption = errors.New("topic: bad option")

// check checks the fields of o.
func (o *Options) check() error {
	if o == nil {
		return nil
	}
	if o.MaxCond != 0 {
		if err := optcheck.Float(ErrBadOption, "Options.MaxCond", o.MaxCond, 1, math.Inf(1)); err != nil {
			return err
		}
	}
	if e := o.Eigen; e != nil {
		// What svd.TopEigSym would refuse, before any pass over the
		// corpus (Start's rows are checked against the vocabulary later).
		if err := optcheck.First(
			optcheck.Int(ErrBadOption, "Options.Eigen.MaxIter", e.MaxIter, 0, math.MaxInt),
			optcheck.Less(ErrBadOption, "Options.Eigen.Tol", e.Tol, 0, 1)); err != nil {
			return err
		}
		if e.Start != nil && !e.Start.IsFinite() {
			return fmt.Errorf("%w: Options.Eigen.Start has a NaN or an infinity", ErrBadOption)
		}
	}
	return optcheck.Int(ErrBadOption, "Options.Method", int(o.Method), int(TensorPower), int(SingleTheta))
}

func (o *Options) resolve() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxCond <= 0 {
		r.MaxCond = 1e8
	}
	if r.Passes.MaxMemory == 0 {
		r.Passes.MaxMemory = r.MaxMemory
	}
	return r
}

// checkK checks k against a vocabulary of n words and applies the
// memory rule.
func (o Options) checkK(n, k int) error {
	if k < 1 || k > n {
		return fmt.Errorf("%w: k = %d topics for a vocabulary of %d words", ErrBadOption, k, n)
	}
	if err := o.checkMemory(n, k); err != nil {
		return fmt.Errorf("topic: %w", err)
	}
	return nil
}

// checkMemory applies the memory rule to learning k topics on a
// vocabulary of n words (see Options.MaxMemory). The estimate grows with n as
// the peak heap of LDA does (measured with k = 10 at n = 20 000 and
// 60 000 on two workers: the peak grew by 62 MB, the estimate by 62 MB;
// the peak lies about 50 MB above the estimate at both sizes).
func (o Options) checkMemory(n, k int) error {
	return mat.CheckMemory(fmt.Sprintf("the moments of %d words for k = %d", n, k), moments.SpectralMemory(n, k, o.Passes.Workers, o.Eigen), o.MaxMemory)
}

// Whitening describes the whitening step.
type Whitening struct {
	// Spectrum holds the top eigenvalues of Pairs found (k+1 of them
	// when the vocabulary allows), in decreasing order: the gap after
	// the k-th tells whether k suits the data.
	Spectrum []float64
	// Cond is Spectrum[0] / Spectrum[k-1].
	Cond float64
	// Positive is the number of positive eigenvalues of Pairs found
	// (above 64 eps ||Pairs||, so that the zeros of a Pairs of low rank
	// do not count): the most topics whitening can give. The eigensolver computes
	// k + oversampling of them (Block), so when all of those are positive
	// (PositiveAtLeast) Pairs has at least that many, and maybe more.
	Positive        int
	PositiveAtLeast bool
	// Block holds all the eigenvalues the eigensolver computed, in
	// decreasing order (Spectrum is its beginning).
	Block []float64
	// Products is the number of products of Pairs with a block of
	// vectors (each one pass over the documents); Residual the largest
	// ||Pairs v - lambda v|| / ||Pairs|| of the top k eigenpairs, and
	// Converged whether they all met the eigensolver's tolerance (when
	// they did not, the pairs are used as they are).
	Products  int
	Residual  float64
	Converged bool
}

// ErrWhitening is matched (errors.Is) by every *WhiteningError.
var ErrWhitening = errors.New("topic: Pairs cannot be whitened to k dimensions")

// WhiteningError reports that the top k eigenvalues of Pairs are not all
// positive or are too ill-conditioned: usually k is larger than the data
// supports (or, for LDA, alpha0 is far off).
type WhiteningError struct {
	// K is the number of topics or factors asked for.
	K int
	// Spectrum holds the top eigenvalues of Pairs found, as in
	// Whitening.Spectrum (K+1 of them when the vocabulary allows), in
	// decreasing order.
	Spectrum []float64
	// Cond is Spectrum[0] / Spectrum[K-1], the condition number of the
	// whitening at k = K.
	Cond float64
	// MaxCond is the largest condition number allowed
	// (Options.MaxCond, or its default).
	MaxCond float64
	// Positive is the number of positive eigenvalues of Pairs found
	// (Whitening.Positive), and MaxK the largest k that can be whitened:
	// the most leading eigenvalues that are positive with a condition
	// number at most MaxCond (0 when there is none).
	Positive int
	MaxK     int
}

// Error says which k failed, how many positive eigenvalues Pairs has,
// the largest k that works, and the spectrum.
func (e *WhiteningError) Error() string {
	why := fmt.Sprintf("its condition number over the top k eigenvalues is %.3g, above the limit %.3g", e.Cond, e.MaxCond)
	if e.Positive < e.K {
		why = fmt.Sprintf("Pairs has only %d positive eigenvalues", e.Positive)
	}
	fix := "no k works: check the data and alpha0"
	if e.MaxK > 0 {
		fix = fmt.Sprintf("the largest k that works is %d", e.MaxK)
	}
	return fmt.Sprintf("topic: Pairs cannot be whitened to k = %d dimensions: %s; %s (top eigenvalues %.3g)",
		e.K, why, fix, e.Spectrum)
}

// Unwrap returns ErrWhitening.
func (e *WhiteningError) Unwrap() error { return ErrWhitening }

// Spectral describes the spectral steps behind a learned model, for the
// results of LearnLDA and LearnECA alike.
type Spectral struct {
	// Lambda holds the eigenvalues of the whitened third moment, in the
	// order of the topics or factors (decreasing).
	Lambda []float64
	// Residual is ||T - sum_i lambda_i v_i(x)v_i(x)v_i||_F / ||T||_F for
	// the whitened third moment T.
	Residual float64
	// Whitening describes the whitening.
	Whitening Whitening
	// Warnings, empty for a plausible model, say why the model is
	// implausible: for LDA, learned alphas whose sum is more than a
	// factor MaxAlphaRatio from alpha0, or two topics closer than
	// MinTopicL1; for ECA, two factors with |cosine| above MaxFactorCos;
	// on a corpus, fewer than MinDocsPerTopic documents per topic. The
	// model is returned all the same.
	Warnings []string
}

// LDAResult is an LDA model learned by LearnLDA: the Model (Topics,
// n x k, each column a distribution over the words; Alpha, the learned
// Dirichlet parameters; Alpha0, the sum given to the learner; Vocab and
// Options nil, for the caller to fill before Save), the mass the
// projection onto the simplex moved, and the diagnostics of the spectral
// steps. Infer, Labels, LogLikelihood and Perplexity are those of the
// Model.
type LDAResult struct {
	Model
	// Moved holds the l1 mass the projection onto the simplex moved in
	// each topic (0 when the estimate was already a distribution).
	Moved []float64
	Spectral
}

// ECAResult holds k independent skewed factors learned by LearnECA and
// the diagnostics of the spectral steps.
type ECAResult struct {
	// Factors is n x k: the columns of O in canonical form (scaled to
	// unit-variance factors), each up to sign.
	Factors *mat.Dense
	Spectral
}

// LearnLDA learns an LDA model with k topics from a corpus (Algorithm 2
// of the paper, with the tensor power method by default): alpha0 is the
// assumed sum of the Dirichlet parameters. It makes one pass over the
// documents for M1, one for each block product of the eigensolver
// (Whitening.Products, typically 10 to 40) and one for the whitened
// third moment. When fewer than half of the vocabulary's words occur, it
// learns on those words (one more, serial pass finds them) and returns
// zero rows for the others; see the package documentation on memory.
// ctx must not be nil.
func LearnLDA(ctx context.Context, src moments.Source, k int, alpha0 float64, opts *Options) (*LDAResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.resolve()
	n := src.VocabSize()
	src, old, err := o.prepare(src, k)
	if err != nil {
		return nil, err
	}
	dm, err := moments.NewDocMoments(ctx, src, moments.LDA, alpha0, &o.Passes)
	if err != nil {
		return nil, err
	}
	r, err := LearnLDAMoments(ctx, docMoments{dm}, k, alpha0, restrictStart(WithSampleTol(opts, src.NumDocs()), old, n))
	if err != nil {
		return nil, err
	}
	r.Topics = expandRows(r.Topics, old, n)
	r.Warnings = append(fewDocuments(src.NumDocs(), k), r.Warnings...)
	return r, nil
}

// SampleTol returns the relative residual to which LearnLDA and LearnECA
// solve for the eigenpairs of the Pairs of a corpus of docs documents
// when Options.Eigen.Tol is 0 (SelectAlpha0 solves to 10 times it):
// 1e-2/sqrt(docs), but not below svd's default 1e-6 (reached at 10^8
// documents).
//
// The Pairs of a corpus is a mean over its documents, so it differs from
// the Pairs of the model by a sampling error of order 1/sqrt(docs)
// relative to its norm: each document's term (c c^T - diag(c)) / (l
// (l-1)), built from one document's words, varies from document to
// document by as much as its mean. An eigenvector v of the empirical
// Pairs A thus has a residual ||A' v - lambda v|| of order ||A||/sqrt(docs)
// on the Pairs A' of the model, or of another sample: on the Brown
// corpus (451 training documents, k = 10) the eigenvectors of 90% of the
// documents have a residual of 0.062 ||A|| on the Pairs of all of them,
// against 1/sqrt(451) = 0.047. Residuals a hundred times smaller than
// that move the eigenvectors (by at most the residual over the
// eigenvalue gap, as the sampling error does) a hundred times less than
// the sampling error does, and take fewer block products (passes over
// the documents) than 1e-6. (A thousand times smaller, the value before,
// cost one or two more steps of the eigensolver: the raw pipeline of
// "moments lda" took 11 to 15% longer on Brown and SOTU at k = 10 and 20,
// for topics that moved by a median l1 distance of 0.004, and at most
// 0.04, from the ones learned now, where two seeds of the pipeline give
// topics a median 0.21 apart.)
func SampleTol(docs int) float64 {
	if docs < 1 {
		docs = 1
	}
	return max(1e-2/math.Sqrt(float64(docs)), 1e-6)
}

// WithSampleTol returns a copy of opts (nil: the defaults) with
// Eigen.Tol set to SampleTol(docs) when it is 0: the options LearnLDA
// and LearnECA learn with from a corpus of docs documents. A learner
// that computes a corpus's moments elsewhere (beam's dist package) and
// calls LearnLDAMoments or LearnECAMoments passes them to get the same
// result.
func WithSampleTol(opts *Options, docs int) *Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	var eo svd.TopEigOptions
	if o.Eigen != nil {
		eo = *o.Eigen
	}
	if eo.Tol == 0 {
		eo.Tol = SampleTol(docs)
	}
	o.Eigen = &eo
	return &o
}

// restrictStart returns opts with Eigen.Start restricted to the rows
// old when the source was restricted to those words and Start has a row
// for every word of the vocabulary of n words; otherwise opts.
func restrictStart(opts *Options, old []int32, n int) *Options {
	if old == nil || opts == nil || opts.Eigen == nil || opts.Eigen.Start == nil {
		return opts
	}
	st := opts.Eigen.Start
	if r, _ := st.Dims(); r != n {
		return opts
	}
	_, c := st.Dims()
	sub := mat.Zeros(len(old), c)
	for i, w := range old {
		copy(sub.RawRow(i), st.RawRow(int(w)))
	}
	o, eo := *opts, *opts.Eigen
	eo.Start = sub
	o.Eigen = &eo
	return &o
}

// LearnECA learns k independent skewed factors from a corpus (Algorithm
// 1, central moments): the columns of O in canonical form, up to sign.
// Its passes and its handling of unused words are those of LearnLDA.
// ctx must not be nil.
func LearnECA(ctx context.Context, src moments.Source, k int, opts *Options) (*ECAResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.resolve()
	n := src.VocabSize()
	src, old, err := o.prepare(src, k)
	if err != nil {
		return nil, err
	}
	dm, err := moments.NewDocMoments(ctx, src, moments.Central, 0, &o.Passes)
	if err != nil {
		return nil, err
	}
	r, err := LearnECAMoments(ctx, docMoments{dm}, k, restrictStart(WithSampleTol(opts, src.NumDocs()), old, n))
	if err != nil {
		return nil, err
	}
	r.Factors = expandRows(r.Factors, old, n)
	r.Warnings = append(fewDocuments(src.NumDocs(), k), r.Warnings...)
	return r, nil
}

// prepare restricts src to the words that occur when that halves the
// vocabulary or more (see compact), and applies the memory rule to the
// result, counting the n x k topics returned on the whole vocabulary.
// old is nil when src is kept as it is.
func (o Options) prepare(src moments.Source, k int) (moments.Source, []int32, error) {
	n := src.VocabSize()
	if k < 1 || k > n {
		return nil, nil, fmt.Errorf("%w: k = %d topics for a vocabulary of %d words", ErrBadOption, k, n)
	}
	if err := mat.CheckMemory(fmt.Sprintf("the topics of %d words for k = %d", n, k), size.Add(size.Mul(n, 5), size.Float64s(n, k)), o.MaxMemory); err != nil {
		return nil, nil, fmt.Errorf("topic: %w", err)
	}
	csrc, old := compact(src)
	if err := o.checkK(csrc.VocabSize(), k); err != nil {
		return nil, nil, err
	}
	return csrc, old, nil
}

// LearnLDAMoments is LearnLDA on given moments of the alpha0-corrected
// variant (LDAMoments, or moments.DocMoments of the LDA variant), with
// neither the restriction to the words that occur nor the warning about
// too few documents, which need a corpus. ctx must not be nil.
func LearnLDAMoments(ctx context.Context, m Moments, k int, alpha0 float64, opts *Options) (*LDAResult, error) {
	r, _, err := learnLDAMoments(ctx, m, k, alpha0, opts)
	return r, err
}

// learnLDAMoments is LearnLDAMoments, also returning the eigenpairs of
// Pairs it whitened with.
func learnLDAMoments(ctx context.Context, m Moments, k int, alpha0 float64, opts *Options) (*LDAResult, *svd.TopEigen, error) {
	if !(alpha0 > 0) || math.IsInf(alpha0, 1) {
		return nil, nil, fmt.Errorf("%w: alpha0 = %v, want a positive, finite number", ErrBadOption, alpha0)
	}
	topics, sp, eig, err := learn(ctx, m, k, opts)
	if err != nil {
		return nil, nil, err
	}
	r, err := ldaResult(topics, sp, k, alpha0)
	if err != nil {
		return nil, nil, err
	}
	return r, eig, nil
}

// ldaResult turns the unnormalised topics (W^+)^T v_i of the
// alpha0-corrected moments and the spectral diagnostics into an LDA
// result: each topic normalised to sum 1 and projected onto the simplex,
// alpha from the eigenvalues, and the plausibility warnings.
func ldaResult(topics *mat.Dense, sp Spectral, k int, alpha0 float64) (*LDAResult, error) {
	r := &LDAResult{Model: Model{Topics: topics, Alpha0: alpha0}, Spectral: sp}
	n, _ := r.Topics.Dims()
	r.Alpha = make([]float64, k)
	r.Moved = make([]float64, k)
	col := make([]float64, n)
	for j := 0; j < k; j++ {
		r.Topics.Col(col, j)
		var s float64
		for _, v := range col {
			s += v
		}
		if !(math.Abs(s) > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("topic: topic %d sums to %v and cannot be normalised (eigenvalues of Pairs %.3g)", j, s, r.Whitening.Spectrum)
		}
		for i := range col {
			col[i] /= s
		}
		r.Moved[j] = ProjectSimplex(col)
		r.Topics.SetCol(j, col)
		// lambda_i = 2/(a0+2) sqrt(a0 (a0+1) / alpha_i).
		l := r.Lambda[j]
		r.Alpha[j] = 4 * alpha0 * (alpha0 + 1) / ((alpha0 + 2) * (alpha0 + 2) * l * l)
		if math.IsInf(r.Alpha[j], 0) || math.IsNaN(r.Alpha[j]) {
			return nil, fmt.Errorf("topic: topic %d has eigenvalue %v of the whitened third moment, so its alpha (4 a0 (a0+1) / ((a0+2)^2 lambda^2)) is %v: the data show no topic structure at k = %d", j, l, r.Alpha[j], k)
		}
	}
	var sum float64
	for _, a := range r.Alpha {
		sum += a
	}
	if !(sum >= alpha0/MaxAlphaRatio && sum <= alpha0*MaxAlphaRatio) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the learned alphas sum to %.4g, %.3g times the given alpha0 = %g (plausible: within a factor %g); the model does not fit the data: try another k or alpha0, or more documents",
			sum, sum/alpha0, alpha0, float64(MaxAlphaRatio)))
	}
	r.Warnings = append(r.Warnings, duplicateTopics(r.Topics, true)...)
	return r, nil
}

// LearnECAMoments is LearnECA on given moments of the central variant
// (FactorMoments, or moments.DocMoments of the Central variant). ctx
// must not be nil.
func LearnECAMoments(ctx context.Context, m Moments, k int, opts *Options) (*ECAResult, error) {
	factors, sp, _, err := learn(ctx, m, k, opts)
	if err != nil {
		return nil, err
	}
	r := &ECAResult{Factors: factors, Spectral: sp}
	r.Warnings = append(r.Warnings, duplicateTopics(r.Factors, false)...)
	return r, nil
}

// Bounds of the plausibility checks that fill Spectral.Warnings.
const (
	// MaxAlphaRatio bounds the ratio between the sum of the learned
	// alphas and the given alpha0, either way. With the model's own
	// moments the sum is alpha0 exactly: alpha_i = 4 a0 (a0+1) /
	// ((a0+2)^2 lambda_i^2), each the inverse square of an eigenvalue
	// lambda_i of the whitened third moment. A factor 2 off means those
	// eigenvalues are off by a factor sqrt(2) on average, far beyond
	// sampling noise when the model fits: on synthetic LDA corpora of
	// 2000 to 5000 documents (k = 3 to 10) the sum came within 1.5% of
	// alpha0; on three documents it reached 236 for alpha0 = 1.
	MaxAlphaRatio = 2
	// MinTopicL1 is the smallest l1 distance between two LDA topics
	// (each a distribution over the words, so the distance is between 0
	// and 2) below which they are reported as duplicates: at 0.25 they
	// share more than 7/8 of their probability mass. The topics of the
	// synthetic corpora above are at least 1.3 apart.
	MinTopicL1 = 0.25
	// MaxFactorCos is the largest |cosine| between two ECA factors
	// (columns of Topics) beyond which they are reported as duplicates.
	MaxFactorCos = 0.99
	// MinDocsPerTopic: a corpus of fewer than MinDocsPerTopic*k
	// documents is reported as too small for k topics; the moments of
	// so few documents describe the documents themselves rather than
	// topics.
	MinDocsPerTopic = 10
)

// fewDocuments returns a warning if docs documents are too few for k
// topics.
func fewDocuments(docs, k int) []string {
	if docs >= MinDocsPerTopic*k {
		return nil
	}
	return []string{fmt.Sprintf("only %d documents for k = %d topics (fewer than %d per topic): the moments describe the documents rather than topics",
		docs, k, MinDocsPerTopic)}
}

// duplicateTopics returns a warning for every pair of near-identical
// columns of topics: l1 distance below MinTopicL1 for distributions
// (lda), |cosine| above MaxFactorCos otherwise.
func duplicateTopics(topics *mat.Dense, lda bool) []string {
	n, k := topics.Dims()
	cols := make([][]float64, k)
	for j := range cols {
		cols[j] = make([]float64, n)
		topics.Col(cols[j], j)
	}
	var out []string
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			if lda {
				// The sum only grows: stop once it rules the pair out.
				var d float64
				ci, cj := cols[i], cols[j][:len(cols[i])]
				for w := 0; w < len(ci) && d < MinTopicL1; {
					end := min(w+256, len(ci))
					for ; w < end; w++ {
						d += math.Abs(ci[w] - cj[w])
					}
				}
				if d < MinTopicL1 {
					out = append(out, fmt.Sprintf("topics %d and %d are near duplicates (l1 distance %.3g, below %g)", i+1, j+1, d, MinTopicL1))
				}
				continue
			}
			ni, nj := kernels.Nrm2(cols[i]), kernels.Nrm2(cols[j])
			if c := math.Abs(kernels.Dot(cols[i], cols[j])) / (ni * nj); ni > 0 && nj > 0 && c > MaxFactorCos {
				out = append(out, fmt.Sprintf("factors %d and %d are near duplicates (|cosine| %.4f, above %g)", i+1, j+1, c, MaxFactorCos))
			}
		}
	}
	return out
}

// learn runs the steps common to ECA and LDA; the topics it returns are
// the unnormalised (W^+)^T v_i, with the eigenpairs of Pairs.
func learn(ctx context.Context, m Moments, k int, opts *Options) (*mat.Dense, Spectral, *svd.TopEigen, error) {
	if err := opts.check(); err != nil {
		return nil, Spectral{}, nil, err
	}
	o := opts.resolve()
	n := m.VocabSize()
	if err := o.checkK(n, k); err != nil {
		return nil, Spectral{}, nil, err
	}
	// 1-2. Top eigenpairs of Pairs through its products, then W.
	var eo svd.TopEigOptions
	if o.Eigen != nil {
		eo = *o.Eigen
	}
	eo.Seed = o.Seed
	eig, err := svd.TopEigSym(ctx, svd.SymOperator(n, m.PairsTimes), k, &eo)
	if errors.Is(err, svd.ErrBadOption) {
		// A Start whose rows do not fit the vocabulary.
		return nil, Spectral{}, nil, fmt.Errorf("%w: Options.Eigen: %w", ErrBadOption, err)
	}
	if err != nil && !errors.Is(err, svd.ErrNoConvergence) {
		return nil, Spectral{}, nil, fmt.Errorf("topic: eigenpairs of Pairs: %w", err)
	}
	white := whitening(eig, k)
	spec := white.Spectrum
	if err := white.check(k, o.MaxCond); err != nil {
		return nil, Spectral{}, nil, err
	}
	u := eig.Vectors
	d := spec[:k]
	w := u.Clone()
	for i := 0; i < n; i++ {
		row := w.RawRow(i)
		for j := 0; j < k; j++ {
			row[j] /= math.Sqrt(d[j])
		}
	}

	// 3. The whitened third moment and its decomposition.
	t, err := m.WhitenedTriples(ctx, w)
	if err != nil {
		return nil, Spectral{}, nil, err
	}
	vals, vecs, res, err := decompose(ctx, t, k, o)
	if err != nil {
		return nil, Spectral{}, nil, err
	}

	// 4. O_i = (W^+)^T v_i = U D^{1/2} v_i (U has orthonormal columns).
	sv := vecs.Clone()
	for j := 0; j < k; j++ {
		row := sv.RawRow(j)
		for c := range row {
			row[c] *= math.Sqrt(d[j])
		}
	}
	var topics mat.Dense
	topics.Mul(u, sv)
	rel := res
	if nt := t.NormFrob(); nt > 0 {
		rel = res / nt
	}
	return &topics, Spectral{Lambda: vals, Residual: rel, Whitening: white}, eig, nil
}

const epsilon = 0x1p-52

// check returns the *WhiteningError of w when its top k eigenvalues are
// not all positive or their condition number exceeds maxCond.
func (w *Whitening) check(k int, maxCond float64) error {
	spec := w.Spectrum
	if spec[k-1] > 0 && w.Cond <= maxCond {
		return nil
	}
	maxK := 0
	for j, v := range w.Block[:w.Positive] {
		if spec[0]/v <= maxCond {
			maxK = j + 1
		}
	}
	return &WhiteningError{K: k, Spectrum: spec, Cond: w.Cond, MaxCond: maxCond, Positive: w.Positive, MaxK: maxK}
}

// whitening returns the diagnostics of the eigenpairs found.
func whitening(eig *svd.TopEigen, k int) Whitening {
	return whiteningOf(eig.Block, eig.Norm, k, eig)
}

// whiteningOf returns the whitening diagnostics of the eigenvalues block
// (decreasing) of an operator of norm norm, with the products, residuals
// and convergence of the eigensolve eig.
func whiteningOf(block []float64, norm float64, k int, eig *svd.TopEigen) Whitening {
	spec := block[:min(k+1, len(block))]
	w := Whitening{Spectrum: spec, Cond: spec[0] / spec[k-1], Block: block, Products: eig.Products, Converged: eig.Converged}
	// Eigenvalues within rounding of zero (a model of rank below k) are
	// not counted as positive.
	for _, v := range block {
		if v > 64*epsilon*norm {
			w.Positive++
		}
	}
	w.PositiveAtLeast = w.Positive == len(block)
	for _, r := range eig.Residuals {
		if eig.Norm > 0 {
			w.Residual = math.Max(w.Residual, r/eig.Norm)
		}
	}
	return w
}

// powerSeedStep is added to Options.Seed to seed the tensor power
// method: 2^64 divided by the golden ratio, the step SplitMix64 takes
// between seeds, so that the power method never gets the seed that the
// eigensolver gets for a small learner seed.
const powerSeedStep = 0x9e3779b97f4a7c15

// decompose returns the k eigenvalues (non-negative, decreasing), the
// eigenvectors (columns of a k x k matrix) and the residual of t.
func decompose(ctx context.Context, t *tensor3.Sym, k int, o Options) ([]float64, *mat.Dense, float64, error) {
	if o.Method == TensorPower {
		var po tensor3.PowerOptions
		if o.Power != nil {
			po = *o.Power
		}
		po.Seed = o.Seed + powerSeedStep
		dec, err := tensor3.PowerMethod(ctx, t, k, &po)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("topic: tensor power method: %w", err)
		}
		return dec.Values, dec.Vectors, dec.Residual, nil
	}
	if o.Method != SingleTheta {
		panic(fmt.Sprintf("topic: unknown Method %d", o.Method))
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x7e7a)) // a stream apart from TopEigSym's
	theta := make([]float64, k)
	var s float64
	for i := range theta {
		theta[i] = rng.NormFloat64()
		s += theta[i] * theta[i]
	}
	for i := range theta {
		theta[i] /= math.Sqrt(s)
	}
	var mt mat.Dense
	t.ContractMat(&mt, theta)
	eig, err := svd.EigSym(&mt, nil)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("topic: eigenvectors of T(I, I, theta): %w", err)
	}
	vecs := eig.Vectors
	vals := make([]float64, k)
	col := make([]float64, k)
	for j := 0; j < k; j++ {
		vecs.Col(col, j)
		vals[j] = t.ContractScalar(col)
		if vals[j] < 0 {
			vals[j] = -vals[j]
			for i := range col {
				col[i] = -col[i]
			}
			vecs.SetCol(j, col)
		}
	}
	// Sort by eigenvalue, decreasing, and measure the residual.
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < k; i++ {
		for j := i; j > 0 && vals[order[j]] > vals[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	sorted := mat.Zeros(k, k)
	sv := make([]float64, k)
	fit := t.Clone()
	for j, c := range order {
		vecs.Col(col, c)
		sorted.SetCol(j, col)
		sv[j] = vals[c]
		fit.AddOuter(-vals[c], col)
	}
	return sv, sorted, fit.NormFrob(), nil
}

// sortFloats sorts u (no NaN) increasingly, as slices.Sort does, by a
// radix sort of the bits when u is long: the candidates of ProjectSimplex
// on a spectral topic are thousands of words, and their sort was most of
// its time. Equal values (and -0, +0) are interchangeable in the sums that
// follow, so the order of the values is what matters, and it is the same.
func sortFloats(u []float64) {
	if len(u) < 512 {
		slices.Sort(u)
		return
	}
	// Keys that order as the values do: negative values with every bit
	// flipped, the others with the sign bit set.
	keys := make([]uint64, 2*len(u))
	a, b := keys[:len(u)], keys[len(u):]
	for i, x := range u {
		k := math.Float64bits(x)
		if k>>63 != 0 {
			k = ^k
		} else {
			k |= 1 << 63
		}
		a[i] = k
	}
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for _, k := range a {
			count[(k>>shift)&0xff]++
		}
		if count[(a[0]>>shift)&0xff] == len(a) {
			continue // every key has this digit: the pass would not move them
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for _, k := range a {
			d := (k >> shift) & 0xff
			b[count[d]] = k
			count[d]++
		}
		a, b = b, a
	}
	for i, k := range a {
		if k>>63 != 0 {
			k &^= 1 << 63
		} else {
			k = ^k
		}
		u[i] = math.Float64frombits(k)
	}
}

// ProjectSimplex replaces v by its Euclidean projection onto the
// probability simplex {x >= 0, sum x = 1} and returns the l1 distance it
// moved. If v holds NaN or an infinity, every entry becomes NaN and so
// does the distance. When the largest entry exceeds 1 in magnitude it
// works on v less that entry (the projection does not change when a
// constant is added to every entry), so that entries too large for a
// unit step to show in their last bit are still projected.
//
// The projection is max(v - tau, 0) with tau = (sum of the j largest - 1)/j
// for the largest j at which the j-th largest entry exceeds that value.
// Every such ratio, for any j, is at most tau, so entries at or below one
// can be set aside before sorting: ProjectSimplex raises the bound by
// passes of the ratio over the entries above it (Michelot's iteration)
// until they stop shrinking, and sorts only those (a topic of a large
// vocabulary keeps a small part of its words), in O(n) passes plus
// O(c log c) for the c entries kept.
func ProjectSimplex(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			// No projection is defined: make that visible in every entry.
			for i := range v {
				v[i] = math.NaN()
			}
			return math.NaN()
		}
	}
	var top float64
	if m := slices.Max(v); math.Abs(m) > 1 {
		top = m
	}
	// A lower bound on tau from all the entries, raised by the entries
	// above it; a margin keeps entries within rounding of the bound.
	var sum float64
	for _, x := range v {
		sum += x - top
	}
	lb := (sum - 1) / float64(len(v))
	// The bound only rises, and so does the cut, so each pass keeps a
	// subset of the entries the last one kept: the passes after the first
	// run over those (cand, in the order of v, so that every sum adds the
	// same terms in the same order as a pass over v would).
	var cand []float64
	count := len(v)
	for pass := 0; pass < 64; pass++ {
		cut := lb - 1e-9*math.Max(1, math.Abs(lb))
		var s float64
		c := 0
		if cand == nil {
			// Every entry is written and the kept ones advance c (no
			// branch to mispredict on entries near the cut); their sum
			// is taken from cand, the same terms in the same order.
			cand = make([]float64, len(v))
			for _, x := range v {
				cand[c] = x
				if x-top > cut {
					c++
				}
			}
			for _, x := range cand[:c] {
				s += x - top
			}
		} else {
			for _, x := range cand {
				if x-top > cut {
					cand[c] = x
					s += x - top
					c++
				}
			}
		}
		if c == 0 {
			break
		}
		lb = math.Max(lb, (s-1)/float64(c))
		if c == count {
			break
		}
		count = c
		cand = cand[:c]
	}
	if cand == nil || count == len(v) {
		cand = v
	}
	cut := lb - 1e-9*math.Max(1, math.Abs(lb))
	u := make([]float64, 0, len(cand))
	for _, x := range cand {
		if x-top > cut {
			u = append(u, x)
		}
	}
	if len(u) == 0 {
		// Cannot happen (the largest entry exceeds every bound), but
		// keep the full sort as the definition.
		u = append(u, v...)
	}
	sortFloats(u)
	// tau is (sum of the j largest - 1)/j for the largest j at which the
	// j-th largest value still exceeds it (all less top).
	var cum, tau float64
	for j := 1; j <= len(u); j++ {
		x := u[len(u)-j] - top
		cum += x
		if t := (cum - 1) / float64(j); x > t {
			tau = t
		}
	}
	var moved float64
	for i, x := range v {
		p := math.Max((x-top)-tau, 0)
		moved += math.Abs(p - x)
		v[i] = p
	}
	return moved
}
