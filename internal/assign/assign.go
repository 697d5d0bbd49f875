// Package assign solves the linear assignment problem: given an r x c
// cost matrix (r <= c), choose for every row a distinct column so that
// the sum of the chosen costs is least. The learners use it to match the
// rows of a matrix to its columns (the causal order of package linear);
// package eval uses it to match learned factors or topics to the truth.
package assign

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/mat"
)

// Hungarian solves the assignment problem: for an r x c cost matrix with r
// <= c it returns, for each row, a distinct column, minimising the total
// cost, and that total. It is the Hungarian method with potentials
// (Kuhn–Munkres in the shortest-augmenting-path form), O(r^2 c). Costs
// must be finite; Hungarian panics otherwise or if r > c.
func Hungarian(cost *mat.Dense) (cols []int, total float64) {
	r, c := cost.Dims()
	if r > c {
		panic(fmt.Sprintf("assign: Hungarian: %dx%d cost matrix has more rows than columns", r, c))
	}
	// u, v: potentials of rows and columns (1-based, with a virtual
	// column 0); p[j]: the row assigned to column j (0: none).
	u := make([]float64, r+1)
	v := make([]float64, c+1)
	p := make([]int, c+1)
	way := make([]int, c+1)
	minv := make([]float64, c+1)
	used := make([]bool, c+1)
	for i := 1; i <= r; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta, j1 := math.Inf(1), -1
			for j := 1; j <= c; j++ {
				if used[j] {
					continue
				}
				x := cost.At(i0-1, j-1)
				if math.IsNaN(x) || math.IsInf(x, 0) {
					panic("assign: Hungarian: cost is not finite")
				}
				cur := x - u[i0] - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= c; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	cols = make([]int, r)
	for j := 1; j <= c; j++ {
		if p[j] != 0 {
			cols[p[j]-1] = j - 1
		}
	}
	for i, j := range cols {
		total += cost.At(i, j)
	}
	return cols, total
}
