package treemix

import (
	"errors"
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/csvscan"
	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/latent/moments"
)

// Errors that data can cause. The learners wrap them with details; test
// for them with errors.Is.
var (
	// ErrFewStates: the method needs more states per variable than
	// mixture components (d > r), for the rank test and the spectral
	// decomposition alike.
	ErrFewStates = errors.New("treemix: the number of states must exceed the number of components (d > r)")
	// ErrNoReference: no node is isolated in the union graph, so the
	// spectral decomposition has no reference node u* whose view of the
	// hidden variable is the same in every separator configuration.
	ErrNoReference = errors.New("treemix: no isolated reference node in the union graph")
	// ErrRankDeficient: a matrix that the spectral decomposition inverts
	// (the reference view, a projected pair matrix) has numerical rank
	// below the number of components.
	ErrRankDeficient = errors.New("treemix: rank deficient")
	// ErrComplexEigen: the observable operator whose eigenvectors label
	// the components has complex eigenvalues (sampling noise or a model
	// outside the assumptions).
	ErrComplexEigen = errors.New("treemix: observable operator has complex eigenvalues")
	// ErrNoConvergence: an iterative method stopped at its iteration cap.
	ErrNoConvergence = errors.New("treemix: no convergence")
	// ErrBadData: malformed or inconsistent data (see DataError); it is
	// moments.ErrBadData, shared by every reader and learner.
	ErrBadData = moments.ErrBadData
	// ErrBadOption: an option or argument value that makes no sense
	// (NaN, an infinity, a negative count, threshold, tolerance or
	// Workers, an unknown statistic, a reference node out of range,
	// fewer than one component); the message names the option and its
	// value.
	ErrBadOption = errors.New("treemix: bad option")
)

// check checks the fields of Options: a negative Workers is an error
// (0 means GOMAXPROCS).
func (o *Options) check() error {
	return optcheck.Int(ErrBadOption, "Options.Workers", o.Workers, 0, math.MaxInt)
}

// check checks the fields of RankOptions.
func (o *RankOptions) check() error {
	inf := math.Inf(1)
	return optcheck.First(
		o.Options.check(),
		optcheck.Float(ErrBadOption, "RankOptions.Xi", o.Xi, 0, inf),
		optcheck.Float(ErrBadOption, "RankOptions.XiScale", o.XiScale, 0, inf),
		optcheck.Float(ErrBadOption, "RankOptions.MinCount", o.MinCount, 0, inf))
}

// check checks the fields of SpectralOptions.
func (o *SpectralOptions) check() error {
	return optcheck.First(
		o.Options.check(),
		optcheck.Int(ErrBadOption, "SpectralOptions.MaxSeparator", o.MaxSeparator, 0, math.MaxInt),
		optcheck.Float(ErrBadOption, "SpectralOptions.MinCount", o.MinCount, 0, math.Inf(1)))
}

// check checks the fields of EMOptions.
func (o *EMOptions) check() error {
	inf := math.Inf(1)
	return optcheck.First(
		o.Options.check(),
		optcheck.Int(ErrBadOption, "EMOptions.MaxIter", o.MaxIter, 0, math.MaxInt),
		optcheck.Float(ErrBadOption, "EMOptions.Tol", o.Tol, -inf, inf),
		optcheck.Float(ErrBadOption, "EMOptions.Prior", o.Prior, -inf, inf))
}

// check checks the fields of MarkovOptions.
func (o *MarkovOptions) check() error {
	return optcheck.First(
		optcheck.Int(ErrBadOption, "MarkovOptions.Statistic", int(o.Statistic), int(CMI), int(MaxTV)),
		optcheck.Float(ErrBadOption, "MarkovOptions.Threshold", o.Threshold, 0, math.Inf(1)),
		optcheck.Float(ErrBadOption, "MarkovOptions.MinMass", o.MinMass, 0, 1),
		optcheck.Int(ErrBadOption, "MarkovOptions.MaxNeighborhood", o.MaxNeighborhood, 0, math.MaxInt))
}

// check panics (the generators' options come from code) on values for
// which the generator would produce NaN or never end.
func (o *GenOptions) check(fn string, k int) {
	inf := math.Inf(1)
	err := optcheck.First(
		optcheck.Less(ErrBadOption, "GenOptions.Strength", o.Strength, math.Inf(-1), 1),
		optcheck.Float(ErrBadOption, "GenOptions.Concentration", o.Concentration, 0, inf),
		optcheck.Float(ErrBadOption, "GenOptions.WeightConcentration", o.WeightConcentration, 0, inf),
		optcheck.Float(ErrBadOption, "GenOptions.MinWeight", o.MinWeight, 0, 1/float64(k)))
	if err != nil {
		panic(fmt.Sprintf("treemix: %s: %v (the weights of %d components cannot all reach a floor above 1/%d)", fn, err, k, k))
	}
}

// DataError reports malformed input at a line and field; it is
// moments.DataError, the one position error of every reader of the
// module, and matches ErrBadData under errors.Is.
type DataError = moments.DataError

// dataError turns the position errors of the CSV scanner into
// *DataError and passes other errors through.
func dataError(err error) error { return csvscan.ToDataError("treemix", err) }
