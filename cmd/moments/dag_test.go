package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// writeDAGCSV writes samples of a small Example-2 model (n observed, k
// hidden, model seed) to a CSV file with a header and returns its path.
// With n = 24 and k = 4, seed 48 draws a model that meets the
// identifiability conditions (its support expands and the l1 step
// recovers every column) and seed 3 one whose support does not expand.
func writeDAGCSV(t *testing.T, n, k, samples int, seed uint64) string {
	t.Helper()
	m := synth.RandomDAG(rand.New(rand.NewPCG(seed, 1)), n, k, 0.3, 0.5, synth.Skewed)
	src := m.Samples(samples, 7)
	x := mat.Zeros(samples, n)
	src.Block(0, samples, x)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("v" + strconv.Itoa(i))
	}
	b.WriteByte('\n')
	for s := 0; s < samples; s++ {
		for i, v := range x.RawRow(s) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', 7, 64))
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "dag.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDAGCommand(t *testing.T) {
	path := writeDAGCSV(t, 24, 4, 20000, 48)
	var out, errb bytes.Buffer
	if err := run(bg, []string{"dag", "-k", "4", "-q", path}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{
		"20000 samples of 24 variables", "A (24 x 4", "v23", "Lambda (4 x 4", "causal order: h1 h2 h3 h4",
		"skewness", "triangularity", "expansion of A's support", "incoherence", "noise variances", "LearnTWM", "total",
	} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	if errb.Len() != 0 {
		t.Fatalf("-q printed on stderr: %q", errb.String())
	}

	// -prune 1 leaves no edge; progress goes to stderr.
	out.Reset()
	if err := run(bg, []string{"dag", "-k", "4", "-prune", "1", "-header", "yes", path}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "edges |Lambda_ij| > 0.1:\n  none") || !strings.Contains(errb.String(), "DLD") {
		t.Fatalf("-prune 1:\n%s\nstderr %q", out.String(), errb.String())
	}
}

// TestDAGCommandWarns: a model outside the conditions is learned, with
// the verdict's warnings on stderr even with -q.
func TestDAGCommandWarns(t *testing.T) {
	path := writeDAGCSV(t, 24, 4, 20000, 3)
	var out, errb bytes.Buffer
	if err := run(bg, []string{"dag", "-k", "4", "-q", path}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	if !strings.HasPrefix(errb.String(), "moments: warning: expansion FAILS") || !strings.Contains(out.String(), "Lambda (4 x 4") ||
		!strings.Contains(out.String(), "identifiability checks") || !strings.Contains(out.String(), "expansion FAILS") {
		t.Fatalf("stderr %q\nstdout:\n%s", errb.String(), out.String())
	}
}

func TestDAGCommandErrors(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.csv", "1,2,3,4,5,6\n2,3,4,5,6,1\n3,4,5,6,1,2\n")
	if err := run(bg, []string{"dag", good}, &out, &errb); err == nil {
		t.Fatal("missing -k accepted")
	}
	if err := run(bg, []string{"dag", "-k", "2", filepath.Join(dir, "missing.csv")}, &out, &errb); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	bad := write("bad.csv", "a,b,c\n1,2,3\n4,x,6\n")
	err := run(bg, []string{"dag", "-k", "1", bad}, &out, &errb)
	if !errors.Is(err, linear.ErrBadData) || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("bad field: %v", err)
	}
	ragged := write("ragged.csv", "1,2,3\n4,5\n")
	if err := run(bg, []string{"dag", "-k", "1", ragged}, &out, &errb); !errors.Is(err, linear.ErrBadData) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("ragged line: %v", err)
	}
	if err := run(bg, []string{"dag", "-k", "3", good}, &out, &errb); !errors.Is(err, linear.ErrTooManyFactors) {
		t.Fatalf("k too large: %v", err)
	}
	if err := run(bg, []string{"dag", "-k", "1", "-header", "maybe", good}, &out, &errb); err == nil {
		t.Fatal("bad -header accepted")
	}
	// With -header yes the first line is names: no samples left in a
	// one-line file.
	one := write("one.csv", "1,2,3\n")
	if err := run(bg, []string{"dag", "-k", "1", "-header", "yes", one}, &out, &errb); !errors.Is(err, linear.ErrBadData) {
		t.Fatalf("no samples: %v", err)
	}
}
