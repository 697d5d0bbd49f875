package treemix

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/testutil"
	"github.com/moments-go/moments/mat"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
var allocated = testutil.Allocated

// wideData returns 10 samples of 5000 variables with 3 states: the 100
// KB CSV of issue 14 on which "moments treemix" passed 4.7 GB.
func wideData() *Data {
	r := rand.New(rand.NewPCG(14, 3))
	x := NewData(10, 5000, 3)
	for i := range x.x {
		x.x[i] = uint8(r.IntN(3))
	}
	return x
}

// TestWideDataMemory: on 10 x 5000 data the rank test (12.5 million
// pairs at level 0, about 8 GB), EM (the pair tables of two components,
// 1.8 GB an accumulator) and a table of 40 variables (3^40 cells) are
// refused under their limits before they allocate.
func TestWideDataMemory(t *testing.T) {
	x := wideData()
	ctx := context.Background()
	var err error
	used := allocated(func() {
		_, err = LearnUnionGraph(ctx, Empirical(x, &Options{}), 2, &RankOptions{})
	})
	var me *mat.MemoryError
	if !errors.As(err, &me) || me.Limit != mat.DefaultMaxMemory || me.Need < 12_497_500*600 {
		t.Errorf("LearnUnionGraph: %v, want a *mat.MemoryError needing at least 7.5 GB", err)
	}
	if used > 1<<20 {
		t.Errorf("LearnUnionGraph's refusal allocated %d bytes", used)
	}
	_, _, err = Learn(ctx, Empirical(x, &Options{}), 2, &LearnOptions{Options: Options{MaxMemory: 1 << 30}})
	if !errors.As(err, &me) || me.Limit != 1<<30 {
		t.Errorf("Learn under 1 GiB: %v, want a *mat.MemoryError with that limit", err)
	}

	init := randomStart(rand.New(rand.NewPCG(1, 1)), x, 2)
	used = allocated(func() {
		_, _, err = LearnEM(ctx, x, init, &EMOptions{Options: Options{MaxMemory: 100 << 20}})
	})
	if !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("EM under 100 MiB: %v, want ErrTooLarge", err)
	}
	if used > 1<<20 {
		t.Errorf("EM's refusal allocated %d bytes", used)
	}

	set := make([]int, 40)
	for i := range set {
		set[i] = i
	}
	if _, err := Count(ctx, x, [][]int{set}, &Options{}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("Count of 3^40 cells: %v, want ErrTooLarge", err)
	}
	y := NewData(10, 64, MaxStates)
	all := make([]int, 64)
	for i := range all {
		all[i] = i
	}
	if _, err := Count(ctx, y, [][]int{all}, &Options{}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("Count of 256^64 cells (overflows an int): %v, want ErrTooLarge", err)
	}

	var csv bytes.Buffer
	if err := WriteCSV(&csv, x); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCSV(bytes.NewReader(csv.Bytes()), &CSVOptions{}); err != nil {
		t.Fatalf("ReadCSV 10 x 5000: %v", err)
	}
	// 24 bytes a column and 4 a value: 200 kB hold 4 lines.
	_, err = ReadCSV(bytes.NewReader(csv.Bytes()), &CSVOptions{MaxMemory: 200_000})
	if !errors.Is(err, mat.ErrTooLarge) || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("ReadCSV 10 x 5000 under 200 kB: %v, want ErrTooLarge at line 5", err)
	}
}

// TestRankTestHugeEta: a separator bound of 10^9 (issue 14: "treemix
// -eta 1000000000" looped over empty levels) ends at the first level
// without tests, with the graph of a bound as large as the data allows.
func TestRankTestHugeEta(t *testing.T) {
	m := randomTreeMixture(rand.New(rand.NewPCG(5, 5)), 8, 3, 2, GenOptions{})
	x, _ := m.sample(rand.New(rand.NewPCG(6, 6)), 2000)
	ctx := context.Background()
	huge, err := LearnUnionGraph(ctx, Empirical(x, &Options{}), 2, &RankOptions{Eta: 1_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(huge.Tests) > 8 {
		t.Errorf("%d levels recorded for 8 variables", len(huge.Tests))
	}
	if n := len(huge.Tests); n > 1 && huge.Tests[n-1] != 0 {
		t.Errorf("the last level recorded has %d tests; the search stops at the first without", huge.Tests[n-1])
	}
	bounded, err := LearnUnionGraph(ctx, Empirical(x, &Options{}), 2, &RankOptions{Eta: 6})
	if err != nil {
		t.Fatal(err)
	}
	if !huge.Graph.Equal(bounded.Graph) {
		t.Errorf("Eta 10^9 gives %v, Eta 6 (all other nodes) %v", huge.Graph, bounded.Graph)
	}
}
