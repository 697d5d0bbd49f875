package linear

import (
	"context"
	"fmt"

	"github.com/moments-go/moments/mat"
)

// ThirdMoments gives the third moments of single-view data through the
// matrices Psi(zeta) = E[(x - mu)(x - mu)^T <zeta, x - mu>] (n x n,
// mu = E[x]), the third moment contracted with zeta.
// *moments.SampleMoments implements it with one pass over the samples
// per call; PsiFunc adapts a formula such as the population moments of
// a known model.
type ThirdMoments interface {
	// Psi returns Psi(zeta) (n x n) for each column zeta of zetas
	// (n x m).
	Psi(ctx context.Context, zetas *mat.Dense) ([]*mat.Dense, error)
}

// PsiFunc adapts a function returning one Psi(zeta) to ThirdMoments.
type PsiFunc func(zeta []float64) *mat.Dense

// Psi calls f on each column of zetas.
func (f PsiFunc) Psi(ctx context.Context, zetas *mat.Dense) ([]*mat.Dense, error) {
	n, m := zetas.Dims()
	out := make([]*mat.Dense, m)
	z := make([]float64, n)
	for j := 0; j < m; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		zetas.Col(z, j)
		out[j] = f(z)
		if r, c := out[j].Dims(); r != n || c != n {
			panic(fmt.Sprintf("linear: PsiFunc returned a %dx%d matrix for zeta of length %d", r, c, n))
		}
	}
	return out, nil
}
