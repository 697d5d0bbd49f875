package fuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/simplex"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

// The targets of this file feed the learners small problems decoded from
// the fuzzer's bytes (bounded dimensions, so that each call takes
// milliseconds), with the values and options that data and flags can
// bring: NaN, infinities, huge and tiny numbers, zero and constant
// columns, empty and degenerate shapes, counts and sizes out of range.
// Their invariant: the call returns an error, or a finite result of the
// documented shape; it never panics (in its own goroutine or in a
// worker), runs away or allocates beyond its budget (see bounded).

// extreme returns an edge of the float64 range, picked by c.
func extreme(c byte) float64 {
	return [...]float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 1e-300, 5e-324,
		math.MaxFloat64, 0, -0.0, 1e154, 1e-154}[int(c)%12]
}

// option decodes a float option: mostly 0 (the default) or a modest
// value, sometimes negative or an edge of the range.
func (s *linSrc) option(modest float64) float64 {
	switch c := s.byte(); c % 8 {
	case 0, 1, 2:
		return 0
	case 3, 4:
		return modest * float64(1+c%5)
	case 5:
		return -modest
	default:
		return extreme(s.byte())
	}
}

// count decodes an integer that data or a flag gives: mostly 0..limit-1,
// sometimes negative or huge.
func (s *linSrc) count(limit int) int {
	switch c := s.byte(); {
	case c < 232:
		return int(c) % limit
	case c < 240:
		return -int(c % 8)
	case c < 248:
		return 1 << (54 + c%9) // up to 2^62: 3k and k*k overflow
	default:
		return math.MaxInt - int(c%8)
	}
}

// small decodes an integer option that no flag sets: -2..limit-1.
func (s *linSrc) small(limit int) int {
	return int(s.byte())%(limit+2) - 2
}

// spoil damages a few cells of x (rows are samples) the way data can: a
// non-finite or extreme cell, a constant column, a duplicated column.
func (s *linSrc) spoil(x *mat.Dense) {
	r, c := x.Dims()
	if r == 0 || c == 0 {
		return
	}
	for range s.byte() % 4 {
		i, j := int(s.byte())%r, int(s.byte())%c
		switch s.byte() % 4 {
		case 0, 1:
			x.Set(i, j, extreme(s.byte()))
		case 2:
			v := x.At(0, j)
			for t := 0; t < r; t++ {
				x.Set(t, j, v)
			}
		case 3:
			for t := 0; t < r; t++ {
				x.Set(t, j, x.At(t, i%c))
			}
		}
	}
}

// samples decodes an n x rows sample matrix of skewed values at a scale
// of 2^-20..2^20 (or at the edges of the exponent range), then spoiled.
func (s *linSrc) samples(rows, n int) *mat.Dense {
	e := int(s.byte()%41) - 20
	if c := s.byte(); c%16 == 0 {
		e = 1000 - 2000*int(c%32/16) + int(s.byte()%20)
	}
	x := mat.Zeros(rows, n)
	for i := 0; i < rows; i++ {
		for j := 0; j < n; j++ {
			v := s.entry(3)
			x.Set(i, j, math.Ldexp(v*math.Abs(v), e)) // skewed
		}
	}
	if s.byte()%2 == 0 {
		s.spoil(x)
	}
	return x
}

// checkFinite fails t unless every entry of the named matrices is
// finite and each has the stated shape.
func checkFinite(t *testing.T, what string, x *mat.Dense, r, c int) {
	t.Helper()
	if x == nil {
		t.Fatalf("%s is nil", what)
	}
	if xr, xc := x.Dims(); xr != r || xc != c || !isFinite(x) {
		t.Fatalf("%s is %dx%d, want %dx%d, finite:\n%v", what, xr, xc, r, c, x)
	}
}

// checkVec fails t unless v has n finite entries.
func checkVec(t *testing.T, what string, v []float64, n int) {
	t.Helper()
	if len(v) != n {
		t.Fatalf("%s has %d entries, want %d", what, len(v), n)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%s[%d] = %v", what, i, x)
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// isPerm reports whether p is a permutation of 0..n-1.
func isPerm(p []int, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, v := range p {
		if v < 0 || v >= n || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// Budgets of the learners, for a unit of input: an entry of a sample
// or moment matrix, a token-count pair of a corpus or a word of its
// vocabulary. The shapes are small, so the fixed part dominates; the
// per-unit part is far above what the quadratic and cubic steps need
// at these sizes (TestBudgetsHold measures about 500 bytes per unit on
// larger inputs), and far below what a runaway takes.
var (
	topicBudget    = budget{base: 16 << 20, perUnit: 8 << 10}
	linearBudget   = budget{base: 16 << 20, perUnit: 8 << 10}
	numericsBudget = budget{base: 1 << 20, perUnit: 2 << 10}
)

// treemixBudget is per cell of the tables that treemix may form (see
// treemixCells) and of the data: the method is exponential in its
// separator bounds by design, and the budget follows.
var treemixBudget = budget{base: 16 << 20, perUnit: 64}

// treemixCells bounds the cells of the tables that the rank test and
// the decomposition form for p variables with d states and separators
// of at most e nodes (e capped at p-2, the most there can be): for
// every ordered pair, a table of d^(j+2) cells for each of the C(p-2,
// j) separators of j <= e nodes; plus the n x p data.
func treemixCells(n, p, d, e int) int {
	e = min(max(e, 0), max(p-2, 0))
	per, binom, pow := 0, 1, d*d
	for j := 0; j <= e; j++ {
		per += binom * pow
		binom = binom * (p - 2 - j) / (j + 1)
		pow *= d
	}
	return n*p + p*p*per
}

// topicFrom decodes a tiny corpus (up to 7 documents over up to 11
// words, some empty, some with counts up to 2^32-1), k, alpha0 and the
// options.
type topicCase struct {
	corpus *moments.Corpus
	k      int
	alpha0 float64
	opts   topic.Options
	units  int
}

func topicFrom(data []byte) topicCase {
	s := newLinSrc(data)
	var b moments.Builder
	n := int(s.byte() % 12)
	b.SetVocabSize(n)
	docs := int(s.byte() % 8)
	units := 0
	for range docs {
		m := 0
		if n > 0 {
			m = int(s.byte()) % (n + 1)
		}
		words := make([]int32, 0, m)
		counts := make([]uint32, 0, m)
		for _, w := range rand.New(rand.NewPCG(uint64(s.byte()), 0)).Perm(n)[:m] {
			c := uint32(1 + s.byte()%4)
			if s.byte() == 255 {
				c = math.MaxUint32 - uint32(s.byte())
			}
			words = append(words, int32(w))
			counts = append(counts, c)
		}
		if err := b.Add(words, counts); err != nil {
			panic(err) // the decoder's mistake
		}
		units += m
	}
	tc := topicCase{corpus: b.Corpus(), units: units + n}
	tc.k = s.count(n + 2)
	tc.alpha0 = 1
	if c := s.byte(); c%4 == 0 {
		tc.alpha0 = s.option(0.5)
	} else {
		tc.alpha0 = float64(c%32) / 4
	}
	h := s.byte()
	tc.opts = topic.Options{Method: topic.Method(h % 2), Seed: uint64(s.byte()), MaxCond: s.option(1e4),
		Passes: moments.Options{Workers: s.count(4)}}
	if h&4 != 0 {
		tc.opts.Power = &tensor3.PowerOptions{Starts: s.small(4), Iters: s.small(12), Polish: s.small(4),
			Tol: s.option(1e-8), Simultaneous: h&8 != 0, SimIters: s.small(50)}
	}
	if h&16 != 0 {
		tc.opts.Eigen = &svd.TopEigOptions{Oversample: s.small(6), MaxIter: s.small(20), Tol: s.option(1e-6)}
	}
	return tc
}

func seedTopic(f *testing.F) {
	f.Add([]byte{5, 4, 3, 1, 1, 2, 3, 1, 1, 3, 2, 0, 0, 1, 0, 2, 2, 1, 1, 0, 3, 0, 0, 0, 0, 2, 8, 0, 1})
	f.Add([]byte{11, 7, 11, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 11, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 4})
	f.Add([]byte{3, 3, 1, 0, 1, 1, 0, 255, 9, 1, 0, 1, 2, 3})     // a count near 2^32
	f.Add([]byte{0, 0, 0})                                        // no words, no documents
	f.Add([]byte{6, 3, 0, 0, 0, 0, 0, 0, 2, 4})                   // empty documents
	f.Add([]byte{6, 5, 2, 1, 1, 2, 1, 2, 1, 3, 1, 4, 1, 5, 245})  // k = 2^62
	f.Add([]byte{6, 5, 2, 1, 1, 2, 1, 2, 1, 3, 1, 4, 1, 5, 2, 0}) // alpha0 from option()
	f.Add(bytes.Repeat([]byte{7, 3, 2}, 30))
}

// checkTopic checks the topics or factors of a learned model of k
// topics over n words and its spectral diagnostics: finite parts of the
// documented shapes.
func checkTopic(t *testing.T, topics *mat.Dense, sp topic.Spectral, n, k int) {
	t.Helper()
	checkFinite(t, "Topics", topics, n, k)
	checkVec(t, "Lambda", sp.Lambda, k)
	if !finite(sp.Residual) || sp.Residual < 0 {
		t.Fatalf("residual %v", sp.Residual)
	}
}

// checkLDA checks a topic.LDAResult as checkTopic does, and its topics
// on the simplex with finite alphas and moved masses.
func checkLDA(t *testing.T, res *topic.LDAResult, n, k int) {
	t.Helper()
	checkTopic(t, res.Topics, res.Spectral, n, k)
	checkVec(t, "Alpha", res.Alpha, k)
	checkVec(t, "Moved", res.Moved, k)
	for j := 0; j < k; j++ {
		var sum float64
		for i := 0; i < n; i++ {
			v := res.Topics.At(i, j)
			if v < 0 {
				t.Fatalf("topic %d: word %d has probability %v", j, i, v)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("topic %d sums to %v", j, sum)
		}
	}
}

// FuzzLDA: topic.LearnLDA on a tiny corpus with any k, alpha0 and options
// returns an error, or topics on the simplex (n x k), and finite
// alphas, eigenvalues and moved masses; within topicBudget per
// document-word entry or word of the vocabulary.
func FuzzLDA(f *testing.F) {
	seedTopic(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		tc := topicFrom(data)
		var res *topic.LDAResult
		var err error
		bounded(t, "topic.LearnLDA", topicBudget, tc.units, func() {
			res, err = topic.LearnLDA(context.Background(), tc.corpus, tc.k, tc.alpha0, &tc.opts)
		})
		if err != nil {
			return
		}
		checkLDA(t, res, tc.corpus.VocabSize(), tc.k)
		if res.Alpha0 != tc.alpha0 {
			t.Fatalf("alpha0 %v, given %v", res.Alpha0, tc.alpha0)
		}
	})
}

// FuzzECA: topic.LearnECA, as FuzzLDA, returns an error or finite factors
// (n x k) and eigenvalues.
func FuzzECA(f *testing.F) {
	seedTopic(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		tc := topicFrom(data)
		var res *topic.ECAResult
		var err error
		bounded(t, "topic.LearnECA", topicBudget, tc.units, func() {
			res, err = topic.LearnECA(context.Background(), tc.corpus, tc.k, &tc.opts)
		})
		if err != nil {
			return
		}
		checkTopic(t, res.Factors, res.Spectral, tc.corpus.VocabSize(), tc.k)
	})
}

// dagCase is the input of the linear-DAG targets: samples, their
// moments (possibly spoiled after the fact), k and the options.
type dagCase struct {
	x     *mat.Dense
	sm    *moments.SampleMoments
	third linear.ThirdMoments
	k     int
	opts  linear.DAGOptions
}

// dagFrom decodes, in this order, the options byte h, n in lo..hi-1, N
// in 0..3n+9, k (any int, 2^62 included), the options, and then the
// samples; it forms their moments as the CLI does (nil when
// NewSampleMoments fails).
func dagFrom(data []byte, lo, hi int) (dagCase, error) {
	s := newLinSrc(data)
	h := s.byte()
	n := lo + int(s.byte())%(hi-lo)
	rows := int(s.byte()) % (3*n + 10)
	dc := dagCase{k: s.count(n/3 + 2)}
	dc.opts = linear.DAGOptions{
		Options: linear.Options{
			DLD:  linear.DLDOptions{Partitions: s.small(6), StopRatio: s.option(1e-6), RCond: s.option(1e-10), Workers: s.count(4), LowerRank: h&2 != 0},
			TWM:  linear.TWMOptions{Basic: h&4 != 0, SparsityTol: s.option(0.01), NoRefine: h&8 != 0, Workers: 1},
			Seed: uint64(s.byte()),
		},
		Method:           linear.ECAMethod(h >> 4 % 3),
		MaxIter:          s.small(30),
		Tol:              s.option(1e-10),
		Zetas:            s.small(4),
		NoiseIters:       s.small(5),
		MaxNoiseSkew:     s.option(2),
		LambdaFromSecond: h&64 != 0,
		Prune:            s.option(0.01),
	}
	x := s.samples(rows, n)
	dc.x = x
	mo := moments.Options{Workers: 1 + 2*int(h&1)}
	sm, err := moments.NewSampleMoments(context.Background(), moments.DenseSamples{X: x}, &mo)
	if err != nil {
		return dc, err
	}
	if s.byte()%4 == 0 {
		s.perturb(sm.Sigma)
	}
	dc.sm = sm
	dc.third = &linear.SampleThird{Moments: sm, Src: moments.DenseSamples{X: x}, Passes: mo}
	return dc, nil
}

func seedDAG(f *testing.F) {
	// h, n, N, k, then the options (0: defaults) and the samples.
	opts := []byte{3, 0, 0, 2, 0, 0, 7, 5, 0, 0, 0, 0, 0}
	seed := func(head []byte, tail ...byte) []byte {
		return append(append(append([]byte{}, head...), opts...), tail...)
	}
	f.Add(seed([]byte{0, 5, 20, 1}, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))
	f.Add(seed([]byte{1, 8, 30, 2}, 22, 3, 1))
	f.Add(seed([]byte{16, 6, 24, 1}, 18, 5, 1, 0, 1, 2, 1, 7, 0, 0))   // ECAPower
	f.Add(seed([]byte{32, 6, 24, 1}, 18, 5, 1, 0, 1, 2, 1, 7, 0, 0))   // ECASingle
	f.Add(seed([]byte{0, 5, 2, 1}, 20, 1))                             // fewer samples than variables
	f.Add(seed([]byte{0, 1, 0, 1}, 20, 1))                             // no samples
	f.Add(seed([]byte{0, 6, 20, 1}, 0, 32, 4))                         // scale near 2^1004
	f.Add(seed([]byte{0, 6, 20, 1}, 0, 48, 4))                         // scale near 2^-996
	f.Add(seed([]byte{0, 6, 20, 0}))                                   // k = 0
	f.Add(seed([]byte{0, 6, 20, 242}))                                 // k = 2^62 (issue 14)
	f.Add(seed([]byte{0, 6, 20, 255}))                                 // k = MaxInt
	f.Add(seed([]byte{0, 6, 20, 1}, 20, 1, 3, 2, 0, 1, 0, 1, 2, 2, 0)) // spoiled: a NaN cell
	f.Add(bytes.Repeat([]byte{0x31}, 120))                             // constant columns
}

// FuzzLearnDAG: linear.LearnDAG on the moments of small samples (n <= 9)
// with any k and options returns an error, or finite parts of the
// documented shapes: A n x k, Lambda k x k strictly lower triangular,
// Order a permutation, EtaVar, Skewness, NoiseVar, C; within
// linearBudget per sample entry and entry of Sigma.
func FuzzLearnDAG(f *testing.F) {
	seedDAG(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		dc, err := dagFrom(data, 1, 10)
		if err != nil {
			return
		}
		r, n := dc.x.Dims()
		var d *linear.DAG
		bounded(t, "linear.LearnDAG", linearBudget, r*n+n*n, func() {
			d, err = linear.LearnDAG(context.Background(), dc.sm.Sigma, dc.third, dc.k, &dc.opts)
		})
		if err != nil {
			return
		}
		k := dc.k
		checkFinite(t, "A", d.A, n, k)
		checkFinite(t, "Lambda", d.Lambda, k, k)
		checkFinite(t, "C", d.C, k, k)
		for i := 0; i < k; i++ {
			for j := i; j < k; j++ {
				if d.Lambda.At(i, j) != 0 {
					t.Fatalf("Lambda[%d][%d] = %v: not strictly lower triangular", i, j, d.Lambda.At(i, j))
				}
			}
		}
		checkVec(t, "NoiseVar", d.NoiseVar, n)
		checkCausal(t, d.EtaVar, d.Skewness, d.Order, d.Triangularity, k)
	})
}

// FuzzLearnObservedBN: linear.LearnObservedBN on the moments of small
// samples (n <= 6) returns an error, or a finite Lambda (n x n, zero
// diagonal), a causal order that is a permutation, finite EtaVar and
// Skewness; within linearBudget per sample entry and entry of Sigma.
func FuzzLearnObservedBN(f *testing.F) {
	seedDAG(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		dc, err := dagFrom(data, 1, 7)
		if err != nil {
			return
		}
		r, n := dc.x.Dims()
		var bn *linear.ObservedBN
		bounded(t, "linear.LearnObservedBN", linearBudget, r*n+n*n, func() {
			bn, err = linear.LearnObservedBN(context.Background(), dc.sm.Sigma, dc.third, &dc.opts)
		})
		if err != nil {
			return
		}
		checkFinite(t, "Lambda", bn.Lambda, n, n)
		for i := 0; i < n; i++ {
			if bn.Lambda.At(i, i) != 0 {
				t.Fatalf("Lambda[%d][%d] = %v", i, i, bn.Lambda.At(i, i))
			}
		}
		checkCausal(t, bn.EtaVar, bn.Skewness, bn.Order, bn.Triangularity, n)
	})
}

// FuzzCoefficientMatrix: linear.LearnCoefficients on the matrices of
// FuzzDLD (exact models C = A B^T + D, junk bit patterns, spoiled
// models) made symmetric, with any k, returns an error or finite A
// (n x k), HiddenSigma (k x k) and NoiseVar (n); within linearBudget
// per entry of Sigma.
func FuzzCoefficientMatrix(f *testing.F) {
	seedDLD(f)
	f.Add([]byte{1, 1, 0, 0, 20, 7, 7, 7, 0, 244}) // k = 2^62 (count of the last bytes)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, s := dldFrom(data)
		sigma := m.c.Clone()
		sigma.Symmetrize()
		n, _ := sigma.Dims()
		k := m.k
		if s.byte()%8 == 0 {
			k = s.count(n + 2)
		}
		h := s.byte()
		opts := linear.Options{
			DLD:  linear.DLDOptions{Partitions: s.small(8), StopRatio: s.option(1e-6), Workers: s.count(4), LowerRank: h&2 != 0},
			TWM:  linear.TWMOptions{Basic: h&4 != 0, NoRefine: h&8 != 0, Dense: h&16 != 0, SparsityTol: s.option(0.01), Workers: 1},
			Seed: uint64(s.byte()),
		}
		var c *linear.Coefficients
		var err error
		bounded(t, "linear.LearnCoefficients", linearBudget, n*n, func() {
			c, err = linear.LearnCoefficients(context.Background(), sigma, k, &opts)
		})
		if err != nil {
			return
		}
		checkFinite(t, "A", c.A, n, k)
		checkFinite(t, "HiddenSigma", c.HiddenSigma, k, k)
		checkVec(t, "NoiseVar", c.NoiseVar, n)
	})
}

// treemixFrom decodes discrete data (p variables in 1..7, d states in
// 1..5, n samples in 0..40) and a number of components.
func treemixFrom(s *linSrc) (*treemix.Data, int) {
	p := 1 + int(s.byte()%7)
	d := 1 + int(s.byte()%5)
	n := int(s.byte() % 41)
	x := treemix.NewData(n, p, d)
	for i := range n {
		for v := range p {
			x.Set(i, v, int(s.byte())%d)
		}
	}
	return x, s.count(5)
}

func seedTreemix(f *testing.F) {
	f.Add([]byte{4, 3, 30, 2, 0, 1, 2, 0, 1, 2, 2, 1, 0, 0, 1, 2, 1, 2, 0, 0, 0, 1, 1, 2, 2, 2, 1, 0, 1, 0})
	f.Add([]byte{0, 2, 10, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0}) // one variable
	f.Add([]byte{3, 0, 10})                               // one state
	f.Add([]byte{3, 3, 0})                                // no samples
	f.Add([]byte{5, 4, 40})                               // random cells
	f.Add(bytes.Repeat([]byte{6, 4, 33, 2, 245}, 40))
}

// FuzzTreemixLearn: treemix.Learn on small discrete data with any r and
// options (Eta up to 2^62, thresholds NaN or Inf) returns an error, or
// a valid mixture (Validate) of r forests over the p variables with d
// states, and its report; within treemixBudget per cell of the tables
// its separator bounds allow (treemixCells).
func FuzzTreemixLearn(f *testing.F) {
	seedTreemix(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newLinSrc(data)
		x, r := treemixFrom(s)
		n, p, d := x.Dims()
		h := s.byte()
		w := treemix.Options{Workers: s.count(4)}
		opts := treemix.LearnOptions{
			Options: w,
			Rank:    treemix.RankOptions{Eta: s.count(4), Xi: s.option(0.01), XiScale: s.option(0.5), MinCount: s.option(1), Candidates: s.small(5)},
			Spectral: treemix.SpectralOptions{Isolate: h&2 != 0, EdgesOnly: h&4 != 0, MaxSeparator: s.small(5),
				MinCount: s.option(1), Seed: uint64(s.byte())},
		}
		if h&8 != 0 {
			opts.Spectral.Reference = []int{s.count(p + 1), s.count(p + 1)}
		}
		var m *treemix.Mixture
		var rep *treemix.Report
		var err error
		eta := opts.Rank.Eta
		if eta == 0 {
			eta = r
		}
		sep := opts.Spectral.MaxSeparator
		if sep == 0 {
			sep = 4
		}
		bounded(t, "treemix.Learn", treemixBudget, treemixCells(n, p, d, max(eta, sep)), func() {
			m, rep, err = treemix.Learn(context.Background(), treemix.Empirical(x, &w), r, &opts)
		})
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil || rep == nil {
			t.Fatalf("invalid mixture (%v) or no report", err)
		}
		if mp, md, mr := m.Dims(); mp != p || md != d || mr != r {
			t.Fatalf("mixture of %d over %d variables with %d states, want %d, %d, %d", mr, mp, md, r, p, d)
		}
		for h, net := range m.Nets {
			if !net.IsForest() {
				t.Fatalf("component %d is not a forest", h)
			}
		}
	})
}

// FuzzTreemixEM: treemix.EM from RandomStart on small discrete data,
// with any number of components and options (Tol and Prior NaN, Inf,
// negative), returns an error (ErrNoConvergence with a model is an
// error too), or a valid mixture of the start's shape with a finite
// mean log-likelihood and a trace of Iterations+1 entries; within
// treemixBudget per cell of the data and pair tables, 4 times for each
// component and iteration.
func FuzzTreemixEM(f *testing.F) {
	seedTreemix(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newLinSrc(data)
		x, r := treemixFrom(s)
		n, p, d := x.Dims()
		h := s.byte()
		opts := treemix.EMOptions{Options: treemix.Options{Workers: s.count(4)}, MaxIter: s.count(8),
			Tol: s.option(1e-6), Prior: s.option(1)}
		if r < 1 || r > 8 {
			return // RandomStart's k: it panics below 1, by its contract
		}
		iters := opts.MaxIter
		if iters <= 0 {
			iters = 100
		}
		if iters > 100 {
			return // the caller asked for that many passes: not a runaway
		}
		var init, m *treemix.Mixture
		var res *treemix.EMResult
		var err error
		bounded(t, "treemix.EM", treemixBudget, treemixCells(n, p, d, 0)*max(r, 1)*(iters+1)*4, func() {
			init = treemix.RandomStart(x, r, uint64(h))
			m, res, err = treemix.LearnEM(context.Background(), x, init, &opts)
		})
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("invalid mixture: %v", err)
		}
		if mp, md, mr := m.Dims(); mp != p || md != d || mr != r {
			t.Fatalf("mixture of %d over %d variables with %d states, want %d, %d, %d", mr, mp, md, r, p, d)
		}
		if !finite(res.MeanLogLik) || len(res.Trace) != res.Iterations+1 || res.Iterations > iters {
			t.Fatalf("mean log-likelihood %v, trace of %d for %d iterations (at most %d)", res.MeanLogLik, len(res.Trace), res.Iterations, iters)
		}
	})
}

// FuzzL1MinBatch: simplex.L1MinBatch on B (n x k, n <= 12, k <= 4) and
// Q (m x k, m <= 6) of any values (NaN, Inf, extremes from the raw
// bits) and options returns an error, or one result per row of Q with
// finite W (k entries) and S (n entries), Norm = ||S||_1 >= 0 and
// q^T W = 1 within rounding; within numericsBudget per entry of B and
// Q and per simplex iteration allowed (L1Options.MaxIter).
func FuzzL1MinBatch(f *testing.F) {
	f.Add([]byte{5, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{8, 3, 2, 1, 4, 0, 0, 0, 4, 0, 0, 0, 4, 4, 4, 0, 252, 4, 0, 8, 8, 8, 1, 0, 0})
	f.Add([]byte{3, 1, 1, 2, 1, 2, 3, 0})    // q = 0: infeasible
	f.Add([]byte{3, 2, 2, 4, 1, 2, 3, 1, 1}) // raw bits, mostly zero
	f.Add([]byte{2, 2, 1, 6, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		n, k, m, h := 1+int(data[0]%12), 1+int(data[1]%4), int(data[2]%7), data[3]
		s := newLinSrc(data[4:])
		val := func() float64 {
			if h&1 != 0 && len(s.b) >= 8 {
				v := floats(s.b[:8])[0]
				s.b = s.b[8:]
				return v
			}
			return float64(int8(s.byte())) / 8
		}
		b, q := mat.Zeros(n, k), mat.Zeros(m, k)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				b.Set(i, j, val())
			}
		}
		for i := 0; i < m; i++ {
			for j := 0; j < k; j++ {
				q.Set(i, j, val())
			}
		}
		opts := &simplex.L1Options{MaxIter: s.small(200), Tol: s.option(1e-9), NoWarmStart: h&2 != 0, PoolSize: s.small(8)}
		if h&4 != 0 {
			opts = nil
		}
		var res []simplex.L1Result
		var err error
		// Each problem may take its iteration limit, each iteration
		// allocating a little (the general solver's fallback).
		limit := 50*(n+k) + 1000
		if opts != nil && opts.MaxIter > 0 {
			limit = opts.MaxIter
		}
		bounded(t, "simplex.L1MinBatch", numericsBudget, (n+m)*k+m*limit, func() {
			res, err = simplex.L1MinBatch(context.Background(), b, q, opts)
		})
		if err != nil {
			if len(res) > m {
				t.Fatalf("%d results for %d rows", len(res), m)
			}
			return
		}
		if len(res) != m {
			t.Fatalf("%d results for %d rows", len(res), m)
		}
		for i, r := range res {
			checkVec(t, fmt.Sprintf("W of row %d", i), r.W, k)
			checkVec(t, fmt.Sprintf("S of row %d", i), r.S, n)
			var l1, qw, qwAbs float64
			for _, v := range r.S {
				l1 += math.Abs(v)
			}
			for j, v := range r.W {
				qw += q.At(i, j) * v
				qwAbs += math.Abs(q.At(i, j) * v)
			}
			if !(r.Norm >= 0) || math.Abs(r.Norm-l1) > 1e-12*l1 || math.Abs(qw-1) > 1e-9*math.Max(1, qwAbs) {
				t.Fatalf("row %d: norm %v, ||S||_1 = %v, q^T w = %v", i, r.Norm, l1, qw)
			}
		}
	})
}

// FuzzPseudoInverse: lq.PseudoInverse of any matrix of up to 12 x 12
// (matrixFrom) with any rcond returns ErrNotFinite exactly for a
// non-finite input, and otherwise a finite n x m result and a rank in
// 0..min(m, n), or ErrRange, only where the pseudo-inverse may lie
// outside the range (pinvMayOverflow); within numericsBudget per entry
// of A.
func FuzzPseudoInverse(f *testing.F) {
	seedMatrices(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPinv(t, b, "lq.PseudoInverse", lq.PseudoInverse, lq.ErrNotFinite, func(a *mat.Dense, rcond float64, _ int, err error) bool {
			return errors.Is(err, lq.ErrRange) && pinvMayOverflow(a, rcond)
		})
	})
}

// FuzzSVDPseudoInverse: svd.PseudoInverse of any matrix of up to
// 12 x 12 (matrixFrom) with any rcond returns ErrNotFinite exactly for a
// non-finite input, ErrBadOption for a NaN rcond, and otherwise a finite
// n x m result and a rank in 0..min(m, n), or ErrRange, only where the
// pseudo-inverse may lie outside the range: its entries are at most
// 1/S[r-1] (S the singular values, r the rank), so only where
// S[r-1] < 2^-1020; within numericsBudget per entry of A.
func FuzzSVDPseudoInverse(f *testing.F) {
	seedMatrices(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPinv(t, b, "svd.PseudoInverse", svd.PseudoInverse, svd.ErrNotFinite, func(a *mat.Dense, rcond float64, rank int, err error) bool {
			if math.IsNaN(rcond) {
				if !errors.Is(err, svd.ErrBadOption) {
					t.Fatalf("NaN rcond: %v", err)
				}
				return true
			}
			if !errors.Is(err, svd.ErrRange) {
				return false
			}
			s, ferr := svd.Factorize(a, nil)
			if ferr != nil || rank < 1 || rank > len(s.S) || !(s.S[rank-1] < 0x1p-1020) {
				t.Fatalf("ErrRange at rank %d: %v", rank, ferr)
			}
			return true
		})
	})
}

// checkPinv runs pinv (named what) on the matrix and the rcond that b
// gives, within numericsBudget per entry, and checks what
// FuzzPseudoInverse and FuzzSVDPseudoInverse promise: notFinite for a
// non-finite matrix; for a finite one, settled first (given err, nil or
// not), which reports whether the outcome is settled, failing t itself
// where it is wrong; then no error, and an n x m finite result of a
// rank in 0..min(m, n).
func checkPinv(t *testing.T, b []byte, what string, pinv func(dst, a *mat.Dense, rcond float64) (int, error), notFinite error, settled func(a *mat.Dense, rcond float64, rank int, err error) bool) {
	a := matrixFrom(b)
	m, n := a.Dims()
	rcond := 0.0
	if len(b) > 2 && b[2]%4 == 0 {
		rcond = extreme(b[2] / 4)
	} else if len(b) > 2 && b[2]%4 == 1 {
		rcond = math.Ldexp(1, -int(b[2]/4))
	}
	var dst mat.Dense
	var rank int
	var err error
	bounded(t, what, numericsBudget, m*n, func() {
		rank, err = pinv(&dst, a, rcond)
	})
	if !isFinite(a) {
		if !errors.Is(err, notFinite) {
			t.Fatalf("non-finite matrix: %v, want %v", err, notFinite)
		}
		return
	}
	if settled(a, rcond, rank, err) {
		return
	}
	if err != nil {
		t.Fatalf("finite %dx%d matrix: %v", m, n, err)
	}
	if r, c := dst.Dims(); r != n || c != m || rank < 0 || rank > min(m, n) {
		t.Fatalf("%dx%d result of rank %d for a %dx%d matrix", r, c, rank, m, n)
	}
	if !isFinite(&dst) {
		t.Fatalf("non-finite pseudo-inverse of a finite matrix of rank %d:\n%v", rank, &dst)
	}
}

// pinvMayOverflow reports whether the pseudo-inverse of a that
// lq.PseudoInverse computes with rcond may lie outside the float64
// range. Its norm is that of T⁻¹, T the r x r triangle of the factored
// trapezoid of the kept rows of the pivoted factorization, at most that
// of the inverse of its leading block L11 (the pivoted L's first r
// rows and columns). The pivoting keeps |L[i][j]| <= |L[j][j]| below the
// diagonal, so ||L11⁻¹|| <= 2^r/|p| for its least pivot p (Faddeev's
// bound), and the result, and the arithmetic that forms it, stay below
// 2^1020 unless p < 2^(r+4-1024). An rcond below the rounding level
// keeps such pivots: rounding errors of a matrix near the bottom of the
// range.
func pinvMayOverflow(a *mat.Dense, rcond float64) bool {
	f, err := lq.FactorizePivoted(a.T())
	if err != nil {
		return true
	}
	var l mat.Dense
	f.L(&l)
	r := f.Rank(rcond)
	for i := range r {
		if math.Abs(l.At(i, i)) < math.Ldexp(1, r+4-1024) {
			return true
		}
	}
	return false
}

// FuzzRandomizedEigSym: svd.RandomizedEigSym of a symmetric matrix of
// up to 12 x 12 (the symmetric part of matrixFrom) with k in 1..n and
// any oversampling and power iterations returns an error, or k finite
// values in decreasing order and n x k vectors with orthonormal
// columns (up to ratio fuzzRatio); within numericsBudget per entry.
func FuzzRandomizedEigSym(f *testing.F) {
	seedMatrices(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		a := matrixFrom(b)
		m, c := a.Dims()
		n := min(m, c)
		if n == 0 {
			return
		}
		sym := a.Slice(0, n, 0, n).Clone()
		sym.Symmetrize()
		s := newLinSrc(b)
		k := 1 + int(s.byte())%n
		opts := &svd.RandomizedOptions{Oversample: s.small(16), PowerIters: s.small(5), Seed: uint64(len(b))}
		var e *svd.Eigen
		var err error
		bounded(t, "svd.RandomizedEigSym", numericsBudget, n*n, func() {
			e, err = svd.RandomizedEigSym(context.Background(), svd.DenseOperator(sym), k, opts)
		})
		if err != nil {
			return
		}
		checkVec(t, "Values", e.Values, k)
		if !slices.IsSortedFunc(e.Values, func(x, y float64) int { return -cmpFloat(x, y) }) {
			t.Fatalf("values %v not in decreasing order", e.Values)
		}
		checkFinite(t, "Vectors", e.Vectors, n, k)
		if r := mattest.OrthColsRatio(e.Vectors); r > fuzzRatio {
			t.Fatalf("vectors not orthonormal: ratio %v", r)
		}
	})
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// checkCausal asserts what LearnDAG and LearnObservedBN both return for
// their k variables in causal order: finite EtaVar and Skewness of
// length k, an Order that is a permutation of 0..k-1 and a finite
// Triangularity.
func checkCausal(t *testing.T, etaVar, skewness []float64, order []int, triangularity float64, k int) {
	t.Helper()
	checkVec(t, "EtaVar", etaVar, k)
	checkVec(t, "Skewness", skewness, k)
	if !isPerm(order, k) || !finite(triangularity) {
		t.Fatalf("order %v, triangularity %v", order, triangularity)
	}
}
