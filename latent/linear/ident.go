package linear

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// MaxExactExpansion is the largest number of columns for which
// CheckExpansion enumerates every set of columns (2^k sets, pruned).
const MaxExactExpansion = 32

// ExpansionReport is the result of CheckExpansion.
type ExpansionReport struct {
	// Holds reports that the expansion property holds. When Exact is
	// false, a false Holds means only that the sufficient check failed.
	Holds bool
	// Exact reports that every set of columns was examined.
	Exact bool
	// DMax is the largest column degree (non-zeros in a column).
	DMax int
	// Violator is a set of columns S (|S| >= 2) with |N(S)| < |S| + DMax,
	// found by the exact check; nil otherwise.
	Violator []int
	// Neighbours is |N(Violator)|.
	Neighbours int
}

// CheckExpansion checks the expansion property of the support of a
// (n x k; the entries with |a_ij| > tol): |N(S)| >= |S| + d_max for every
// set S of at least two columns, N(S) the rows with a non-zero in some
// column of S and d_max the largest column degree (Condition 2 of the
// topic-model paper, Condition 3 of the linear-BN paper). For k <=
// MaxExactExpansion it enumerates the sets depth first, pruning the
// branches whose every extension must pass; otherwise it runs the
// polynomial sufficient check of ExpansionSufficient. It returns an
// error matching ErrNotFinite if a or tol is NaN or a holds an infinity
// (a NaN entry would otherwise count as zero, and the property could be
// reported to hold).
func CheckExpansion(a *mat.Dense, tol float64) (ExpansionReport, error) {
	n, k := a.Dims()
	if err := checkFinite("A", a); err != nil {
		return ExpansionReport{}, fmt.Errorf("linear: CheckExpansion: %w", err)
	}
	if math.IsNaN(tol) {
		return ExpansionReport{}, fmt.Errorf("linear: CheckExpansion: %w: tol is NaN", ErrNotFinite)
	}
	sup := supportBits(a, tol)
	rep := ExpansionReport{}
	for j := 0; j < k; j++ {
		rep.DMax = max(rep.DMax, popcount(sup[j]))
	}
	if k > MaxExactExpansion {
		rep.Holds = ExpansionSufficient(a, tol)
		return rep, nil
	}
	rep.Exact = true
	words := (n + 63) / 64
	cur := make([][]uint64, k+1)
	for i := range cur {
		cur[i] = make([]uint64, words)
	}
	var set []int
	var found bool
	var dfs func(depth, next int)
	dfs = func(depth, next int) {
		if found {
			return
		}
		nb := popcount(cur[depth])
		if depth >= 2 && nb < depth+rep.DMax {
			found = true
			rep.Violator = slices.Clone(set)
			rep.Neighbours = nb
			return
		}
		if nb >= depth+(k-next)+rep.DMax {
			return // every extension passes
		}
		for j := next; j < k; j++ {
			for w := range cur[depth+1] {
				cur[depth+1][w] = cur[depth][w] | sup[j][w]
			}
			set = append(set, j)
			dfs(depth+1, j+1)
			set = set[:len(set)-1]
			if found {
				return
			}
		}
	}
	dfs(0, 0)
	rep.Holds = !found
	return rep, nil
}

// ExpansionSufficient is a polynomial-time sufficient condition for the
// expansion property of the support of a (entries with |a_ij| > tol): for
// every size s = 2..k it bounds |N(S)| from below over all sets of s
// columns by the largest of (1) the smallest |N(T)| over the sets T of
// min(s, 3) columns (every S contains such a T; O(k^3) sets), (2)
// the sum of the s smallest column degrees minus the sum of the
// s(s-1)/2 largest pairwise overlaps |N(i) & N(j)| (Bonferroni), and (3)
// n minus the number of rows with at most k-s non-zeros (a row outside
// N(S) has its support among the other k-s columns), and reports whether
// every bound reaches s + d_max. True means the property holds; false
// means the check is inconclusive, as it always is when a or tol holds
// NaN or a holds an infinity.
func ExpansionSufficient(a *mat.Dense, tol float64) bool {
	n, k := a.Dims()
	if _, _, bad := a.NonFinite(); bad || math.IsNaN(tol) {
		return false
	}
	if k < 2 {
		return true
	}
	sup := supportBits(a, tol)
	deg := make([]int, k)
	dmax := 0
	for j := range deg {
		deg[j] = popcount(sup[j])
		dmax = max(dmax, deg[j])
	}
	minPair, minTriple := math.MaxInt, math.MaxInt
	var overlaps []int
	words := len(sup[0])
	pair := make([]uint64, words)
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			var union, inter int
			for w := 0; w < words; w++ {
				pair[w] = sup[i][w] | sup[j][w]
				union += bits.OnesCount64(pair[w])
				inter += bits.OnesCount64(sup[i][w] & sup[j][w])
			}
			minPair = min(minPair, union)
			overlaps = append(overlaps, inter)
			for l := j + 1; l < k; l++ {
				t := 0
				for w := 0; w < words; w++ {
					t += bits.OnesCount64(pair[w] | sup[l][w])
				}
				minTriple = min(minTriple, t)
			}
		}
	}
	slices.Sort(deg)
	slices.Sort(overlaps)
	slices.Reverse(overlaps)
	rowDeg := make([]int, k+1) // rowDeg[d]: rows with d non-zeros
	for i := 0; i < n; i++ {
		d := 0
		for j := 0; j < k; j++ {
			if math.Abs(a.At(i, j)) > tol {
				d++
			}
		}
		rowDeg[d]++
	}
	sumDeg, sumOver := 0, 0
	for s := 2; s <= k; s++ {
		if s == 2 {
			sumDeg = deg[0] + deg[1]
		} else {
			sumDeg += deg[s-1]
		}
		for p := (s - 1) * (s - 2) / 2; p < s*(s-1)/2 && p < len(overlaps); p++ {
			sumOver += overlaps[p]
		}
		few := 0
		for d := 0; d <= k-s; d++ {
			few += rowDeg[d]
		}
		sub := minPair
		if s >= 3 {
			sub = minTriple
		}
		bound := max(sub, sumDeg-sumOver, n-few)
		if bound < s+dmax {
			return false
		}
	}
	return true
}

// Incoherence returns the incoherence number c_A = max_j (n/k) ||U^T
// e_j||^2 of a (n x k), U an orthonormal basis of its column space
// (Definition 5.2 of the topic-model paper): between 1 and n/k, small
// when a random 3-way split of the rows keeps every part of full column
// rank (Lemma 5.3). It returns an error matching ErrRankDeficient if a
// has rank below k.
func Incoherence(a *mat.Dense) (float64, error) {
	n, k := a.Dims()
	f, err := svd.Factorize(a, &svd.Options{Want: svd.WantU})
	if err != nil {
		return 0, fmt.Errorf("linear: Incoherence: %w", err)
	}
	if len(f.S) < k || f.S[k-1] <= 1e-12*f.S[0] {
		return 0, fmt.Errorf("%w: Incoherence: the matrix has rank below %d", ErrRankDeficient, k)
	}
	var c float64
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < k; j++ {
			v := f.U.At(i, j)
			s += v * v
		}
		c = math.Max(c, s)
	}
	return c * float64(n) / float64(k), nil
}

// RankCondition reports whether every part of p selects rows of a (n x
// k) of full column rank k (Condition 5 of the topic-model paper),
// singular values below 1e-10 times the largest counting as zero.
func RankCondition(a *mat.Dense, p Partition) bool {
	_, k := a.Dims()
	for _, part := range p {
		if len(part) < k {
			return false
		}
		s, err := svd.Values(gather(a, part, seq(k)))
		if err != nil || s[k-1] <= 1e-10*s[0] {
			return false
		}
	}
	return true
}

// RowGaps returns, for each row of a, the gap gamma_i = 1 - |a_2|/|a_1|
// between its largest and second largest absolute entries (1 for a row
// with a single non-zero, 0 for an empty row, NaN for a row that holds
// NaN or an infinity): Theorem 3.2 wants every gap positive and every
// column to hold the largest entry of some row, which ColumnsLeadRows
// checks.
func RowGaps(a *mat.Dense) []float64 {
	n, _ := a.Dims()
	g := make([]float64, n)
	for i := 0; i < n; i++ {
		a1, a2 := 0.0, 0.0
		if !finiteSlice(a.RawRow(i)) {
			g[i] = math.NaN()
			continue
		}
		for _, v := range a.RawRow(i) {
			v = math.Abs(v)
			if v > a1 {
				a1, a2 = v, a1
			} else if v > a2 {
				a2 = v
			}
		}
		if a1 > 0 {
			g[i] = 1 - a2/a1
		}
	}
	return g
}

// ColumnsLeadRows reports whether every column of a holds the largest
// absolute entry of at least one row (the covering condition of Theorem
// 3.2: each column is then the answer of some row's l1 problem). It
// reports false if a holds NaN or an infinity.
func ColumnsLeadRows(a *mat.Dense) bool {
	n, k := a.Dims()
	if _, _, bad := a.NonFinite(); bad {
		return false
	}
	lead := make([]bool, k)
	for i := 0; i < n; i++ {
		best, at := 0.0, -1
		for j, v := range a.RawRow(i) {
			if math.Abs(v) > best {
				best, at = math.Abs(v), j
			}
		}
		if at >= 0 {
			lead[at] = true
		}
	}
	return !slices.Contains(lead, false)
}

// supportBits returns, per column of a, the bit set of rows with
// |a_ij| > tol.
func supportBits(a *mat.Dense, tol float64) [][]uint64 {
	n, k := a.Dims()
	words := (n + 63) / 64
	sup := make([][]uint64, k)
	for j := range sup {
		sup[j] = make([]uint64, words)
	}
	for i := 0; i < n; i++ {
		for j, v := range a.RawRow(i) {
			if math.Abs(v) > tol {
				sup[j][i/64] |= 1 << (i % 64)
			}
		}
	}
	return sup
}

// finiteSlice reports whether every element of x is finite.
func finiteSlice(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func popcount(b []uint64) int {
	c := 0
	for _, w := range b {
		c += bits.OnesCount64(w)
	}
	return c
}

// L1Recovery reports which columns of a (n x k, full column rank) the l1
// rounds of LearnTWM recover exactly from the exact second moment L = A
// H A^T (h: the k x k second moment of the hidden variables, positive
// definite; nil means the identity), with the options opts (the basic or
// the projection variant; refinement is turned off): covered[j] is true
// when some returned column is a multiple of column j (cosine above 1 -
// 1e-10). Together with CheckExpansion this decides whether a model lies
// where the method is exact: Theorem 3.2's conditions (i) and (ii), which
// guarantee it, are rarely met at the paper's sizes, where the l1 step
// still recovers most models. It costs about one LearnTWM, cancelled
// with ctx (which must not be nil). It returns the errors of LearnTWM.
func L1Recovery(ctx context.Context, a, h *mat.Dense, opts *TWMOptions) ([]bool, error) {
	checkCtx("L1Recovery", ctx)
	_, k := a.Dims()
	found, err := l1Columns(ctx, a, h, opts)
	if err != nil {
		return nil, err
	}
	covered := make([]bool, k)
	columnPairs(a, found, func(j int, dot, nc, _ float64) {
		if math.Abs(dot) >= (1-1e-10)*nc {
			covered[j] = true
		}
	})
	return covered, nil
}
