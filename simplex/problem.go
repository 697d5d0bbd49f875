package simplex

import (
	"errors"
	"fmt"
	"math"

	"github.com/moments-go/moments/internal/optcheck"
	"github.com/moments-go/moments/mat"
)

// Sparse is an m x n matrix in compressed sparse column form: the entries
// of column j are Value[k] in row RowIndex[k] for ColStart[j] <= k <
// ColStart[j+1]. Row indices within a column need not be sorted, but a
// row may appear at most once in a column. Explicit zeros are allowed and
// ignored.
type Sparse struct {
	Rows, Cols int
	ColStart   []int // length Cols+1, ColStart[0] == 0, non-decreasing
	RowIndex   []int
	Value      []float64
}

// SparseFromDense returns the nonzero entries of a as a Sparse matrix.
func SparseFromDense(a *mat.Dense) Sparse {
	r, c := a.Dims()
	s := Sparse{Rows: r, Cols: c, ColStart: make([]int, c+1)}
	for j := 0; j < c; j++ {
		for i := 0; i < r; i++ {
			if v := a.At(i, j); v != 0 {
				s.RowIndex = append(s.RowIndex, i)
				s.Value = append(s.Value, v)
			}
		}
		s.ColStart[j+1] = len(s.RowIndex)
	}
	return s
}

// At returns element (i, j) of s (a linear search of column j). It
// panics if the indices are out of range.
func (s *Sparse) At(i, j int) float64 {
	if i < 0 || i >= s.Rows || j < 0 || j >= s.Cols {
		panic(fmt.Sprintf("simplex: Sparse.At: index (%d, %d) out of range for %dx%d", i, j, s.Rows, s.Cols))
	}
	for k := s.ColStart[j]; k < s.ColStart[j+1]; k++ {
		if s.RowIndex[k] == i {
			return s.Value[k]
		}
	}
	return 0
}

// MulVec returns A x.
func (s *Sparse) MulVec(x []float64) []float64 {
	y := make([]float64, s.Rows)
	for j := 0; j < s.Cols; j++ {
		xj := x[j]
		if xj == 0 {
			continue
		}
		for k := s.ColStart[j]; k < s.ColStart[j+1]; k++ {
			y[s.RowIndex[k]] += s.Value[k] * xj
		}
	}
	return y
}

// MulVecT returns A^T y.
func (s *Sparse) MulVecT(y []float64) []float64 {
	x := make([]float64, s.Cols)
	for j := 0; j < s.Cols; j++ {
		var t float64
		for k := s.ColStart[j]; k < s.ColStart[j+1]; k++ {
			t += s.Value[k] * y[s.RowIndex[k]]
		}
		x[j] = t
	}
	return x
}

// Problem is the linear program
//
//	minimise    c^T x + Offset
//	subject to  RowLower <= A x <= RowUpper
//	            ColLower <=  x  <= ColUpper
//
// (maximise when Maximize is set). A is m x n; Obj, ColLower and ColUpper
// have n elements, RowLower and RowUpper m. Bounds may be infinite
// (math.Inf): a row with equal limits is an equality, one with one
// infinite limit a one-sided inequality, one with two finite limits a
// range, one with none a free row; likewise for the variables (free,
// fixed, boxed, one-sided). A lower limit may not be +Inf, an upper one
// not -Inf, and lower may not exceed upper.
type Problem struct {
	Name     string
	Obj      []float64 // c
	Offset   float64   // constant term, reported apart from c^T x
	Maximize bool      // maximise c^T x instead of minimising it
	A        Sparse
	RowLower []float64
	RowUpper []float64
	ColLower []float64
	ColUpper []float64
	RowNames []string // optional: nil or m names
	ColNames []string // optional: nil or n names
}

// NumRows returns m, the number of constraints.
func (p *Problem) NumRows() int { return p.A.Rows }

// NumCols returns n, the number of variables.
func (p *Problem) NumCols() int { return p.A.Cols }

// ErrInvalid is the error that every *InputError matches (errors.Is):
// the problem data are inconsistent or not finite. It is simplex's
// counterpart of the learners' moments.ErrBadData and *moments.DataError
// (package latent/moments), which this package, below it, does not
// import.
var ErrInvalid = errors.New("simplex: invalid problem")

// ErrBadOption is wrapped by the errors for option values that make no
// sense (a NaN, infinite or negative tolerance, a negative iteration
// bound, an unknown Method); the message names the option and its value.
var ErrBadOption = errors.New("simplex: bad option")

// checkOptions checks the fields of Options.
func checkOptions(o *Options) error {
	inf := math.Inf(1)
	return optcheck.First(
		optcheck.Int(ErrBadOption, "Options.MaxIter", o.MaxIter, 0, math.MaxInt),
		optcheck.Int(ErrBadOption, "Options.Method", int(o.Method), int(Dual), int(Primal)),
		optcheck.Float(ErrBadOption, "Options.PrimalTol", o.PrimalTol, 0, inf),
		optcheck.Float(ErrBadOption, "Options.DualTol", o.DualTol, 0, inf),
		optcheck.Int(ErrBadOption, "Options.RefactorInterval", o.RefactorInterval, 0, math.MaxInt))
}

// checkL1Options checks the fields of L1Options.
func checkL1Options(o *L1Options) error {
	return optcheck.First(
		optcheck.Int(ErrBadOption, "L1Options.MaxIter", o.MaxIter, 0, math.MaxInt),
		optcheck.Float(ErrBadOption, "L1Options.Tol", o.Tol, 0, math.Inf(1)),
		optcheck.Int(ErrBadOption, "L1Options.PoolSize", o.PoolSize, 0, math.MaxInt))
}

// InputError describes what is wrong with a Problem (or with the data
// given to L1Min, L1MinBatch or NewL1Solver). It matches ErrInvalid; it
// plays the part that *moments.DataError plays in the learners.
type InputError struct {
	Field string // the offending field, such as "Obj" or "A.Value"
	Index int    // the element concerned, or -1
	Msg   string
}

// Error describes the problem with the field and element concerned.
func (e *InputError) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("simplex: invalid problem: %s[%d]: %s", e.Field, e.Index, e.Msg)
	}
	return fmt.Sprintf("simplex: invalid problem: %s: %s", e.Field, e.Msg)
}

// Is reports whether target is ErrInvalid.
func (e *InputError) Is(target error) bool { return target == ErrInvalid }

func invalid(field string, index int, format string, args ...any) error {
	return &InputError{Field: field, Index: index, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks that the sizes of p are consistent, that the data are
// finite (bounds may be infinite in the allowed direction), that no row
// appears twice in a column and that no lower limit exceeds its upper
// limit. It returns an *InputError (matching ErrInvalid) or nil.
func (p *Problem) Validate() error {
	if p == nil {
		return invalid("Problem", -1, "is nil")
	}
	m, n := p.A.Rows, p.A.Cols
	if m < 0 || n < 0 {
		return invalid("A", -1, "negative size %dx%d", m, n)
	}
	if len(p.Obj) != n {
		return invalid("Obj", -1, "has %d elements, A has %d columns", len(p.Obj), n)
	}
	for _, v := range []struct {
		name string
		s    []float64
		want int
	}{{"ColLower", p.ColLower, n}, {"ColUpper", p.ColUpper, n}, {"RowLower", p.RowLower, m}, {"RowUpper", p.RowUpper, m}} {
		if len(v.s) != v.want {
			return invalid(v.name, -1, "has %d elements, want %d", len(v.s), v.want)
		}
	}
	if p.RowNames != nil && len(p.RowNames) != m {
		return invalid("RowNames", -1, "has %d names for %d rows", len(p.RowNames), m)
	}
	if p.ColNames != nil && len(p.ColNames) != n {
		return invalid("ColNames", -1, "has %d names for %d columns", len(p.ColNames), n)
	}
	if math.IsNaN(p.Offset) || math.IsInf(p.Offset, 0) {
		return invalid("Offset", -1, "not finite: %v", p.Offset)
	}
	for j, v := range p.Obj {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return invalid("Obj", j, "not finite: %v", v)
		}
	}
	if err := checkBounds("Col", p.ColLower, p.ColUpper); err != nil {
		return err
	}
	if err := checkBounds("Row", p.RowLower, p.RowUpper); err != nil {
		return err
	}
	a := &p.A
	if len(a.ColStart) != n+1 {
		return invalid("A.ColStart", -1, "has %d elements, want %d", len(a.ColStart), n+1)
	}
	if a.ColStart[0] != 0 {
		return invalid("A.ColStart", 0, "is %d, want 0", a.ColStart[0])
	}
	for j := 0; j < n; j++ {
		if a.ColStart[j+1] < a.ColStart[j] {
			return invalid("A.ColStart", j+1, "decreases")
		}
	}
	nz := a.ColStart[n]
	if len(a.RowIndex) < nz || len(a.Value) < nz {
		return invalid("A", -1, "ColStart[%d] = %d but RowIndex has %d and Value %d elements", n, nz, len(a.RowIndex), len(a.Value))
	}
	seen := make([]int, m)
	for i := range seen {
		seen[i] = -1
	}
	for j := 0; j < n; j++ {
		for k := a.ColStart[j]; k < a.ColStart[j+1]; k++ {
			i := a.RowIndex[k]
			if i < 0 || i >= m {
				return invalid("A.RowIndex", k, "row %d out of range [0, %d)", i, m)
			}
			if v := a.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return invalid("A.Value", k, "not finite: %v (row %d, column %d)", v, i, j)
			}
			if seen[i] == j {
				return invalid("A.RowIndex", k, "row %d appears twice in column %d", i, j)
			}
			seen[i] = j
		}
	}
	return nil
}

func checkBounds(kind string, lo, up []float64) error {
	for i := range lo {
		l, u := lo[i], up[i]
		switch {
		case math.IsNaN(l):
			return invalid(kind+"Lower", i, "is NaN")
		case math.IsNaN(u):
			return invalid(kind+"Upper", i, "is NaN")
		case math.IsInf(l, 1):
			return invalid(kind+"Lower", i, "is +Inf")
		case math.IsInf(u, -1):
			return invalid(kind+"Upper", i, "is -Inf")
		case l > u:
			return invalid(kind+"Lower", i, "lower limit %v exceeds upper limit %v", l, u)
		}
	}
	return nil
}

// Status is the outcome of a solve.
type Status int

const (
	// NotSolved is the zero value: no solve has run.
	NotSolved Status = iota
	// Optimal: x is primal feasible, the duals are dual feasible and
	// complementary, within the tolerances.
	Optimal
	// Infeasible: no x satisfies the constraints.
	Infeasible
	// Unbounded: the constraints are feasible and the objective is
	// unbounded below (above when maximising).
	Unbounded
	// IterationLimit: Options.MaxIter ran out.
	IterationLimit
	// Numerical: the solver met numerical trouble it could not recover
	// from (such as a basis that stays singular).
	Numerical
	// Canceled: the context was cancelled or its deadline passed.
	Canceled
)

var statusNames = [...]string{"NotSolved", "Optimal", "Infeasible", "Unbounded", "IterationLimit", "Numerical", "Canceled"}

// String returns the name of the status, such as "Optimal".
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Sentinel errors for the non-optimal outcomes; Solve returns one of them
// (possibly wrapped) together with a Result whose Status says the same.
var (
	ErrInfeasible     = errors.New("simplex: problem is infeasible")
	ErrUnbounded      = errors.New("simplex: problem is unbounded")
	ErrIterationLimit = errors.New("simplex: iteration limit reached")
	ErrNumerical      = errors.New("simplex: numerical difficulties")
)

// Err returns the sentinel error of a status: nil for Optimal, ErrInfeasible,
// ErrUnbounded, ErrIterationLimit or ErrNumerical, and for Canceled and
// NotSolved a generic error (Solve wraps the context's error instead).
func (s Status) Err() error {
	switch s {
	case Optimal:
		return nil
	case Infeasible:
		return ErrInfeasible
	case Unbounded:
		return ErrUnbounded
	case IterationLimit:
		return ErrIterationLimit
	case Numerical:
		return ErrNumerical
	}
	return fmt.Errorf("simplex: not solved (%v)", s)
}

// VarStatus is the status of a variable or of a row in a Basis.
type VarStatus int8

const (
	// Basic: the variable (or the row's activity) is in the basis.
	Basic VarStatus = iota
	// AtLower: nonbasic at its lower limit.
	AtLower
	// AtUpper: nonbasic at its upper limit.
	AtUpper
	// AtZero: nonbasic free variable (or free row) at zero.
	AtZero
)

var varStatusNames = [...]string{"Basic", "AtLower", "AtUpper", "AtZero"}

// String returns the name of the status, such as "AtLower".
func (s VarStatus) String() string {
	if s >= 0 && int(s) < len(varStatusNames) {
		return varStatusNames[s]
	}
	return fmt.Sprintf("VarStatus(%d)", int(s))
}

// Basis describes a simplex basis: one status for each column and for
// each row (the row's status refers to its activity a_i^T x, whose
// limits are RowLower and RowUpper). A valid basis has exactly m Basic
// entries among its n+m; Solve repairs one that has not (and replaces
// columns that make the basis matrix singular by row activities).
type Basis struct {
	Cols []VarStatus
	Rows []VarStatus
}
