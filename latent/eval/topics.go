package eval

import (
	"math"
	"slices"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// TopWords returns the ids of the n largest entries of each column of
// topics (rows x k), largest first, ties broken by the smaller id; NaN
// ranks below every number. For a small n it keeps the n best of each
// column as it scans it (O(rows log n) comparisons a column rather than
// a sort of the vocabulary); for a large one it sorts.
func TopWords(topics *mat.Dense, n int) [][]int {
	rows, k := topics.Dims()
	n = max(0, min(n, rows))
	out := make([][]int, k)
	col := make([]float64, rows)
	// better reports whether word a ranks above word b.
	better := func(a, b int) bool {
		va, vb := col[a], col[b]
		switch {
		case math.IsNaN(va):
			return math.IsNaN(vb) && a < b
		case math.IsNaN(vb) || va > vb:
			return true
		}
		return va == vb && a < b
	}
	cmp := func(a, b int) int {
		switch {
		case a == b:
			return 0
		case better(a, b):
			return -1
		}
		return 1
	}
	var idx []int // for n > topWordsScan
	for j := 0; j < k; j++ {
		topics.Col(col, j)
		if n > topWordsScan {
			if idx == nil {
				idx = make([]int, rows)
			}
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, cmp)
			out[j] = slices.Clone(idx[:n])
			continue
		}
		best := make([]int, 0, n)
		for i := range rows {
			if len(best) == n && (n == 0 || !better(i, best[n-1])) {
				continue
			}
			// The place of i among best, by binary search.
			at, _ := slices.BinarySearchFunc(best, i, cmp)
			if len(best) < n {
				best = append(best, 0)
			}
			copy(best[at+1:], best[at:len(best)-1])
			best[at] = i
		}
		out[j] = best
	}
	return out
}

// topWordsScan is the largest n for which TopWords keeps the best as it
// scans (each insertion moves up to n ids) rather than sorting.
const topWordsScan = 64

// cooccurrence counts, over the documents of c, how many contain each
// word of top and each pair of them.
type cooccurrence struct {
	docs  float64
	df    map[int]float64
	joint map[[2]int]float64
}

func countCooccurrence(top [][]int, c *moments.Corpus) cooccurrence {
	want := make(map[int]bool)
	for _, t := range top {
		for _, w := range t {
			want[w] = true
		}
	}
	co := cooccurrence{docs: float64(c.NumDocs()), df: make(map[int]float64), joint: make(map[[2]int]float64)}
	var present []int
	for i := 0; i < c.NumDocs(); i++ {
		present = present[:0]
		for _, w := range c.Doc(i).Words {
			if want[int(w)] {
				present = append(present, int(w))
			}
		}
		for a, wa := range present {
			co.df[wa]++
			for _, wb := range present[a+1:] {
				co.joint[[2]int{wa, wb}]++ // wa < wb: Words is sorted
			}
		}
	}
	return co
}

func (co cooccurrence) both(a, b int) float64 {
	if a > b {
		a, b = b, a
	}
	return co.joint[[2]int{a, b}]
}

// UMass returns the UMass coherence of each topic given by its top words
// (most probable first), on document co-occurrence in c: the mean over
// the pairs (m > l) of log((D(w_m, w_l) + 1) / D(w_l)), where D counts the
// documents containing the words (Mimno et al., 2011, averaged over
// pairs rather than summed). Words that occur in no document give -Inf.
func UMass(top [][]int, c *moments.Corpus) []float64 {
	co := countCooccurrence(top, c)
	out := make([]float64, len(top))
	for t, words := range top {
		var s float64
		pairs := 0
		for m := 1; m < len(words); m++ {
			for l := 0; l < m; l++ {
				s += math.Log((co.both(words[m], words[l]) + 1) / co.df[words[l]])
				pairs++
			}
		}
		if pairs > 0 {
			out[t] = s / float64(pairs)
		}
	}
	return out
}

// NPMI returns the normalised pointwise mutual information of each topic
// given by its top words, on document co-occurrence in c: the mean over
// pairs of log(p(a,b) / (p(a) p(b))) / -log p(a,b), with p the fraction
// of documents containing the words; a pair that never co-occurs scores
// -1 and a pair present in every document 0.
func NPMI(top [][]int, c *moments.Corpus) []float64 {
	co := countCooccurrence(top, c)
	out := make([]float64, len(top))
	for t, words := range top {
		var s float64
		pairs := 0
		for a := 0; a < len(words); a++ {
			for b := a + 1; b < len(words); b++ {
				pab := co.both(words[a], words[b]) / co.docs
				pa, pb := co.df[words[a]]/co.docs, co.df[words[b]]/co.docs
				switch {
				case pab == 0:
					s += -1
				case pab == 1:
					// log(1/(1*1)) / -log 1 = 0/0: independent enough.
				default:
					s += math.Log(pab/(pa*pb)) / -math.Log(pab)
				}
				pairs++
			}
		}
		if pairs > 0 {
			out[t] = s / float64(pairs)
		}
	}
	return out
}

// Mean returns the arithmetic mean of x (NaN for an empty x).
func Mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
