package eval_test

import (
	"fmt"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/mat"
)

// Estimated topics come in any order: MatchTopics pairs them with the
// true ones (least total l1 distance) and reports the error of each.
func ExampleMatchTopics() {
	truth := mat.FromRows([][]float64{
		{0.7, 0.1},
		{0.2, 0.1},
		{0.1, 0.8},
	})
	est := mat.FromRows([][]float64{
		{0.1, 0.6},
		{0.2, 0.3},
		{0.7, 0.1},
	})
	perm, errs := eval.MatchTopics(truth, est)
	fmt.Println(perm)
	fmt.Printf("%.2f\n", errs)
	// Output:
	// [1 0]
	// [0.20 0.20]
}

func ExampleNMI() {
	labels := []string{"news", "news", "fiction", "fiction", "fiction"}
	clusters := []int{0, 0, 1, 1, 2}
	fmt.Printf("%.3f\n", eval.NMI(labels, clusters))
	// Output: 0.779
}
