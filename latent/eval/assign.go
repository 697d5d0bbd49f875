package eval

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/assign"
	"github.com/moments-go/moments/mat"
)

// Assign solves the assignment problem: for an r x c cost matrix with r
// <= c it returns, for each row, a distinct column, minimising the total
// cost, and that total. It is the Hungarian method with potentials
// (Kuhn–Munkres in the shortest-augmenting-path form), O(r^2 c). Costs
// must be finite; Assign panics otherwise or if r > c.
func Assign(cost *mat.Dense) (cols []int, total float64) { return assign.Hungarian(cost) }

// MatchTopics matches the columns of est (n x k') to those of truth (n x
// k, k <= k') so that the sum of l1 distances is least, and returns, for
// each true topic j, the matched column perm[j] and the l1 distance
// errs[j] between them.
func MatchTopics(truth, est *mat.Dense) (perm []int, errs []float64) {
	n, k := truth.Dims()
	ne, ke := est.Dims()
	if n != ne {
		panic(fmt.Sprintf("eval: MatchTopics: truth is %dx%d but est is %dx%d", n, k, ne, ke))
	}
	cost := mat.Zeros(k, ke)
	for i := 0; i < n; i++ {
		t, e := truth.RawRow(i), est.RawRow(i)
		for a, tv := range t {
			for b, ev := range e {
				cost.Set(a, b, cost.At(a, b)+math.Abs(tv-ev))
			}
		}
	}
	perm, _ = Assign(cost)
	errs = make([]float64, k)
	for j, b := range perm {
		errs[j] = cost.At(j, b)
	}
	return perm, errs
}
