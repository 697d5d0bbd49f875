package moments

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/mat"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
var allocated = testutil.Allocated

// TestReadUCIDeclaredSizes: ReadUCI allocates with the entries it reads,
// not with the header: a header announcing 10^12 entries or 10^7 words
// for two entries costs at most a few megabytes (the entries' array was sized from the
// header, up to 400 MB, before), and a corpus over MaxMemory is refused
// with a *mat.MemoryError before its document index is allocated.
func TestReadUCIDeclaredSizes(t *testing.T) {
	var err error
	used := allocated(func() {
		_, err = ReadUCI(strings.NewReader("3\n5\n1000000000000\n1 1 1\n2 2 1\n"), nil, nil)
	})
	if err == nil || !strings.Contains(err.Error(), "2 entries, but the header announces 1000000000000") {
		t.Errorf("NNZ 10^12 for two entries: %v", err)
	}
	if used > 4<<20 {
		t.Errorf("NNZ 10^12 for two entries: %d bytes allocated, want under 4 MiB", used)
	}
	var c *Corpus
	used = allocated(func() {
		c, err = ReadUCI(strings.NewReader("2\n10000000\n2\n1 1 1\n2 9999999 4\n"), nil, nil)
	})
	if err != nil || c.VocabSize() != 10_000_000 || c.Tokens() != 5 {
		t.Fatalf("W = 10^7, two entries: %v", err)
	}
	if used > 1<<20 {
		t.Errorf("W = 10^7, two entries: %d bytes allocated, want under 1 MiB", used)
	}
	// 10^6 empty documents: an index of 8 MB, over a limit of 1 MB.
	_, err = ReadUCI(strings.NewReader("1000000\n5\n1\n1 1 1\n"), nil, &UCIOptions{MaxMemory: 1 << 20})
	var me *mat.MemoryError
	if !errors.As(err, &me) || me.Limit != 1<<20 || me.Need < 8_000_000 {
		t.Errorf("10^6 documents under 1 MiB: %v, want a *mat.MemoryError", err)
	}
	if _, err := ReadUCI(strings.NewReader("1000000\n5\n1\n1 1 1\n"), nil, nil); err != nil {
		t.Errorf("10^6 documents under the default limit: %v", err)
	}
}

// TestReadTextMemory: ReadText stops before the file that would take it
// over MaxMemory.
func TestReadTextMemory(t *testing.T) {
	fsys := fstest.MapFS{
		"a.txt": {Data: []byte(strings.Repeat("alpha beta gamma ", 100))},
		"b.txt": {Data: []byte(strings.Repeat("delta epsilon ", 1000))},
	}
	if _, err := ReadText(fsys, nil); err != nil {
		t.Fatal(err)
	}
	_, err := ReadText(fsys, &TextOptions{MaxMemory: 5000})
	if !errors.Is(err, mat.ErrTooLarge) || !strings.Contains(err.Error(), "b.txt") {
		t.Errorf("5000 bytes for a file of 14000: %v, want ErrTooLarge naming b.txt", err)
	}
}

// TestSampleMomentsMemory: 3 samples of 12 000 variables (a CSV that
// would make "moments dag" allocate gigabytes) are refused under
// 1 GiB before Sigma (1.15 GB) is allocated; the passes over documents
// count their vocabulary-sized accumulators likewise.
func TestSampleMomentsMemory(t *testing.T) {
	x := mat.Zeros(3, 12000)
	for j := range 12000 {
		x.Set(0, j, 1)
		x.Set(1, j, float64(j%7))
	}
	var err error
	used := allocated(func() {
		_, err = NewSampleMoments(context.Background(), DenseSamples{x}, &Options{MaxMemory: 1 << 30})
	})
	var me *mat.MemoryError
	if !errors.As(err, &me) || me.Need < 12000*12000*8 {
		t.Fatalf("3 x 12000 under 1 GiB: %v, want a *mat.MemoryError needing at least 1.15 GB", err)
	}
	if used > 1<<20 {
		t.Errorf("the refusal allocated %d bytes", used)
	}
	if !strings.Contains(err.Error(), "the moments of 12000 variables need") {
		t.Errorf("message %q", err)
	}

	var b Builder
	b.SetVocabSize(1_000_000)
	if err := b.Add([]int32{1, 999_999}, []uint32{2, 3}); err != nil {
		t.Fatal(err)
	}
	c := b.Corpus()
	ctx := context.Background()
	if _, err := NewDocMoments(ctx, c, Raw, 0, &Options{MaxMemory: 1 << 20}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("M1 of 10^6 words under 1 MiB: %v, want ErrTooLarge", err)
	}
	dm, err := NewDocMoments(ctx, c, Raw, 0, &Options{MaxMemory: 64 << 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	// One accumulator of 10^6 x 11 and the result: about 200 MB.
	if _, err := dm.PairsTimes(ctx, mat.Zeros(1_000_000, 10)); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("Pairs X of 10^6 x 10 under 64 MiB: %v, want ErrTooLarge", err)
	}
	if _, err := dm.WhitenedTriples(ctx, mat.Zeros(1_000_000, 10)); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("Triples of 10^6 x 10 under 64 MiB: %v, want ErrTooLarge", err)
	}
}

// manySamples is a source of n samples of d zeros, none of them stored.
type manySamples struct{ n, d int }

func (s manySamples) NumSamples() int { return s.n }
func (s manySamples) Dim() int        { return s.d }
func (s manySamples) Block(lo, hi int, dst *mat.Dense) {
	dst.Zero()
}

// TestSampleMomentsMemoryOfStream: the sample passes load a chunk in
// blocks of about 1 MiB, so 10^9 samples of 12 variables on 64 workers
// (chunks of 3.9 million samples, 129 accumulators) need well under
// 256 MiB: NewSampleMoments and Psi pass the memory check and stop at
// the cancelled context instead of refusing the job.
func TestSampleMomentsMemoryOfStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := manySamples{1_000_000_000, 12}
	o := &Options{Workers: 64, MaxMemory: 256 << 20}
	if _, err := NewSampleMoments(ctx, src, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("NewSampleMoments: %v, want context.Canceled", err)
	}
	s := &SampleMoments{N: src.n, Mean: make([]float64, 12), Sigma: mat.Zeros(12, 12), src: src, opts: *o}
	if _, err := s.Psi(ctx, mat.Zeros(12, 4)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Psi: %v, want context.Canceled", err)
	}
}
