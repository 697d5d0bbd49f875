package simplex

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/moments-go/moments/internal/testutil/mattest"
	"github.com/moments-go/moments/mat"
)

// sparseFactorB returns B = A R with A (n x k) sparse (each column has
// about frac*n nonzeros, each row at least one) and R a random k x k
// matrix: the l1 problems of
// TWMLearn, whose optima B w are the sparse columns of A.
func sparseFactorB(r *rand.Rand, n, k int, frac float64) (b, a *mat.Dense) {
	a = mat.Zeros(n, k)
	for j := 0; j < k; j++ {
		for i := 0; i < n; i++ {
			if r.Float64() < frac {
				a.Set(i, j, 0.5+r.Float64())
			}
		}
		a.Set(r.IntN(n), j, 1+r.Float64())
	}
	for i := 0; i < n; i++ {
		if mat.New(1, k, a.Row(nil, i)).NormInf() == 0 {
			a.Set(i, r.IntN(k), 0.5+r.Float64())
		}
	}
	rot := mattest.RandDense(r, k, k)
	b = mat.Zeros(n, k)
	b.Mul(a, rot)
	return b, a
}

// checkL1 verifies a solution: feasibility q^T w = 1, S = B w, Norm =
// ||S||_1, and compares the optimal value with want.
func checkL1(t *testing.T, B *mat.Dense, q []float64, res *L1Result, want float64) {
	t.Helper()
	n, k := B.Dims()
	var qw float64
	for j := 0; j < k; j++ {
		qw += q[j] * res.W[j]
	}
	if math.Abs(qw-1) > 1e-9 {
		t.Fatalf("q^T w = %.15g, want 1", qw)
	}
	var norm, scale float64
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < k; j++ {
			s += B.At(i, j) * res.W[j]
			scale += math.Abs(B.At(i, j) * res.W[j])
		}
		if math.Abs(s-res.S[i]) > 1e-12*(1+scale) {
			t.Fatalf("S[%d] = %g, B w gives %g", i, res.S[i], s)
		}
		norm += math.Abs(s)
	}
	if math.Abs(norm-res.Norm) > 1e-10*(1+norm) {
		t.Fatalf("Norm %g, ||B w||_1 = %g", res.Norm, norm)
	}
	if math.Abs(res.Norm-want) > 1e-8*(1+want) {
		t.Fatalf("optimum %.12g, the general solver finds %.12g", res.Norm, want)
	}
}

func generalL1(t *testing.T, B *mat.Dense, q []float64) float64 {
	t.Helper()
	n, k := B.Dims()
	res, err := l1General(B.RawData(), n, k, q)
	if err != nil {
		t.Fatal(err)
	}
	return res.Norm
}

func TestL1MinRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, sz := range [][2]int{{1, 1}, {3, 1}, {5, 2}, {10, 3}, {40, 5}, {150, 25}, {180, 30}} {
		n, k := sz[0], sz[1]
		B := mattest.RandDense(r, n, k)
		for trial := 0; trial < 3; trial++ {
			var q []float64
			if trial == 0 {
				q = B.Row(nil, 0)
			} else {
				q = make([]float64, k)
				for j := range q {
					q[j] = r.NormFloat64()
				}
			}
			res, err := L1Min(B, q, nil)
			if err != nil {
				t.Fatalf("%dx%d: %v", n, k, err)
			}
			checkL1(t, B, q, res, generalL1(t, B, q))
		}
	}
}

func TestL1MinSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, sz := range [][2]int{{30, 4}, {150, 25}, {180, 30}} {
		n, k := sz[0], sz[1]
		B, A := sparseFactorB(r, n, k, 0.05)
		s, err := NewL1Solver(B, nil)
		if err != nil {
			t.Fatal(err)
		}
		recovered, tried, warm := 0, 0, 0
		for i := 0; i < n; i++ {
			q := B.Row(nil, i)
			if zero := mat.New(1, k, q).NormInf() == 0; zero {
				continue
			}
			tried++
			res, err := s.Solve(q)
			if err != nil {
				t.Fatalf("%dx%d row %d: %v", n, k, i, err)
			}
			if i%7 == 0 || res.Warm {
				checkL1(t, B, q, res, generalL1(t, B, q))
			}
			if res.Warm {
				warm++
			}
			// The optimum is a scaled column of A when row i meets few
			// columns; count how often S is proportional to one.
			for j := 0; j < k; j++ {
				if A.At(i, j) == 0 {
					continue
				}
				scale := res.S[i] / A.At(i, j)
				ok := true
				for l := 0; l < n && ok; l++ {
					ok = math.Abs(res.S[l]-scale*A.At(l, j)) <= 1e-8*math.Abs(scale)
				}
				if ok {
					recovered++
					break
				}
			}
		}
		t.Logf("%dx%d: %d of %d nonzero rows give a column of A; %d warm starts", n, k, recovered, tried, warm)
		if warm == 0 && n > 100 {
			t.Errorf("no warm start in %d problems", tried)
		}
		if recovered < tried/2 {
			t.Errorf("only %d of %d rows recover a sparse column", recovered, tried)
		}
	}
}

func TestL1Batch(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	B := mattest.RandDense(r, 150, 25)
	start := time.Now()
	res, err := L1MinBatch(context.Background(), B, B, nil)
	el := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	iters, warm := 0, 0
	for i := range res {
		iters += res[i].Iterations
		if res[i].Warm {
			warm++
		}
		if i%10 == 0 {
			q := B.Row(nil, i)
			checkL1(t, B, q, &res[i], generalL1(t, B, q))
		}
	}
	t.Logf("batch of %d: %v, %d iterations, %d warm", len(res), el, iters, warm)
	// Cold solves agree.
	cold, err := L1MinBatch(context.Background(), B, B, &L1Options{NoWarmStart: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range res {
		if math.Abs(res[i].Norm-cold[i].Norm) > 1e-9*(1+cold[i].Norm) {
			t.Fatalf("row %d: warm %g, cold %g", i, res[i].Norm, cold[i].Norm)
		}
	}
}

func TestL1Errors(t *testing.T) {
	B := mat.New(2, 2, []float64{1, 2, 3, 4})
	if _, err := L1Min(B, []float64{0, 0}, nil); !errors.Is(err, ErrInfeasible) {
		t.Errorf("zero q: %v", err)
	}
	if _, err := L1Min(B, []float64{1}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("short q: %v", err)
	}
	if _, err := L1Min(B, []float64{1, math.NaN()}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("NaN q: %v", err)
	}
	bad := mat.New(2, 2, []float64{1, math.Inf(1), 3, 4})
	if _, err := L1Min(bad, []float64{1, 1}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Inf in B: %v", err)
	}
	// Rank-deficient B: the general solver takes over.
	def := mat.New(3, 2, []float64{1, 2, 2, 4, 3, 6})
	res, err := L1Min(def, []float64{1, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Norm > 1e-12 {
		t.Errorf("rank-deficient B: optimum %g, want 0", res.Norm)
	}
}

// TestL1MinHard compares L1Solver with the general solver on random,
// sparse-factor, integer (degenerate) and badly row-scaled B, with q a
// row of B or random.
func TestL1MinHard(t *testing.T) {
	trials := 300
	if testing.Short() {
		trials = 60
	}
	r := rand.New(rand.NewPCG(5, 6))
	fails := 0
	for trial := 0; trial < trials; trial++ {
		n, k := 2+r.IntN(60), 1+r.IntN(12)
		var B = mattest.RandDense(r, n, k)
		switch trial % 4 {
		case 1:
			B, _ = sparseFactorB(r, n, k, 0.05+0.3*r.Float64())
		case 2:
			for i := 0; i < n; i++ {
				for j := 0; j < k; j++ {
					B.Set(i, j, float64(r.IntN(5)-2))
				}
			}
		case 3:
			for i := 0; i < n; i++ {
				f := math.Pow(10, float64(r.IntN(7)-3))
				for j := 0; j < k; j++ {
					B.Set(i, j, B.At(i, j)*f)
				}
			}
		}
		s, _ := NewL1Solver(B, nil)
		for rep := 0; rep < 5; rep++ {
			q := B.Row(nil, r.IntN(n))
			if rep%2 == 1 {
				for j := range q {
					q[j] = r.NormFloat64()
				}
			}
			zero := true
			for _, v := range q {
				if v != 0 {
					zero = false
				}
			}
			if zero {
				continue
			}
			res, err := s.Solve(q)
			if err != nil {
				fails++
				t.Errorf("trial %d: %v", trial, err)
				continue
			}
			g, err := l1General(B.RawData(), n, k, q)
			if err != nil {
				t.Errorf("trial %d general: %v", trial, err)
				continue
			}
			var qw float64
			for j := range q {
				qw += q[j] * res.W[j]
			}
			if math.Abs(res.Norm-g.Norm) > 1e-7*(1+g.Norm) || math.Abs(qw-1) > 1e-8 {
				fails++
				if fails < 10 {
					t.Errorf("trial %d (%dx%d kind %d): l1 %.12g general %.12g qw %g", trial, n, k, trial%4, res.Norm, g.Norm, qw)
				}
			}
		}
	}
}

func TestL1Edges(t *testing.T) {
	// No rows: every w with q^T w = 1 is optimal; the minimum-norm one.
	res, err := L1Min(mat.Zeros(0, 2), []float64{1, 2}, nil)
	if err != nil || res.Norm != 0 || math.Abs(res.W[0]-0.2) > 1e-15 || math.Abs(res.W[1]-0.4) > 1e-15 {
		t.Errorf("no rows: %+v, %v", res, err)
	}
	// No columns: q is empty, so q^T w = 1 is impossible.
	if _, err := L1Min(mat.Zeros(3, 0), []float64{}, nil); !errors.Is(err, ErrInfeasible) {
		t.Errorf("no columns: %v", err)
	}
	// B = 0: the optimum is 0 (the general solver takes over).
	res, err = L1Min(mat.Zeros(3, 2), []float64{1, 0}, nil)
	if err != nil || res.Norm != 0 {
		t.Errorf("zero B: %+v, %v", res, err)
	}
	// k = 1: w = 1/q.
	res, err = L1Min(mat.New(2, 1, []float64{2, -1}), []float64{4}, nil)
	if err != nil || math.Abs(res.W[0]-0.25) > 1e-15 || math.Abs(res.Norm-0.75) > 1e-15 {
		t.Errorf("k = 1: %+v, %v", res, err)
	}
}

func TestL1BatchCancel(t *testing.T) {
	B := mattest.RandDense(rand.New(rand.NewPCG(17, 18)), 30, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := L1MinBatch(ctx, B, B, nil)
	if !errors.Is(err, context.Canceled) || len(res) != 0 {
		t.Errorf("cancelled batch: %d results, %v", len(res), err)
	}
	if _, err := L1MinBatch(context.Background(), B, mat.Zeros(2, 3), nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Q with the wrong width: %v", err)
	}
	// A zero row of Q: the error names it, the results before it stay.
	Q := mat.Zeros(3, 4)
	Q.SetRow(0, B.Row(nil, 0))
	res, err = L1MinBatch(context.Background(), B, Q, nil)
	if !errors.Is(err, ErrInfeasible) || len(res) != 1 || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("zero row: %d results, %v", len(res), err)
	}
}

// TestL1ExtremeEntries: an l1 problem from fuzzing latent/linear, with
// entries from 3.39e-321 (subnormal) to 0.61. The optimum is w = (1/q_1,
// 0) with ||B w||_1 = 1 + O(1e-40). The scaling must not take the
// reciprocal of the subnormal entry (+Inf: the problem would be reported
// infeasible), and a scaled solve that violates q^T w = 1 must be
// rejected and the problem solved again unscaled.
func TestL1ExtremeEntries(t *testing.T) {
	d := []float64{-1.1333164507903874e-281, 0.06286561279436315, -0.6147692058574405, 0, -5.666585870688566e-282, 2.770663630429573e-281, -3.7784876370904416e-41, -3.39e-321, 0, 1.2640988285240454e-88, 0, 2.770663630429573e-281, 2.3702645178950225e-283, -0.06286657205433982, 0, 2.770663630429573e-281}
	b := mat.New(8, 2, d)
	q := []float64{-0.6147692058574405, 0}
	want := 1 / q[0]
	check := func(name string, r *L1Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e := math.Abs(r.W[0]/want - 1); e > 1e-15 || r.W[1] != 0 {
			t.Errorf("%s: w = %v, want (%v, 0)", name, r.W, want)
		}
		if e := math.Abs(r.Norm - 1); e > 1e-15 {
			t.Errorf("%s: ||B w||_1 = %v, want 1", name, r.Norm)
		}
	}
	r, err := L1Min(b, q, nil)
	check("L1Min", r, err)
	r, err = l1General(d, 8, 2, q)
	check("l1General", r, err)
}

// TestL1MinOverflow: an optimum outside the float64 range is an error
// matching ErrNumerical, in L1Min and in each row of L1MinBatch (found
// by FuzzL1MinBatch: B = [8.6e270] and q = [1.4e-76] returned S = [+Inf]
// and no error); one just inside the range is returned.
func TestL1MinOverflow(t *testing.T) {
	b := mat.FromRows([][]float64{{8.55215617461971e270}})
	if r, err := L1Min(b, []float64{1.398043286095289e-76}, nil); !errors.Is(err, ErrNumerical) {
		t.Errorf("overflowing optimum: %v, %+v", err, r)
	}
	q := mat.FromRows([][]float64{{2}, {1.398043286095289e-76}})
	if res, err := L1MinBatch(context.Background(), b, q, nil); !errors.Is(err, ErrNumerical) || len(res) != 1 || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("batch: %d results, %v", len(res), err)
	}
	r, err := L1Min(b, []float64{1e-37}, nil)
	if want := 8.55215617461971e307; err != nil || math.Abs(r.Norm-want) > 1e-15*want {
		t.Errorf("optimum %v within the range: %+v, %v", want, r, err)
	}
}

// TestL1MinRankDeficientLimit: the general solver that takes over when
// B is rank deficient keeps to L1Options.MaxIter (found by
// FuzzL1MinBatch: with MaxIter 117, a badly scaled 8 x 3 B ran the
// general solver's own limit of 50000 iterations, 0.3 s and 4 MB).
func TestL1MinRankDeficientLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 8))
	b := mattest.RandDense(r, 8, 3)
	for i := 0; i < 8; i++ {
		b.Set(i, 2, b.At(i, 1)) // two equal columns: rank 2
	}
	q := mat.FromRows([][]float64{{1, 2, -0.5}})
	free, err := L1MinBatch(context.Background(), b, q, nil)
	if err != nil || free[0].Iterations < 2 {
		t.Fatalf("without a limit: %v, %+v (the test needs 2 or more iterations)", err, free)
	}
	limited, err := L1MinBatch(context.Background(), b, q, &L1Options{MaxIter: free[0].Iterations - 1})
	if !errors.Is(err, ErrIterationLimit) {
		t.Errorf("%d iterations allowed of the %d needed: %v, %+v", free[0].Iterations-1, free[0].Iterations, err, limited)
	}
}

// TestL1MinOptions: L1Min takes the options of the batch: the same
// iteration cap stops it on the same problem, a bad option is refused
// before any work, and nil options give the batch's default result.
func TestL1MinOptions(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 8))
	b := mattest.RandDense(r, 8, 3)
	for i := 0; i < 8; i++ {
		b.Set(i, 2, b.At(i, 1))
	}
	q := []float64{1, 2, -0.5}
	free, err := L1Min(b, q, nil)
	if err != nil || free.Iterations < 2 {
		t.Fatalf("without a limit: %v, %+v (the test needs 2 or more iterations)", err, free)
	}
	batch, err := L1MinBatch(context.Background(), b, mat.FromRows([][]float64{q}), nil)
	if err != nil || batch[0].Norm != free.Norm || batch[0].Iterations != free.Iterations {
		t.Errorf("L1Min %+v, L1MinBatch %+v (%v): want the same optimum and iterations", free, batch, err)
	}
	if res, err := L1Min(b, q, &L1Options{MaxIter: free.Iterations - 1}); !errors.Is(err, ErrIterationLimit) {
		t.Errorf("%d iterations allowed of the %d needed: %v, %+v", free.Iterations-1, free.Iterations, err, res)
	}
	for _, o := range []L1Options{{MaxIter: -1}, {Tol: math.NaN()}, {Tol: -1}, {PoolSize: -2}} {
		if res, err := L1Min(b, q, &o); !errors.Is(err, ErrBadOption) || res != nil {
			t.Errorf("%+v: %v, %+v, want ErrBadOption and no result", o, err, res)
		}
	}
}
