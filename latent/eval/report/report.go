// Package report is the evaluation harness of the linear learners: it
// puts a learned model (package linear) beside the true one (package
// synth) and measures the difference.
//
// The learners identify hidden variables only up to order, sign and
// scale, so a comparison first aligns: each learned column of A is
// matched to a true column by the assignment that maximises the sum of
// |cosine| similarities, signed to agree with it (eval.AlignColumns), and the truth
// is put in the canonical form the learners return, hidden variables of
// unit variance: A diag(sd(h)) and diag(sd(h))^{-1} Lambda diag(sd(h))
// (CanonicalDAG); for hierarchies every level is scaled by the standard
// deviations of the levels on both of its sides, and the rows of an
// upper level follow the matching of the level below (AlignHierarchy).
//
// On aligned matrices Compare reports, for a truth A and an estimate Â:
//
//	dist(A, Â) = (1/||A||_F^2) sum_i min_j ||A e_i - nu_ij Â e_j||^2,
//
// nu_ij the best scale (eval.Dist), which forgives every column its
// scale; the relative Frobenius error ||Â - A||_F / ||A||_F, which
// forgives nothing; and the precision and recall of the support of Â,
// raw (every non-zero) and thresholded (entries above tau times the
// largest of their column). Pruned gives the support above an absolute
// threshold, for Lambda. ScatterSVG draws true against learned entries
// as a hand-written SVG scatter plot, the kind of figure the
// linear-BN papers show. The moments command's example and the
// module's benchmarks use the package.
//
// The package sits under eval, not under linear, so that no learner
// depends on the generators of synth.
package report

import (
	"fmt"
	"math"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// Metrics are the measures of one factor matrix against the truth (see
// the package documentation).
type Metrics struct {
	// Dist is dist(truth, estimate).
	Dist float64
	// RelErr is the relative Frobenius error ||estimate - truth||_F /
	// ||truth||_F (eval.RelError; the absolute error for an all-zero
	// truth). Dist rescales every column of the estimate and so can read
	// 0 for an estimate whose columns are all wrong in scale: read the
	// two together.
	RelErr float64
	// Prec and Rec are the precision and recall of the raw support
	// (every non-zero entry of the estimate).
	Prec, Rec float64
	// PrecT and RecT are those of the thresholded support: entries above
	// Tau times the largest magnitude of their column.
	PrecT, RecT float64
	Tau         float64
}

// Compare measures est against truth, whose columns are in est's labels
// already (see AlignDAG and AlignHierarchy), with the threshold tau.
func Compare(truth, est *mat.Dense, tau float64) Metrics {
	_, k := truth.Dims()
	id := make([]int, k)
	for i := range id {
		id[i] = i
	}
	m := Metrics{Dist: eval.Dist(truth, est), RelErr: eval.RelError(truth, est), Tau: tau}
	m.Prec, m.Rec = eval.Support(truth, est, id, 0)
	m.PrecT, m.RecT = eval.Support(truth, est, id, tau)
	return m
}

// Add accumulates b into m (for averages).
func (m *Metrics) Add(b Metrics) {
	m.Dist += b.Dist
	m.RelErr += b.RelErr
	m.Prec += b.Prec
	m.Rec += b.Rec
	m.PrecT += b.PrecT
	m.RecT += b.RecT
	m.Tau = b.Tau
}

// Scale multiplies every measure by s.
func (m *Metrics) Scale(s float64) {
	m.Dist *= s
	m.RelErr *= s
	m.Prec *= s
	m.Rec *= s
	m.PrecT *= s
	m.RecT *= s
}

// CanonicalDAG returns A and Lambda of m in the canonical form that
// LearnDAG identifies: hidden variables scaled to unit variance, so A
// diag(sd(h)) and diag(sd(h))^{-1} Lambda diag(sd(h)).
func CanonicalDAG(m *synth.DAG) (a, lambda *mat.Dense) {
	g := m.G()
	_, k := m.Dims()
	sd := make([]float64, k)
	for i := 0; i < k; i++ {
		var v float64
		for j := 0; j < k; j++ {
			v += g.At(i, j) * g.At(i, j) * m.Eta[j].Var
		}
		sd[i] = math.Sqrt(v)
	}
	a = m.A.Clone()
	n, _ := a.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			a.Set(i, j, a.At(i, j)*sd[j])
		}
	}
	lambda = m.Lambda.Clone()
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			lambda.Set(i, j, lambda.At(i, j)*sd[j]/sd[i])
		}
	}
	return a, lambda
}

// AlignDAG returns the learned A and Lambda of d in the labels of the
// truth (the columns of A matched to those of trueA and signed, Lambda
// permuted and signed alike).
func AlignDAG(trueA *mat.Dense, d *linear.DAG, lambda *mat.Dense) (a, l *mat.Dense) {
	a, perm, signs := eval.AlignColumns(trueA, d.A)
	k := len(perm)
	l = mat.Zeros(k, k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			l.Set(i, j, signs[i]*signs[j]*lambda.At(perm[i], perm[j]))
		}
	}
	return a, l
}

// AlignHierarchy returns, for every level l of h, the true A_l in
// canonical form (unit-variance variables at both of its levels) and the
// learned one aligned to it: columns matched and signed, and rows
// following the matching of the level below.
func AlignHierarchy(h *synth.Hierarchy, res *linear.HierarchyResult) (truth, est []*mat.Dense) {
	levels := len(h.A)
	truth = make([]*mat.Dense, levels)
	est = make([]*mat.Dense, levels)
	sd := func(l int) []float64 {
		s := h.LevelSigma(l)
		n, _ := s.Dims()
		d := make([]float64, n)
		for i := range d {
			d[i] = math.Sqrt(s.At(i, i))
		}
		return d
	}
	var perm []int
	var signs []float64
	for l := levels - 1; l >= 0; l-- {
		t := h.A[l].Clone()
		above := sd(l)
		r, c := t.Dims()
		below := make([]float64, r) // the observed level keeps its units
		for i := range below {
			below[i] = 1
		}
		if l < levels-1 {
			below = sd(l + 1)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				t.Set(i, j, t.At(i, j)*above[j]/below[i])
			}
		}
		e := res.A[l]
		if l < levels-1 {
			rows := mat.Zeros(r, c)
			for i, p := range perm {
				for j := 0; j < c; j++ {
					rows.Set(i, j, signs[i]*e.At(p, j))
				}
			}
			e = rows
		}
		truth[l] = t
		est[l], perm, signs = eval.AlignColumns(t, e)
	}
	return truth, est
}

// String formats m as "dist  prec/rec  precT/recT".
func (m Metrics) String() string {
	return fmt.Sprintf("%.4f  %.3f/%.3f  %.3f/%.3f", m.Dist, m.Prec, m.Rec, m.PrecT, m.RecT)
}

// Pruned returns a copy of m with the entries of magnitude at most t set
// to zero: the support "above t in canonical units" used for Lambda,
// whose last columns hold at most a few entries (so a threshold relative
// to a column's largest entry would keep noise there).
func Pruned(m *mat.Dense, t float64) *mat.Dense {
	out := m.Clone()
	r, c := out.Dims()
	for i := 0; i < r; i++ {
		row := out.RawRow(i)
		for j := 0; j < c; j++ {
			if math.Abs(row[j]) <= t {
				row[j] = 0
			}
		}
	}
	return out
}
