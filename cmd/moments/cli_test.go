package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/treemix"
)

// runMain runs the command line as main does, without os.Exit: it
// returns the exit status and what went to stdout and stderr.
func runMain(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = exit(run(ctx, args, &o, &e), &e)
	return code, o.String(), e.String()
}

// names lists the subcommands, sorted.
func names() []string {
	var ns []string
	for n := range commands {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// writeFile writes s to dir/name and returns the path.
func writeTestFile(t *testing.T, dir, name, s string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// gzipTo writes the gzip compression of the file src to dst.
func gzipTo(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeUCI writes a small LDA corpus (k topics over 40 words) as
// docword.NAME.txt and vocab.NAME.txt in dir and returns the docword
// path.
func writeUCI(t *testing.T, dir, name string, docs, k int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = 0.2
	}
	c := synth.RandomLDA(r, 40, k, 0.1, alpha).NewCorpus(docs, 30, 40, 2).Materialize()
	var doc, voc strings.Builder
	nnz := 0
	for i := 0; i < c.NumDocs(); i++ {
		nnz += len(c.Doc(i).Words)
	}
	doc.WriteString(itoa(c.NumDocs()) + "\n40\n" + itoa(nnz) + "\n")
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		for j, w := range d.Words {
			doc.WriteString(itoa(i+1) + " " + itoa(int(w)+1) + " " + itoa(int(d.Counts[j])) + "\n")
		}
	}
	for w := 0; w < 40; w++ {
		voc.WriteString("word" + itoa(w) + "\n")
	}
	writeTestFile(t, dir, "vocab."+name+".txt", voc.String())
	return writeTestFile(t, dir, "docword."+name+".txt", doc.String())
}

// writeTreemixCSV writes samples of a small mixture of two trees over
// p variables with 3 states and returns the path.
func writeTreemixCSV(t *testing.T, dir string, p, samples int) string {
	t.Helper()
	m := treemix.RandomTreeMixture(p, 3, 2, &treemix.GenOptions{Seed: 1})
	x, _ := m.Sample(samples, 3)
	var b bytes.Buffer
	if err := treemix.WriteCSV(&b, x); err != nil {
		t.Fatal(err)
	}
	return writeTestFile(t, dir, "tm.csv", b.String())
}

// Case 1: -h and -help on every subcommand print its help on stdout and
// exit with status 0; nothing goes to stderr.
func TestHelpFlagExitsZero(t *testing.T) {
	for _, name := range names() {
		for _, h := range []string{"-h", "-help", "--help"} {
			code, out, errs := runMain(bg, name, h)
			if code != 0 || errs != "" {
				t.Fatalf("%s %s: status %d, stderr %q", name, h, code, errs)
			}
			if !strings.HasPrefix(out, "usage: moments ") || !strings.Contains(out, name) {
				t.Fatalf("%s %s printed:\n%s", name, h, out)
			}
			if name != "info" && !strings.Contains(out, "\nflags:\n  -") {
				t.Fatalf("%s %s lists no flags:\n%s", name, h, out)
			}
		}
	}
	// The flags of a subcommand come with their help.
	if _, out, _ := runMain(bg, "lda", "-h"); !strings.Contains(out, "-alpha0") || !strings.Contains(out, "-json") {
		t.Fatalf("lda -h:\n%s", out)
	}
}

// Case 2: "moments help CMD" shows CMD's help, the same text as
// "moments CMD -h"; "help" and "-h" alone show the commands; "help
// nosuch" is a usage error.
func TestHelpCommand(t *testing.T) {
	_, top, _ := runMain(bg, "help")
	for _, name := range names() {
		code, out, errs := runMain(bg, "help", name)
		_, h, _ := runMain(bg, name, "-h")
		if code != 0 || errs != "" || out != h {
			t.Fatalf("help %s: status %d, stderr %q, output differs from %s -h:\n%s", name, code, errs, name, out)
		}
		if out == top {
			t.Fatalf("help %s printed the top-level help", name)
		}
	}
	if _, out, _ := runMain(bg, "help", "dag"); !strings.HasPrefix(out, "usage: moments dag") || !strings.Contains(out, "-prune") {
		t.Fatalf("help dag:\n%s", out)
	}
	for _, args := range [][]string{{"-h"}, {"-help"}, {"help", "help"}} {
		code, out, _ := runMain(bg, args...)
		if code != 0 || out != top || !strings.Contains(out, "commands:") {
			t.Fatalf("%v: status %d:\n%s", args, code, out)
		}
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "dag", "lda"}, {"nosuch"}} {
		code, out, errs := runMain(bg, args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "moments: ") {
			t.Fatalf("%v: status %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// cancelOnProgress is a stderr that cancels its context at the first
// progress line written to it: the work is interrupted while it runs.
type cancelOnProgress struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelOnProgress) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte("\r")) {
		w.cancel()
	}
	return w.buf.Write(p)
}

// Case 3: a cancelled context (what Ctrl-C does through
// signal.NotifyContext) stops every command with "moments: CMD:
// interrupted" and status 1; a progress line already shown is ended
// with a newline; no output file is left behind.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	dagCSV := writeDAGCSV(t, 12, 2, 2000, 3)
	tm := writeTreemixCSV(t, dir, 6, 2000)
	uci := writeUCI(t, dir, "c", 300, 3)
	text := filepath.Join(dir, "text")
	os.Mkdir(text, 0o755)
	writeTestFile(t, text, "a.txt", "cats purr and cats sleep")
	done, cancel := context.WithCancel(bg)
	cancel()
	for _, args := range [][]string{
		{"example", "-n", "2000", "-vars", "12", "-k", "2", "-svg", filepath.Join(dir, "ex.svg")},
		{"dag", "-k", "2", dagCSV},
		{"treemix", "-dot", filepath.Join(dir, "t.dot"), tm},
		{"lda", "-k", "3", "-json", filepath.Join(dir, "m.json"), uci},
		{"lda", "-k", "2", text},
		{"demo", "-n", "8"},
	} {
		code, out, errs := runMain(done, args...)
		// a progress line may precede the message, ended
		want := "moments: " + args[0] + ": interrupted\n"
		if before, ok := strings.CutSuffix(errs, want); code != 1 || !ok || before != "" && !strings.HasSuffix(before, "\n") {
			t.Fatalf("%v under a cancelled context: status %d, stderr %q, want %q; stdout:\n%s", args, code, errs, want, out)
		}
		err := run(done, args, &bytes.Buffer{}, &bytes.Buffer{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: %v does not wrap context.Canceled", args, err)
		}
	}

	// Cancelled while the progress line is shown.
	for _, args := range [][]string{
		{"example", "-n", "20000", "-vars", "12", "-k", "2", "-svg", filepath.Join(dir, "ex.svg")},
		{"dag", "-k", "2", dagCSV},
		{"treemix", "-dot", filepath.Join(dir, "t.dot"), tm},
	} {
		ctx, cancel := context.WithCancel(bg)
		stderr := &cancelOnProgress{cancel: cancel}
		err := run(ctx, args, &bytes.Buffer{}, stderr)
		cancel()
		if err == nil || err.Error() != args[0]+": interrupted" {
			t.Fatalf("%v interrupted during the work: %v", args, err)
		}
		s := stderr.buf.String()
		if !strings.Contains(s, "\r") || !strings.HasSuffix(s, "\n") {
			t.Fatalf("%v: the progress line is not ended: %q", args, s)
		}
	}
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		if n := e.Name(); n != "tm.csv" && n != "text" && !strings.HasPrefix(n, "docword.") && !strings.HasPrefix(n, "vocab.") {
			t.Fatalf("interrupted runs left %s", n)
		}
	}
}

// Case 4: an output path that cannot be written fails before the work:
// nothing is printed on stdout (every command prints its first line
// after reading its data) and no file is created.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	tm := writeTreemixCSV(t, dir, 6, 2000)
	uci := writeUCI(t, dir, "c", 300, 3)
	missing := filepath.Join(dir, "no", "such", "dir")
	for _, args := range [][]string{
		{"example", "-svg", filepath.Join(missing, "ex.svg")},
		{"example", "-svg", dir},
		{"treemix", "-dot", filepath.Join(missing, "t.dot"), tm},
		{"treemix", "-dot", dir, tm},
		{"lda", "-k", "3", "-json", filepath.Join(missing, "m.json"), uci},
	} {
		code, out, errs := runMain(bg, args...)
		if code != 1 || out != "" || !strings.HasPrefix(errs, "moments: "+args[0]+": -") {
			t.Fatalf("%v: status %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	// A successful run writes the file and leaves no temporary file.
	dot := filepath.Join(dir, "t.dot")
	if code, _, errs := runMain(bg, "treemix", "-q", "-em", "2", "-dot", dot, tm); code != 0 {
		t.Fatalf("treemix -dot: %s", errs)
	}
	if b, err := os.ReadFile(dot); err != nil || !bytes.HasPrefix(b, []byte("digraph")) {
		t.Fatalf("DOT file: %v %.40q", err, b)
	}
	if info, _ := os.Stat(dot); info.Mode().Perm() != 0o644 {
		t.Fatalf("DOT file mode %v", info.Mode())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("left a temporary file %s", e.Name())
		}
	}
	// A failed run leaves an older file as it was: -r 3 with 3 states
	// fails in the learner (d > r), after the output was created.
	if code, _, _ := runMain(bg, "treemix", "-q", "-r", "3", "-dot", dot, tm); code != 1 {
		t.Fatal("treemix -r 3 with 3 states succeeded")
	}
	if b, _ := os.ReadFile(dot); !bytes.HasPrefix(b, []byte("digraph")) {
		t.Fatalf("a failed run changed the DOT file: %.40q", b)
	}
}

// Case 5: gzip inputs read as the plain ones: CSV for dag and treemix,
// a UCI docword file with its vocabulary, the files of a text
// directory; compressed files are known by their first bytes, whatever
// their name.
func TestGzipInputs(t *testing.T) {
	dir := t.TempDir()
	// results are printed with times; compare the lines without them
	// (those ending in "s" or holding "s)").
	stable := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if !strings.Contains(l, "s)") && !strings.HasSuffix(l, "s") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	same := func(args []string, plain, packed string) {
		t.Helper()
		run1 := append(slices.Clone(args), plain)
		run2 := append(slices.Clone(args), packed)
		c1, o1, e1 := runMain(bg, run1...)
		c2, o2, e2 := runMain(bg, run2...)
		if c1 != 0 || c2 != 0 {
			t.Fatalf("%v: %s / %s", args, e1, e2)
		}
		if stable(o1) != stable(o2) || len(stable(o1)) < 100 {
			t.Fatalf("%v: plain and gzip outputs differ:\n%s\n---\n%s", args, o1, o2)
		}
	}
	dagCSV := writeDAGCSV(t, 12, 2, 3000, 3)
	gzipTo(t, dagCSV, filepath.Join(dir, "dag.csv.gz"))
	gzipTo(t, dagCSV, filepath.Join(dir, "dag-no-suffix.csv"))
	same([]string{"dag", "-k", "2", "-q"}, dagCSV, filepath.Join(dir, "dag.csv.gz"))
	same([]string{"dag", "-k", "2", "-q"}, dagCSV, filepath.Join(dir, "dag-no-suffix.csv"))

	tm := writeTreemixCSV(t, dir, 6, 2000)
	gzipTo(t, tm, filepath.Join(dir, "tm.csv.gz"))
	same([]string{"treemix", "-q", "-em", "3"}, tm, filepath.Join(dir, "tm.csv.gz"))

	uci := writeUCI(t, dir, "c", 400, 3)
	gzDir := filepath.Join(dir, "gz")
	os.Mkdir(gzDir, 0o755)
	gzipTo(t, uci, filepath.Join(gzDir, "docword.c.txt.gz"))
	gzipTo(t, filepath.Join(dir, "vocab.c.txt"), filepath.Join(gzDir, "vocab.c.txt.gz"))
	same([]string{"lda", "-k", "3"}, uci, filepath.Join(gzDir, "docword.c.txt.gz"))
	if _, out, _ := runMain(bg, "lda", "-k", "3", filepath.Join(gzDir, "docword.c.txt.gz")); !strings.Contains(out, "word1") {
		t.Fatalf("the gzip vocabulary was not used:\n%s", out)
	}

	plain, packed := filepath.Join(dir, "text"), filepath.Join(dir, "textgz")
	os.Mkdir(plain, 0o755)
	os.Mkdir(packed, 0o755)
	for i, s := range []string{"cats purr and cats sleep", "dogs bark and dogs run", "cats and dogs play", "birds sing and birds fly", "dogs chase cats", "birds and cats"} {
		p := writeTestFile(t, plain, "d"+itoa(i), s)
		gzipTo(t, p, filepath.Join(packed, "d"+itoa(i)))
	}
	// The text directory is too small to learn from; the corpus line
	// (documents, words, tokens) is what is compared.
	corpusLine := func(path string) string {
		// The rules for real text off, as this corpus was written for.
		_, out, errs := runMain(bg, "lda", "-k", "2", "-min-df", "1", "-max-df", "1", "-min-doc-words", "0", "-keep-docs", "-max-word-share", "0", path)
		l, _, _ := strings.Cut(out, " (read in")
		if !strings.HasPrefix(l, "corpus") {
			t.Fatalf("lda %s: %s%s", path, out, errs)
		}
		return l
	}
	if a, b := corpusLine(plain), corpusLine(packed); a != b || !strings.Contains(a, "6 documents, 11 words, 20 tokens") {
		t.Fatalf("text: plain %q, gzip %q", a, b)
	}

	// A file that starts like gzip but is not is an error naming it.
	bad := writeTestFile(t, dir, "bad.csv", "\x1f\x8bnot gzip")
	if code, _, errs := runMain(bg, "dag", "-k", "1", bad); code != 1 || !strings.Contains(errs, "bad.csv") {
		t.Fatalf("corrupt gzip: status %d, %q", code, errs)
	}
}

// Case 6: every error is one line with one prefix: "moments: CMD:
// message", never "moments: moments:" nor "CMD: CMD:", for errors of
// the library's readers and learners (which start with their package
// name) as for the command's own.
func TestOnePrefix(t *testing.T) {
	dir := t.TempDir()
	tm := writeTreemixCSV(t, dir, 6, 500)
	uci := writeUCI(t, dir, "c", 100, 3)
	// stop words alone: the library's "topic: k = 1 topics for a
	// vocabulary of 0 words"
	stop := filepath.Join(dir, "stop")
	os.Mkdir(stop, 0o755)
	writeTestFile(t, stop, "a", "the and of")
	for _, c := range []struct {
		args []string
		want string // in the message
	}{
		{[]string{"lda", "-k", "2", "-vocab", writeTestFile(t, dir, "v.txt", "a\nb\nc\n"), writeTestFile(t, dir, "docword.bad.txt", "2\n3\n1\n1 9 1\n")}, "docword.bad.txt: "},
		{[]string{"lda", "-k", "50", uci}, "lda: "},
		{[]string{"lda", "-k", "1", stop}, "lda: topic: bad option: k = 1 topics for a vocabulary of 0 words"},
		{[]string{"treemix", writeTestFile(t, dir, "bad.csv", "0,1\n1,x\n")}, "bad.csv: line 2"},
		{[]string{"treemix", "-q", "-r", "3", tm}, "d > r"},
		{[]string{"dag", "-k", "1", writeTestFile(t, dir, "d.csv", "a,b,c\n1,2,3\n4,x,6\n")}, "d.csv: line 3, field 2"},
		{[]string{"dag", "-k", "1", filepath.Join(dir, "missing.csv")}, "missing.csv"},
		{[]string{"lda", "-k", "1", filepath.Join(dir, "missing")}, "missing"},
	} {
		code, _, errs := runMain(bg, c.args...)
		t.Logf("%s", errs)
		cmd := c.args[0]
		if code != 1 || !strings.HasPrefix(errs, "moments: "+cmd+": ") || !strings.HasSuffix(errs, "\n") ||
			strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Fatalf("%v: status %d, stderr %q", c.args, code, errs)
		}
		for _, stutter := range []string{"moments: moments:", cmd + ": " + cmd + ":", "moments: " + cmd + ": moments:"} {
			if strings.Contains(errs, stutter) {
				t.Fatalf("%v: %q stutters (%q)", c.args, errs, stutter)
			}
		}
	}
}

// Case 7: every subcommand refuses unexpected arguments and missing
// ones with a usage error: status 2, the message and the synopsis on
// stderr, nothing run.
func TestArguments(t *testing.T) {
	dir := t.TempDir()
	f := writeTestFile(t, dir, "x.csv", "1,2,3\n4,5,6\n")
	for _, args := range [][]string{
		{"demo", "foo"},
		{"demo", "-n", "4", "foo"},
		{"info", "foo"},
		{"example", "foo"},
		{"foo"},
		{"-n", "10", "foo"},
		{"dag", "-k", "1"},
		{"dag", "-k", "1", f, f},
		{"treemix"},
		{"treemix", f, f},
		{"lda", "-k", "2"},
		{"lda", "-k", "2", dir, dir},
		{"dag", f},                   // -k missing
		{"lda", dir},                 // -k missing
		{"-h", "foo"},                // top-level help with an argument
		{"dag", "-k", "1", "-x", f},  // unknown flag
		{"dag", "-k", "x", f},        // not a number
		{"dag", "-k", "1", f, "-q"},  // a flag after the argument is an argument
		{"treemix", "-holdout", f},   // the flag takes the file, no file left
		{"example", "-svg"},          // flag without its value
		{"demo", "-n", "1e9"},        // not an int
		{"demo", "-n", "1000000000"}, // out of range
	} {
		code, out, errs := runMain(bg, args...)
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != 2 || out != "" || !strings.HasPrefix(errs, "moments: ") || len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-1], "Run 'moments help") {
			t.Fatalf("%v: status %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	code, out, errs := runMain(bg, "demo", "foo")
	if code != 2 || errs != "moments: demo: unexpected argument \"foo\"\nusage: moments demo [flags]\nRun 'moments help demo' for details.\n" {
		t.Fatalf("demo foo: %d %q %q", code, out, errs)
	}
}

// Case 8: flag values that make no sense are usage errors (status 2,
// nothing run), never panics or silent acceptance; NaN and the
// infinities are refused for every float flag.
func TestFlagValues(t *testing.T) {
	dir := t.TempDir()
	tm := writeTreemixCSV(t, dir, 6, 300)
	uci := writeUCI(t, dir, "c", 100, 3)
	csv := writeDAGCSV(t, 12, 2, 100, 3)
	text := filepath.Join(dir, "text")
	os.Mkdir(text, 0o755)
	writeTestFile(t, text, "a.txt", "cats purr")
	bad := func(cmd string, flags []string, arg ...string) []string {
		return append(append([]string{cmd}, flags...), arg...)
	}
	var cases [][]string
	for _, v := range []string{"NaN", "Inf", "-Inf", "-1"} {
		cases = append(cases,
			bad("example", []string{"-gamma", v}),
			bad("example", []string{"-tau", v}),
			bad("dag", []string{"-k", "1", "-tau", v}, csv),
			bad("dag", []string{"-k", "1", "-prune", v}, csv),
			bad("lda", []string{"-k", "2", "-alpha0", v}, uci),
			bad("treemix", []string{"-holdout", v}, tm),
			bad("treemix", []string{"-xi", v}, tm),
			bad("treemix", []string{"-xi-scale", v}, tm),
		)
	}
	for _, f := range [][]string{
		{"example", "-gamma", "0"}, {"example", "-gamma", "1"}, {"example", "-tau", "1"},
		{"example", "-n", "1"}, {"example", "-k", "0"}, {"example", "-k", "-3"}, {"example", "-vars", "5", "-k", "2"},
		{"example", "-k", "4611686018427387904"}, {"example", "-workers", "-1"},
		{"demo", "-n", "0"}, {"demo", "-n", "-5"}, {"demo", "-n", "16385"},
		{"dag", "-k", "0", csv}, {"dag", "-k", "-1", csv}, {"dag", "-k", "1", "-tau", "1", csv},
		{"dag", "-k", "1", "-workers", "-2", csv}, {"dag", "-k", "1", "-header", "maybe", csv},
		{"dag", "-k", "1", "-comma", ";;", csv}, {"dag", "-k", "1", "-comma", ".", csv}, {"dag", "-k", "1", "-comma", "", csv},
		{"lda", "-k", "0", uci}, {"lda", "-k", "2", "-alpha0", "0", uci}, {"lda", "-k", "2", "-top", "-5", uci},
		{"lda", "-k", "2", "-method", "nosuch", uci}, {"lda", "-k", "2", "-workers", "-1", uci},
		{"lda", "-k", "2", "-include", "(", text}, {"lda", "-k", "2", "-min-df", "0", text},
		{"lda", "-k", "2", "-max-vocab", "-1", text},
		{"lda", "-k", "2", "-include", "x", uci}, {"lda", "-k", "2", "-tagged", uci}, {"lda", "-k", "2", "-min-df", "2", uci},
		{"lda", "-k", "2", "-vocab", uci, text},
		{"treemix", "-r", "0", tm}, {"treemix", "-r", "-1", tm}, {"treemix", "-eta", "-2", tm},
		{"treemix", "-eta", "1000000000", tm}, {"treemix", "-eta", "5", tm}, {"treemix", "-holdout", "1", tm},
		{"treemix", "-em", "-1", tm}, {"treemix", "-restarts", "-1", tm}, {"treemix", "-threshold", "-2", tm},
		{"treemix", "-group", "0", tm}, {"treemix", "-states", "-1", tm}, {"treemix", "-pairs", "some", tm},
		{"treemix", "-isolate", tm}, {"treemix", "-ref", "6", tm}, {"treemix", "-ref", "x", tm}, {"treemix", "-drop", "9", tm},
	} {
		cases = append(cases, f)
	}
	for _, args := range cases {
		code, out, errs := runMain(bg, args...)
		if code != 2 || !strings.HasPrefix(errs, "moments: "+args[0]+": -") {
			t.Fatalf("%v: status %d, stderr %q", args, code, errs)
		}
		// flags are checked before the data is read, except those
		// bounded by the data (-eta, -ref, -drop)
		if out != "" && !strings.HasPrefix(out, "data ") {
			t.Fatalf("%v ran:\n%s", args, out)
		}
	}
	// A -k too large for the data is an error of the data (status 1),
	// without overflowing 3k.
	err := run(bg, []string{"dag", "-q", "-k", "4611686018427387904", csv}, &bytes.Buffer{}, &bytes.Buffer{})
	if !errors.Is(err, linear.ErrTooManyFactors) {
		t.Fatalf("dag -k 2^62: %v", err)
	}
	// The limits themselves are accepted.
	for _, args := range [][]string{
		{"treemix", "-q", "-em", "0", "-holdout", "0", "-eta", "4", "-xi-scale", "0.5", tm},
		{"treemix", "-q", "-em", "0", "-eta", "-1", tm},
		{"dag", "-q", "-k", "1", "-tau", "0", "-prune", "0", "-comma", ",", csv},
		{"lda", "-k", "3", "-top", "0", "-alpha0", "0.5", uci},
	} {
		if code, _, errs := runMain(bg, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	// A valid -ref with -isolate is no usage error (whether the data
	// allow that reference is the learner's matter).
	if code, _, errs := runMain(bg, "treemix", "-q", "-em", "0", "-ref", "5", "-isolate", tm); code == 2 {
		t.Fatalf("-ref 5 -isolate: %s", errs)
	}
}
