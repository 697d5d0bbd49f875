package linear

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/svd"
)

// progress calls p, if not nil.
func progress(p moments.Progress, stage string, done, total int) {
	if p != nil {
		p(stage, done, total)
	}
}

// workers returns w, or GOMAXPROCS when w <= 0.
func workers(w int) int {
	if w > 0 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// checkCtx panics if ctx is nil: every function of the package that
// takes a context needs one (context.Background() when there is
// nothing to cancel).
func checkCtx(fn string, ctx context.Context) {
	if ctx == nil {
		panic("linear: " + fn + ": nil context.Context")
	}
}

// checkFinite returns an error wrapping ErrNotFinite naming the first
// non-finite element of m.
func checkFinite(what string, m *mat.Dense) error {
	if i, j, found := m.NonFinite(); found {
		return fmt.Errorf("%w: %s[%d][%d] = %v", ErrNotFinite, what, i, j, m.At(i, j))
	}
	return nil
}

// checkPermutation returns an error unless order is a permutation of
// 0..k-1.
func checkPermutation(order []int, k int) error {
	if len(order) != k {
		return fmt.Errorf("order has %d entries for %d variables", len(order), k)
	}
	seen := make([]bool, k)
	for j, v := range order {
		if v < 0 || v >= k {
			return fmt.Errorf("order[%d] = %d is outside 0..%d", j, v, k-1)
		}
		if seen[v] {
			return fmt.Errorf("order[%d] = %d appears twice", j, v)
		}
		seen[v] = true
	}
	return nil
}

// checkSquare panics unless m is square; it returns the order.
func checkSquare(fn string, m *mat.Dense) int {
	r, c := m.Dims()
	if r != c {
		panic(fmt.Sprintf("linear: %s: matrix is %dx%d, want square", fn, r, c))
	}
	return r
}

// gather returns the submatrix m[rows, cols] as a new matrix.
func gather(m *mat.Dense, rows, cols []int) *mat.Dense {
	out := mat.Zeros(len(rows), len(cols))
	for a, i := range rows {
		src, dst := m.RawRow(i), out.RawRow(a)
		for b, j := range cols {
			dst[b] = src[j]
		}
	}
	return out
}

// isSymmetric reports whether m equals its transpose exactly.
func isSymmetric(m *mat.Dense) bool {
	n, c := m.Dims()
	if n != c {
		return false
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if m.At(i, j) != m.At(j, i) {
				return false
			}
		}
	}
	return true
}

// permuteCols returns m with its columns in the order perm (column j of
// the result is column perm[j] of m).
func permuteCols(m *mat.Dense, perm []int) *mat.Dense {
	r, _ := m.Dims()
	out := mat.Zeros(r, len(perm))
	for i := 0; i < r; i++ {
		src, dst := m.RawRow(i), out.RawRow(i)
		for j, p := range perm {
			dst[j] = src[p]
		}
	}
	return out
}

// permuteSym returns m[perm, perm].
func permuteSym(m *mat.Dense, perm []int) *mat.Dense { return gather(m, perm, perm) }

// topEigSym returns the k largest eigenvalues of the symmetric matrix m
// (decreasing) and their eigenvectors (n x k), from the singular value
// decomposition of m: the singular vectors of a symmetric matrix are
// eigenvectors, with eigenvalue sign(u^T m u) s. (svd.EigSym would do,
// but the SVD copes with the exactly low-rank matrices met here.)
func topEigSym(m *mat.Dense, k int) ([]float64, *mat.Dense, error) {
	n, _ := m.Dims()
	f, err := svd.Factorize(m, nil)
	if err != nil {
		return nil, nil, err
	}
	p := len(f.S)
	vals := make([]float64, p)
	u := make([]float64, n)
	mu := make([]float64, n)
	for j := 0; j < p; j++ {
		f.U.Col(u, j)
		m.MulVec(mu, u)
		vals[j] = f.S[j]
		if kernels.Dot(u, mu) < 0 {
			vals[j] = -f.S[j]
		}
	}
	idx := seq(p)
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(vals[b], vals[a]) })
	out := make([]float64, k)
	vec := mat.Zeros(n, k)
	for j := 0; j < k; j++ {
		out[j] = vals[idx[j]]
		f.U.Col(u, idx[j])
		vec.SetCol(j, u)
	}
	return out, vec, nil
}
