package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/mat"
)

// writeBNCSV writes samples of a fully observed linear BN on p variables
// (named v0..v{p-1}, a header line) to a CSV file: in the order 0..p-1
// each pair is an edge with probability 2/(p-1), weights uniform in
// +-[0.5, 2], exponential noises of variance 1. The columns are
// shuffled so that the file's order is not the causal one. It returns
// the path and the true edges "from->to".
func writeBNCSV(t *testing.T, p, samples int, seed uint64) (string, map[string]bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	lambda := mat.Zeros(p, p)
	for i := 0; i < p; i++ {
		for j := 0; j < i; j++ {
			if r.Float64() < 2/float64(p-1) {
				w := 0.5 + 1.5*r.Float64()
				if r.IntN(2) == 0 {
					w = -w
				}
				lambda.Set(i, j, w)
			}
		}
	}
	col := r.Perm(p) // variable i is written in column col[i], named v{col[i]}
	truth := map[string]bool{}
	for i := 0; i < p; i++ {
		for j := 0; j < i; j++ {
			if lambda.At(i, j) != 0 {
				truth["v"+strconv.Itoa(col[j])+"->v"+strconv.Itoa(col[i])] = true
			}
		}
	}
	var b strings.Builder
	for c := 0; c < p; c++ {
		if c > 0 {
			b.WriteByte(',')
		}
		b.WriteString("v" + strconv.Itoa(c))
	}
	b.WriteByte('\n')
	x := make([]float64, p)
	row := make([]float64, p)
	for s := 0; s < samples; s++ {
		for i := 0; i < p; i++ {
			v := r.ExpFloat64() - 1
			for j := 0; j < i; j++ {
				v += lambda.At(i, j) * x[j]
			}
			x[i] = v
			row[col[i]] = v
		}
		for c, v := range row {
			if c > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', 8, 64))
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "bn.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, truth
}

// readGraph reads bn's JSON output.
func readGraph(t *testing.T, path string) *bnGraph {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g bnGraph
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &g
}

func edgeSet(g *bnGraph) map[string]bool {
	s := map[string]bool{}
	for _, e := range g.Edges {
		s[e.From+"->"+e.To] = true
	}
	return s
}

// TestBNCommand: on 8 variables and 5000 samples bn finds exactly the
// true edges, each with a z-score above 3, writes them as JSON and DOT,
// and with -bootstrap gives each a probability of at least 0.8.
func TestBNCommand(t *testing.T) {
	path, truth := writeBNCSV(t, 8, 5000, 1)
	dir := t.TempDir()
	js, dot := filepath.Join(dir, "g.json"), filepath.Join(dir, "g.dot")
	var out, errb bytes.Buffer
	if err := run(bg, []string{"bn", "-q", "-json", js, "-dot", dot, path}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{"5000 samples of 8 variables", "causal order: ", "edges (", "noises (variance", "identifiability checks", "total"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	if errb.Len() != 0 {
		t.Fatalf("stderr: %q", errb.String())
	}
	g := readGraph(t, js)
	got := edgeSet(g)
	if len(got) != len(truth) {
		t.Errorf("%d edges, want %d: %v", len(got), len(truth), got)
	}
	for e := range truth {
		if !got[e] {
			t.Errorf("true edge %s missing", e)
		}
	}
	for _, e := range g.Edges {
		if e.Z == nil || *e.Z < 3 || e.Prob != nil {
			t.Errorf("edge %s->%s: z %v, bootstrap probability %v", e.From, e.To, e.Z, e.Prob)
		}
	}
	if g.Samples != 5000 || len(g.Order) != 8 || len(g.Lambda) != 8 || g.Pruning != "bic" {
		t.Errorf("graph: %d samples, order %v, pruning %q", g.Samples, g.Order, g.Pruning)
	}
	// The cumulants chosen, and each noise's kurtosis next to its
	// skewness (the exponential noises: skewness 2, excess kurtosis 6,
	// measured whatever the choice).
	if c := g.Cumulants; c != "third" && c != "fourth" && c != "both" {
		t.Errorf("cumulants %q", c)
	}
	if !strings.Contains(out.String(), "excess kurtosis), separated by the ") {
		t.Errorf("output does not name the cumulants:\n%s", out.String())
	}
	if len(g.Skewness) != 8 || len(g.Kurtosis) != 8 {
		t.Fatalf("%d skewnesses, %d kurtoses, want 8 each", len(g.Skewness), len(g.Kurtosis))
	}
	for i := range 8 {
		if g.Skewness[i] == nil || g.Kurtosis[i] == nil || math.Abs(*g.Skewness[i]) < 1 || *g.Kurtosis[i] < 2 {
			t.Errorf("noise %d: skewness %v, kurtosis %v; want about 2 and 6", i, g.Skewness[i], g.Kurtosis[i])
		}
	}
	d, err := os.ReadFile(dot)
	if err != nil || !bytes.HasPrefix(d, []byte("digraph bn {")) || bytes.Count(d, []byte(" -> ")) != len(g.Edges) {
		t.Fatalf("DOT file: %v\n%s", err, d)
	}

	// -bootstrap: probabilities on every edge.
	out.Reset()
	if err := run(bg, []string{"bn", "-q", "-bootstrap", "10", "-json", js, path}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	g = readGraph(t, js)
	if g.Bootstrap != 10 || !strings.Contains(out.String(), "bootstrap probability") {
		t.Fatalf("-bootstrap 10: %d resamples\n%s", g.Bootstrap, out.String())
	}
	for _, e := range g.Edges {
		if e.Prob == nil || *e.Prob < 0.8 {
			t.Errorf("edge %s->%s: bootstrap probability %v", e.From, e.To, e.Prob)
		}
	}
}

// TestBNKnowledge: -forbid drops a true edge, -require adds an absent
// one, -order reverses a true edge; -dense keeps every coefficient.
func TestBNKnowledge(t *testing.T) {
	path, truth := writeBNCSV(t, 6, 3000, 2)
	js := filepath.Join(t.TempDir(), "g.json")
	var some string
	for e := range truth {
		if some == "" || e < some {
			some = e
		}
	}
	from, to, _ := strings.Cut(some, "->")
	var out, errb bytes.Buffer
	if err := run(bg, []string{"bn", "-q", "-forbid", some, "-json", js, path}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if edgeSet(readGraph(t, js))[some] {
		t.Errorf("-forbid %s: edge kept", some)
	}
	if err := run(bg, []string{"bn", "-q", "-order", to + "->" + from, "-json", js, path}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	g := readGraph(t, js)
	pos := map[string]int{}
	for i, v := range g.Order {
		pos[v] = i
	}
	if pos[to] > pos[from] || edgeSet(g)[some] {
		t.Errorf("-order %s->%s: order %v, edges %v", to, from, g.Order, edgeSet(g))
	}
	// An absent edge between two variables, required in the direction of
	// the learned order.
	var req string
	for a := 0; a < 6 && req == ""; a++ {
		for b := 0; b < 6; b++ {
			x, y := g.Order[a], g.Order[b]
			if a < b && !truth[x+"->"+y] && !truth[y+"->"+x] {
				req = x + "->" + y
				break
			}
		}
	}
	if req != "" {
		if err := run(bg, []string{"bn", "-q", "-require", req, "-json", js, path}, &out, &errb); err != nil {
			t.Fatal(err)
		}
		if !edgeSet(readGraph(t, js))[req] {
			t.Errorf("-require %s: edge missing", req)
		}
	}
	if err := run(bg, []string{"bn", "-q", "-dense", "-json", js, path}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if g := readGraph(t, js); len(g.Edges) != 15 || g.Pruning != "none" {
		t.Errorf("-dense: %d edges (want all 15 pairs), pruning %q", len(g.Edges), g.Pruning)
	}
}

// TestBNErrors: bad flag values and arrows are usage errors (status 2);
// unknown names, cycles and bad data are errors with one prefix (status
// 1); an unwritable output fails before the data is read; -h and help
// bn print the help; a gzip input reads as the plain one; a cancelled
// context stops the work; -max-memory refuses a job before the moments.
func TestBNErrors(t *testing.T) {
	path, _ := writeBNCSV(t, 5, 500, 3)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"bn"},
		{"bn", path, path},
		{"bn", "-bootstrap", "-1", path},
		{"bn", "-gamma", "0", path},
		{"bn", "-gamma", "NaN", path},
		{"bn", "-ebic", "-1", path},
		{"bn", "-ebic", "Inf", path},
		{"bn", "-require", "v1-v2", path},
		{"bn", "-forbid", "v1->", path},
		{"bn", "-order", "v1->v2->v3", path},
		{"bn", "-header", "maybe", path},
		{"bn", "-comma", "1", path},
	} {
		code, out, errs := runMain(bg, args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "moments: bn: ") || !strings.Contains(errs, "usage: moments bn") {
			t.Errorf("%v: status %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bn", "-require", "v1->zz", path}, `no variable "zz"`},
		{[]string{"bn", "-require", "v1->v2,v2->v3", "-order", "v3->v1", path}, "cycle"},
		{[]string{"bn", "-require", "v1->v2", "-forbid", "v1->v2", path}, "both required and forbidden"},
		{[]string{"bn", writeTestFile(t, dir, "bad.csv", "a,b\n1,2\n3,x\n")}, "bad.csv: line 3"},
		{[]string{"bn", filepath.Join(dir, "missing.csv")}, "missing.csv"},
		{[]string{"bn", "-json", filepath.Join(dir, "no", "such", "g.json"), path}, "-json"},
		{[]string{"bn", "-dot", dir, path}, "-dot"},
		{[]string{"bn", "-max-memory", "1kB", path}, "1 kB"},
	} {
		code, out, errs := runMain(bg, c.args...)
		if code != 1 || !strings.HasPrefix(errs, "moments: bn: ") || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) ||
			strings.Contains(errs, "bn: bn:") || strings.Contains(errs, "moments: moments:") {
			t.Errorf("%v: status %d, stderr %q", c.args, code, errs)
		}
		if strings.HasPrefix(c.args[1], "-json") || strings.HasPrefix(c.args[1], "-dot") {
			if out != "" {
				t.Errorf("%v: printed before failing on the output: %q", c.args, out)
			}
		}
	}
	code, help, errs := runMain(bg, "bn", "-h")
	if code != 0 || errs != "" || !strings.HasPrefix(help, "usage: moments bn") || !strings.Contains(help, "-bootstrap") || !strings.Contains(help, "-max-memory") {
		t.Fatalf("bn -h: %d %q\n%s", code, errs, help)
	}
	if _, h2, _ := runMain(bg, "help", "bn"); h2 != help {
		t.Fatalf("help bn differs from bn -h")
	}
	// gzip: the same result as the plain file.
	gz := filepath.Join(dir, "bn.csv.gz")
	gzipTo(t, path, gz)
	js1, js2 := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if code, _, errs := runMain(bg, "bn", "-q", "-json", js1, path); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runMain(bg, "bn", "-q", "-json", js2, gz); code != 0 {
		t.Fatal(errs)
	}
	a, _ := os.ReadFile(js1)
	b, _ := os.ReadFile(js2)
	if !bytes.Equal(a, b) {
		t.Fatalf("the gzip input gave another graph")
	}
	// interrupted
	done, cancel := context.WithCancel(bg)
	cancel()
	if err := run(done, []string{"bn", "-q", path}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if code, _, errs := runMain(done, "bn", "-q", "-bootstrap", "5", path); code != 1 || errs != "moments: bn: interrupted\n" {
		t.Fatalf("cancelled bootstrap: %d %q", code, errs)
	}
	var sink bytes.Buffer
	err := run(bg, []string{"bn", "-q", "-require", "v0->v0", path}, &sink, &sink)
	if err == nil || !strings.Contains(err.Error(), "itself") {
		t.Fatalf("self-loop: %v", err)
	}
}

// TestBNResultUnknownStdErr: an edge whose standard error is unknown
// (NaN: too few samples for its parents) or zero gets no stderr and no z,
// so the JSON encoder, which refuses NaN and infinities, still succeeds.
func TestBNResultUnknownStdErr(t *testing.T) {
	nan := math.NaN()
	bn := &linear.ObservedBN{
		Lambda:    mat.FromRows([][]float64{{0, 0, 0}, {0.5, 0, 0}, {0.3, -0.7, 0}}),
		StdErr:    mat.FromRows([][]float64{{0, 0, 0}, {0.1, 0, 0}, {nan, 0, 0}}),
		Order:     []int{0, 1, 2},
		EtaVar:    []float64{1, 1, 1},
		Skewness:  []float64{2, 2, 2},
		Kurtosis:  []float64{nan, 6, math.Inf(1)},
		Cumulants: linear.CumulantsThird,
	}
	g := bnResult(bn, nil, []string{"a", "b", "c"}, 3, linear.PruneBIC)
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if len(g.Edges) != 3 {
		t.Fatalf("%d edges, want 3: %s", len(g.Edges), b)
	}
	if g.Cumulants != "third" || len(g.Kurtosis) != 3 || g.Kurtosis[0] != nil || g.Kurtosis[1] == nil || *g.Kurtosis[1] != 6 || g.Kurtosis[2] != nil ||
		!bytes.Contains(b, []byte(`"noise_kurtosis":[null,6,null]`)) {
		t.Errorf("cumulants %q, kurtosis %v: %s", g.Cumulants, g.Kurtosis, b)
	}
	for _, e := range g.Edges {
		known := e.From == "a" && e.To == "b"
		if (e.Z != nil) != known || (e.StdErr != nil) != known {
			t.Errorf("edge %s->%s: stderr %v, z %v", e.From, e.To, e.StdErr, e.Z)
		}
	}
}
