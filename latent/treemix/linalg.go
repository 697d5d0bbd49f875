package treemix

import (
	"errors"
	"fmt"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// The singular value decompositions of the rank test and the spectral
// decomposition come from package svd (one-sided Jacobi).

// singularValues returns the singular values of a in decreasing order
// (min(rows, cols) of them).
func singularValues(a *mat.Dense) ([]float64, error) {
	return svd.Values(a)
}

// leftSingular returns the top k left singular vectors of a, as the
// columns of a rows x k matrix.
func leftSingular(a *mat.Dense, k int) (*mat.Dense, error) { return topSingular(a, k, svd.WantU) }

// rightSingular returns the top k right singular vectors of a, as the
// columns of a cols x k matrix.
func rightSingular(a *mat.Dense, k int) (*mat.Dense, error) { return topSingular(a, k, svd.WantV) }

// topSingular returns the top k singular vectors of a on the side want
// (svd.WantU or svd.WantV), computing only that side.
func topSingular(a *mat.Dense, k int, want svd.Want) (*mat.Dense, error) {
	f, err := svd.Factorize(a, &svd.Options{Want: want})
	if err != nil {
		return nil, err
	}
	vecs := f.U
	if want == svd.WantV {
		vecs = f.V
	}
	n, _ := vecs.Dims()
	return vecs.Slice(0, n, 0, k).Clone(), nil
}

// pseudoInverse returns the pseudo-inverse of a (rows x cols, full
// column rank), or ErrRankDeficient.
func pseudoInverse(a *mat.Dense) (*mat.Dense, error) {
	var pinv mat.Dense
	rank, err := svd.PseudoInverse(&pinv, a, 1e-12)
	if errors.Is(err, svd.ErrRange) {
		return nil, fmt.Errorf("%w: the pseudo-inverse overflows (the matrix is numerically singular): %w", ErrRankDeficient, err)
	}
	if err != nil {
		return nil, err
	}
	if _, c := a.Dims(); rank < c {
		return nil, fmt.Errorf("%w: rank %d of %d", ErrRankDeficient, rank, c)
	}
	return &pinv, nil
}
