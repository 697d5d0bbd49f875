package eval

import (
	"fmt"
	"math"
)

// NMI returns the normalised mutual information of two labelings of the
// same items, I(U;V) / ((H(U) + H(V)) / 2) (the arithmetic normalisation,
// scikit-learn's default): 1 for identical partitions up to renaming, 0
// for independent ones. Two labelings with a single class each give 1.
func NMI[T, U comparable](a []T, b []U) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("eval: NMI: %d and %d labels", len(a), len(b)))
	}
	n := float64(len(a))
	if n == 0 {
		return 1
	}
	ca := make(map[T]float64)
	cb := make(map[U]float64)
	type pair struct {
		x T
		y U
	}
	cab := make(map[pair]float64)
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		cab[pair{a[i], b[i]}]++
	}
	entropy := func(counts []float64) float64 {
		var h float64
		for _, c := range counts {
			p := c / n
			h -= p * math.Log(p)
		}
		return h
	}
	var va, vb []float64
	for _, c := range ca {
		va = append(va, c)
	}
	for _, c := range cb {
		vb = append(vb, c)
	}
	ha, hb := entropy(va), entropy(vb)
	var mi float64
	for p, c := range cab {
		mi += c / n * math.Log(c*n/(ca[p.x]*cb[p.y]))
	}
	if ha+hb == 0 {
		return 1
	}
	return math.Max(0, mi/((ha+hb)/2))
}

// Perplexity returns exp(-logLik/tokens), the perplexity of a held-out
// set of tokens whose total log-likelihood (natural log) is logLik.
func Perplexity(logLik float64, tokens int) float64 {
	return math.Exp(-logLik / float64(tokens))
}
