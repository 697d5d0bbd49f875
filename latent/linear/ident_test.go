package linear

import (
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// bruteMaxDegree returns d_max, the largest number of nonzero entries in
// a column of a, counted entry by entry.
func bruteMaxDegree(a *mat.Dense) int {
	n, k := a.Dims()
	dmax := 0
	for j := 0; j < k; j++ {
		d := 0
		for i := 0; i < n; i++ {
			if a.At(i, j) != 0 {
				d++
			}
		}
		dmax = max(dmax, d)
	}
	return dmax
}

// bruteExpansion checks the expansion property over all subsets: the
// brute-force margin (bruteMargin) is not negative.
func bruteExpansion(a *mat.Dense) bool { return bruteMargin(a) >= 0 }

func TestCheckExpansion(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	agree, holds := 0, 0
	for trial := 0; trial < 200; trial++ {
		n, k := 6+r.IntN(20), 2+r.IntN(7)
		a := synth.BernoulliGaussian(r, n, k, 0.15+0.3*r.Float64())
		rep, err := CheckExpansion(a, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteExpansion(a)
		if rep.Holds != want || !rep.Exact {
			t.Fatalf("%dx%d: CheckExpansion %v, brute force %v", n, k, rep.Holds, want)
		}
		if !want {
			// The violator really violates.
			if len(rep.Violator) < 2 || rep.Neighbours >= len(rep.Violator)+rep.DMax {
				t.Fatalf("violator %v with %d neighbours, dmax %d", rep.Violator, rep.Neighbours, rep.DMax)
			}
		}
		if ExpansionSufficient(a, 0) {
			if !want {
				t.Fatalf("%dx%d: sufficient check passes where expansion fails", n, k)
			}
			agree++
		}
		if want {
			holds++
		}
	}
	t.Logf("expansion holds in %d of 200 supports; the sufficient check confirms %d", holds, agree)
}

func TestIncoherenceAndRank(t *testing.T) {
	c, err := Incoherence(mat.Identity(4))
	if err != nil || c != 1 {
		t.Errorf("identity: %v %v", c, err)
	}
	a := mat.FromRows([][]float64{{1, 0}, {0, 0}, {0, 0}, {0, 0}})
	if _, err := Incoherence(a); err == nil {
		t.Error("rank-deficient matrix accepted")
	}
	b := mat.FromRows([][]float64{{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 3}, {1, -1}})
	if !RankCondition(b, Partition{{0, 1}, {2, 3}, {4, 5}}) {
		t.Error("rank condition fails")
	}
	if RankCondition(b, Partition{{0, 2}, {1, 3}, {4, 5}}) == false {
		t.Error("rank condition fails on a full-rank split")
	}
	if RankCondition(mat.FromRows([][]float64{{1, 0}, {2, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}}), Partition{{0, 1}, {2, 3}, {4, 5}}) {
		t.Error("rank condition holds with rank-one parts")
	}
	g := RowGaps(mat.FromRows([][]float64{{1, -2}, {0, 0}, {3, 0}}))
	if g[0] != 0.5 || g[1] != 0 || g[2] != 1 {
		t.Errorf("gaps %v", g)
	}
	if !ColumnsLeadRows(b) || ColumnsLeadRows(mat.FromRows([][]float64{{2, 1}, {3, 1}})) {
		t.Error("ColumnsLeadRows")
	}
}
