package linear

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestDAGMemory: the memory rule of the learners. The CSV of issue 14,
// 3 samples of 12 000 variables ("moments dag -k 1" passed 4.6 GB and
// kept going; at 900 000 columns it asked 6.5 TB), is refused without
// data; the paper's Example 2 (150 variables) is not.
func TestDAGMemory(t *testing.T) {
	for _, c := range []struct {
		n, k    int
		atLeast int64
	}{
		{12000, 1, 60 * 12000 * 12000 * 8},
		{900000, 1, 60 * 900000 * 900000 * 8},
	} {
		err := (*DAGOptions)(nil).CheckMemory(c.n, c.k)
		var me *mat.MemoryError
		if !errors.As(err, &me) || me.Need < c.atLeast || me.Limit != mat.DefaultMaxMemory {
			t.Errorf("n = %d: %v, want a *mat.MemoryError needing at least %d bytes", c.n, err, c.atLeast)
			continue
		}
		if want := fmt.Sprintf("the moments of %d variables need", c.n); !strings.Contains(err.Error(), want) {
			t.Errorf("message %q, want %q", err, want)
		}
	}
	if err := (*DAGOptions)(nil).CheckMemory(150, 25); err != nil {
		t.Errorf("Example 2: %v", err)
	}
	if err := (&Options{MaxMemory: -1}).CheckMemory(12000); err != nil {
		t.Errorf("no limit: %v", err)
	}

	// The learners refuse before they allocate: 60 variables need about
	// 2.3 MB under the estimate, over a limit of 1 MB.
	sigma := mat.Identity(60)
	ctx := context.Background()
	lim := Options{MaxMemory: 1 << 20}
	if _, err := LearnDAG(ctx, sigma, nil, 2, &DAGOptions{Options: lim}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LearnDAG: %v, want ErrTooLarge", err)
	}
	if _, err := LearnCoefficients(ctx, sigma, 2, &lim); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LearnCoefficients: %v, want ErrTooLarge", err)
	}
	if _, err := LearnHierarchy(ctx, sigma, []int{2}, &lim); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LearnHierarchy: %v, want ErrTooLarge", err)
	}
	if _, err := LearnCrossDAG(ctx, sigma, nil, 2, &DAGOptions{Options: lim}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LearnCrossDAG: %v, want ErrTooLarge", err)
	}
	// 60 variables: the packed 60^3 tensor takes 0.3 MB per accumulator.
	if _, err := LearnObservedBN(ctx, sigma, nil, &DAGOptions{Options: lim}); !errors.Is(err, mat.ErrTooLarge) {
		t.Errorf("LearnObservedBN: %v, want ErrTooLarge", err)
	}
}

// TestHugeK: k = 2^62 (issue 14: "dag -k 4611686018427387904" overflowed
// 3k inside a worker goroutine and crashed the process) is an error
// matching ErrTooManyFactors, in every learner that takes k.
func TestHugeK(t *testing.T) {
	const k = 4611686018427387904
	sigma := mat.Identity(9)
	ctx := context.Background()
	if _, err := LearnDAG(ctx, sigma, nil, k, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("LearnDAG: %v", err)
	}
	if _, err := LearnCoefficients(ctx, sigma, k, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("LearnCoefficients: %v", err)
	}
	if _, err := DLDSearch(ctx, sigma, k, &DLDOptions{Seed: 1}); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("DLDSearch: %v", err)
	}
	if _, err := LearnCrossDAG(ctx, sigma, nil, k, nil); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("LearnCrossDAG: %v", err)
	}
	if err := (*DAGOptions)(nil).CheckMemory(9, k); !errors.Is(err, ErrTooManyFactors) {
		t.Errorf("CheckMemory: %v", err)
	}
}

// TestReadCSVMemory: ReadCSV stops at the line whose samples would pass
// MaxMemory.
func TestReadCSVMemory(t *testing.T) {
	var b strings.Builder
	for i := range 3 {
		for j := range 12000 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", (i+j)%10)
		}
		b.WriteByte('\n')
	}
	d, err := ReadCSV(strings.NewReader(b.String()), nil)
	if err != nil || d.Dim() != 12000 || d.NumSamples() != 3 {
		t.Fatalf("3 x 12000: %v", err)
	}
	_, err = ReadCSV(strings.NewReader(b.String()), &CSVOptions{MaxMemory: 500_000})
	if !errors.Is(err, mat.ErrTooLarge) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("3 x 12000 under 500 kB: %v, want ErrTooLarge at line 2", err)
	}
}
