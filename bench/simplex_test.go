package bench

import (
	"bufio"
	"context"
	"fmt"
	"github.com/moments-go/moments/bench/internal/cputime"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/moments-go/moments/internal/testutil/lptest"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/simplex"
	gmat "gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// The l1 problems of issue 4: B n x k with standard normal entries,
// q = row 0 of B (single) or every row (batch).
var simplexL1Sizes = [][2]int{{150, 25}, {180, 30}}

// simplexNetlibDir holds the NETLIB problems (the repository is checked
// out beside shared/).
const simplexNetlibDir = "../simplex/testdata/netlib"

var simplexNetlib = []string{"afiro", "adlittle", "israel", "e226", "scrs8", "standata", "standgub", "standmps",
	"stair", "etamacro", "shell", "perold", "25fv47", "greenbea", "80bau3b", "woodinfe", "smalllp"}

// simplexB returns the n x k benchmark matrix (seeded; the anchors read
// the same numbers from the files TestSimplexAnchorData writes).
func simplexB(n, k int) *mat.Dense {
	r := rand.New(rand.NewPCG(42, uint64(1000*n+k)))
	b := mat.Zeros(n, k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			b.Set(i, j, r.NormFloat64())
		}
	}
	return b
}

// BenchmarkSimplexL1 times L1Min(B, row 0 of B), setup included.
func BenchmarkSimplexL1(b *testing.B) {
	for _, sz := range simplexL1Sizes {
		B := simplexB(sz[0], sz[1])
		q := B.Row(nil, 0)
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			it := 0
			c0, cpu := cputime.Seconds(), cputime.Available()
			for b.Loop() {
				res, err := simplex.L1Min(B, q, nil)
				if err != nil {
					b.Fatal(err)
				}
				it = res.Iterations
			}
			reportCPU(b, c0, cpu)
			b.ReportMetric(float64(it), "iters")
		})
	}
}

// BenchmarkSimplexL1Batch times L1MinBatch over every row of B.
func BenchmarkSimplexL1Batch(b *testing.B) {
	for _, sz := range simplexL1Sizes {
		B := simplexB(sz[0], sz[1])
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			it := 0
			c0, cpu := cputime.Seconds(), cputime.Available()
			for b.Loop() {
				res, err := simplex.L1MinBatch(context.Background(), B, B, nil)
				if err != nil {
					b.Fatal(err)
				}
				it = 0
				for _, r := range res {
					it += r.Iterations
				}
			}
			reportCPU(b, c0, cpu)
			b.ReportMetric(float64(it), "iters")
		})
	}
}

// BenchmarkSimplexNetlib times reading the MPS file and solving it, the
// way glpsol's whole-process time is taken; it reports the CPU seconds
// per operation (cpu-s/op) beside the wall time.
func BenchmarkSimplexNetlib(b *testing.B) {
	if _, err := os.Stat(simplexNetlibDir); err != nil {
		b.Skipf("NETLIB data not found at %s", simplexNetlibDir)
	}
	for _, name := range simplexNetlib {
		path := filepath.Join(simplexNetlibDir, name+".mps")
		b.Run(name, func(b *testing.B) {
			it := 0
			c0, cpu := cputime.Seconds(), cputime.Available()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				p, err := simplex.ReadMPS(bufio.NewReader(f), nil)
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
				res, err := simplex.Solve(context.Background(), p, nil)
				if err != nil && res.Status != simplex.Infeasible {
					b.Fatal(err)
				}
				it = res.Iterations
			}
			reportCPU(b, c0, cpu)
			b.ReportMetric(float64(it), "iters")
		})
	}
}

// reportCPU reports the CPU seconds per operation since c0 (cpu-s/op),
// when the process's CPU time is available (ok).
func reportCPU(b *testing.B, c0 float64, ok bool) {
	if c1 := cputime.Seconds(); ok {
		b.ReportMetric((c1-c0)/float64(b.N), "cpu-s/op")
	}
}

// simplexFreeLPSizes are the column counts of the random sparse LPs
// with free variables (lptest.FreeLP, seed 1, 5 rows a column) of issue
// 17, where the dual method used to stall.
var simplexFreeLPSizes = []int{300, 400, 500, 600}

// freeLP is lptest.FreeLP(1, n) as a simplex.Problem.
func freeLP(n int) *simplex.Problem {
	g := lptest.FreeLP(1, n)
	return &simplex.Problem{
		Name:     fmt.Sprintf("freelp%d", n),
		Obj:      g.Obj,
		A:        simplex.Sparse{Rows: g.Rows, Cols: g.Cols, ColStart: g.ColStart, RowIndex: g.RowIndex, Value: g.Value},
		RowLower: g.RowLower,
		RowUpper: g.RowUpper,
		ColLower: g.ColLower,
		ColUpper: g.ColUpper,
	}
}

// BenchmarkSimplexFreeLP times Solve on the free-variable family with
// each method (wall and CPU seconds, cpu-s/op) (the problem built beforehand; glpsol's time includes
// reading its MPS file, a few milliseconds at these sizes).
func BenchmarkSimplexFreeLP(b *testing.B) {
	for _, n := range simplexFreeLPSizes {
		p := freeLP(n)
		for _, meth := range []simplex.Method{simplex.Dual, simplex.Primal} {
			b.Run(fmt.Sprintf("%s/n=%d", meth, n), func(b *testing.B) {
				it := 0
				c0, cpu := cputime.Seconds(), cputime.Available()
				for b.Loop() {
					res, err := simplex.Solve(context.Background(), p, &simplex.Options{Method: meth})
					if err != nil {
						b.Fatal(err)
					}
					it = res.Iterations
				}
				reportCPU(b, c0, cpu)
				b.ReportMetric(float64(it), "iters")
			})
		}
	}
}

// gonumL1 is the l1 problem in gonum's standard form: x = (w+, w-, u,
// v) >= 0, min sum(u + v) s.t. B (w+ - w-) - u + v = 0, q^T (w+ - w-) = 1
// (the same LP as the MPS files for glpsol). (The formulation through
// lp.Convert, with rows -t <= B w <= t, makes lp.Simplex fail with "problem
// is unbounded" at 150 x 25.)
func gonumL1(B *mat.Dense, q []float64) (c []float64, a *gmat.Dense, bb []float64) {
	n, k := B.Dims()
	nv := 2*k + 2*n
	c = make([]float64, nv)
	for j := 2 * k; j < nv; j++ {
		c[j] = 1
	}
	a = gmat.NewDense(n+1, nv, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			a.Set(i, j, B.At(i, j))
			a.Set(i, k+j, -B.At(i, j))
		}
		a.Set(i, 2*k+i, -1)
		a.Set(i, 2*k+n+i, 1)
	}
	for j := 0; j < k; j++ {
		a.Set(n, j, q[j])
		a.Set(n, k+j, -q[j])
	}
	bb = make([]float64, n+1)
	bb[n] = 1
	return c, a, bb
}

// BenchmarkGonumL1 is the anchor: gonum v0.17's lp.Simplex (dense) on the
// same problems.
func BenchmarkGonumL1(b *testing.B) {
	for _, sz := range simplexL1Sizes {
		B := simplexB(sz[0], sz[1])
		c, a, bb := gonumL1(B, B.Row(nil, 0))
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			c0, cpu := cputime.Seconds(), cputime.Available()
			for b.Loop() {
				if _, _, err := lp.Simplex(c, a, bb, 1e-10, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0, cpu)
		})
	}
}

// BenchmarkGonumL1Batch times gonum on the first simplexGonumRows rows of
// B; the anchors scale it to all n rows (gonum takes about half a second
// a problem).
func BenchmarkGonumL1Batch(b *testing.B) {
	for _, sz := range simplexL1Sizes[:1] {
		B := simplexB(sz[0], sz[1])
		b.Run(fmt.Sprintf("%dx%d/rows=%d", sz[0], sz[1], simplexGonumRows), func(b *testing.B) {
			c0, cpu := cputime.Seconds(), cputime.Available()
			for b.Loop() {
				for i := 0; i < simplexGonumRows; i++ {
					c, a, bb := gonumL1(B, B.Row(nil, i))
					if _, _, err := lp.Simplex(c, a, bb, 1e-10, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportCPU(b, c0, cpu)
		})
	}
}

const simplexGonumRows = 10

// TestSimplexAnchorData writes, when SIMPLEX_ANCHOR_DIR is set, the
// benchmark matrices (B_NxK.csv), the l1 LPs for glpsol
// (l1_NxK_rowI.mps, free MPS, every row of B) and the free-variable
// family (freelp_N.mps) to that directory, and
// checks that our optimum agrees with gonum's on the single problems.
func TestSimplexAnchorData(t *testing.T) {
	dir := os.Getenv("SIMPLEX_ANCHOR_DIR")
	if dir == "" {
		t.Skip("SIMPLEX_ANCHOR_DIR not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sz := range simplexL1Sizes {
		n, k := sz[0], sz[1]
		B := simplexB(n, k)
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("B_%dx%d.csv", n, k)))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				if j > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, "%.17g", B.At(i, j))
			}
			w.WriteByte('\n')
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		for i := 0; i < n; i++ {
			if err := writeL1MPS(filepath.Join(dir, fmt.Sprintf("l1_%dx%d_row%d.mps", n, k, i)), B, B.Row(nil, i)); err != nil {
				t.Fatal(err)
			}
		}
		res, err := simplex.L1Min(B, B.Row(nil, 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, a, bb := gonumL1(B, B.Row(nil, 0))
		opt, _, err := lp.Simplex(c, a, bb, 1e-10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(opt-res.Norm) > 1e-7*(1+opt) {
			t.Errorf("%dx%d: ours %.12g, gonum %.12g", n, k, res.Norm, opt)
		}
		t.Logf("%dx%d: optimum %.12g (gonum %.12g)", n, k, res.Norm, opt)
	}
	// The free-variable family as free MPS, freelp_N.mps.
	for _, n := range simplexFreeLPSizes {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("freelp_%d.mps", n)))
		if err != nil {
			t.Fatal(err)
		}
		if err := simplex.WriteMPS(f, freeLP(n)); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// writeL1MPS writes min sum(u + v) s.t. B w - u + v = 0, q^T w = 1,
// w free, u, v >= 0 as free MPS.
func writeL1MPS(path string, B *mat.Dense, q []float64) error {
	n, k := B.Dims()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "NAME L1\nROWS\n N obj\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, " E r%d\n", i)
	}
	fmt.Fprintf(w, " E norm\nCOLUMNS\n")
	for j := 0; j < k; j++ {
		for i := 0; i < n; i++ {
			fmt.Fprintf(w, " w%d r%d %.17g\n", j, i, B.At(i, j))
		}
		fmt.Fprintf(w, " w%d norm %.17g\n", j, q[j])
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, " u%d obj 1 r%d -1\n", i, i)
		fmt.Fprintf(w, " v%d obj 1 r%d 1\n", i, i)
	}
	fmt.Fprintf(w, "RHS\n rhs norm 1\nBOUNDS\n")
	for j := 0; j < k; j++ {
		fmt.Fprintf(w, " FR bnd w%d\n", j)
	}
	fmt.Fprintf(w, "ENDATA\n")
	return w.Flush()
}
