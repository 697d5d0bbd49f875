package assign

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestHungarian compares the Hungarian method with brute force over all
// injections on random rectangular matrices.
func TestHungarian(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 300; trial++ {
		rows := 1 + r.IntN(5)
		cols := rows + r.IntN(3)
		cost := mat.Zeros(rows, cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				cost.Set(i, j, float64(r.IntN(20))-5) // ties and negatives
			}
		}
		got, total := Hungarian(cost)
		seen := map[int]bool{}
		var sum float64
		for i, j := range got {
			if seen[j] {
				t.Fatalf("column %d assigned twice", j)
			}
			seen[j] = true
			sum += cost.At(i, j)
		}
		best := bruteAssign(cost, 0, map[int]bool{})
		if sum != total || total != best {
			t.Fatalf("%v: total %v (sum %v), brute force %v", cost, total, sum, best)
		}
	}
}

func bruteAssign(cost *mat.Dense, i int, used map[int]bool) float64 {
	rows, cols := cost.Dims()
	if i == rows {
		return 0
	}
	best := math.Inf(1)
	for j := 0; j < cols; j++ {
		if !used[j] {
			used[j] = true
			best = math.Min(best, cost.At(i, j)+bruteAssign(cost, i+1, used))
			used[j] = false
		}
	}
	return best
}
