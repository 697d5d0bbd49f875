package topic

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestProjectSimplexBits checks that ProjectSimplex, whose bound passes
// run over the shrinking set of candidates, gives the bits of the
// definition that passes over every entry (projectSimplexRef, the former
// code), on vectors shaped like spectral topics (many small entries of
// either sign, a few large ones), on shifted and on scaled ones.
func TestProjectSimplexBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 400; trial++ {
		n := 1 + r.IntN(3000)
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64() * 1e-4
			if r.IntN(50) == 0 {
				v[i] = r.ExpFloat64() * 0.05
			}
		}
		switch trial % 4 {
		case 1:
			for i := range v {
				v[i] += 3 // entries above 1: the shifted path
			}
		case 2:
			for i := range v {
				v[i] *= 1e3
			}
		case 3:
			for i := range v {
				v[i] = math.Abs(v[i]) / float64(n) // already near the simplex
			}
		}
		got, want := slices.Clone(v), slices.Clone(v)
		mg, mw := ProjectSimplex(got), projectSimplexRef(want)
		if math.Float64bits(mg) != math.Float64bits(mw) {
			t.Fatalf("trial %d (n = %d): moved %v, the definition %v", trial, n, mg, mw)
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (n = %d): entry %d is %v, the definition gives %v", trial, n, i, got[i], want[i])
			}
		}
	}
}

// projectSimplexRef is ProjectSimplex as it was before its passes ran
// over the shrinking candidates: every pass over all of v.
func projectSimplexRef(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			// No projection is defined: make that visible in every entry.
			for i := range v {
				v[i] = math.NaN()
			}
			return math.NaN()
		}
	}
	var top float64
	if m := slices.Max(v); math.Abs(m) > 1 {
		top = m
	}
	// A lower bound on tau from all the entries, raised by the entries
	// above it; a margin keeps entries within rounding of the bound.
	var sum float64
	for _, x := range v {
		sum += x - top
	}
	lb := (sum - 1) / float64(len(v))
	count := len(v)
	for pass := 0; pass < 64; pass++ {
		cut := lb - 1e-9*math.Max(1, math.Abs(lb))
		var s float64
		c := 0
		for _, x := range v {
			if x-top > cut {
				s += x - top
				c++
			}
		}
		if c == 0 {
			break
		}
		lb = math.Max(lb, (s-1)/float64(c))
		if c == count {
			break
		}
		count = c
	}
	cut := lb - 1e-9*math.Max(1, math.Abs(lb))
	u := make([]float64, 0, count)
	for _, x := range v {
		if x-top > cut {
			u = append(u, x)
		}
	}
	if len(u) == 0 {
		// Cannot happen (the largest entry exceeds every bound), but
		// keep the full sort as the definition.
		u = append(u, v...)
	}
	slices.Sort(u)
	return projectSorted(v, u, top)
}

// TestSortFloats checks the radix sort of ProjectSimplex against
// slices.Sort on long vectors of mixed signs, zeros of both signs,
// repeated values, infinities and subnormals.
func TestSortFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 200; trial++ {
		n := r.IntN(5000)
		u := make([]float64, n)
		for i := range u {
			switch r.IntN(12) {
			case 0:
				u[i] = 0
			case 1:
				u[i] = math.Copysign(0, -1)
			case 2:
				u[i] = math.Inf(1 - 2*r.IntN(2))
			case 3:
				u[i] = 5e-324 * float64(r.IntN(100)-50)
			case 4:
				u[i] = float64(r.IntN(7)) // repeats
			default:
				u[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			}
		}
		got, want := slices.Clone(u), slices.Clone(u)
		sortFloats(got)
		slices.Sort(want)
		for i := range got {
			// -0 and +0 compare equal and may come in either order.
			if got[i] != want[i] {
				t.Fatalf("trial %d (n = %d): entry %d is %v, slices.Sort gives %v", trial, n, i, got[i], want[i])
			}
		}
		for i := 1; i < len(got); i++ {
			if got[i] < got[i-1] {
				t.Fatalf("trial %d: not sorted at %d", trial, i)
			}
		}
	}
}
