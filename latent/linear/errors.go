package linear

import (
	"errors"
	"math"

	"github.com/moments-go/moments/internal/csvscan"
	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/latent/moments"
)

// Errors that data can cause. The learners wrap them with details; test
// for them with errors.Is.
var (
	// ErrNotFinite: a moment matrix or a sample holds NaN or Inf; it is
	// moments.ErrNotFinite.
	ErrNotFinite = moments.ErrNotFinite
	// ErrTooManyFactors: k is not in 1..n/3 (the rank condition needs a
	// partition of the n rows into three parts of rank k each) or does
	// not fit the matrix at hand.
	ErrTooManyFactors = errors.New("linear: too many hidden factors for the number of observed variables")
	// ErrRankDeficient: a matrix the method needs of rank k is not
	// (no partition of DLD gives blocks of rank k, the low-rank part has
	// fewer than k positive eigenvalues, LearnTWM finds fewer than k
	// independent columns, a hidden second moment is not positive
	// definite). With sampled moments it usually means k is too large.
	ErrRankDeficient = errors.New("linear: rank deficient")
	// ErrNoConvergence: an iteration stopped at its cap.
	ErrNoConvergence = errors.New("linear: no convergence")
	// ErrBadData: malformed input (see DataError); it is
	// moments.ErrBadData, shared by every reader and learner.
	ErrBadData = moments.ErrBadData
	// ErrBadOption: an option value that makes no sense (NaN, an
	// infinity, a negative count or tolerance, a relative tolerance
	// above one, an unknown method); the message names the option and
	// its value.
	ErrBadOption = errors.New("linear: bad option")
)

// check checks the fields of DAGOptions (and of its Options).
func (o *DAGOptions) check() error {
	if o == nil {
		return nil
	}
	return optcheck.First(
		optcheck.Int(ErrBadOption, "DAGOptions.Method", int(o.Method), int(ECATensor), int(ECASingle)),
		optcheck.Int(ErrBadOption, "DAGOptions.MaxIter", o.MaxIter, 0, math.MaxInt),
		optcheck.Float(ErrBadOption, "DAGOptions.Tol", o.Tol, 0, 1),
		optcheck.Float(ErrBadOption, "DAGOptions.MaxNoiseSkew", o.MaxNoiseSkew, math.Inf(-1), math.Inf(1)),
		optcheck.Float(ErrBadOption, "DAGOptions.Prune", o.Prune, 0, math.Inf(1)),
		optcheck.Int(ErrBadOption, "DAGOptions.Pruning", int(o.Pruning), int(PruneBIC), int(PruneNone)),
		optcheck.Float(ErrBadOption, "DAGOptions.PruneGamma", o.PruneGamma, 0, math.Inf(1)),
		optcheck.Float(ErrBadOption, "DAGOptions.PruneEBIC", o.PruneEBIC, math.Inf(-1), math.Inf(1)),
		optcheck.Int(ErrBadOption, "DAGOptions.Samples", o.Samples, 0, math.MaxInt),
		optcheck.Int(ErrBadOption, "DAGOptions.Cumulants", int(o.Cumulants), int(CumulantsAuto), int(CumulantsBoth)),
		o.Options.check())
}

// check checks the fields of Options.
func (o *Options) check() error {
	if o == nil {
		return nil
	}
	return optcheck.First(o.DLD.check(), o.TWM.check())
}

// check checks the fields of DLDOptions.
func (o *DLDOptions) check() error {
	if o == nil {
		return nil
	}
	return optcheck.First(
		optcheck.Int(ErrBadOption, "DLDOptions.Partitions", o.Partitions, 0, math.MaxInt),
		optcheck.Float(ErrBadOption, "DLDOptions.StopRatio", o.StopRatio, math.Inf(-1), math.Inf(1)),
		optcheck.Less(ErrBadOption, "DLDOptions.RCond", o.RCond, 0, 1),
		optcheck.Int(ErrBadOption, "DLDOptions.Workers", o.Workers, 0, math.MaxInt))
}

// check checks the fields of TWMOptions (not L1, which the l1 solver
// checks).
func (o *TWMOptions) check() error {
	if o == nil {
		return nil
	}
	return optcheck.First(
		optcheck.Float(ErrBadOption, "TWMOptions.SparsityTol", o.SparsityTol, 0, 1),
		optcheck.Float(ErrBadOption, "TWMOptions.NoiseSigmas", o.NoiseSigmas, 0, math.Inf(1)),
		optcheck.Float(ErrBadOption, "TWMOptions.IndepTol", o.IndepTol, 0, 1),
		optcheck.Float(ErrBadOption, "TWMOptions.RowTol", o.RowTol, 0, 1),
		optcheck.Float(ErrBadOption, "TWMOptions.RefineTol", o.RefineTol, 0, 1),
		optcheck.Int(ErrBadOption, "TWMOptions.Workers", o.Workers, 0, math.MaxInt),
		optcheck.Int(ErrBadOption, "TWMOptions.MaxRows", o.MaxRows, 0, math.MaxInt))
}

// DataError reports malformed input at a line and field; it is
// moments.DataError, the one position error of every reader of the
// module, and matches ErrBadData under errors.Is.
type DataError = moments.DataError

// dataError turns the position errors of the CSV scanner into
// *DataError and passes other errors through.
func dataError(err error) error { return csvscan.ToDataError("linear", err) }
