package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/moments-go/moments/latent/eval/report"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// dagTruthFile is the file that dag -truth reads: the true model x = A h
// + eps, h = Lambda h + eta, as JSON rows (the layout of the bench's
// truth files, {"B": rows}): A is n x k, Lambda k x k and strictly lower
// triangular (the hidden variables in a topological order), EtaVar the
// k variances of the hidden noises (all 1 when absent). The scale is
// free: both are brought to canonical form (unit-variance hidden
// variables) before the comparison.
type dagTruthFile struct {
	A      [][]float64 `json:"A"`
	Lambda [][]float64 `json:"Lambda"`
	EtaVar []float64   `json:"EtaVar"`
}

// readDAGTruth reads and checks a truth file for n observed and k hidden
// variables, and returns A and Lambda in canonical form.
func readDAGTruth(ctx context.Context, path string, n, k int) (a, lambda *mat.Dense, err error) {
	f, err := openInput(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, inFile(path, err)
	}
	var t dagTruthFile
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, nil, fmt.Errorf("%s: %w: %v", path, linear.ErrBadData, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: %w: %s", path, linear.ErrBadData, fmt.Sprintf(format, args...))
	}
	a, err = truthMatrix(t.A, n, k)
	if err != nil {
		return nil, nil, bad("A: %v", err)
	}
	lambda, err = truthMatrix(t.Lambda, k, k)
	if err != nil {
		return nil, nil, bad("Lambda: %v", err)
	}
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			if lambda.At(i, j) != 0 {
				return nil, nil, bad("Lambda[%d][%d] = %g: Lambda must be strictly lower triangular (hidden variables in a topological order)", i, j, lambda.At(i, j))
			}
		}
	}
	eta := make([]synth.Noise, k)
	for j := range eta {
		eta[j].Var = 1
	}
	if t.EtaVar != nil {
		if len(t.EtaVar) != k {
			return nil, nil, bad("EtaVar has %d entries, want k = %d", len(t.EtaVar), k)
		}
		for j, v := range t.EtaVar {
			if !(v > 0) || math.IsInf(v, 1) {
				return nil, nil, bad("EtaVar[%d] = %g: variances must be positive and finite", j, v)
			}
			eta[j].Var = v
		}
	}
	ca, cl := report.CanonicalDAG(&synth.DAG{A: a, Lambda: lambda, Eta: eta})
	if _, _, nonFinite := ca.NonFinite(); nonFinite {
		return nil, nil, bad("the canonical form of A overflows")
	}
	if _, _, nonFinite := cl.NonFinite(); nonFinite {
		return nil, nil, bad("the canonical form of Lambda overflows")
	}
	return ca, cl, nil
}

// truthMatrix checks that rows is r x c and finite, and returns it.
func truthMatrix(rows [][]float64, r, c int) (*mat.Dense, error) {
	if len(rows) != r {
		return nil, fmt.Errorf("%d rows, want %d", len(rows), r)
	}
	m := mat.Zeros(r, c)
	for i, row := range rows {
		if len(row) != c {
			return nil, fmt.Errorf("row %d has %d entries, want %d", i, len(row), c)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("entry [%d][%d] is %g", i, j, v)
			}
			m.Set(i, j, v)
		}
	}
	return m, nil
}

// printDAGTruth prints d against the truth (canonical A and Lambda):
// dist and the relative Frobenius error after matching the hidden
// variables, and the precision and recall of the supports, as the main
// job does.
func printDAGTruth(w io.Writer, d *linear.DAG, ta, tl *mat.Dense, tau float64) {
	ea, el := report.AlignDAG(ta, d, d.Lambda)
	fmt.Fprintln(w, "against the truth (hidden variables matched to the true ones):")
	fmt.Fprintf(w, "  %-7s %8s %8s %13s %13s\n", "matrix", "dist", "rel F", "raw P/R", fmt.Sprintf("P/R tau %g", tau))
	for _, r := range []struct {
		name string
		m    report.Metrics
	}{{"Lambda", report.Compare(tl, el, tau)}, {"A", report.Compare(ta, ea, tau)}} {
		fmt.Fprintf(w, "  %-7s %8.4f %8.4f %13s %13s\n", r.name, r.m.Dist, r.m.RelErr,
			fmt.Sprintf("%.3f/%.3f", r.m.Prec, r.m.Rec), fmt.Sprintf("%.3f/%.3f", r.m.PrecT, r.m.RecT))
	}
	fmt.Fprintln(w, "  dist: eval.Dist, the papers' column distance (it rescales each column); rel F: ||estimate - truth||_F / ||truth||_F in canonical form")
}
