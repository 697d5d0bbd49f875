package mattest

import (
	"math"
	"testing"

	"github.com/moments-go/moments/mat"
)

func TestMaxRelErr(t *testing.T) {
	truth := mat.FromRows([][]float64{{1, -4}, {2, 0}})
	est := mat.FromRows([][]float64{{1, -3}, {2.5, 0}})
	if got := MaxRelErr(truth, est); got != 0.25 {
		t.Errorf("MaxRelErr = %v, want 1/4", got)
	}
	if got := MaxRelErr(mat.Zeros(2, 2), est); got != 3 {
		t.Errorf("zero truth: %v, want the absolute error 3", got)
	}
	if got := MaxRelErr(truth, mat.Zeros(2, 3)); !math.IsInf(got, 1) {
		t.Errorf("shape mismatch: %v, want +Inf", got)
	}
}
