package moments

import (
	"fmt"

	"github.com/moments-go/moments/mat"
)

// Samples is a collection of real-valued observations x in R^Dim() (the
// single-view data of the linear learners) that can be read repeatedly,
// in any range, from several goroutines at once. A generator can
// implement it by drawing sample i from a random stream of its own, so
// that millions of samples need never be stored.
type Samples interface {
	// NumSamples returns the number of samples.
	NumSamples() int
	// Dim returns the dimension of a sample.
	Dim() int
	// Block writes samples lo..hi-1 into the rows of dst, which is
	// (hi-lo) x Dim().
	Block(lo, hi int, dst *mat.Dense)
}

// DenseSamples adapts a matrix whose rows are samples to Samples.
type DenseSamples struct{ X *mat.Dense }

// NumSamples returns the number of rows.
func (s DenseSamples) NumSamples() int { r, _ := s.X.Dims(); return r }

// Dim returns the number of columns.
func (s DenseSamples) Dim() int { _, c := s.X.Dims(); return c }

// Block copies rows lo..hi-1 into dst.
func (s DenseSamples) Block(lo, hi int, dst *mat.Dense) {
	r, c := dst.Dims()
	if r != hi-lo || c != s.Dim() {
		panic(fmt.Sprintf("moments: DenseSamples.Block: rows %d..%d into a %dx%d matrix", lo, hi, r, c))
	}
	dst.Copy(s.X.Slice(lo, hi, 0, c))
}
