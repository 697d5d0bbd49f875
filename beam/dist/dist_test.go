package dist

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// TestMain lets Beam run the test binary as its own worker when a
// runner asks it to; on prism in loopback mode the workers are this
// process.
func TestMain(m *testing.M) { ptest.Main(m) }

// tol is the stated tolerance: results of the pipelines and of the
// in-process learners agree to 1e-12 relative (max-norm of the
// difference over the max-norm of the in-process result).
const tol = 1e-12

// relDiff returns max|a-b| / max|b| over two equal-length slices.
func relDiff(t *testing.T, what string, a, b []float64) float64 {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d values, want %d", what, len(a), len(b))
	}
	var d, s float64
	for i := range a {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			t.Fatalf("%s: NaN at %d", what, i)
		}
		d = max(d, math.Abs(a[i]-b[i]))
		s = max(s, math.Abs(b[i]))
	}
	if s == 0 {
		return d
	}
	return d / s
}

// sameBits fails unless a and b are the same bits.
func sameBits(t *testing.T, what string, a, b []float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d values, want %d", what, len(a), len(b))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("%s: value %d is %v, in process %v", what, i, a[i], b[i])
		}
	}
}

func checkClose(t *testing.T, what string, a, b []float64) {
	t.Helper()
	r := relDiff(t, what, a, b)
	t.Logf("%s: relative difference %.3g", what, r)
	if r > tol {
		t.Errorf("%s: relative difference %.3g > %g", what, r, tol)
	}
}

// uneven returns shard boundaries for total items: an empty shard, a
// one-item shard, and the rest cut unevenly.
func uneven(total int) [][2]int {
	cuts := [][2]int{{0, 0}, {0, 1}}
	lo := 1
	for i := 0; lo < total; i++ {
		size := []int{total / 2, 7, total / 5, 3}[i%4]
		hi := min(total, lo+max(size, 1))
		cuts = append(cuts, [2]int{lo, hi})
		lo = hi
	}
	return cuts
}

// writeShards writes one file per cut under dir, named so that the
// lexical order is the order of the cuts, and returns the glob.
func writeShards(t *testing.T, dir string, cuts [][2]int, line func(i int) string) string {
	t.Helper()
	for s, c := range cuts {
		var b strings.Builder
		for i := c[0]; i < c[1]; i++ {
			b.WriteString(line(i))
			b.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%03d", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "part-*")
}

func countsLine(d moments.Doc) string {
	f := make([]string, len(d.Words))
	for j, w := range d.Words {
		f[j] = fmt.Sprintf("%d:%d", w, d.Counts[j])
	}
	return strings.Join(f, " ")
}

// ldaCorpus is the generated corpus of the tests: 1200 documents of 5
// to 40 tokens over 80 words, k = 4 topics.
func ldaCorpus() (*moments.Corpus, float64) {
	r := rand.New(rand.NewPCG(16, 1))
	alpha := []float64{0.2, 0.2, 0.2, 0.2}
	m := synth.RandomLDA(r, 80, 4, 0.1, alpha)
	return m.NewCorpus(1200, 5, 40, 3).Materialize(), 0.8
}

func passCounter(t *testing.T) (*Options, func() []PassStats) {
	var stats []PassStats
	return &Options{TempDir: t.TempDir(), OnPass: func(s PassStats) { stats = append(stats, s) }}, func() []PassStats { return stats }
}

func TestLDAEqualsInProcess(t *testing.T) {
	ctx := context.Background()
	c, alpha0 := ldaCorpus()
	glob := writeShards(t, t.TempDir(), uneven(c.NumDocs()), func(i int) string { return countsLine(c.Doc(i)) })
	docs := Docs{Glob: glob, Format: Counts, VocabSize: c.VocabSize()}
	opts, stats := passCounter(t)

	// The moments themselves.
	bm, err := NewDocMoments(ctx, docs, moments.LDA, alpha0, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer bm.Close()
	im, err := moments.NewDocMoments(ctx, c, moments.LDA, alpha0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if bm.Docs1 != im.Docs1 || bm.NNZ != im.NNZ || bm.NumDocs != c.NumDocs() {
		t.Fatalf("counts: beam %d docs %d nnz %d total, in process %d %d %d", bm.Docs1, bm.NNZ, bm.NumDocs, im.Docs1, im.NNZ, c.NumDocs())
	}
	checkClose(t, "M1", bm.M1, im.M1)
	x := mat.Zeros(c.VocabSize(), 5)
	r := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < c.VocabSize(); i++ {
		for j := range x.RawRow(i) {
			x.RawRow(i)[j] = r.NormFloat64()
		}
	}
	bp, err := bm.PairsTimes(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	ip, err := im.PairsTimes(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "Pairs X", flatten(bp), flatten(ip))
	w := x.Slice(0, c.VocabSize(), 0, 4).Clone()
	bt, err := bm.WhitenedTriples(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	it, err := im.WhitenedTriples(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "Triples(W,W,W)", bt.RawData(), it.RawData())

	// Cut into blocks of at most 37 values, the parts sum to the same
	// bits.
	small := *opts
	small.BlockValues = 37
	sm, err := NewDocMoments(ctx, docs, moments.LDA, alpha0, &small)
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	sp, err := sm.PairsTimes(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range flatten(sp) {
		if math.Float64bits(v) != math.Float64bits(flatten(bp)[i]) {
			t.Fatalf("Pairs X in blocks of 37 values: entry %d is %v, in one block %v", i, v, flatten(bp)[i])
		}
	}

	// The exact passes: the same bits as in process.
	eo := &Options{TempDir: t.TempDir(), Exact: true}
	em, err := NewDocMoments(ctx, docs, moments.LDA, alpha0, eo)
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	if em.Docs1 != im.Docs1 || em.NNZ != im.NNZ || em.NumDocs != c.NumDocs() {
		t.Fatalf("exact counts: %d docs %d nnz %d total", em.Docs1, em.NNZ, em.NumDocs)
	}
	sameBits(t, "exact M1", em.M1, im.M1)
	ep, err := em.PairsTimes(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "exact Pairs X", flatten(ep), flatten(ip))
	et, err := em.WhitenedTriples(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "exact Triples(W,W,W)", et.RawData(), it.RawData())

	// The whole learner.
	to := &topic.Options{Seed: 5}
	got, err := LearnLDA(ctx, docs, 4, alpha0, to, opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := topic.LearnLDA(ctx, c, 4, alpha0, to)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "LDA topics", flatten(got.Topics), flatten(want.Topics))
	checkClose(t, "LDA alpha", got.Alpha, want.Alpha)
	exact, err := LearnLDA(ctx, docs, 4, alpha0, to, eo)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "exact LDA topics", flatten(exact.Topics), flatten(want.Topics))
	sameBits(t, "exact LDA alpha", exact.Alpha, want.Alpha)
	if len(got.Warnings) != len(want.Warnings) {
		t.Errorf("warnings: %q, in process %q", got.Warnings, want.Warnings)
	}
	var shuffled int64
	for _, s := range stats() {
		shuffled += s.PartBytes
		if s.Shards != len(uneven(c.NumDocs())) {
			t.Errorf("pass %s read %d shards", s.Name, s.Shards)
		}
	}
	t.Logf("%d pipelines, %d bytes of parts in all", len(stats()), shuffled)
	if len(stats()) < 4 || shuffled <= 0 {
		t.Errorf("%d passes, %d bytes of parts", len(stats()), shuffled)
	}
}

// ecaCorpus is the generated corpus of the ECA test: 3000 documents of
// 20 to 60 tokens over 80 words from 4 sparse topics, whose central
// moments have 3 well-separated factors. (On ldaCorpus ECA is
// ill-conditioned: reversing the order of its documents in process
// moves the factors by 1e-3 or more, so no reordered sum could match.)
func ecaCorpus() *moments.Corpus {
	m := synth.RandomLDA(rand.New(rand.NewPCG(16, 1)), 80, 4, 0.05, []float64{0.05, 0.05, 0.05, 0.05})
	return m.NewCorpus(3000, 20, 60, 3).Materialize()
}

func TestECAEqualsInProcess(t *testing.T) {
	ctx := context.Background()
	c := ecaCorpus()
	// UCI shards, each with its own header and local document ids.
	dir := t.TempDir()
	for s, cut := range uneven(c.NumDocs()) {
		var b strings.Builder
		nnz := 0
		for i := cut[0]; i < cut[1]; i++ {
			nnz += len(c.Doc(i).Words)
		}
		fmt.Fprintf(&b, "%d\n%d\n%d\n", cut[1]-cut[0], c.VocabSize(), nnz)
		for i := cut[0]; i < cut[1]; i++ {
			d := c.Doc(i)
			for j, w := range d.Words {
				fmt.Fprintf(&b, "%d %d %d\n", i-cut[0]+1, w+1, d.Counts[j])
			}
		}
		if s == 0 {
			b.Reset() // a shard of zero bytes
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%02d.uci", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	{
		bm, err := NewDocMoments(ctx, Docs{Glob: filepath.Join(dir, "*.uci"), Format: UCI, VocabSize: c.VocabSize()}, moments.Central, 0, &Options{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		im, err := moments.NewDocMoments(ctx, c, moments.Central, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer bm.Close()
		if bm.Docs1 != im.Docs1 || bm.NNZ != im.NNZ || bm.Old != nil {
			t.Fatalf("docs %d (in process %d), nnz %d (%d), renumbering %v", bm.Docs1, im.Docs1, bm.NNZ, im.NNZ, bm.Old)
		}
		checkClose(t, "M1 central", bm.M1, im.M1)
		x := mat.Zeros(c.VocabSize(), 3)
		for i := 0; i < c.VocabSize(); i++ {
			x.RawRow(i)[i%3] = 1
		}
		bp, _ := bm.PairsTimes(ctx, x)
		ip, _ := im.PairsTimes(ctx, x)
		checkClose(t, "Pairs central", flatten(bp), flatten(ip))
		bt, _ := bm.WhitenedTriples(ctx, x)
		it, _ := im.WhitenedTriples(ctx, x)
		checkClose(t, "Triples central", bt.RawData(), it.RawData())
	}
	to := &topic.Options{Seed: 9}
	got, err := LearnECA(ctx, Docs{Glob: filepath.Join(dir, "*.uci"), Format: UCI, VocabSize: c.VocabSize()}, 3, to, &Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want, err := topic.LearnECA(ctx, c, 3, to)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "ECA factors", flatten(got.Factors), flatten(want.Factors))
	exact, err := LearnECA(ctx, Docs{Glob: filepath.Join(dir, "*.uci"), Format: UCI, VocabSize: c.VocabSize()}, 3, to, &Options{TempDir: t.TempDir(), Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "exact ECA factors", flatten(exact.Factors), flatten(want.Factors))
}

func TestTextLinesAndCompaction(t *testing.T) {
	// Text shards over a vocabulary of which fewer than half the words
	// occur: the passes run on the words that occur, as topic.LearnLDA
	// does, and the topics come back on the whole vocabulary.
	ctx := context.Background()
	c, alpha0 := ldaCorpus()
	vocab := make([]string, 2*c.VocabSize()+10)
	for i := range vocab {
		vocab[i] = "w" + strings.Repeat("x", i%5) + string(rune('a'+i/26%26)) + string(rune('a'+i%26))
	}
	// Corpus words are spread over the larger vocabulary.
	words := func(w int32) string { return vocab[2*int(w)+1] }
	glob := writeShards(t, t.TempDir(), uneven(c.NumDocs()), func(i int) string {
		var f []string
		d := c.Doc(i)
		for j, w := range d.Words {
			for range d.Counts[j] {
				f = append(f, words(w))
			}
		}
		return strings.Join(f, " ") + " unknownword"
	})
	var b moments.Builder
	b.SetVocabSize(len(vocab))
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		ids := make([]int32, len(d.Words))
		for j, w := range d.Words {
			ids[j] = 2*w + 1
		}
		if err := b.Add(ids, d.Counts); err != nil {
			t.Fatal(err)
		}
	}
	wide := b.Corpus()
	to := &topic.Options{Seed: 5}
	got, err := LearnLDA(ctx, Docs{Glob: glob, Format: TextLines, Vocab: vocab}, 4, alpha0, to, &Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want, err := topic.LearnLDA(ctx, wide, 4, alpha0, to)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "LDA topics (text, compacted)", flatten(got.Topics), flatten(want.Topics))
	exact, err := LearnLDA(ctx, Docs{Glob: glob, Format: TextLines, Vocab: vocab}, 4, alpha0, to, &Options{TempDir: t.TempDir(), Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "exact LDA topics (text, compacted)", flatten(exact.Topics), flatten(want.Topics))
}

// linearData is the generated linear model of the tests: 12 observed
// and 3 hidden variables, 4000 samples.
func linearData() *mat.Dense {
	m := synth.RandomDAG(rand.New(rand.NewPCG(16, 2)), 12, 3, 0.3, 0.5, synth.Skewed)
	s := m.Samples(4000, 11)
	x := mat.Zeros(s.NumSamples(), s.Dim())
	s.Block(0, s.NumSamples(), x)
	return x
}

func csvLine(x *mat.Dense, i int) string {
	row := x.RawRow(i)
	f := make([]string, len(row))
	for j, v := range row {
		f[j] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(f, ",")
}

func TestLinearEqualsInProcess(t *testing.T) {
	ctx := context.Background()
	x := linearData()
	n, d := x.Dims()
	dir := t.TempDir()
	glob := writeShards(t, dir, uneven(n), func(i int) string { return csvLine(x, i) })
	// One shard has a header line of its own.
	hdr := filepath.Join(dir, "part-003")
	b, _ := os.ReadFile(hdr)
	names := make([]string, d)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j)
	}
	os.WriteFile(hdr, append([]byte(strings.Join(names, ",")+"\n"), b...), 0o644)

	data := CSV{Glob: glob}
	opts := &Options{TempDir: t.TempDir()}
	sm, err := NewSampleMoments(ctx, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	src := moments.DenseSamples{X: x}
	im, err := moments.NewSampleMoments(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sm.N != n {
		t.Fatalf("N = %d, want %d", sm.N, n)
	}
	checkClose(t, "mean", sm.Mean, im.Mean)
	checkClose(t, "Sigma", flatten(sm.Sigma), flatten(im.Sigma))
	zetas := mat.Zeros(d, 2)
	for i := 0; i < d; i++ {
		zetas.RawRow(i)[0], zetas.RawRow(i)[1] = float64(i+1), math.Sin(float64(i))
	}
	bp, err := sm.Psi(ctx, zetas)
	if err != nil {
		t.Fatal(err)
	}
	ip, err := im.Psi(ctx, zetas)
	if err != nil {
		t.Fatal(err)
	}
	for j := range bp {
		checkClose(t, fmt.Sprintf("Psi(zeta_%d)", j), flatten(bp[j]), flatten(ip[j]))
	}
	third := &linear.SampleThird{Moments: im, Src: src}
	w := zetas.Clone()
	bt, bd, err := sm.Whitened(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	it, id, err := third.Whitened(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "whitened third moment", bt.RawData(), it.RawData())
	checkClose(t, "noise third moments", bd, id)

	got, err := LearnDAG(ctx, data, 3, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := linear.LearnDAG(ctx, im.Sigma, third, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "DAG A", flatten(got.A), flatten(want.A))
	checkClose(t, "DAG Lambda", flatten(got.Lambda), flatten(want.Lambda))
	gc, err := LearnCoefficients(ctx, data, 3, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	wc, err := linear.LearnCoefficients(ctx, im.Sigma, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "coefficients A", flatten(gc.A), flatten(wc.A))
}

func TestTreemixBitIdentical(t *testing.T) {
	ctx := context.Background()
	m := treemix.RandomTreeMixture(6, 3, 2, &treemix.GenOptions{Seed: 4})
	x, _ := m.Sample(3000, 5)
	n, p, _ := x.Dims()
	row := make([]int, p)
	glob := writeShards(t, t.TempDir(), uneven(n), func(i int) string {
		row = x.Row(i, row)
		f := make([]string, p)
		for j, v := range row {
			f[j] = strconv.Itoa(v)
		}
		return strings.Join(f, ",")
	})
	tabs, err := NewTables(ctx, CSV{Glob: glob}, 0, &Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer tabs.Close()
	emp := treemix.Empirical(x, nil)
	if gp, gd := tabs.Dims(); tabs.Samples() != n || gp != p {
		t.Fatalf("dims %d samples, %d vars, %d states", tabs.Samples(), gp, gd)
	}
	sets := [][]int{{0}, {1, 2}, {5, 0, 3}}
	gt, err := tabs.Joints(ctx, sets)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := emp.Joints(ctx, sets)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sets {
		for j := range wt[i].P {
			if gt[i].P[j] != wt[i].P[j] {
				t.Fatalf("table %v entry %d: %v, in process %v", sets[i], j, gt[i].P[j], wt[i].P[j])
			}
		}
	}
	got, _, err := treemix.Learn(ctx, tabs, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := treemix.Learn(ctx, emp, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gs, ws strings.Builder
	treemix.WriteDOT(&gs, got, nil)
	treemix.WriteDOT(&ws, want, nil)
	if gs.String() != ws.String() {
		t.Errorf("mixtures differ:\n%s\nin process:\n%s", gs.String(), ws.String())
	}
	for i := range want.Weights {
		if got.Weights[i] != want.Weights[i] {
			t.Errorf("weight %d: %v, in process %v", i, got.Weights[i], want.Weights[i])
		}
	}
}

func TestMalformedShard(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("0:1 1:2\n2:1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte("0:1\n\n1:1 2:x\n"), 0o644)
	_, err := NewDocMoments(ctx, Docs{Glob: filepath.Join(dir, "*"), Format: Counts, VocabSize: 3}, moments.Raw, 0, &Options{TempDir: t.TempDir()})
	if err == nil {
		t.Fatal("no error for a malformed shard")
	}
	t.Logf("error: %v", err)
	want := filepath.Join(dir, "b") + ": line 3, field 2"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %q", err, want)
	}

	os.WriteFile(filepath.Join(dir, "c.csv"), []byte("1,2\n3,4\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte("1,2\n3,oops\n"), 0o644)
	_, err = NewSampleMoments(ctx, CSV{Glob: filepath.Join(dir, "*.csv")}, &Options{TempDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "d.csv")+": line 2") {
		t.Errorf("CSV error %v does not name the shard and line 2", err)
	}
	if _, err := NewDocMoments(ctx, Docs{Glob: filepath.Join(dir, "nothing-*"), Format: Counts, VocabSize: 3}, moments.Raw, 0, nil); err == nil || !strings.Contains(err.Error(), "no shard") {
		t.Errorf("empty glob: %v", err)
	}
	if _, err := NewDocMoments(ctx, Docs{Glob: filepath.Join(dir, "a"), Format: Counts, VocabSize: 3000}, moments.Raw, 0, &Options{MaxMemory: 1000}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("a pass over the memory limit: %v", err)
	}
	if _, err := NewDocMoments(ctx, Docs{Glob: filepath.Join(dir, "a"), Format: Counts}, moments.Raw, 0, nil); !errors.Is(err, moments.ErrBadOption) {
		t.Errorf("no vocabulary size: %v", err)
	}
}

func TestTreeFnAnyOrder(t *testing.T) {
	// Parts whose sums round differently in different orders: the tree
	// must give the same bits whatever order the parts and partial
	// accumulators arrive in.
	const shards = 13
	parts := make([]Part, shards)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range parts {
		parts[i] = Part{Shard: i, Count: []int64{int64(i), 0}, Max: []int64{int64(r.IntN(100))}, Data: []float64{r.NormFloat64() * math.Pow(10, float64(r.IntN(30))), r.Float64()}}
	}
	f := &TreeFn{Shards: shards}
	var ref Part
	for trial := 0; trial < 50; trial++ {
		perm := r.Perm(shards)
		// Split the parts among three accumulators, then merge those in a
		// random order.
		accs := make([]TreeAcc, 3)
		for _, i := range perm {
			j := r.IntN(3)
			accs[j] = f.AddInput(accs[j], parts[i])
		}
		o := r.Perm(3)
		a := f.MergeAccumulators(f.MergeAccumulators(accs[o[0]], accs[o[1]]), accs[o[2]])
		out := f.ExtractOutput(a)
		if trial == 0 {
			ref = out
			continue
		}
		for i := range ref.Data {
			if math.Float64bits(out.Data[i]) != math.Float64bits(ref.Data[i]) {
				t.Fatalf("trial %d: value %d is %v, first trial %v", trial, i, out.Data[i], ref.Data[i])
			}
		}
		if out.Count[0] != shards*(shards-1)/2 || out.Max[0] != ref.Max[0] {
			t.Fatalf("trial %d: counts %v max %v", trial, out.Count, out.Max)
		}
	}
	b := encodePart(ref)
	back, err := decodePart(b)
	if err != nil || len(back.Data) != 2 || back.Data[0] != ref.Data[0] || back.Count[0] != ref.Count[0] {
		t.Errorf("encode/decode: %v %v", back, err)
	}
	if _, err := decodePart(b[:len(b)-3]); err == nil {
		t.Error("a truncated part decodes")
	}
}

var _ = tensor3.PackedLen

// TestBlockValuesNegative: a negative Options.BlockValues is refused
// with moments.ErrBadOption rather than taken for the default.
func TestBlockValuesNegative(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a")
	if err := os.WriteFile(path, []byte("0:1 1:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := NewDocMoments(context.Background(), Docs{Glob: path, Format: Counts, VocabSize: 3}, moments.Raw, 0, &Options{TempDir: t.TempDir(), BlockValues: -1})
	if !errors.Is(err, moments.ErrBadOption) {
		t.Errorf("BlockValues = -1: %v, want moments.ErrBadOption", err)
	}
}
