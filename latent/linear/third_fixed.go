package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// thirdTol is the tolerance of the third-order fixed point: it stops
// once every direction moves by at most max(DAGOptions.Tol, thirdTol)
// in 1 - |cos| (an angle of about 1.4e-6, far below the sampling error
// of the directions). Its steps cost k contractions of the packed k x k
// x k tensor, no pass over the samples, so the tolerance is tighter than
// the fourth-order one.
const thirdTol = 1e-12

// whitenedTensor returns the whitened third moment of e.third for e.w:
// from the moments' own pass when they are WhitenedThirdMoments, else
// from slices Psi.
func (e *eca) whitenedTensor(ctx context.Context) (*tensor3.Sym, []float64, error) {
	if wt, ok := e.third.(WhitenedThirdMoments); ok {
		return wt.Whitened(ctx, e.w)
	}
	return whitenedFromPsi(ctx, e.third, e.w)
}

// heldThird gives third moments whose whitened tensor was computed
// before (for the W of the learner that holds it): Psi delegates, and
// Whitened returns the tensor held, so that ECA falls back on it
// without a second pass.
type heldThird struct {
	ThirdMoments
	t    *tensor3.Sym
	diag []float64
}

// Whitened returns the tensor and diagonal held.
func (h heldThird) Whitened(context.Context, *mat.Dense) (*tensor3.Sym, []float64, error) {
	return h.t, h.diag, nil
}

// thirdOrder finds the k noise directions (columns of v, orthonormal)
// and their skewness (non-negative, each direction signed to make it so)
// from the whitened third moment, for LearnObservedBN. With
// DAGOptions.Method = ECATensor (and no observation noise) it first runs
// thirdFixedPoint from variableStart(e.w) and keeps its result when it
// converges and passes pairwiseOptimal3; otherwise it runs ECA
// (e.run). The fast route draws the one value of rng that ECA would
// have drawn, so that later starts see the same stream either way.
func (e *eca) thirdOrder(ctx context.Context, rng *rand.Rand) (*mat.Dense, []float64, error) {
	if e.opts.Method != ECATensor || e.noisy {
		return e.run(ctx, rng)
	}
	progress(e.opts.Progress, "whitened third moment", 0, 1)
	t, diag, err := e.whitenedTensor(ctx)
	if err != nil {
		return nil, nil, err
	}
	progress(e.opts.Progress, "whitened third moment", 1, 1)
	e.third = heldThird{ThirdMoments: e.third, t: t, diag: diag}
	v0, err := variableStart(e.w)
	if err != nil {
		return nil, nil, err
	}
	progress(e.opts.Progress, "third-order fixed point", 0, 1)
	v, m, it, conv, err := thirdFixedPoint(ctx, t, v0, e.opts.MaxIter, math.Max(e.opts.Tol, thirdTol))
	progress(e.opts.Progress, "third-order fixed point", 1, 1)
	if err != nil && ctx.Err() != nil {
		return nil, nil, err
	}
	if err == nil && conv && pairwiseOptimal3(m) {
		rng.Uint64()
		e.iters = it
		vals := signedSkewness(v, m)
		return v, vals, nil
	}
	// ECA, whose step count follows the fixed point's.
	ev, vals, err := e.run(ctx, rng)
	e.iters += it
	return ev, vals, err
}

// thirdFixedPoint runs the simultaneous fixed point of the whitened
// third moment t from the orthonormal v0 (k x k, columns): every column
// u_j <- T(I, u_j, u_j), then the symmetric orthogonalisation U <-
// symOrth(U) (see symOrth), until every direction moves by at most tol
// (1 - |cos|) or maxIter steps. In the basis of the noise directions
// v_i the step maps the coefficients c_i to s_i c_i^2 (normalised): the
// third-order power method, quadratically convergent on exact moments.
// It returns the directions, M = V^T [T(I, v_j, v_j)]_j at them (M_aj
// = T(v_a, v_j, v_j)), the number of steps and whether it converged.
func thirdFixedPoint(ctx context.Context, t *tensor3.Sym, v0 *mat.Dense, maxIter int, tol float64) (*mat.Dense, *mat.Dense, int, bool, error) {
	_, k := v0.Dims()
	v := v0.Clone()
	g := mat.Zeros(k, k)
	col := make([]float64, k)
	out := make([]float64, k)
	contract := func(v *mat.Dense) error {
		for j := 0; j < k; j++ {
			v.Col(col, j)
			t.ContractVec(out, col)
			g.SetCol(j, out)
		}
		if !g.IsFinite() {
			return fmt.Errorf("%w: the third-order fixed point diverged", ErrNotFinite)
		}
		return nil
	}
	conv := false
	steps := 0
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, it, false, err
		}
		if err := contract(v); err != nil {
			return nil, nil, it, false, err
		}
		next, err := symOrth(g)
		if err != nil {
			return nil, nil, it, false, err
		}
		moved := maxMove(next, v)
		v, steps = next, it
		if moved <= tol {
			conv = true
			break
		}
	}
	if err := contract(v); err != nil {
		return nil, nil, steps, false, err
	}
	var m mat.Dense
	m.MulAT(v, g)
	return v, &m, steps, conv, nil
}

// signedSkewness returns the skewness T(v_j, v_j, v_j) = M_jj of each
// direction, flipping the directions (columns of v) of negative ones so
// that all are non-negative, and sorts the columns by decreasing
// skewness (the form of ECA's result, tensor3.Decomposition).
func signedSkewness(v, m *mat.Dense) []float64 {
	k, _ := m.Dims()
	idx := make([]int, k)
	vals := make([]float64, k)
	for j := range idx {
		idx[j] = j
		vals[j] = m.At(j, j)
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(vals[idx[a]]) > math.Abs(vals[idx[b]]) })
	src := v.Clone()
	out := make([]float64, k)
	col := make([]float64, k)
	for to, from := range idx {
		src.Col(col, from)
		s := vals[from]
		if s < 0 {
			s = -s
			for i := range col {
				col[i] = -col[i]
			}
		}
		v.SetCol(to, col)
		out[to] = s
	}
	return out
}

// pairwiseOptimal3 is pairwiseOptimal for the third cumulant, from M_aj
// = T(v_a, v_j, v_j) (see thirdFixedPoint): for directions v_i and v_j
// rotated by theta, the skewness of c v_i + s v_j is
//
//	c^3 m30 + 3 c^2 s m21 + 3 c s^2 m12 + s^3 m03,
//
// m30 = M_ii, m21 = M_ji, m12 = M_ij, m03 = M_jj (the whitened third
// moment in the directions, which the last step's contractions give);
// the contrast skew(theta)^2 + skew(theta + pi/2)^2 is evaluated at
// pairAngles angles, and its maximum must lie within pairMaxAngle of 0
// (mod pi/2). For two separated noises of skewness s_i and s_j the
// contrast is (c^6 + s^6)(s_i^2 + s_j^2), largest at no rotation; a
// spurious fixed point mixes directions, which a rotation unmixes. A
// pair of nearly symmetric noises fails, and costs ECA.
func pairwiseOptimal3(m *mat.Dense) bool {
	k, _ := m.Dims()
	var cs, sn [pairAngles]float64
	for t := range cs {
		sn[t], cs[t] = math.Sincos(float64(t) * math.Pi / (2 * pairAngles))
	}
	skew := func(c, s, m30, m21, m12, m03 float64) float64 {
		return c*c*c*m30 + 3*c*c*s*m21 + 3*c*s*s*m12 + s*s*s*m03
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			m30, m03 := m.At(i, i), m.At(j, j)
			m21, m12 := m.At(j, i), m.At(i, j)
			best, at := math.Inf(-1), 0
			for t := range cs {
				k1 := skew(cs[t], sn[t], m30, m21, m12, m03)
				k2 := skew(-sn[t], cs[t], m30, m21, m12, m03)
				if f := k1*k1 + k2*k2; f > best {
					best, at = f, t
				}
			}
			if math.IsInf(best, -1) || float64(min(at, pairAngles-at))*math.Pi/(2*pairAngles) > pairMaxAngle {
				return false
			}
		}
	}
	return true
}
