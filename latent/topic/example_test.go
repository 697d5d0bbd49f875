package topic_test

import (
	"context"
	"fmt"

	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/mat"
)

// With the population moments of a model, spectral LDA recovers the
// topics and alpha exactly (up to the order of the topics).
func Example() {
	topics := mat.FromRows([][]float64{
		{0.5, 0.0, 0.1},
		{0.3, 0.1, 0.0},
		{0.1, 0.6, 0.1},
		{0.1, 0.2, 0.1},
		{0.0, 0.1, 0.7},
	})
	alpha := []float64{0.2, 0.5, 0.3}
	res, err := topic.LearnLDAMoments(context.Background(), topic.LDAMoments{Topics: topics, Alpha: alpha}, 3, 1, nil)
	if err != nil {
		panic(err)
	}
	for j := 0; j < 3; j++ {
		col := make([]float64, 5)
		fmt.Printf("alpha %.3f topic %.3f\n", res.Alpha[j], res.Topics.Col(col, j))
	}
	// Output:
	// alpha 0.200 topic [0.500 0.300 0.100 0.100 0.000]
	// alpha 0.300 topic [0.100 0.000 0.100 0.100 0.700]
	// alpha 0.500 topic [0.000 0.100 0.600 0.200 0.100]
}
