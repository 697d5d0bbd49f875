package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// checkEig checks k eigenpairs (vals, u) of an n x n matrix: at least k
// values and k columns, all finite. It returns n.
func checkEig(fn string, vals []float64, u *mat.Dense, k int) (int, error) {
	n, m := u.Dims()
	if len(vals) < k || m < k {
		panic(fmt.Sprintf("linear: %s: %d values and %d vectors for k = %d", fn, len(vals), m, k))
	}
	for i, v := range vals[:k] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return n, fmt.Errorf("linear: %s: %w: eigenvalue %d = %v", fn, ErrNotFinite, i, v)
		}
	}
	if err := checkFinite("the eigenvectors", u); err != nil {
		return n, fmt.Errorf("linear: %s: %w", fn, err)
	}
	return n, nil
}

// firstCols returns the first k columns of u (u itself when it has k).
func firstCols(u *mat.Dense, k int) *mat.Dense {
	n, m := u.Dims()
	if m == k {
		return u
	}
	out := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		copy(out.RawRow(i), u.RawRow(i)[:k])
	}
	return out
}

// LearnTWMEig is LearnTWM given the top k eigenpairs of L instead of L:
// vals holds the k largest eigenvalues in decreasing order (further ones
// are ignored) and the columns of u (n x k or wider) the orthonormal
// eigenvectors. Everything LearnTWM does after its eigendecomposition
// depends on L only through them (B = U diag(sqrt(vals))), so for a
// vocabulary-sized L given as an operator (say, the product with the
// Pairs of a corpus) the eigenpairs can come from svd.TopEigSym and no
// n x n matrix is ever formed. The result equals LearnTWM's on L up to
// the accuracy of the eigenpairs. The rank test is lambda_k > 1e-12
// lambda_1 (LearnTWM also compares with the largest entry of L, which is
// not known here). Errors: as LearnTWM.
func LearnTWMEig(ctx context.Context, vals []float64, u *mat.Dense, k int, opts *TWMOptions) (*TWMResult, error) {
	checkCtx("LearnTWMEig", ctx)
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	_, m := u.Dims()
	if k < 1 || k > m || k > len(vals) {
		return nil, fmt.Errorf("%w: LearnTWMEig: k = %d with %d eigenpairs", ErrTooManyFactors, k, min(m, len(vals)))
	}
	if _, err := checkEig("LearnTWMEig", vals, u, k); err != nil {
		return nil, err
	}
	if vals[0] <= 0 || vals[k-1] <= 1e-12*vals[0] {
		return nil, fmt.Errorf("%w: LearnTWMEig: fewer than k = %d positive eigenvalues (lambda_k/lambda_1 = %.3g)", ErrRankDeficient, k, vals[k-1]/vals[0])
	}
	// As LearnTWM: work on L / 2^e, e even.
	_, e := math.Frexp(vals[0])
	e += e & 1
	sv := make([]float64, k)
	for j := range sv {
		sv[j] = math.Ldexp(vals[j], -e)
	}
	return twmFromEig(ctx, sv, firstCols(u, k), k, &o, e, spectrumGap(vals, k))
}

// unitVarianceEig is UnitVariance for L = U diag(vals) U^T:
// H = (A^+ U) diag(vals) (A^+ U)^T.
func unitVarianceEig(a *mat.Dense, vals []float64, u *mat.Dense) (*mat.Dense, *mat.Dense, error) {
	_, k := a.Dims()
	b, err := unitVariancePinv(a, k)
	if err != nil {
		return nil, nil, err
	}
	var bu mat.Dense
	bu.Mul(b, u) // k x k
	scaledBU := bu.Clone()
	for i := 0; i < k; i++ {
		row := scaledBU.RawRow(i)
		for j := range row {
			row[j] *= vals[j]
		}
	}
	var h mat.Dense
	h.MulBT(scaledBU, &bu)
	return unitScale(a, &h, 0)
}

// LearnCrossDAGEig is LearnCrossDAG given the top k eigenpairs of the
// second cross cumulant Pairs instead of Pairs (vals and u as in
// LearnTWMEig): every step of LearnCrossDAG uses Pairs only through its
// rank-k approximation U diag(vals) U^T (LearnTWM's factor B, the
// whitening W = U diag(vals)^{-1/2}, the hidden second moment A^+ Pairs
// A^+^T), and the third moment comes from triples, so with the
// eigenpairs from svd.TopEigSym on the product with Pairs
// (LearnCorrelatedTopics) no n x n matrix is formed: memory is O(n k) (see
// DAGOptions.CheckMemoryEig). The result equals LearnCrossDAG's on Pairs
// up to the accuracy of the eigenpairs and, for the hidden second moment,
// the part of Pairs outside its top k eigenpairs (zero for population
// moments). Errors: as LearnCrossDAG.
func LearnCrossDAGEig(ctx context.Context, vals []float64, u *mat.Dense, triples CrossTriples, k int, opts *DAGOptions) (*DAG, error) {
	checkCtx("LearnCrossDAGEig", ctx)
	n, _ := u.Dims()
	if k < 1 || k > n/3 {
		return nil, fmt.Errorf("%w: k = %d with n = %d (need 1 <= k <= n/3)", ErrTooManyFactors, k, n)
	}
	if _, err := checkEig("LearnCrossDAGEig", vals, u, k); err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	if err := o.checkKnowledge("LearnCrossDAGEig", k, false); err != nil {
		return nil, err
	}
	if err := o.thirdOnly("LearnCrossDAGEig"); err != nil {
		return nil, err
	}
	o.Method = ECATensor
	if err := o.CheckMemoryEig(n, k); err != nil {
		return nil, fmt.Errorf("linear: LearnCrossDAGEig: %w", err)
	}
	vals, u = vals[:k], firstCols(u, k)
	progress(o.Progress, "LearnTWM", 0, 1)
	twm, err := LearnTWMEig(ctx, vals, u, k, &o.TWM)
	if err != nil {
		return nil, err
	}
	a, hidden, err := unitVarianceEig(twm.A, vals, u)
	if err != nil {
		return nil, err
	}
	progress(o.Progress, "LearnTWM", 1, 1)
	w, winvT, _, err := whitenEig(vals, u, k)
	if err != nil {
		return nil, err
	}
	return crossFinish(ctx, a, hidden, twm, w, winvT, triples, &o)
}

// crossFinish runs Parts 2 and 3 of LearnCrossDAG from the canonical A,
// the hidden second moment and the whitening.
func crossFinish(ctx context.Context, a, hidden *mat.Dense, twm *TWMResult, w, winvT *mat.Dense, triples CrossTriples, o *DAGOptions) (*DAG, error) {
	e := &eca{w: w, winvT: winvT, third: crossThird{triples}, opts: o}
	v, eig, err := e.run(ctx, rand.New(rand.NewPCG(o.Seed, 0xc7a)))
	if err != nil {
		return nil, err
	}
	if err := checkSkewed(eig); err != nil {
		return nil, err
	}
	var s, apinv, c mat.Dense
	s.Mul(winvT, v)
	if _, err := svd.PseudoInverse(&apinv, a, 1e-12); err != nil {
		return nil, fmt.Errorf("linear: LearnCrossDAG: %w", rangeErr(err, "the pseudo-inverse of A"))
	}
	c.Mul(&apinv, &s)
	res, err := dagFromC(&c, eig, hidden, o)
	if err != nil {
		return nil, err
	}
	res.A = permuteCols(a, res.Order)
	res.Cumulants = CumulantsThird
	res.Kurtosis = make([]float64, len(res.Skewness))
	for j := range res.Kurtosis {
		res.Kurtosis[j] = math.NaN()
	}
	res.Iterations = e.iters
	res.Coefficients = &Coefficients{A: a, HiddenSigma: hidden, TWM: twm}
	if res.Coefficients.Verdict, err = coefVerdict(ctx, res.Coefficients, &o.Options, ""); err != nil {
		return nil, err
	}
	res.Verdict.merge(res.Coefficients.Verdict)
	res.dagChecks(o.Samples)
	return res, nil
}

// crossEigNeed estimates the bytes LearnCrossDAGEig holds for n observed
// and k hidden variables: the l1 solvers of LearnTWM (at most 64, each
// with two copies of B and six n-vectors), about ten n x k matrices (U,
// B, A, W, (W^+)^T and their copies) and one round of candidates (a
// w of k and a few scalars per row).
func crossEigNeed(n, k int) int64 {
	solvers := min((n+twmChunk-1)/twmChunk, twmMaxSolvers)
	return size.Add(size.Scale(solvers, size.Float64s(2*k+6, n)), size.Float64s(10*k, n), size.Float64s(k+8, n))
}

// CheckMemoryEig returns the *mat.MemoryError (matching mat.ErrTooLarge)
// that LearnCrossDAGEig returns for n observed and k hidden variables
// under o.MaxMemory, or nil, without allocating; its need grows as n k,
// not n^2. It returns an error matching ErrTooManyFactors unless 1 <= k
// <= n/3. nil o means the defaults.
func (o *DAGOptions) CheckMemoryEig(n, k int) error {
	d := o.defaults()
	if k < 1 || k > n/3 {
		return fmt.Errorf("%w: k = %d with n = %d (need 1 <= k <= n/3)", ErrTooManyFactors, k, n)
	}
	return mat.CheckMemory(fmt.Sprintf("the cross moments of %d variables for k = %d", n, k), crossEigNeed(n, k), d.MaxMemory)
}
