package moments

import (
	"context"
	"runtime"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// PairsTimesFunc returns Pairs X for an n x m matrix X: one pass over
// the documents for DocMoments.PairsTimes, a closed form for population
// moments.
type PairsTimesFunc func(ctx context.Context, x *mat.Dense) (*mat.Dense, error)

// PairsOperator returns the symmetric n x n operator X -> Pairs X that
// the block eigensolver of package svd (svd.TopEigSym) works on, each
// product made by times, so that the spectral learners find the top
// eigenpairs of Pairs without forming it. An svd.Operator cannot return
// an error: the first error of times is kept in *errp, which the caller
// reads once the solver returns, and every later product is zero, so the
// solver ends quickly. ctx must not be nil.
func PairsOperator(ctx context.Context, n int, times PairsTimesFunc) (op svd.Operator, errp *error) {
	errp = new(error)
	op = svd.SymOperator(n, func(dst, x *mat.Dense) {
		if *errp != nil {
			dst.Zero()
			return
		}
		p, err := times(ctx, x)
		if err != nil {
			*errp = err
			dst.Zero()
			return
		}
		dst.Copy(p)
	})
	return op, errp
}

// SpectralMemory estimates the bytes a spectral learner holds to find k
// components on a vocabulary of n words with passes of the given workers
// (0 means GOMAXPROCS) and the eigensolver options eigen (nil means
// svd's defaults): the larger of two peaks. The first is the
// eigensolver's twelve n x l blocks (svd.TopEigSym, l = min(k +
// oversampling, n), oversampling max(10, k/2) unless eigen says
// otherwise) with the accumulators of a PairsTimes pass, n x (l+1) each;
// the second is the whitening, its pseudo-inverse and the components
// (three n x k matrices), the packed k x k x k tensor, and the
// accumulators of a WhitenedTriples pass. A pass holds up to 1 + 2
// workers accumulators. The learners of packages topic and linear apply
// the memory rule (mat.CheckMemory) to this figure before their first
// pass.
func SpectralMemory(n, k, workers int, eigen *svd.TopEigOptions) int64 {
	over := max(10, k/2)
	if eigen != nil && eigen.Oversample != 0 {
		over = max(eigen.Oversample, 0)
	}
	l := min(k+over, n)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	accs := 1 + 2*workers
	pairs := size.Add(size.Scale(12, size.Float64s(n, l)), size.Scale(accs, size.Float64s(n, l+1)))
	triples := size.Add(size.Float64s(n, 3*k), size.Scale(8, size.Packed3(k)), size.Scale(accs,
		size.Add(size.Scale(8, size.Packed3(k)), size.Float64s(n, 2*k+2), size.Float64s(tripleBlock+1, k))))
	return max(pairs, triples)
}
