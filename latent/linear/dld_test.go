package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
	"github.com/moments-go/moments/tensor3"
)

func randMat(r *rand.Rand, m, n int) *mat.Dense {
	a := mat.Zeros(m, n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, r.NormFloat64())
		}
	}
	return a
}

// TestDLDExact: C = A B^T + D, not symmetric, any partition with parts
// of full rank.
func TestDLDExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	n, k := 30, 4
	a, b := randMat(r, n, k), randMat(r, n, k)
	var c mat.Dense
	c.MulBT(a, b)
	d := make([]float64, n)
	for i := range d {
		d[i] = r.Float64() + 0.5
		c.Set(i, i, c.At(i, i)+d[i])
	}
	dec, err := DLD(&c, k, randomPartition(r, n), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d {
		if e := dec.D[i] - d[i]; e > 1e-10 || e < -1e-10 {
			t.Fatalf("D[%d] = %v, want %v", i, dec.D[i], d[i])
		}
	}
	if dec.OffDiagRatio > 1e-10 {
		t.Errorf("off-diagonal ratio %v", dec.OffDiagRatio)
	}
	// A part with fewer than k rows, and a rank-deficient block.
	if _, err := DLD(&c, k, Partition{{0, 1, 2}, seq(15)[3:], seq(30)[15:]}, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("small part: %v", err)
	}
	z := c.Clone()
	for i := 0; i < 10; i++ {
		for j := 10; j < 30; j++ {
			z.Set(i, j, 0)
			z.Set(j, i, 0)
		}
	}
	if _, err := DLD(z, k, Partition{seq(10), seq(20)[10:], seq(30)[20:]}, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("zero block: %v", err)
	}
}

// TestDLDSearchDeterministic: the search gives the same partition and
// bits for any number of workers.
func TestDLDSearchDeterministic(t *testing.T) {
	m := synth.RandomDAG(rand.New(rand.NewPCG(2, 1)), 45, 6, 0.3, 0.5, synth.Skewed)
	sm, err := moments.NewSampleMoments(context.Background(), m.Samples(3000, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	var first *Decomposition
	for _, w := range []int{1, 2, 5} {
		dec, err := DLDSearch(context.Background(), sm.Sigma, 6, &DLDOptions{Partitions: 20, Workers: w, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = dec
			continue
		}
		if !slices.Equal(dec.D, first.D) || dec.OffDiagRatio != first.OffDiagRatio {
			t.Fatalf("workers %d: different result", w)
		}
	}
}

// TestSampleThirdDeterministic: the whitened pass gives the same bits
// for any number of workers and agrees with the slices of Psi, with its
// chunks of 256 samples loaded whole and in blocks of 7 samples.
func TestSampleThirdDeterministic(t *testing.T) {
	defer func(f func(int, int) int) { blockRows = f }(blockRows)
	for _, rows := range []int{0, 7} {
		if rows > 0 {
			blockRows = func(int, int) int { return rows }
		}
		checkWhitenedPass(t)
	}
}

func checkWhitenedPass(t *testing.T) {
	t.Helper()
	m := synth.RandomDAG(rand.New(rand.NewPCG(4, 1)), 12, 3, 0.5, 0.5, synth.Skewed)
	src := m.Samples(5000, 2)
	sm, err := moments.NewSampleMoments(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := randMat(rand.New(rand.NewPCG(5, 5)), 12, 3)
	var ref *tensor3.Sym
	var refDiag []float64
	for _, workers := range []int{1, 3} {
		th := &SampleThird{Moments: sm, Src: src, Passes: moments.Options{Workers: workers}}
		got, diag, err := th.Whitened(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref, refDiag = got, diag
			continue
		}
		if !slices.Equal(got.RawData(), ref.RawData()) || !slices.Equal(diag, refDiag) {
			t.Fatal("different bits for a different number of workers")
		}
	}
	alt, altDiag, err := whitenedFromPsi(context.Background(), sm, w)
	if err != nil {
		t.Fatal(err)
	}
	var diff tensor3.Sym
	diff.Sub(alt, ref)
	if e := diff.NormFrob() / ref.NormFrob(); e > 1e-10 {
		t.Errorf("whitened pass and Psi slices differ by %.3g", e)
	}
	for i := range altDiag {
		if e := altDiag[i] - refDiag[i]; e > 1e-9*(1+abs(refDiag[i])) || -e > 1e-9*(1+abs(refDiag[i])) {
			t.Errorf("diagonal %d: %v and %v", i, altDiag[i], refDiag[i])
		}
	}
}

func TestTWMLearnErrors(t *testing.T) {
	if _, err := LearnTWM(context.Background(), mat.Zeros(5, 5), 2, nil); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("zero L: %v", err)
	}
	if _, err := LearnTWM(context.Background(), mat.Identity(3), 4, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("k > n: %v", err)
	}
}

// ldexpDense returns m times 2^e, entry by entry.
func ldexpDense(m *mat.Dense, e int) *mat.Dense {
	out := m.Clone()
	r, _ := out.Dims()
	for i := 0; i < r; i++ {
		row := out.RawRow(i)
		for j, v := range row {
			row[j] = math.Ldexp(v, e)
		}
	}
	return out
}

// TestDLDScale: C = A B^T + D near the ends of the exponent range is
// decomposed as at unit scale (2^1021 C, entries up to 1.3e308, was
// called rank deficient), and a decomposition that float64 cannot hold
// is an error matching ErrNotFinite, not an infinity (FuzzDLD: a core
// of 1e-300 gave D = -Inf for a finite C).
func TestDLDScale(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	n, k := 12, 3
	a, b := randMat(r, n, k), randMat(r, n, k)
	var c mat.Dense
	c.MulBT(a, b)
	for i := 0; i < n; i++ {
		c.Set(i, i, c.At(i, i)+r.Float64()+0.5)
	}
	p := randomPartition(r, n)
	ref, err := DLD(&c, k, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []int{-1000, 1021} {
		cs := ldexpDense(&c, e)
		dec, err := DLD(cs, k, p, nil)
		if err != nil {
			t.Fatalf("2^%d C: %v", e, err)
		}
		sdec, err := DLDSearch(context.Background(), cs, k, &DLDOptions{Partitions: 4, Seed: 1})
		if err != nil {
			t.Fatalf("2^%d C: search: %v", e, err)
		}
		for i := range ref.D {
			if d := math.Ldexp(dec.D[i], -e); math.Abs(d-ref.D[i]) > 1e-12*(1+math.Abs(ref.D[i])) {
				t.Fatalf("2^%d C: D[%d] = %v times 2^%d, want %v", e, i, d, e, ref.D[i])
			}
			if d := math.Ldexp(sdec.D[i], -e); math.Abs(d-ref.D[i]) > 1e-9*(1+math.Abs(ref.D[i])) {
				t.Fatalf("2^%d C: search: D[%d] = %v times 2^%d, want %v", e, i, d, e, ref.D[i])
			}
		}
	}
	// The core of part {1} is C[2,0] = 1e-300, so (A B^T)[1,1] is about
	// 1e312.
	c3 := mat.FromRows([][]float64{{-1703936, 917504, 524288}, {655360, 917504, 524288}, {1e-300, 917504, -131072}})
	if dec, err := DLD(c3, 1, Partition{{0}, {2}, {1}}, nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("overflowing decomposition: %v, %v", dec, err)
	}
}

// TestSVDErrors: an SVD that does not converge matches ErrNoConvergence
// as well as the SVD's own sentinel (FuzzDLD met one in DLDSearch).
func TestSVDErrors(t *testing.T) {
	err := svdErr(&svd.ConvergenceError{Method: "one-sided Jacobi", Sweeps: 30, Off: 2.46e-16}, "DLD: SVD of block (1,2)")
	if !errors.Is(err, ErrNoConvergence) || !errors.Is(err, svd.ErrNoConvergence) {
		t.Errorf("%v", err)
	}
}

// TestTWMLearnScale: L = A A^T scaled by 2^1020 or 2^-1040 (subnormal
// entries) gives the columns found at unit scale, bit for bit, with B
// and W scaled back exactly, and 2^1021 L (entries up to 1.1e308) the
// same columns to rounding (FuzzTWMLearn: a finite L near the overflow
// threshold failed with the SVD's non-finite error; 2^1021 L was
// called rank deficient and 2^-1040 L gave wrong columns).
func TestTWMLearnScale(t *testing.T) {
	a := mat.FromRows([][]float64{
		{1, 0, 0}, {0.5, 0, 0}, {-2, 1, 0}, {0, 1.5, 0}, {0, -1, 0}, {0, 0.25, 2},
		{0, 0, 1}, {0, 0, -0.75}, {1.25, 0, 0}, {0, 0, 0.5}, {0.75, 0, 1}, {0, 2, 0},
	})
	var l mat.Dense
	l.MulBT(a, a)
	ref, err := LearnTWM(context.Background(), &l, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := eval.Dist(a, ref.A); d > 1e-20 {
		t.Fatalf("unit scale: dist %.3g", d)
	}
	for _, e := range []int{-1040, 1020, 1021} {
		res, err := LearnTWM(context.Background(), ldexpDense(&l, e), 3, nil)
		if err != nil {
			t.Fatalf("2^%d L: %v", e, err)
		}
		if e%2 != 0 {
			if d := eval.Dist(a, res.A); d > 1e-20 {
				t.Errorf("2^%d L: dist %.3g", e, d)
			}
			continue
		}
		if !mat.Equal(res.A, ref.A) || !mat.Equal(res.B, ldexpDense(ref.B, e/2)) || !mat.Equal(res.W, ldexpDense(ref.W, -e/2)) {
			t.Errorf("2^%d L: A, B or W differ from those at unit scale", e)
		}
	}
}

// TestTWMLearnIndefinite: inputs from FuzzTWMLearn. An indefinite L
// whose positive eigenvalues are rounding errors beside its negative
// ones (+-0.126 and 3e-64 here) is rank deficient; the second input's
// l1 problems (entries from 1e-321 to 1) made the l1 solver report an
// infeasible problem for a non-zero q until package simplex bounded its
// scale factors; any failure of an l1 problem must match
// ErrNoConvergence.
func TestTWMLearnIndefinite(t *testing.T) {
	l := mat.FromRows([][]float64{
		{1.398043286095289e-76, 1.398043286095289e-76, 1.5310991896536132e+213, -2.5132528176538534e+232, 1.398043286095289e-76, 6.378489473675153e+116, 1.398043286095289e-76},
		{1.398043286095289e-76, -6.659453737864645e+63, -2.727712251029359e+67, -5.604746353544084e+275, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0},
	})
	if _, err := LearnTWM(context.Background(), l, 2, &TWMOptions{Dense: true}); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("indefinite L: %v", err)
	}
	l = mat.FromRows([][]float64{
		{-4.84034885933515e+198, 1.398043286095289e-76, 1.398043286095289e-76, 1.207373746603704e-153, 6.378489473675153e+116, 1.398043286095289e-76, -3.172171028453884e+203, 1.398043286095289e-76},
		{1.398043286095289e-76, 7.583701900582773e+204, 1.398043286095289e-76, 9.322172809474165e+164, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0},
	})
	if _, err := LearnTWM(context.Background(), l, 2, &TWMOptions{Dense: true}); err != nil && !errors.Is(err, ErrNoConvergence) && !errors.Is(err, ErrRankDeficient) {
		t.Errorf("failed l1 problem: %v", err)
	}
}
