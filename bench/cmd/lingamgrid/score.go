package main

import (
	"math"

	"github.com/moments-go/moments/bench/lingam"
	"github.com/moments-go/moments/mat"
)

// score compares an estimated adjacency with the truth. An edge j -> i
// is an entry with |B[i][j]| > tol (tol 0: every non-zero, which is each
// method's own pruning); a NaN entry is no edge.
type score struct {
	SHD                   int // pairs {i, j} whose edge is missing, extra or reversed (each once)
	Precision, Recall, F1 float64
}

// scoreOf computes the score of est against truth. Precision is 1 when
// est has no edge, recall is 1 when the truth has none, F1 is 0 when
// both precision and recall are 0.
func scoreOf(truth, est *mat.Dense, tol float64) score {
	p, _ := truth.Dims()
	has := func(m *mat.Dense, i, j int, tol float64) bool { return math.Abs(m.At(i, j)) > tol }
	var s score
	var tp, nEst, nTrue int
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			if i == j {
				continue
			}
			t, e := has(truth, i, j, 0), has(est, i, j, tol)
			if t {
				nTrue++
			}
			if e {
				nEst++
			}
			if t && e {
				tp++
			}
		}
	}
	s.SHD = lingam.SHD(truth, est, tol)
	s.Precision, s.Recall = 1, 1
	if nEst > 0 {
		s.Precision = float64(tp) / float64(nEst)
	}
	if nTrue > 0 {
		s.Recall = float64(tp) / float64(nTrue)
	}
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
	return s
}

// orderAccuracy is the fraction of the true edges j -> i with j before i
// in order (1 without edges), or -1 if order is not a permutation of the
// variables.
func orderAccuracy(truth *mat.Dense, order []int) float64 {
	p, _ := truth.Dims()
	if len(order) != p {
		return -1
	}
	pos := make([]int, p)
	for i := range pos {
		pos[i] = -1
	}
	for k, v := range order {
		if v < 0 || v >= p || pos[v] >= 0 {
			return -1
		}
		pos[v] = k
	}
	edges, right := 0, 0
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			if i != j && truth.At(i, j) != 0 {
				edges++
				if pos[j] < pos[i] {
					right++
				}
			}
		}
	}
	if edges == 0 {
		return 1
	}
	return float64(right) / float64(edges)
}
