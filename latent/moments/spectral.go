package moments

import (
	"runtime"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/svd"
)

// SpectralMemory estimates the bytes a spectral learner holds to find k
// components on a vocabulary of n words with passes of the given workers
// (0 means GOMAXPROCS) and the eigensolver options eigen (nil means
// svd's defaults): the larger of two peaks. The first is the
// eigensolver's twelve n x l blocks (svd.TopEigSym, l = min(k +
// oversampling, n), oversampling max(10, k/2), or max(5, k/4) with a
// Start, unless eigen says otherwise) with the accumulators of a PairsTimes pass, n x (l+1) each;
// the second is the whitening, its pseudo-inverse and the components
// (three n x k matrices), the packed k x k x k tensor, and the
// accumulators of a WhitenedTriples pass. A pass holds up to 1 + 2
// workers accumulators. The learners of packages topic and linear apply
// the memory rule (mat.CheckMemory) to this figure before their first
// pass.
func SpectralMemory(n, k, workers int, eigen *svd.TopEigOptions) int64 {
	over := max(10, k/2)
	if eigen != nil && eigen.Start != nil {
		over = max(5, k/4)
	}
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
