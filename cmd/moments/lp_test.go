package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// afiroMPS is a NETLIB problem of the simplex package's test data.
const afiroMPS = "../../simplex/testdata/netlib/afiro.mps"

// afiroOpt is its optimal objective (NETLIB readme).
const afiroOpt = -4.6475314286e+02

// TestLPCommand: moments lp solves afiro with either method (plain and
// gzip-compressed) and prints status, objective, iterations and time;
// -json writes a solution whose c^T x is the optimum and whose reduced
// costs are c - A^T y for the written row duals (1e-9 relative); an
// infeasible problem exits 0, an iteration limit 1 without -json file.
func TestLPCommand(t *testing.T) {
	dir := t.TempDir()
	gz := filepath.Join(dir, "afiro.gz")
	gzipTo(t, afiroMPS, gz)
	for _, args := range [][]string{
		{"lp", afiroMPS},
		{"lp", "-method", "primal", afiroMPS},
		{"lp", "-max-iter", "1000", "-time-limit", "1m", gz},
		{"lp", "-no-presolve", afiroMPS},
	} {
		code, out, errs := runMain(bg, args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: status %d, stderr %q", args, code, errs)
		}
		for _, want := range []string{"problem AFIRO: 27 rows, 32 columns, 83 nonzeros", "status:     OPTIMAL", "objective:  -464.753142857", "iterations: ", "time: "} {
			if !strings.Contains(out, want) {
				t.Fatalf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
	js := filepath.Join(dir, "afiro.json")
	if code, _, errs := runMain(bg, "lp", "-json", js, afiroMPS); code != 0 {
		t.Fatalf("-json: %s", errs)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var sol lpJSON
	if err := json.Unmarshal(b, &sol); err != nil {
		t.Fatal(err)
	}
	if sol.Status != "OPTIMAL" || sol.Objective == nil || math.Abs(*sol.Objective-afiroOpt) > 1e-8*math.Abs(afiroOpt) ||
		len(sol.Columns) != 32 || len(sol.Rows) != 27 || sol.Columns[0].Name != "X01" {
		t.Fatalf("JSON: %+v", sol)
	}
	p, err := readLP(bg, afiroMPS, 0)
	if err != nil {
		t.Fatal(err)
	}
	// c^T x and the dual objective from the file's values, and the
	// reduced costs against c - A^T y.
	x := make([]float64, 32)
	y := make([]float64, 27)
	for j, c := range sol.Columns {
		x[j] = c.Value
	}
	for i, r := range sol.Rows {
		y[i] = r.Dual
	}
	var cx float64
	aty := p.A.MulVecT(y)
	for j := range x {
		cx += p.Obj[j] * x[j]
		if d := p.Obj[j] - aty[j]; math.Abs(d-sol.Columns[j].ReducedCost) > 1e-9*(1+math.Abs(p.Obj[j])) {
			t.Fatalf("column %d: reduced cost %g, c - A^T y = %g", j, sol.Columns[j].ReducedCost, d)
		}
	}
	if math.Abs(cx-afiroOpt) > 1e-8*math.Abs(afiroOpt) {
		t.Fatalf("c^T x = %.12g, want %.12g", cx, afiroOpt)
	}
	// Infeasible problems are an answer (status 0), limits are not.
	inf := writeTestFile(t, dir, "inf.mps", "NAME INF\nROWS\n N obj\n G r1\nCOLUMNS\n x obj 1 r1 1\nRHS\n rhs r1 2\nBOUNDS\n UP bnd x 1\nENDATA\n")
	if code, out, _ := runMain(bg, "lp", inf); code != 0 || !strings.Contains(out, "status:     INFEASIBLE") || !strings.Contains(out, "presolve: infeasible") {
		t.Fatalf("infeasible: status %d:\n%s", code, out)
	}
	code, out, errs := runMain(bg, "lp", "-max-iter", "1", "-json", js+"2", afiroMPS)
	if code != 1 || !strings.Contains(out, "ITERATION LIMIT") || errs != "moments: lp: "+afiroMPS+": iteration limit reached\n" {
		t.Fatalf("iteration limit: status %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat(js + "2"); err == nil {
		t.Fatal("a run stopped by its limit wrote -json")
	}
}

// TestLPErrors: a malformed file is an error with its line, prefixed
// once; usage mistakes exit 2; -h and help lp exit 0.
func TestLPErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeTestFile(t, dir, "bad.mps", "NAME BAD\nROWS\n N obj\n L r1\nCOLUMNS\n x obj 1 r1 abc\nENDATA\n")
	code, out, errs := runMain(bg, "lp", bad)
	if code != 1 || out != "" || !strings.HasPrefix(errs, "moments: lp: "+bad+": mps line ") || strings.Count(errs, "\n") != 1 ||
		strings.Contains(errs, "simplex:") {
		t.Fatalf("malformed: status %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := runMain(bg, "lp", filepath.Join(dir, "missing.mps")); code != 1 || !strings.HasPrefix(errs, "moments: lp: ") {
		t.Fatalf("missing file: %d %q", code, errs)
	}
	for _, args := range [][]string{
		{"lp"},
		{"lp", afiroMPS, afiroMPS},
		{"lp", "-method", "barrier", afiroMPS},
		{"lp", "-max-iter", "-1", afiroMPS},
		{"lp", "-time-limit", "-1s", afiroMPS},
		{"lp", "-time-limit", "5", afiroMPS},
	} {
		code, out, errs := runMain(bg, args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "moments: lp: ") || !strings.Contains(errs, "usage: moments lp") {
			t.Fatalf("%v: status %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"lp", "-h"}, {"help", "lp"}} {
		code, out, errs := runMain(bg, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: moments lp") || !strings.Contains(out, "-time-limit") {
			t.Fatalf("%v: status %d, stderr %q:\n%s", args, code, errs, out)
		}
	}
}

// TestLPMaxMemory: lp refuses an MPS file over -max-memory as it reads
// it, in the memory rule's words, and a gzip bomb (64 MB of one line,
// 64 kB compressed) after a few MB, not after the whole line.
func TestLPMaxMemory(t *testing.T) {
	err, used, _ := runAlloc("lp", "-max-memory", "1kB", afiroMPS)
	checkRefusal(t, "lp", err, used, 4<<20, "the MPS input up to line ", "1 kB")

	path := filepath.Join(t.TempDir(), "bomb.mps.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	line := bytes.Repeat([]byte("x"), 1<<20)
	for range 64 {
		if _, err := z.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	err, used, _ = runAlloc("lp", "-max-memory", "3MiB", path)
	checkRefusal(t, "lp", err, used, 16<<20, "the MPS input up to line 1", "3.15 MB")
}
