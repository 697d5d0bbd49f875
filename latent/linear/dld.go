package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// Partition is a split of the indices 0..n-1 into three parts, each
// sorted increasingly.
type Partition [3][]int

// RandomPartition returns a uniformly random split of 0..n-1 into three
// parts of sizes n/3, n/3 and n - 2(n/3), a shuffle cut in three, drawn
// from seed: the same seed gives the same partition. The seed comes
// last, as in every function of the module that takes one. (Lemma 5.3 of the
// topic-model paper draws each index's part independently; equal sizes
// serve the rank condition better.)
func RandomPartition(n int, seed uint64) Partition {
	return randomPartition(rand.New(rand.NewPCG(seed, seed)), n)
}

// randomPartition is RandomPartition drawing from rng.
func randomPartition(rng *rand.Rand, n int) Partition {
	perm := rng.Perm(n)
	a, b := n/3, 2*(n/3)
	p := Partition{slices.Clone(perm[:a]), slices.Clone(perm[a:b]), slices.Clone(perm[b:])}
	for i := range p {
		slices.Sort(p[i])
	}
	return p
}

// Decomposition is the split C = L + D of a matrix into a part L of rank
// k and a diagonal D computed by DLD.
type Decomposition struct {
	// L is C - diag(D).
	L *mat.Dense
	// D is the diagonal part.
	D []float64
	// Partition is the partition DLD used.
	Partition Partition
	// OffDiagRatio is sum_{i!=j} |D_ij| / sum_{ij} |D_ij| over the three
	// diagonal blocks D[I,I] that DLD computes: 0 for exact moments, and
	// the criterion by which DLDSearch chooses among partitions.
	OffDiagRatio float64
	// Cond is the largest ratio s_1/s_k over the blocks C[I,J] whose
	// top-k singular vectors DLD uses: a large value means some part is
	// close to rank deficient.
	Cond float64
	// Gap is the smallest ratio s_k/s_{k+1} over those blocks (+Inf when
	// no block has a (k+1)-th singular value or it is zero): the spectrum
	// gap that sets the rank k. Exact moments of a model of rank k give
	// a gap near 1/eps; sampled moments give s_{k+1} of the order of the
	// sampling noise, so a gap near 1 says that s_k is noise too.
	Gap float64
}

// DLDOptions controls DLD and DLDSearch. nil or the zero value gives
// the defaults stated for each field.
type DLDOptions struct {
	// Partitions is the number R of random partitions DLDSearch tries
	// (0: 100, the paper's choice).
	Partitions int
	// StopRatio stops the search early once a partition reaches an
	// off-diagonal ratio at or below it (0: 1e-10, which only exact
	// moments reach; negative: never stop early).
	StopRatio float64
	// RCond is the relative singular-value threshold below which a block
	// C[I,J] counts as rank deficient (0: 1e-11).
	RCond float64
	// Workers bounds the goroutines of the search (0: GOMAXPROCS).
	// Results do not depend on it.
	Workers int
	// Seed seeds the random partitions of DLDSearch: the same seed
	// gives the same bits. The learners draw their partitions from
	// Options.Seed instead.
	Seed uint64
	// LowerRank lets the low-rank part have rank below k: each part then
	// uses the numerical rank r <= k of its two blocks (singular values
	// above RCond times the largest) and the pseudo-inverse of the r x r
	// core (truncated at RCond) instead of failing. Slices Psi(zeta)
	// along a hidden direction, met by the power iteration, have rank
	// one.
	LowerRank bool
}

func (o *DLDOptions) defaults() DLDOptions {
	var d DLDOptions
	if o != nil {
		d = *o
	}
	if d.Partitions <= 0 {
		d.Partitions = 100
	}
	if d.StopRatio == 0 {
		d.StopRatio = 1e-10
	}
	if d.RCond <= 0 {
		d.RCond = 1e-11
	}
	return d
}

// DLD splits C = A B^T + D (n x n, D diagonal, A and B n x k) into its
// rank-k and diagonal parts with the partition p (SUBROUTINE of the
// linear-BN paper, DLD of the topic-model paper): for each part I, with
// J and K the two others (in cyclic order),
//
//	(A B^T)[I,I] = C[I,J] V_J (U_K^T C[K,J] V_J)^{-1} U_K^T C[K,I],
//
// with V_J the top-k right singular vectors of C[I,J] and U_K the top-k
// left singular vectors of C[K,J], and D[I,I] = C[I,I] - (A B^T)[I,I]. The
// result keeps the diagonal of the D[I,I] and L = C - diag(D); it is exact
// when every A[I] and B[I] has rank k. It returns an error matching
// ErrRankDeficient when a block C[I,J] or the k x k matrix to invert has
// numerical rank below k, ErrTooManyFactors when a part has fewer than k
// indices, ErrNotFinite for NaN or Inf in C or when D or L would
// overflow (C is scaled by a power of two to the unit range for the
// computation, so that any finite C can be decomposed), and
// ErrNoConvergence when an SVD does not converge. Only opts.RCond is
// used.
func DLD(c *mat.Dense, k int, p Partition, opts *DLDOptions) (*Decomposition, error) {
	n := checkSquare("DLD", c)
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	if err := checkFinite("C", c); err != nil {
		return nil, fmt.Errorf("linear: DLD: %w", err)
	}
	total := 0
	seen := make([]bool, n)
	for _, part := range p {
		total += len(part)
		for _, i := range part {
			if i < 0 || i >= n || seen[i] {
				panic(fmt.Sprintf("linear: DLD: partition is not a partition of 0..%d", n-1))
			}
			seen[i] = true
		}
	}
	if total != n {
		panic(fmt.Sprintf("linear: DLD: partition covers %d of %d indices", total, n))
	}
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d", ErrTooManyFactors, k)
	}
	for i, part := range p {
		if len(part) < k {
			return nil, fmt.Errorf("%w: part %d has %d indices, fewer than k = %d", ErrTooManyFactors, i, len(part), k)
		}
	}
	e := scaleExp(c)
	dec, err := dld(scaled(c, e), k, p, &o, isSymmetric(c))
	if err != nil {
		return nil, err
	}
	return dec.scaleUp(c, e)
}

// rangeErr turns an error matching svd.ErrRange (a pseudo-inverse or a
// solve whose result overflows float64: the matrix is singular to
// working precision near the bottom of the range) into one matching
// ErrRankDeficient that names what overflowed; other errors pass
// unchanged.
func rangeErr(err error, what string) error {
	if errors.Is(err, svd.ErrRange) {
		return fmt.Errorf("%w: %s overflows (a matrix is numerically singular): %w", ErrRankDeficient, what, err)
	}
	return err
}

// svdErr wraps an error of package svd with msg, so that a failure to
// converge also matches ErrNoConvergence.
func svdErr(err error, msg string) error {
	if errors.Is(err, svd.ErrNoConvergence) {
		return fmt.Errorf("%w: %s: %w", ErrNoConvergence, msg, err)
	}
	return fmt.Errorf("linear: %s: %w", msg, err)
}

// scaleExp returns the exponent e of the power of two just above the
// largest magnitude in the finite matrix c (0 for a zero matrix): DLD
// and LearnTWM work on c / 2^e, whose products can neither overflow nor
// underflow, whatever the scale of the input.
func scaleExp(c *mat.Dense) int {
	m := c.NormMax()
	if m == 0 {
		return 0
	}
	_, e := math.Frexp(m)
	return e
}

// scaled returns c / 2^e (c itself for e = 0).
func scaled(c *mat.Dense, e int) *mat.Dense {
	if e == 0 {
		return c
	}
	s := c.Clone()
	r, _ := s.Dims()
	for i := 0; i < r; i++ {
		row := s.RawRow(i)
		for j, v := range row {
			row[j] = math.Ldexp(v, -e)
		}
	}
	return s
}

// scaleUp returns the decomposition of the scaled matrix as that of c
// (D times 2^e, L = C - diag(D)), or an error matching ErrNotFinite
// when D or L overflows.
func (dec *Decomposition) scaleUp(c *mat.Dense, e int) (*Decomposition, error) {
	dec.L = c.Clone()
	for i, d := range dec.D {
		d = math.Ldexp(d, e)
		l := c.At(i, i) - d
		if math.IsInf(d, 0) || math.IsInf(l, 0) || math.IsNaN(l) {
			return nil, fmt.Errorf("%w: DLD: the diagonal part of row %d overflows", ErrNotFinite, i)
		}
		dec.D[i] = d
		dec.L.Set(i, i, l)
	}
	return dec, nil
}

// blockSVD is the SVD of one off-diagonal block C[a,b].
type blockSVD struct {
	u, v *mat.Dense // top-k singular vectors (|a| x k, |b| x k)
	s    []float64
	rank int // numerical rank, at most k
}

func dld(c *mat.Dense, k int, p Partition, o *DLDOptions, sym bool) (*Decomposition, error) {
	rcond := o.RCond
	n, _ := c.Dims()
	svds := map[[2]int]*blockSVD{}
	get := func(a, b int) (*blockSVD, error) {
		if s, ok := svds[[2]int{a, b}]; ok {
			return s, nil
		}
		if sym {
			if s, ok := svds[[2]int{b, a}]; ok {
				t := &blockSVD{u: s.v, v: s.u, s: s.s, rank: s.rank}
				svds[[2]int{a, b}] = t
				return t, nil
			}
		}
		f, err := svd.Factorize(gather(c, p[a], p[b]), nil)
		if err != nil {
			return nil, svdErr(err, fmt.Sprintf("DLD: SVD of block (%d,%d)", a, b))
		}
		rank := 0
		for rank < k && f.S[rank] > rcond*f.S[0] {
			rank++
		}
		if rank < k && !(o.LowerRank && rank > 0) {
			return nil, fmt.Errorf("%w: DLD: block (%d,%d) has numerical rank below k = %d (s_k/s_1 = %.3g)", ErrRankDeficient, a, b, k, f.S[k-1]/f.S[0])
		}
		ra, _ := f.U.Dims()
		rb, _ := f.V.Dims()
		s := &blockSVD{u: f.U.Slice(0, ra, 0, k), v: f.V.Slice(0, rb, 0, k), s: f.S, rank: rank}
		svds[[2]int{a, b}] = s
		return s, nil
	}
	dec := &Decomposition{D: make([]float64, n), Partition: p, Gap: math.Inf(1)}
	var off, all float64
	for i := 0; i < 3; i++ {
		j, kk := (i+1)%3, (i+2)%3
		sij, err := get(i, j)
		if err != nil {
			return nil, err
		}
		skj, err := get(kk, j)
		if err != nil {
			return nil, err
		}
		r := min(sij.rank, skj.rank)
		dec.Cond = math.Max(dec.Cond, math.Max(sij.s[0]/sij.s[r-1], skj.s[0]/skj.s[r-1]))
		dec.Gap = math.Min(dec.Gap, math.Min(spectrumGap(sij.s, r), spectrumGap(skj.s, r)))
		vj := sij.v.Slice(0, len(p[j]), 0, r)
		uk := skj.u.Slice(0, len(p[kk]), 0, r)
		// X = C[I,J] V_J, M = U_K^T C[K,J] V_J, Y = U_K^T C[K,I].
		var x, t, m, y mat.Dense
		x.Mul(gather(c, p[i], p[j]), vj)
		t.Mul(gather(c, p[kk], p[j]), vj)
		m.MulAT(uk, &t)
		y.MulAT(uk, gather(c, p[kk], p[i]))
		fm, err := svd.Factorize(&m, nil)
		if err != nil {
			return nil, svdErr(err, fmt.Sprintf("DLD: SVD of the core of part %d", i))
		}
		if fm.S[0] == 0 || (fm.S[r-1] <= rcond*fm.S[0] && !o.LowerRank) {
			return nil, fmt.Errorf("%w: DLD: core matrix of part %d is singular", ErrRankDeficient, i)
		}
		var z, lr mat.Dense
		// truncated: a pseudo-inverse with LowerRank
		if _, err := fm.Solve(&z, &y, rcond); err != nil {
			return nil, rangeErr(svdErr(err, fmt.Sprintf("DLD: solve with the core of part %d", i)), fmt.Sprintf("DLD: the low-rank part of part %d", i))
		}
		lr.Mul(&x, &z)
		cii := gather(c, p[i], p[i])
		for a := range p[i] {
			row, lrow := cii.RawRow(a), lr.RawRow(a)
			for b := range p[i] {
				d := math.Abs(row[b] - lrow[b])
				all += d
				if a != b {
					off += d
				}
			}
			dec.D[p[i][a]] = row[a] - lrow[a]
		}
	}
	if math.IsInf(all, 0) || math.IsNaN(all) {
		// With C scaled to the unit range, only a core matrix singular
		// to working precision can make the low-rank part overflow.
		return nil, fmt.Errorf("%w: DLD: the low-rank part overflows (a core matrix is numerically singular)", ErrRankDeficient)
	}
	if all > 0 {
		dec.OffDiagRatio = off / all
	}
	return dec, nil
}

// spectrumGap returns s[r-1]/|s[r]| for singular or eigen values s in
// decreasing order, +Inf when s has no r-th value past r-1 or it is 0.
func spectrumGap(s []float64, r int) float64 {
	if r < 1 || len(s) <= r || s[r] == 0 {
		return math.Inf(1)
	}
	return s[r-1] / math.Abs(s[r])
}

// DLDSearch runs DLD on opts.Partitions random partitions drawn from
// opts.Seed (as RandomPartition draws them) and returns the decomposition with the smallest
// off-diagonal ratio (the paper's rule for sampled moments; the first on
// ties), stopping early once a ratio reaches opts.StopRatio. Partitions
// are drawn in order and evaluated in parallel in fixed batches, so the
// result depends only on C, k and the options, not on the number of
// workers. ctx must not be nil; cancelling it stops the search. It
// returns an error matching ErrTooManyFactors if 3k > n,
// ErrRankDeficient if no partition works, and otherwise the first error
// of DLD that is not ErrRankDeficient (ErrNoConvergence, or ErrNotFinite
// when the result overflows).
func DLDSearch(ctx context.Context, c *mat.Dense, k int, opts *DLDOptions) (*Decomposition, error) {
	checkCtx("DLDSearch", ctx)
	var seed uint64
	if opts != nil {
		seed = opts.Seed
	}
	return dldSearch(ctx, c, k, rand.New(rand.NewPCG(seed, seed)), opts)
}

// dldSearch is DLDSearch drawing the partitions from rng.
func dldSearch(ctx context.Context, c *mat.Dense, k int, rng *rand.Rand, opts *DLDOptions) (*Decomposition, error) {
	top, err := dldSearchTop(ctx, c, k, rng, opts, 1)
	if err != nil {
		return nil, err
	}
	return top[0], nil
}

// dldSearchTop is dldSearch returning the decompositions of the m
// partitions with the smallest off-diagonal ratios (fewer when fewer
// partitions work; only the best when it reaches opts.StopRatio), best
// first, ties to the partition drawn first.
func dldSearchTop(ctx context.Context, c *mat.Dense, k int, rng *rand.Rand, opts *DLDOptions, m int) ([]*Decomposition, error) {
	n := checkSquare("DLDSearch", c)
	if err := opts.check(); err != nil {
		return nil, err
	}
	o := opts.defaults()
	if k < 1 || k > n/3 {
		return nil, fmt.Errorf("%w: k = %d with n = %d (need 1 <= k <= n/3)", ErrTooManyFactors, k, n)
	}
	if err := checkFinite("C", c); err != nil {
		return nil, fmt.Errorf("linear: DLDSearch: %w", err)
	}
	sym := isSymmetric(c)
	e := scaleExp(c)
	cs := scaled(c, e)
	const batch = 8
	var top []*Decomposition // sorted by OffDiagRatio, at most m
	var firstErr error
	results := make([]*Decomposition, batch)
	errs := make([]error, batch)
	for start := 0; start < o.Partitions; start += batch {
		b := min(batch, o.Partitions-start)
		parts := make([]Partition, b)
		for i := range parts {
			parts[i] = randomPartition(rng, n)
		}
		if err := par.For(ctx, b, workers(o.Workers), func(i int) {
			results[i], errs[i] = dld(cs, k, parts[i], &o, sym)
		}); err != nil {
			return nil, err
		}
		for i := 0; i < b; i++ {
			if errs[i] != nil {
				if firstErr == nil {
					firstErr = errs[i]
				}
				if !errors.Is(errs[i], ErrRankDeficient) {
					return nil, errs[i]
				}
				continue
			}
			at := len(top)
			for at > 0 && results[i].OffDiagRatio < top[at-1].OffDiagRatio {
				at--
			}
			if at < m {
				top = slices.Insert(top, at, results[i])
				if len(top) > m {
					top = top[:m]
				}
			}
		}
		if len(top) > 0 && top[0].OffDiagRatio <= o.StopRatio {
			top = top[:1]
			break
		}
	}
	if len(top) == 0 {
		return nil, fmt.Errorf("linear: DLDSearch: no partition of %d tried gives blocks of rank k = %d: %w", o.Partitions, k, firstErr)
	}
	out := make([]*Decomposition, 0, len(top))
	for i, d := range top {
		sd, err := d.scaleUp(c, e)
		if err != nil {
			if i == 0 {
				return nil, err
			}
			break // only the best one's failure is the search's
		}
		out = append(out, sd)
	}
	return out, nil
}
