package linear

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// TestNilContext: a nil ctx is a programming error, reported by a panic
// that names the function, not a nil-pointer dereference deep inside.
func TestNilContext(t *testing.T) {
	sigma := mat.Identity(9)
	for name, f := range map[string]func(){
		"LearnCoefficients": func() { LearnCoefficients(nil, sigma, 2, nil) },
		"LearnDAG":          func() { LearnDAG(nil, sigma, nil, 2, nil) },
		"DLDSearch":         func() { DLDSearch(nil, sigma, 2, nil) },
		"LearnTWM":          func() { LearnTWM(nil, sigma, 2, nil) },
		"BootstrapObservedBN": func() {
			BootstrapObservedBN(nil, moments.DenseSamples{X: sigma}, nil)
		},
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, name) || !strings.Contains(msg, "nil context") {
					t.Errorf("%s(nil ctx): panic %q, want one naming the function and the nil context", name, msg)
				}
			}()
			f()
		}()
	}
}

// TestRandomPartitionSeed: the partition is a function of the seed, and
// is a split of 0..n-1 into sorted parts of n/3, n/3 and the rest.
func TestRandomPartitionSeed(t *testing.T) {
	const n = 17
	a, b := RandomPartition(n, 7), RandomPartition(n, 7)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("seed 7 gave %v then %v", a, b)
		}
	}
	if len(a[0]) != n/3 || len(a[1]) != n/3 || len(a[2]) != n-2*(n/3) {
		t.Fatalf("parts of %d, %d, %d for n = %d", len(a[0]), len(a[1]), len(a[2]), n)
	}
	all := slices.Concat(a[0], a[1], a[2])
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("%v is not a split of 0..%d", a, n-1)
		}
	}
	for i := range a {
		if !slices.IsSorted(a[i]) {
			t.Fatalf("part %d = %v is not sorted", i, a[i])
		}
	}
	differ := false
	for seed := uint64(8); seed < 12 && !differ; seed++ {
		c := RandomPartition(n, seed)
		differ = !slices.Equal(a[0], c[0])
	}
	if !differ {
		t.Errorf("seeds 7 to 11 all gave the first part %v", a[0])
	}
}

// TestDLDSearchSeed: DLDSearch draws its partitions from
// DLDOptions.Seed, so the same seed gives the same decomposition.
func TestDLDSearchSeed(t *testing.T) {
	c := mat.Identity(12)
	for i := 0; i < 12; i++ {
		for j := 0; j < 12; j++ {
			c.Set(i, j, c.At(i, j)+float64((i+1)*(j+1))/100)
		}
	}
	ctx := context.Background()
	x, err := DLDSearch(ctx, c, 1, &DLDOptions{Seed: 5, Partitions: 3, StopRatio: -1})
	if err != nil {
		t.Fatal(err)
	}
	y, err := DLDSearch(ctx, c, 1, &DLDOptions{Seed: 5, Partitions: 3, StopRatio: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x.D, y.D) || !slices.Equal(x.Partition[0], y.Partition[0]) {
		t.Errorf("seed 5 twice: D %v and %v, first parts %v and %v", x.D, y.D, x.Partition[0], y.Partition[0])
	}
}
