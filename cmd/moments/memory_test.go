package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1000", 1000}, {"512MiB", 512 << 20}, {"4GiB", 4 << 30}, {"2GB", 2e9}, {"2 gb", 2e9},
		{"1.5e9", 1.5e9}, {"64kB", 64000}, {"1TiB", 1 << 40}, {"7B", 7}, {"0", 0},
	} {
		if got, err := parseBytes(c.in); err != nil || got != c.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "-1", "5XB", "GiB", "NaN", "Inf", "1e30", "10 MiBs"} {
		if got, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", in, got)
		}
	}
	var v memoryValue
	if err := v.Set("0"); err != nil || v.bytes != -1 || v.String() != "0" {
		t.Errorf("-max-memory 0: %d, %v; want -1 (no limit)", v.bytes, err)
	}
	if d := defaultMaxMemory(); d <= 0 || d > mat.DefaultMaxMemory || (runtime.GOOS == "linux" && uint64(d) != min(physicalMemory()/2, uint64(mat.DefaultMaxMemory))) {
		t.Errorf("default -max-memory %d (physical %d)", d, physicalMemory())
	}
}

// runAlloc runs the command and returns its error and the bytes it
// allocated.
func runAlloc(args ...string) (error, uint64, string) {
	var out, errb bytes.Buffer
	var err error
	used := testutil.Allocated(func() { err = run(bg, args, &out, &errb) })
	return err, used, out.String()
}

// refusal is the command's message for a job over -max-memory.
var refusal = regexp.MustCompile(`^(\w+): (.+) need ([0-9.]+ [kMGTPE]?B), over -max-memory ([0-9.]+ [kMGTPE]?B)$`)

// checkRefusal asserts a refusal of cmd by the memory rule, in the
// command's words, that allocated under maxAlloc bytes.
func checkRefusal(t *testing.T, cmd string, err error, used, maxAlloc uint64, what, limit string) {
	t.Helper()
	if !errors.Is(err, mat.ErrTooLarge) {
		t.Fatalf("%s: %v, want a refusal matching mat.ErrTooLarge", cmd, err)
	}
	m := refusal.FindStringSubmatch(err.Error())
	if m == nil || m[1] != cmd || !strings.HasPrefix(m[2], what) || m[4] != limit {
		t.Errorf("%s: message %q, want %q ... over -max-memory %s", cmd, err, cmd+": "+what, limit)
	}
	if used > maxAlloc {
		t.Errorf("%s: the refusal allocated %d bytes, more than %d", cmd, used, maxAlloc)
	}
	t.Logf("moments: %v", err)
}

// TestDAGWideCSV: the 72 KB CSV of 3 samples of 12 000 variables, on
// which "moments dag -k 1" passed 4.6 GB and kept going, is refused
// after reading it, before any pass; so is -k 2^62, which overflowed 3k
// inside a worker goroutine.
func TestDAGWideCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.csv")
	writeCSV(t, path, 3, 12000, func(i, j int) int { return (i*7 + j) % 10 })
	err, used, _ := runAlloc("dag", "-k", "1", "-q", "-max-memory", "8GB", path)
	checkRefusal(t, "dag", err, used, 32<<20, "the moments of 12000 variables", "8 GB")
	// The default (half the memory) refuses it too: it needs 92 GB.
	err, used, _ = runAlloc("dag", "-k", "1", "-q", path)
	if physicalMemory() < 150e9 {
		checkRefusal(t, "dag", err, used, 32<<20, "the moments of 12000 variables", mat.FormatBytes(defaultMaxMemory()))
	}

	small := writeDAGCSV(t, 12, 2, 50, 3)
	err, _, _ = runAlloc("dag", "-k", "4611686018427387904", "-q", small)
	if !errors.Is(err, linear.ErrTooManyFactors) {
		t.Errorf("dag -k 2^62: %v, want ErrTooManyFactors", err)
	}
}

// TestDemoMemory: "demo -n 100000" died of out-of-memory. -n is now
// bounded (16384), and within the bound the memory rule refuses what
// -max-memory does not admit; "-n 1e9" is not an integer.
func TestDemoMemory(t *testing.T) {
	err, used, _ := runAlloc("demo", "-n", "16384", "-max-memory", "4GiB")
	checkRefusal(t, "demo", err, used, 1<<20, "the six 16384 x 16384 matrices", "4.29 GB")
	for _, n := range []string{"100000", "1000000000"} {
		err, _, _ = runAlloc("demo", "-n", n)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "between 1 and 16384") {
			t.Errorf("demo -n %s: %v, want a usage error", n, err)
		}
	}
	err, _, _ = runAlloc("demo", "-n", "1e9")
	if err == nil || !strings.Contains(err.Error(), "1e9") {
		t.Errorf("demo -n 1e9: %v, want a flag error", err)
	}
	err, _, _ = runAlloc("example", "-vars", "100000", "-k", "10", "-q", "-svg", "")
	if !errors.Is(err, mat.ErrTooLarge) || !strings.HasPrefix(err.Error(), "example: the moments of 100000 variables need") {
		t.Errorf("example -vars 100000: %v, want a refusal", err)
	}
}

// TestLDAHugeHeader: the 60 KB UCI file whose header claims 10^7 words
// ("moments lda -k 3" passed 5 GB, then died) is learned on the words
// it uses, within -max-memory 100MB.
func TestLDAHugeHeader(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	c := synth.RandomLDA(r, 30, 3, 1, []float64{0.3, 0.3, 0.4}).NewCorpus(300, 20, 40, 7).Materialize()
	path := filepath.Join(t.TempDir(), "huge.txt")
	if err := os.WriteFile(path, hugeUCI(c), 0o644); err != nil {
		t.Fatal(err)
	}
	// The command drops the words no document uses before it learns, so
	// 100 MB is plenty (the library refuses the 10^7 x 3 topics under
	// that limit: topic's TestHugeDeclaredVocabulary).
	err, used, out := runAlloc("lda", "-k", "3", "-max-memory", "100MB", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "300 documents, 10000000 words") || !strings.Contains(out, "dropped   9999970 of 10000000 words") {
		t.Errorf("output:\n%s", out)
	}
	// Every top word is one of the 30 the corpus uses: 1-based id
	// 1 + 333331 j, printed as w(1 + 333331 j).
	names := regexp.MustCompile(`\bw([0-9]+)\b`).FindAllStringSubmatch(out, -1)
	if len(names) != 30 {
		t.Errorf("%d top words printed, want 3 x 10:\n%s", len(names), out)
	}
	for _, m := range names {
		var id int
		fmt.Sscan(m[1], &id)
		if (id-1)%333331 != 0 {
			t.Errorf("top word %s is not one the corpus uses", m[0])
		}
	}
	if used > 600<<20 {
		t.Errorf("lda on the 10^7 declared words allocated %d bytes", used)
	}
}

// hugeUCI writes c (30 words) as UCI bag-of-words whose header declares
// 10^7 words, word w becoming id 1 + 333331 w.
func hugeUCI(c *moments.Corpus) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d\n%d\n%d\n", c.NumDocs(), 10_000_000, c.NNZ())
	for i := range c.NumDocs() {
		d := c.Doc(i)
		for j, w := range d.Words {
			fmt.Fprintf(&b, "%d %d %d\n", i+1, 1+int(w)*333331, d.Counts[j])
		}
	}
	return b.Bytes()
}

// TestTreemixWide: the 100 KB CSV of 10 samples of 5000 variables, on
// which "moments treemix" passed 4.7 GB, is refused before the rank
// test; -eta 10^9 ends with the last level that has tests.
func TestTreemixWide(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 4))
	cell := func(int, int) int { return r.IntN(3) }
	dir := t.TempDir()
	path := filepath.Join(dir, "wide.csv")
	writeCSV(t, path, 10, 5000, cell)
	err, used, _ := runAlloc("treemix", "-q", "-max-memory", "1GiB", path)
	checkRefusal(t, "treemix", err, used, 16<<20, "the rank tests of 5000 variables", "1.07 GB")

	small := filepath.Join(dir, "small.csv")
	writeCSV(t, small, 500, 6, cell)
	// The command refuses an -eta beyond the variables; the library's
	// loop over empty levels is tested by treemix's TestRankTestHugeEta.
	if err, _, _ := runAlloc("treemix", "-q", "-eta", "1000000000", "-em", "0", small); err == nil || !strings.Contains(err.Error(), "-eta 1000000000") {
		t.Errorf("treemix -eta 10^9: %v, want a usage error", err)
	}
}

// writeCSV writes to path a CSV file of rows lines of cols integers,
// cell(i, j) in line i and column j, calling cell in row-major order;
// it fails t if the file cannot be written.
func writeCSV(t *testing.T, path string, rows, cols int, cell func(i, j int) int) {
	t.Helper()
	var b strings.Builder
	for i := range rows {
		for j := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", cell(i, j))
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
