package simplex

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// netlibDir is where the NETLIB problems live, relative to this package:
// a copy of the project's shared/data/netlib (MPS files and README.md with
// the reference optima), kept in testdata so the tests need nothing
// outside the repository.
const netlibDir = "testdata/netlib"

// netlibRef lists the problems of netlibDir/README.md with their optimal
// c^T x (NaN: infeasible). big marks those left out of -short runs.
var netlibRef = []struct {
	name string
	obj  float64
	big  bool
}{
	{"afiro", -4.6475314286e+02, false},
	{"adlittle", 2.2549496316e+05, false},
	{"israel", -8.9664482186e+05, false},
	{"e226", -1.8751929066e+01, false},
	{"scrs8", 9.0429695380e+02, false},
	{"standata", 1.2576995000e+03, false},
	{"standgub", 1.2576995000e+03, false},
	{"standmps", 1.4060175000e+03, false},
	{"stair", -2.5126695119e+02, false},
	{"etamacro", -7.5571523330e+02, false},
	{"shell", 1.2088253460e+09, false},
	{"perold", -9.3807552780e+03, true},
	{"25fv47", 5.5018458883e+03, true},
	{"greenbea", -7.2555248130e+07, true},
	{"80bau3b", 9.8722419241e+05, true},
	{"woodinfe", math.NaN(), false},
	{"smalllp", 5.4000000000e+01, false},
}

func readNetlib(t testing.TB, name string) *Problem {
	t.Helper()
	path := filepath.Join(netlibDir, name+".mps")
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			t.Fatalf("NETLIB data not found at %s", netlibDir)
		}
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ReadMPS(f, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func TestNetlib(t *testing.T) {
	if _, err := os.Stat(netlibDir); err != nil {
		t.Fatalf("NETLIB data not found at %s: %v", netlibDir, err)
	}
	for _, ref := range netlibRef {
		t.Run(ref.name, func(t *testing.T) {
			if ref.big && testing.Short() {
				t.Skip("large problem skipped in -short mode")
			}
			p := readNetlib(t, ref.name)
			opts := &Options{}
			logging := testing.Verbose() && os.Getenv("SIMPLEX_LOG") != ""
			if logging {
				opts.Progress = func(stage string, done, total int) { t.Logf("%s: %d of at most %d iterations", stage, done, total) }
			}
			start := time.Now()
			res, err := Solve(context.Background(), p, opts)
			el := time.Since(start)
			if logging {
				for _, e := range res.Events {
					t.Log(e)
				}
			}
			if math.IsNaN(ref.obj) {
				if !errors.Is(err, ErrInfeasible) || res.Status != Infeasible {
					t.Fatalf("status %v, err %v; want Infeasible", res.Status, err)
				}
				t.Logf("%s: infeasible after %d iterations, %v", ref.name, res.Iterations, el)
				return
			}
			if err != nil {
				t.Fatalf("status %v, err %v after %d iterations", res.Status, err, res.Iterations)
			}
			rel := math.Abs(res.Objective-ref.obj) / math.Max(1, math.Abs(ref.obj))
			t.Logf("%s: %dx%d objective %.10e (rel. error %.1e), %d iterations, %v", ref.name,
				p.NumRows(), p.NumCols(), res.Objective, rel, res.Iterations, el)
			if rel > 1e-6 {
				t.Errorf("objective %.10e, want %.10e (relative error %.2e)", res.Objective, ref.obj, rel)
			}
			rep := kkt(p, res, 1e-9)
			t.Logf("KKT: %v", rep)
			if rep.primal > 1e-6 || rep.dual > 1e-6 || rep.gap > 1e-6 {
				t.Errorf("not optimal: %v", rep)
			}
		})
	}
}

// TestNetlibPrimal solves the NETLIB set with the primal method: the
// reference optimum within 1e-6 relative and the optimality conditions
// within 1e-6, Infeasible for woodinfe, as TestNetlib does for the dual
// method.
func TestNetlibPrimal(t *testing.T) {
	for _, ref := range netlibRef {
		if ref.big && testing.Short() {
			continue
		}
		p := readNetlib(t, ref.name)
		res, err := Solve(context.Background(), p, &Options{Method: Primal})
		if math.IsNaN(ref.obj) {
			if !errors.Is(err, ErrInfeasible) {
				t.Errorf("%s: status %v, err %v; want Infeasible", ref.name, res.Status, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: status %v, err %v after %d iterations", ref.name, res.Status, err, res.Iterations)
			continue
		}
		rel := math.Abs(res.Objective-ref.obj) / math.Max(1, math.Abs(ref.obj))
		rep := kkt(p, res, 1e-9)
		t.Logf("%s: %d iterations, rel. error %.1e, KKT %v", ref.name, res.Iterations, rel, rep)
		if rel > 1e-6 || rep.primal > 1e-6 || rep.dual > 1e-6 || rep.gap > 1e-6 {
			t.Errorf("%s: objective %.10e (want %.10e), KKT %v", ref.name, res.Objective, ref.obj, rep)
		}
	}
}
