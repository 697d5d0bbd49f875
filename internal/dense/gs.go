package dense

import "github.com/moments-go/moments/kernels"

// Orthogonalize removes from v its components along the vectors of q,
// which must be orthonormal and as long as v: modified Gram-Schmidt,
// v <- v - (q_i · v) q_i for each q_i in turn, done twice so that the
// result is orthogonal to working accuracy even when v is nearly in
// their span ("twice is enough"). It returns the 2-norms of v before and
// after, for the caller's test of dependence (after <= tol*before). v is
// not normalized.
func Orthogonalize(v []float64, q [][]float64) (before, after float64) {
	before = kernels.Nrm2(v)
	for range 2 {
		for _, qi := range q {
			kernels.Axpy(-kernels.Dot(qi, v), qi, v)
		}
	}
	return before, kernels.Nrm2(v)
}
