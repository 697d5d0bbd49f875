package linear

import (
	"fmt"

	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"
)

// coefNeed estimates the bytes the coefficient step takes for n
// observed variables: 60 + 10 w matrices n x n for w goroutines. The
// peak heap of NewSampleMoments and LearnDAG measured 65-100 n x n
// matrices (n = 300 and 600, one and two goroutines, synth.RandomDAG
// with k = n/10), most of it the garbage of the partition search's
// decompositions awaiting collection, which the process holds all the
// same. Options.RefineNoise adds 10: the decompositions of its starts
// and the work of its steps and of the discrepancy's eigenvalues.
func (o *Options) coefNeed(n int) int64 {
	w := max(workers(o.DLD.Workers), workers(o.TWM.Workers))
	base := 60
	if o.RefineNoise {
		base += 10
	}
	return size.Scale(base+10*w, size.Float64s(n, n))
}

// CheckMemory returns the *mat.MemoryError (matching mat.ErrTooLarge)
// that LearnCoefficients and LearnHierarchy return for a Sigma of n
// variables under o.MaxMemory, or nil; it allocates nothing, so that a
// caller that computes Sigma from data can refuse the job before its
// passes. nil o means the defaults.
func (o *Options) CheckMemory(n int) error {
	var oo Options
	if o != nil {
		oo = *o
	}
	return mat.CheckMemory(fmt.Sprintf("the moments of %d variables", n), oo.coefNeed(n), oo.MaxMemory)
}

// CheckMemory returns the *mat.MemoryError (matching mat.ErrTooLarge)
// that LearnDAG returns for n observed and k hidden variables under
// o.MaxMemory, or nil, without allocating. Beyond the coefficient step
// (see Options.CheckMemory) it counts the Psi slices of the third
// moments, n x n each, and, unless SkipSplitCheck, the two halves'
// Sigma of the split-sample checks. nil o means the defaults.
func (o *DAGOptions) CheckMemory(n, k int) error {
	d := o.defaults()
	if k < 1 || k > n/3 {
		return fmt.Errorf("%w: k = %d with n = %d (need 1 <= k <= n/3)", ErrTooManyFactors, k, n)
	}
	slices := max(d.Zetas, 1) + 2
	if !d.SkipSplitCheck {
		slices += 2
	}
	need := size.Add(d.coefNeed(n), size.Scale(slices, size.Float64s(n, n)))
	return mat.CheckMemory(fmt.Sprintf("the moments of %d variables", n), need, d.MaxMemory)
}

// CheckObserved returns the error LearnObservedBN would return for its
// options and n variables before it looks at the data: a bad option or
// prior knowledge that does not fit n variables (ErrBadOption), or a
// job over MaxMemory (a *mat.MemoryError matching mat.ErrTooLarge), so
// that a program can refuse a job before it computes Sigma.
func (o *DAGOptions) CheckObserved(n int) error {
	if err := o.check(); err != nil {
		return err
	}
	d := o.defaults()
	if err := d.checkKnowledge("LearnObservedBN", n, true); err != nil {
		return err
	}
	return mat.CheckMemory(fmt.Sprintf("the moments of %d variables", n), d.observedNeed(n), d.MaxMemory)
}

// observedNeed estimates the bytes LearnObservedBN holds for n
// variables: about eight n x n matrices (Sigma, its whitening and
// inverse, C, the Lambdas) and the whitened third moment, an n x n x n
// symmetric tensor in packed storage, once per accumulator of its pass
// (1 + 2 workers) and once for the result.
func (o *DAGOptions) observedNeed(n int) int64 {
	accs := 2 + 2*max(workers(o.DLD.Workers), workers(o.TWM.Workers))
	return size.Add(size.Scale(8, size.Float64s(n, n)), size.Scale(accs, size.Scale(8, size.Packed3(n))))
}
