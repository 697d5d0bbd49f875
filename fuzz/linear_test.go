package fuzz

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// linSrc hands out the fuzzer's bytes one at a time and, once they run
// out, bytes of a generator seeded by them: short inputs still give
// whole (dense, generic) matrices.
type linSrc struct {
	b []byte
	r *rand.Rand
}

func newLinSrc(b []byte) *linSrc {
	h := uint64(14695981039346656037) // FNV-1a
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return &linSrc{b: b, r: rand.New(rand.NewPCG(h, uint64(len(b))))}
}

func (s *linSrc) byte() byte {
	if len(s.b) > 0 {
		c := s.b[0]
		s.b = s.b[1:]
		return c
	}
	return byte(s.r.Uint32())
}

// entry is zero when the low three bits of a byte are below zeros (0..8
// of 8), and otherwise +-(0.5 + m/8), m = 0..15 from the high bits.
func (s *linSrc) entry(zeros byte) float64 {
	c := s.byte()
	if c&7 < zeros {
		return 0
	}
	v := 0.5 + float64(c>>4)/8
	if c&8 != 0 {
		v = -v
	}
	return v
}

// sparse returns an r x c matrix of entries.
func (s *linSrc) sparse(r, c int, zeros byte) *mat.Dense {
	a := mat.Zeros(r, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			a.Set(i, j, s.entry(zeros))
		}
	}
	return a
}

// spd returns M M^T / k + I for a k x k matrix M of entries: positive
// definite with condition number at most about 1 + 6k.
func (s *linSrc) spd(k int) *mat.Dense {
	m := s.sparse(k, k, 2)
	var h mat.Dense
	h.MulBT(m, m)
	h.Scale(1/float64(k), &h)
	for i := 0; i < k; i++ {
		h.Set(i, i, h.At(i, i)+1)
	}
	h.Symmetrize()
	return &h
}

// junk fills an n x n matrix with the bit patterns of the remaining
// bytes (NaN, Inf, subnormals and all), zero-padded.
func (s *linSrc) junk(n int) *mat.Dense {
	x := floats(s.b)
	s.b = s.b[min(len(s.b), 8*len(x)):]
	c := mat.Zeros(n, n)
	for i := 0; i < n*n && i < len(x); i++ {
		c.Set(i/n, i%n, x[i])
	}
	return c
}

// perturb spoils a matrix in one of the ways data can: a non-finite or
// extreme entry, a zero row and column, a repeated row and column, or a
// scaling to the edges of the exponent range.
func (s *linSrc) perturb(c *mat.Dense) {
	n, _ := c.Dims()
	if n == 0 {
		return
	}
	i, j := int(s.byte())%n, int(s.byte())%n
	switch s.byte() % 8 {
	case 0:
		c.Set(i, j, math.NaN())
	case 1:
		c.Set(i, j, math.Inf(1-2*int(s.byte()%2)))
	case 2:
		c.Set(i, j, 1e300)
	case 3:
		c.Set(i, j, 1e-300)
	case 4:
		for t := 0; t < n; t++ {
			c.Set(i, t, 0)
			c.Set(t, i, 0)
		}
	case 5:
		for t := 0; t < n; t++ {
			c.Set(i, t, c.At(j, t))
		}
		for t := 0; t < n; t++ {
			c.Set(t, i, c.At(t, j))
		}
	case 6:
		c.Scale(math.Ldexp(1, 900+int(s.byte()%200)), c)
	case 7:
		c.Scale(math.Ldexp(1, -900-int(s.byte()%200)), c)
	}
}

// linRows returns a[rows, :].
func linRows(a *mat.Dense, rows []int) *mat.Dense {
	_, k := a.Dims()
	out := mat.Zeros(len(rows), k)
	for r, i := range rows {
		out.SetRow(r, a.RawRow(i))
	}
	return out
}

// linPartCond returns the largest condition number s_1/s_k of the rows
// of a (n x k) selected by each part of p (+Inf for a part of rank
// below k or fewer than k rows).
func linPartCond(a *mat.Dense, p linear.Partition) float64 {
	_, k := a.Dims()
	worst := 1.0
	for _, part := range p {
		if len(part) < k {
			return math.Inf(1)
		}
		sv, err := svd.Values(linRows(a, part))
		if err != nil || !(sv[k-1] > 0) {
			return math.Inf(1)
		}
		worst = math.Max(worst, sv[0]/sv[k-1])
	}
	return worst
}

// dldModel is the input of FuzzDLD: C, and for the exact models A, B
// (C = A B^T + diag(d)) and d; k is the number of factors to ask for.
type dldModel struct {
	c, a, b *mat.Dense
	d       []float64
	k       int
	exact   bool
}

// dldFrom decodes the fuzz input. The first byte picks the kind:
// 0 a general C = A B^T + D, 1 a symmetric C = A H A^T + D (B = A H),
// 2 junk bit patterns, 3 a model spoiled by perturb.
func dldFrom(data []byte) (dldModel, *linSrc) {
	s := newLinSrc(data)
	kind := s.byte() % 4
	if kind == 2 {
		n := int(s.byte() % 16)
		k := int(s.byte()%8) - 1
		return dldModel{c: s.junk(n), k: k}, s
	}
	k := 1 + int(s.byte()%4)
	n := 3*k + int(s.byte()%7)
	zeros := s.byte() % 5
	scale := math.Ldexp(1, int(s.byte()%41)-20)
	a := s.sparse(n, k, zeros)
	var b *mat.Dense
	if kind == 1 {
		b = new(mat.Dense)
		b.Mul(a, s.spd(k))
	} else {
		b = s.sparse(n, k, zeros)
	}
	a.Scale(scale, a)
	var c mat.Dense
	c.MulBT(a, b)
	if kind == 1 {
		c.Symmetrize()
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = scale * s.entry(1)
		c.Set(i, i, c.At(i, i)+d[i])
	}
	m := dldModel{c: &c, a: a, b: b, d: d, k: k, exact: kind != 3}
	if kind == 3 {
		s.perturb(&c)
	}
	if s.byte()%8 == 0 {
		m.k = int(s.byte()%8) - 1
		m.exact = m.exact && m.k == k
	}
	return m, s
}

// dldCondMax bounds the conditioning of the parts of A and B for which
// FuzzDLD demands recovery: the blocks C[I,J] then have condition
// numbers below 1e6, far from DLD's rank threshold 1e-11.
const dldCondMax = 1e3

// dldRecoveryTol is the largest scaled residual of the recovered
// diagonal accepted on exact models with well-conditioned parts:
// max_i |D_i - d_i| / (n eps max|C| Cond), Cond the largest condition
// number of the blocks DLD reports.
const dldRecoveryTol = 50

// checkDLD checks what DLD promises of a successful decomposition of c
// with the partition p: the shapes, L = C - diag(D) (exactly: C
// off the diagonal, C_ii - D_i on it), finite outputs, an off-diagonal
// ratio in [0, 1] and a condition number of at least 1.
func checkDLD(t *testing.T, what string, c *mat.Dense, dec *linear.Decomposition, p linear.Partition) {
	t.Helper()
	n, _ := c.Dims()
	if r, cc := dec.L.Dims(); r != n || cc != n || len(dec.D) != n {
		t.Fatalf("%s: L is %dx%d and D has %d entries for n = %d", what, r, cc, len(dec.D), n)
	}
	for i := range 3 {
		if !slices.Equal(dec.Partition[i], p[i]) {
			t.Fatalf("%s: partition %v, used %v", what, dec.Partition, p)
		}
	}
	for i := 0; i < n; i++ {
		if math.IsNaN(dec.D[i]) || math.IsInf(dec.D[i], 0) {
			t.Fatalf("%s: D[%d] = %v", what, i, dec.D[i])
		}
		for j := 0; j < n; j++ {
			want := c.At(i, j)
			if i == j {
				want -= dec.D[i]
			}
			if got := dec.L.At(i, j); got != want || math.IsInf(got, 0) {
				t.Fatalf("%s: L[%d][%d] = %v, want %v", what, i, j, got, want)
			}
		}
	}
	if !(dec.OffDiagRatio >= 0 && dec.OffDiagRatio <= 1) || !(dec.Cond >= 1) || math.IsInf(dec.Cond, 0) {
		t.Fatalf("%s: off-diagonal ratio %v, condition number %v", what, dec.OffDiagRatio, dec.Cond)
	}
}

// checkDLDRecovery: on an exact model whose parts of A and B (for the
// partition the decomposition used) have condition numbers at most
// dldCondMax, D is the true diagonal and L = A B^T, to the scaled
// residual dldRecoveryTol.
func checkDLDRecovery(t *testing.T, what string, m dldModel, dec *linear.Decomposition, err error, p linear.Partition) {
	t.Helper()
	if !m.exact || linPartCond(m.a, p) > dldCondMax || linPartCond(m.b, p) > dldCondMax {
		return
	}
	if err != nil {
		t.Fatalf("%s: exact model with well-conditioned parts: %v", what, err)
	}
	n, _ := m.c.Dims()
	var ab mat.Dense
	ab.MulBT(m.a, m.b)
	var res float64
	for i := 0; i < n; i++ {
		res = math.Max(res, math.Abs(dec.D[i]-m.d[i]))
		res = math.Max(res, math.Abs(dec.L.At(i, i)-ab.At(i, i)))
	}
	scale := float64(n) * 0x1p-52 * m.c.NormMax() * dec.Cond
	if r := res / scale; !(r <= dldRecoveryTol) {
		t.Fatalf("%s: recovery residual %.3g (scaled %.3g > %d), cond %.3g, off-diagonal ratio %.3g", what, res, r, dldRecoveryTol, dec.Cond, dec.OffDiagRatio)
	}
	// The off-diagonal residuals of the n^2 entries of the diagonal
	// blocks are rounding errors of the same size, the diagonal holds D.
	var dsum float64
	for _, v := range m.d {
		dsum += math.Abs(v)
	}
	if bound := dldRecoveryTol * float64(n*n) * scale / dsum; dec.OffDiagRatio > bound {
		t.Fatalf("%s: off-diagonal ratio %.3g > %.3g on an exact model", what, dec.OffDiagRatio, bound)
	}
}

// dldErr reports whether err is one that DLD documents for a finite
// C with parts of at least k indices: ErrRankDeficient, ErrNotFinite
// when D or L would overflow, ErrNoConvergence when an SVD fails.
func dldErr(err error) bool {
	return errors.Is(err, linear.ErrRankDeficient) || errors.Is(err, linear.ErrNotFinite) || errors.Is(err, linear.ErrNoConvergence)
}

func seedDLD(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 20})                        // general, k = 2, n = 6, dense
	f.Add([]byte{1, 2, 3, 2, 25})                        // symmetric, k = 3, n = 12, sparse
	f.Add([]byte{0, 3, 6, 4, 0})                         // k = 4, n = 18, half zeros, tiny scale
	f.Add([]byte{2, 9, 2, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f}) // junk with a NaN
	f.Add([]byte{2, 3, 2})                               // junk: zero matrix
	f.Add([]byte{3, 1, 2, 1, 20, 1, 2, 5})               // repeated row and column
	f.Add([]byte{3, 0, 0, 0, 40, 0, 0, 6, 100})          // scaled to overflow
	f.Add([]byte{3, 1, 0, 0, 20, 2, 2, 4})               // a zero row and column
	f.Add(bytes.Repeat([]byte{0x11}, 64))                // rank one
}

// FuzzDLD: DLD with a fixed partition and DLDSearch never panic on a
// square matrix; their errors are the ones their documentation names
// (ErrNotFinite for NaN or Inf, ErrTooManyFactors for k outside 1..n/3
// or a part smaller than k, otherwise dldErr); a result holds
// what checkDLD states; the search returns the DLD of the partition it
// reports, bit for bit, for any number of workers; and exact models
// C = A B^T + D whose parts of A and B are well conditioned are
// recovered (checkDLDRecovery).
func FuzzDLD(f *testing.F) {
	seedDLD(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, s := dldFrom(data)
		n, _ := m.c.Dims()
		finite := isFinite(m.c)
		p := linear.RandomPartition(n, uint64(s.byte()))
		small := m.k < 1
		for _, part := range p {
			small = small || len(part) < m.k
		}

		dec, err := linear.DLD(m.c, m.k, p, nil)
		switch {
		case !finite:
			if !errors.Is(err, linear.ErrNotFinite) {
				t.Fatalf("DLD: non-finite C: %v", err)
			}
		case small:
			if !errors.Is(err, linear.ErrTooManyFactors) {
				t.Fatalf("DLD: k = %d with parts of %d, %d, %d: %v", m.k, len(p[0]), len(p[1]), len(p[2]), err)
			}
		case err != nil:
			if !dldErr(err) {
				t.Fatalf("DLD: %v", err)
			}
		default:
			checkDLD(t, "DLD", m.c, dec, p)
		}
		checkDLDRecovery(t, "DLD", m, dec, err, p)

		opts := &linear.DLDOptions{Partitions: 1 + int(s.byte()%6), Workers: 1}
		if s.byte()%2 == 0 {
			opts.StopRatio = -1
		}
		opts.Seed = uint64(s.byte())
		sdec, err := linear.DLDSearch(context.Background(), m.c, m.k, opts)
		switch {
		case m.k < 1 || 3*m.k > n:
			if !errors.Is(err, linear.ErrTooManyFactors) {
				t.Fatalf("DLDSearch: k = %d, n = %d: %v", m.k, n, err)
			}
			return
		case !finite:
			if !errors.Is(err, linear.ErrNotFinite) {
				t.Fatalf("DLDSearch: non-finite C: %v", err)
			}
			return
		case err != nil:
			if !dldErr(err) {
				t.Fatalf("DLDSearch: %v", err)
			}
			return
		}
		sp := sdec.Partition
		if len(sp[0]) != n/3 || len(sp[1]) != n/3 || len(sp[0])+len(sp[1])+len(sp[2]) != n {
			t.Fatalf("DLDSearch: parts of %d, %d, %d for n = %d", len(sp[0]), len(sp[1]), len(sp[2]), n)
		}
		checkDLD(t, "DLDSearch", m.c, sdec, sp)
		checkDLDRecovery(t, "DLDSearch", m, sdec, nil, sp)
		again, err := linear.DLD(m.c, m.k, sp, nil)
		if err != nil || !slices.Equal(again.D, sdec.D) || again.OffDiagRatio != sdec.OffDiagRatio || again.Cond != sdec.Cond {
			t.Fatalf("DLDSearch: the DLD of its partition differs (%v)", err)
		}
		opts.Workers = 3
		w3, err := linear.DLDSearch(context.Background(), m.c, m.k, opts)
		if err != nil || !slices.Equal(w3.D, sdec.D) || w3.OffDiagRatio != sdec.OffDiagRatio {
			t.Fatalf("DLDSearch: three workers give a different result (%v)", err)
		}
	})
}

// twmModel is the input of FuzzTWMLearn: L, and for the exact models A
// and H (L = A H A^T); k is the number of columns to ask for.
type twmModel struct {
	l, a, h *mat.Dense
	k       int
	exact   bool
	opts    linear.TWMOptions
}

// twmFrom decodes the fuzz input. The first byte picks the kind (0 and
// 1: L = A H A^T with H positive definite, 1 with H = I; 2: junk bit
// patterns; 3: a model spoiled by perturb) and the options.
func twmFrom(data []byte) twmModel {
	s := newLinSrc(data)
	h := s.byte()
	kind := h % 4
	m := twmModel{opts: linear.TWMOptions{Basic: h&4 != 0, NoRefine: h&8 != 0, Dense: h&16 != 0, Workers: 1}}
	if kind == 2 {
		n := int(s.byte() % 10)
		m.k = int(s.byte()%7) - 1
		m.l = s.junk(n)
		return m
	}
	k := 1 + int(s.byte()%5)
	n := 2*k + int(s.byte())%(31-2*k)
	zeros := 3 + s.byte()%5 // 3/8 to 7/8 of the entries zero
	m.a = s.sparse(n, k, zeros)
	if kind == 1 {
		m.h = mat.Identity(k)
	} else {
		m.h = s.spd(k)
	}
	// The scale goes into H, and L is computed as linear.L1Recovery
	// computes it, so that both see the same bits: l1 problems with
	// several optimal vertices (frequent with entries of 16 magnitudes)
	// have rounding decide which one the solver returns.
	m.h.Scale(math.Ldexp(1, int(s.byte()%41)-20), m.h)
	var ah, l mat.Dense
	ah.Mul(m.a, m.h)
	l.MulBT(&ah, m.a)
	l.Symmetrize()
	m.l, m.k, m.exact = &l, k, kind != 3
	if kind == 3 {
		s.perturb(&l)
	}
	if s.byte()%8 == 0 {
		m.k = int(s.byte()%7) - 1
		m.exact = m.exact && m.k == k
	}
	return m
}

// twmCondMax bounds the condition number of A on the exact models for
// which FuzzTWMLearn demands recovery.
const twmCondMax = 1e3

// twmDistTol is the largest eval.Dist between A and the columns found
// accepted when the exact model satisfies the expansion property and
// the l1 rounds recover every column (linear.L1Recovery).
const twmDistTol = 1e-12

func seedTWM(f *testing.F) {
	f.Add([]byte{0, 2, 10, 2, 20})                       // projection, k = 3, n = 16
	f.Add([]byte{5, 1, 8, 1, 20})                        // basic, H = I, k = 2, n = 12
	f.Add([]byte{8, 4, 24, 4, 20})                       // no refinement, k = 5, n = 30
	f.Add([]byte{2, 4, 3, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f}) // junk with an Inf
	f.Add([]byte{2, 5, 2})                               // junk: zero matrix
	f.Add([]byte{3, 2, 5, 0, 20, 1, 2, 5})               // repeated row and column
	f.Add([]byte{19, 1, 3, 4, 30, 0, 0, 7, 150})         // dense refinement, scaled to underflow
	f.Add(bytes.Repeat([]byte{0x31}, 80))                // equal entries
}

// FuzzTWMLearn: LearnTWM never panics on a square matrix; its errors
// are those it documents (ErrTooManyFactors for k outside 1..n, then
// ErrNotFinite for NaN or Inf, otherwise ErrRankDeficient, or
// ErrNoConvergence when an SVD or an l1 problem fails); a result
// has finite outputs of the documented shapes, unit columns with their
// largest entry positive, B B^T = L on exact models and A e_j = B W e_j
// on the entries that refinement does not clear; and exact models
// (cond(A) <= twmCondMax) whose support has the expansion property and
// whose columns the l1 rounds recover (linear.L1Recovery) give A back
// to eval.Dist <= twmDistTol.
func FuzzTWMLearn(f *testing.F) {
	seedTWM(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m := twmFrom(data)
		n, _ := m.l.Dims()
		k := m.k
		res, err := linear.LearnTWM(context.Background(), m.l, k, &m.opts)
		switch {
		case k < 1 || k > n:
			if !errors.Is(err, linear.ErrTooManyFactors) {
				t.Fatalf("k = %d, n = %d: %v", k, n, err)
			}
			return
		case !isFinite(m.l):
			if !errors.Is(err, linear.ErrNotFinite) {
				t.Fatalf("non-finite L: %v", err)
			}
			return
		case err != nil:
			if !errors.Is(err, linear.ErrRankDeficient) && !errors.Is(err, linear.ErrNoConvergence) {
				t.Fatalf("error %v matches no documented sentinel", err)
			}
			if m.exact && twmRecoverable(t, m) {
				t.Fatalf("recoverable model: %v", err)
			}
			return
		}
		for what, x := range map[string]*mat.Dense{"A": res.A, "B": res.B, "W": res.W} {
			r, c := x.Dims()
			if (what == "W" && r != k) || (what != "W" && r != n) || c != k || !isFinite(x) {
				t.Fatalf("%s is %dx%d (n = %d, k = %d) or not finite:\n%v", what, r, c, n, k, x)
			}
		}
		if len(res.Rows) != k || len(res.Sparsity) != k || res.Problems < 1 ||
			!(res.NoiseLevel >= 0) || math.IsInf(res.NoiseLevel, 0) || !(res.ZeroTol > 0 && res.ZeroTol <= 0.01) {
			t.Fatalf("rows %v, sparsity %v, %d problems, noise %v, zero tolerance %v", res.Rows, res.Sparsity, res.Problems, res.NoiseLevel, res.ZeroTol)
		}
		var bw mat.Dense
		bw.Mul(res.B, res.W)
		col := make([]float64, n)
		for j := 0; j < k; j++ {
			if res.Rows[j] < 0 || res.Rows[j] >= n || res.Sparsity[j] < 0 || res.Sparsity[j] > n {
				t.Fatalf("column %d: row %d, sparsity %d", j, res.Rows[j], res.Sparsity[j])
			}
			res.A.Col(col, j)
			// The largest entry is positive: with columns such as
			// (2, -2), where rounding decides which is largest, some
			// entry within rounding of the largest magnitude.
			var nrm, big, top float64
			for _, v := range col {
				nrm += v * v
				big = math.Max(big, math.Abs(v))
				top = math.Max(top, v)
			}
			if math.Abs(math.Sqrt(nrm)-1) > 1e-12 || !(top >= big*(1-1e-12)) {
				t.Fatalf("column %d: norm %v, largest magnitude %v, largest entry %v", j, math.Sqrt(nrm), big, top)
			}
			// A e_j = B W e_j, except on the entries refinement clears.
			// The solutions are of rank-k systems; B and W are of the
			// size of sqrt(lambda) and 1/sqrt(lambda).
			tol := 1e-9 * math.Max(1, res.W.NormMax()*res.B.NormMax())
			for i, v := range col {
				if (v != 0 || m.opts.NoRefine || m.opts.Dense) && math.Abs(v-bw.At(i, j)) > tol {
					t.Fatalf("A[%d][%d] = %v, (B W)[%d][%d] = %v", i, j, v, i, j, bw.At(i, j))
				}
			}
		}
		if !m.exact {
			return
		}
		var bb, diff mat.Dense
		bb.MulBT(res.B, res.B)
		diff.Sub(&bb, m.l)
		if e := diff.NormMax() / m.l.NormMax(); e > 1e-9*float64(n) {
			t.Fatalf("B B^T differs from L by %.3g (relative)", e)
		}
		if twmRecoverable(t, m) {
			if d := eval.Dist(m.a, res.A); !(d <= twmDistTol) {
				t.Fatalf("recoverable model (expansion and l1 recovery hold), dist %.3g > %g\nA =\n%v\nestimate =\n%v", d, twmDistTol, m.a, res.A)
			}
		}
	})
}

// twmRecoverable reports whether an exact model lies where LearnTWM is
// exact: A well conditioned, its support with the expansion property,
// and every column recovered by the l1 rounds.
func twmRecoverable(t *testing.T, m twmModel) bool {
	_, k := m.a.Dims()
	sv, err := svd.Values(m.a)
	if err != nil || !(sv[k-1]*twmCondMax >= sv[0]) {
		return false
	}
	if rep, err := linear.CheckExpansion(m.a, 0); err != nil || !rep.Holds {
		return false
	}
	covered, err := linear.L1Recovery(context.Background(), m.a, m.h, &m.opts)
	if err != nil {
		return false
	}
	return !slices.Contains(covered, false)
}

// hostileCSVs are the CSV files of issue 14 and their relatives: 3
// rows of 12 000 columns, one column, a byte-order mark with and
// without a header, NaN cells, a single cell, a header only.
func hostileCSVs() [][]byte {
	wide := func(rows, cols int, cell string) []byte {
		var b bytes.Buffer
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(cell)
			}
			b.WriteByte('\n')
		}
		return b.Bytes()
	}
	return [][]byte{
		wide(3, 12000, "1"),
		wide(10, 1, "2"),
		[]byte("x\n0\n1\n1\n"),
		[]byte("\ufeff1,2\n3,4\n5,6\n"),
		[]byte("\ufeffa,b\n1,2\n3,4\n"),
		[]byte("1,NaN\n2,3\n"),
		[]byte("a,b\nnan,1\n-Inf,2\n"),
		[]byte("7\n"),
		[]byte("a,b,c\n"),
	}
}

// csvParse is a plain reading of the numeric CSV format that ReadCSV
// documents, for comparison: the values, the number of columns, whether
// there is a header, and where the first error lies (line 0 when there
// is none).
type csvParse struct {
	vals              []float64
	cols, line, field int
	header, ok        bool
}

func parseCSVRef(data []byte, opts linear.CSVOptions) csvParse {
	comma := opts.Comma
	if comma == 0 {
		comma = ','
	}
	// A byte order mark is skipped, from the first line: a file of a
	// byte order mark alone has one (blank) line, as the file "\n" has.
	text := string(data)
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") || text == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > 0 {
		lines[0] = strings.TrimPrefix(lines[0], "\ufeff")
	}
	var p csvParse
	first := true
	num := func(f string) (float64, bool) {
		v, err := strconv.ParseFloat(f, 64)
		var ne *strconv.NumError
		return v, err == nil || (errors.As(err, &ne) && ne.Err == strconv.ErrRange)
	}
	for no, ln := range lines {
		ln = strings.TrimSpace(strings.TrimSuffix(ln, "\r"))
		if ln == "" || ln[0] == '#' {
			continue
		}
		fields := strings.Split(ln, string(comma))
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if first {
			first = false
			p.cols = len(fields)
			p.header = opts.Header > 0
			if opts.Header == 0 {
				for _, f := range fields {
					if _, ok := num(f); !ok {
						p.header = true
					}
				}
			}
			if p.header {
				continue
			}
		}
		if len(fields) != p.cols {
			p.line = no + 1
			return p
		}
		for j, f := range fields {
			v, ok := num(f)
			if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
				p.line, p.field = no+1, j+1
				return p
			}
			p.vals = append(p.vals, v)
		}
	}
	if len(p.vals) == 0 {
		p.line = len(lines)
		return p
	}
	p.ok = true
	return p
}

// FuzzReadCSV: ReadCSV with each header setting never panics; it fails
// exactly when a plain reading of the format does, with a *DataError
// (matching ErrBadData) naming the same line and field; and on success
// Dim, NumSamples, Names and Block give exactly the values of that
// reading, all finite; within readerBudget per byte of input.
func FuzzReadCSV(f *testing.F) {
	for _, c := range hostileCSVs() {
		f.Add(c, uint8(0))
	}
	f.Add([]byte("# comment\na, b ,c\n1,2,3\n\n 4 , 5.5,-6e1\n"), uint8(0))
	f.Add([]byte("1;2\r\n3;4\r\n"), uint8(1))
	f.Add([]byte("1,2\n3,x\n"), uint8(0))
	f.Add([]byte("x,y\n1,inf\n"), uint8(0))
	f.Add([]byte("1e400,1\n0x1p-3,-0\n"), uint8(0))
	f.Add([]byte("a\tb\n1\t2\n3\n"), uint8(2))
	f.Add([]byte("a b\n"), uint8(3))
	f.Add([]byte(""), uint8(0))
	f.Add([]byte("1\u00a0\u00b72\n"), uint8(4))
	commas := []rune{0, ';', '\t', ' ', '\u00b7', '.', 'e', '\n', -1}
	f.Fuzz(func(t *testing.T, data []byte, c uint8) {
		for _, header := range []int{-1, 0, 1} {
			opts := linear.CSVOptions{Comma: commas[int(c)%len(commas)], Header: header, MaxMemory: int64(readerBudget.bytes(len(data)) / 2)}
			var d *linear.Data
			var err error
			bounded(t, "linear.ReadCSV", readerBudget, len(data), func() {
				d, err = linear.ReadCSV(bytes.NewReader(data), &opts)
			})
			want := parseCSVRef(data, opts)
			if err != nil {
				var de *linear.DataError
				if !errors.As(err, &de) || !errors.Is(err, linear.ErrBadData) {
					t.Fatalf("%+v: error %v is not a DataError", opts, err)
				}
				if want.ok || de.Line != want.line || de.Field != want.field {
					t.Fatalf("%+v: %v; the plain reading gives line %d, field %d (ok %v)", opts, err, want.line, want.field, want.ok)
				}
				continue
			}
			if !want.ok {
				t.Fatalf("%+v: success, but the plain reading fails at line %d, field %d", opts, want.line, want.field)
			}
			r, cols := d.NumSamples(), d.Dim()
			if cols != want.cols || r*cols != len(want.vals) || (d.Names != nil) != want.header || (want.header && len(d.Names) != cols) {
				t.Fatalf("%+v: %d x %d with names %q; want %d values in %d columns, header %v", opts, r, cols, d.Names, len(want.vals), want.cols, want.header)
			}
			all := mat.Zeros(r, cols)
			d.Block(0, r, all)
			for i := 0; i < r; i++ {
				for j := 0; j < cols; j++ {
					v := all.At(i, j)
					if w := want.vals[i*cols+j]; math.Float64bits(v) != math.Float64bits(w) || math.IsInf(v, 0) || math.IsNaN(v) {
						t.Fatalf("%+v: value (%d, %d) = %v, want %v", opts, i, j, v, w)
					}
				}
			}
			lo := r / 2
			part := mat.Zeros(r-lo, cols)
			d.Block(lo, r, part)
			if !mat.Equal(part, all.Slice(lo, r, 0, cols)) {
				t.Fatalf("%+v: Block(%d, %d) differs from the rows of Block(0, %d)", opts, lo, r, r)
			}
		}
	})
}
