package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

func TestMatchTopics(t *testing.T) {
	truth := mat.FromRows([][]float64{{0.5, 0.1, 0.2}, {0.3, 0.1, 0.7}, {0.2, 0.8, 0.1}})
	est := mat.FromRows([][]float64{{0.1, 0.25, 0.5, 0.3}, {0.1, 0.65, 0.3, 0.3}, {0.8, 0.1, 0.2, 0.4}})
	perm, errs := MatchTopics(truth, est)
	want := []int{2, 0, 1}
	for j := range want {
		if perm[j] != want[j] {
			t.Fatalf("perm %v, want %v", perm, want)
		}
	}
	if errs[0] != 0 || errs[1] != 0 || math.Abs(errs[2]-0.1) > 1e-15 {
		t.Fatalf("errs %v", errs)
	}
}

func TestNMI(t *testing.T) {
	// Reference values from scikit-learn 1.2's normalized_mutual_info_score.
	if got := NMI([]int{0, 0, 1, 1, 2, 2, 2}, []int{1, 1, 0, 0, 0, 2, 2}); math.Abs(got-0.7471790950662618) > 1e-12 {
		t.Fatalf("NMI = %v", got)
	}
	if got := NMI([]string{"a", "b", "a", "c", "b", "a"}, []int{1, 1, 2, 2, 3, 3}); math.Abs(got-0.3016631159962042) > 1e-12 {
		t.Fatalf("NMI = %v", got)
	}
	if got := NMI([]int{3, 3, 1}, []string{"x", "x", "y"}); math.Abs(got-1) > 1e-15 {
		t.Fatalf("NMI of a renaming = %v", got)
	}
}

func TestCoherence(t *testing.T) {
	var b moments.Builder
	// Four documents over words 0..3.
	for _, d := range [][]int32{{0, 1}, {0, 1, 2}, {0}, {3}} {
		c := make([]uint32, len(d))
		for i := range c {
			c[i] = 1
		}
		if err := b.Add(d, c); err != nil {
			t.Fatal(err)
		}
	}
	corpus := b.Corpus()
	top := [][]int{{0, 1, 2}, {3, 2}}
	// Topic 0: D(0)=3, D(1)=2, D(2)=1, D(0,1)=2, D(0,2)=1, D(1,2)=1.
	// UMass pairs (m > l): log((2+1)/3), log((1+1)/3), log((1+1)/2).
	wantU := (math.Log(1) + math.Log(2.0/3) + math.Log(1)) / 3
	// Topic 1: D(3)=1, D(2)=1, D(3,2)=0: log(1/1).
	u := UMass(top, corpus)
	if math.Abs(u[0]-wantU) > 1e-15 || u[1] != 0 {
		t.Fatalf("UMass = %v, want [%v 0]", u, wantU)
	}
	npmi := func(pab, pa, pb float64) float64 { return math.Log(pab/(pa*pb)) / -math.Log(pab) }
	wantN := (npmi(0.5, 0.75, 0.5) + npmi(0.25, 0.75, 0.25) + npmi(0.25, 0.5, 0.25)) / 3
	n := NPMI(top, corpus)
	if math.Abs(n[0]-wantN) > 1e-15 || n[1] != -1 {
		t.Fatalf("NPMI = %v, want [%v -1]", n, wantN)
	}
	tw := TopWords(mat.FromRows([][]float64{{0.1, 0.5}, {0.4, 0.2}, {0.4, 0.3}}), 2)
	if tw[0][0] != 1 || tw[0][1] != 2 || tw[1][0] != 0 || tw[1][1] != 2 {
		t.Fatalf("TopWords = %v", tw)
	}
}

func TestDistSupport(t *testing.T) {
	a := mat.FromRows([][]float64{{1, 0}, {0, 2}, {3, 0}, {0, -1}})
	// Columns swapped and rescaled (one with a sign flip), plus a spare.
	est := mat.FromRows([][]float64{{0, -2, 5}, {4, 0, 5}, {0, -6, 5}, {-2, 0.01, 5}})
	if d := Dist(a, est); d > 1e-5 {
		t.Fatalf("Dist of a permuted, scaled copy = %v", d)
	}
	if d := Dist(a, mat.Zeros(4, 2)); d != 1 {
		t.Fatalf("Dist to zero = %v", d)
	}
	perm := MatchColumns(a, est)
	if perm[0] != 1 || perm[1] != 0 {
		t.Fatalf("MatchColumns = %v", perm)
	}
	// Raw support: est column 1 has a spurious 0.01 (a false positive).
	p, r := Support(a, est, perm, 0)
	if math.Abs(p-4.0/5) > 1e-15 || r != 1 {
		t.Fatalf("raw support: precision %v recall %v", p, r)
	}
	p, r = Support(a, est, perm, 0.1)
	if p != 1 || r != 1 {
		t.Fatalf("thresholded support: precision %v recall %v", p, r)
	}
	if got := Perplexity(-2*math.Log(4), 2); math.Abs(got-4) > 1e-12 {
		t.Fatalf("Perplexity = %v", got)
	}
}

func TestDistZeroTruthAndRelError(t *testing.T) {
	zero := mat.Zeros(3, 3)
	if d := Dist(zero, zero); d != 0 {
		t.Errorf("Dist(0, 0) = %v, want 0", d)
	}
	one := mat.Zeros(3, 3)
	one.Set(2, 0, 0.5)
	if d := Dist(zero, one); d != 1 {
		t.Errorf("Dist(0, non-zero) = %v, want 1", d)
	}
	// A right support with every column wrong in scale: dist reads 0,
	// the relative error does not.
	a := mat.FromRows([][]float64{{1, 0}, {0, 2}, {3, 0}})
	est := mat.FromRows([][]float64{{2, 0}, {0, 1}, {6, 0}})
	if d := Dist(a, est); d > 1e-15 {
		t.Errorf("Dist of a rescaled copy = %v", d)
	}
	// ||est - a||_F^2 = 1 + 1 + 9 = 11, ||a||_F^2 = 14.
	if r := RelError(a, est); math.Abs(r-math.Sqrt(11.0/14)) > 1e-15 {
		t.Errorf("RelError = %v, want %v", r, math.Sqrt(11.0/14))
	}
	if r := RelError(zero, one); r != 0.5 {
		t.Errorf("RelError(0, est) = %v, want ||est||_F = 0.5", r)
	}
}

// TestTopWordsOrder: TopWords agrees with a stable sort of each column
// (largest first, so ties keep the smaller id first, NaN last) for every
// n from 0 to past the number of rows, on columns with many ties and a
// few NaN.
func TestTopWordsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	const rows, k = 300, 3
	m := mat.Zeros(rows, k)
	for i := range rows {
		for j := range k {
			v := float64(r.IntN(40)) / 40
			if r.IntN(50) == 0 {
				v = math.NaN()
			}
			m.Set(i, j, v)
		}
	}
	for _, n := range []int{0, 1, 2, 10, 64, 65, 200, rows, rows + 5} {
		got := TopWords(m, n)
		for j := range k {
			idx := make([]int, rows)
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int {
				va, vb := m.At(a, j), m.At(b, j)
				an, bn := math.IsNaN(va), math.IsNaN(vb)
				switch {
				case an && bn:
					return 0
				case an:
					return 1
				case bn:
					return -1
				case va > vb:
					return -1
				case va < vb:
					return 1
				}
				return 0
			})
			want := idx[:min(n, rows)]
			if !slices.Equal(got[j], want) {
				t.Fatalf("n = %d, column %d: %v, want %v", n, j, got[j], want)
			}
		}
	}
}
