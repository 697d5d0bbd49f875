package svd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/moments-go/moments/lq"
	"github.com/moments-go/moments/mat"
)

// MulFunc returns the product of a linear map with the matrix x: a new
// matrix (the caller keeps it and may write to it), of the shape the
// map gives. It must not modify x. A product that cannot be made (a
// failed pass over data, ctx cancelled) returns an error, which the
// methods of this package return as it is.
type MulFunc func(ctx context.Context, x *mat.Dense) (*mat.Dense, error)

// Operator is a linear map A from R^Cols to R^Rows given by its action on
// thin matrices, so that the randomized methods and TopEigSym can work
// with matrices that are never stored (a moment matrix computed from
// sparse counts, say). Build one from a stored matrix with
// DenseOperator, from a symmetric map with SymOperator.
type Operator struct {
	// Rows and Cols are the dimensions of A.
	Rows, Cols int
	// Mul returns A*x for a Cols x c matrix x (Rows x c).
	Mul MulFunc
	// MulT returns Aᵀ*x for a Rows x c matrix x (Cols x c). It may be
	// nil for a symmetric A (Rows == Cols), whose MulT is Mul; a
	// non-symmetric operator without MulT supports only RangeFinder
	// without power iterations.
	MulT MulFunc
}

// DenseOperator returns the Operator of the stored matrix a. Its
// products check ctx only before they start.
func DenseOperator(a *mat.Dense) Operator {
	r, c := a.Dims()
	return Operator{
		Rows: r, Cols: c,
		Mul: func(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var d mat.Dense
			d.Mul(a, x)
			return &d, nil
		},
		MulT: func(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var d mat.Dense
			d.MulAT(a, x)
			return &d, nil
		},
	}
}

// SymOperator returns the Operator of a symmetric n x n matrix A given
// by mul, which returns A*x.
func SymOperator(n int, mul MulFunc) Operator {
	return Operator{Rows: n, Cols: n, Mul: mul}
}

// product returns mul(ctx, x) for the operator method that needs it,
// after checking ctx, with a panic naming that method if the product has
// the wrong shape.
func product(ctx context.Context, method string, mul MulFunc, rows int, x *mat.Dense) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	y, err := mul(ctx, x)
	if err != nil {
		return nil, err
	}
	xr, xc := x.Dims()
	if r, c := y.Dims(); r != rows || c != xc {
		panic(fmt.Sprintf("svd: %s: the operator's product with a %dx%d matrix is %dx%d, want %dx%d", method, xr, xc, r, c, rows, xc))
	}
	return y, nil
}

// mul returns A*x (Rows x c).
func (op Operator) mul(ctx context.Context, method string, x *mat.Dense) (*mat.Dense, error) {
	return product(ctx, method, op.Mul, op.Rows, x)
}

// mulT returns Aᵀ*x (Cols x c), by Mul for a symmetric operator without
// MulT; it panics if op has neither.
func (op Operator) mulT(ctx context.Context, method string, x *mat.Dense) (*mat.Dense, error) {
	f := op.MulT
	if f == nil {
		if op.Rows != op.Cols {
			panic(fmt.Sprintf("svd: %s: the %dx%d Operator has no MulT, which this method needs", method, op.Rows, op.Cols))
		}
		f = op.Mul
	}
	return product(ctx, method, f, op.Cols, x)
}

// checkContext panics with a message naming method if ctx is nil.
func checkContext(method string, ctx context.Context) {
	if ctx == nil {
		panic("svd: " + method + ": nil context")
	}
}

// RandomizedOptions configures the randomized methods. The zero value is
// the default; nil options mean the zero value.
type RandomizedOptions struct {
	// Oversample is the number of random directions beyond the k
	// requested: 0 means 10; a negative value means none. More makes the
	// top k more accurate.
	Oversample int
	// PowerIters is the number of subspace (power) iterations: 0 means 2;
	// a negative value means none. Each costs a product with A and one
	// with Aᵀ, and improves the captured subspace when the singular
	// values decay slowly.
	PowerIters int
	// Seed seeds the Gaussian starting matrix, drawn from
	// rand.New(rand.NewPCG(Seed, 0x5eed4a6e)): the same Seed (0
	// for nil options) gives the same bits.
	Seed uint64
}

// rangeFinderStream is the second PCG word of the generator of
// RangeFinder (and so of Randomized and RandomizedEigSym), fixed so that
// a Seed alone names the stream.
const rangeFinderStream = 0x5eed_4a6e

func (o *RandomizedOptions) resolve() (over, power int) {
	var oo RandomizedOptions
	if o != nil {
		oo = *o
	}
	over, power = oo.Oversample, oo.PowerIters
	if over == 0 {
		over = 10
	}
	if power == 0 {
		power = 2
	}
	return max(over, 0), max(power, 0)
}

// RangeFinder returns an m x l matrix Q with orthonormal columns whose
// range approximates the range of the m x n operator A, with
// l = min(k + oversampling, m, n): randomized subspace iteration (Halko,
// Martinsson and Tropp 2011, Algorithm 4.4) started from an n x l
// Gaussian matrix drawn from a generator seeded by opts.Seed, orthonormalizing (Householder QR)
// after every product. It panics if ctx is nil or k is negative or
// larger than min(m, n), returns ErrNotFinite if a product gives NaN or
// an infinity, and returns the operator's errors and ctx.Err() (checked
// before each product) as they are.
func RangeFinder(ctx context.Context, op Operator, k int, opts *RandomizedOptions) (*mat.Dense, error) {
	checkContext("RangeFinder", ctx)
	m, n := op.Rows, op.Cols
	if k < 0 || k > min(m, n) {
		panic(fmt.Sprintf("svd: RangeFinder: k = %d for a %dx%d operator", k, m, n))
	}
	over, power := opts.resolve()
	l := min(k+over, m, n)
	omega := gaussian(n, l, seedOf(opts), rangeFinderStream)
	y, err := op.mul(ctx, "RangeFinder", omega)
	if err != nil {
		return nil, err
	}
	q, err := orthCols(y)
	if err != nil {
		return nil, err
	}
	for it := 0; it < power; it++ {
		z, err := op.mulT(ctx, "RangeFinder", q)
		if err != nil {
			return nil, err
		}
		qz, err := orthCols(z)
		if err != nil {
			return nil, err
		}
		if y, err = op.mul(ctx, "RangeFinder", qz); err != nil {
			return nil, err
		}
		if q, err = orthCols(y); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// seedOf returns opts.Seed, 0 for nil options.
func seedOf(opts *RandomizedOptions) uint64 {
	if opts == nil {
		return 0
	}
	return opts.Seed
}

// gaussian returns an r x c matrix of standard normal entries drawn, row
// by row, from rand.New(rand.NewPCG(seed, stream)).
func gaussian(r, c int, seed, stream uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, stream))
	g := mat.Zeros(r, c)
	for i := 0; i < r; i++ {
		row := g.RawRow(i)
		for j := range row {
			row[j] = rnd.NormFloat64()
		}
	}
	return g
}

// orthCols returns the Q factor of the thin QR factorization of y.
func orthCols(y *mat.Dense) (*mat.Dense, error) {
	f, err := lq.FactorizeQR(y)
	if err != nil {
		return nil, ErrNotFinite
	}
	var q mat.Dense
	f.Q(&q)
	return &q, nil
}

// Randomized returns an approximation of the k largest singular triples
// of the m x n operator A: with Q from RangeFinder (m x l), the SVD of the
// small l x n matrix B = Qᵀ*A (computed as (Aᵀ*Q)ᵀ, by Factorize) gives
// A ≈ Q*B = (Q*U_B)*Σ*V_Bᵀ; the result keeps the top k (U m x k, S, V
// n x k). The error is close to the (k+1)-th singular value when the
// spectrum decays; power iterations help when it does not. It needs
// op.MulT (or a symmetric op), panics if ctx is nil or k is out of
// range, and returns the errors of RangeFinder and Factorize.
func Randomized(ctx context.Context, op Operator, k int, opts *RandomizedOptions) (*SVD, error) {
	checkContext("Randomized", ctx)
	q, err := RangeFinder(ctx, op, k, opts)
	if err != nil {
		return nil, err
	}
	bt, err := op.mulT(ctx, "Randomized", q) // Bᵀ = Aᵀ Q, n x l
	if err != nil {
		return nil, err
	}
	f, err := Factorize(bt, nil) // Bᵀ = U_b Σ V_bᵀ, so B = V_b Σ U_bᵀ
	if err != nil {
		return nil, err
	}
	var u mat.Dense
	u.Mul(q, f.V)
	return (&SVD{S: f.S, U: &u, V: f.U, Sweeps: f.Sweeps}).Truncate(k), nil
}

// RandomizedEigSym returns an approximation of the k eigenpairs of
// largest magnitude of the symmetric n x n operator A (for a positive
// semidefinite A, the k largest), in decreasing order of value: with Q
// from RangeFinder (n x l), the eigenpairs of the l x l matrix Qᵀ*A*Q
// (computed by EigSym) give A ≈ (Q*Y)*Λ*(Q*Y)ᵀ. op.MulT is not used. It
// panics if ctx is nil, op is not square or k is out of range, and
// returns the errors of RangeFinder and EigSym.
func RandomizedEigSym(ctx context.Context, op Operator, k int, opts *RandomizedOptions) (*Eigen, error) {
	checkContext("RandomizedEigSym", ctx)
	if op.Rows != op.Cols {
		panic(fmt.Sprintf("svd: RandomizedEigSym: the operator is %dx%d, not square", op.Rows, op.Cols))
	}
	sym := op
	sym.MulT = op.Mul
	q, err := RangeFinder(ctx, sym, k, opts)
	if err != nil {
		return nil, err
	}
	_, l := q.Dims()
	aq, err := op.mul(ctx, "RandomizedEigSym", q)
	if err != nil {
		return nil, err
	}
	var c mat.Dense
	c.MulAT(q, aq)
	if !c.IsFinite() {
		return nil, ErrNotFinite
	}
	e, err := EigSym(&c, nil)
	if err != nil {
		return nil, err
	}
	// Keep the k of largest magnitude: the values are sorted, so they
	// are the first i and the last k-i for some i.
	lo, hi := 0, l // keep [0, lo) and [hi, l)
	for lo+(l-hi) < k {
		if math.Abs(e.Values[lo]) >= math.Abs(e.Values[hi-1]) {
			lo++
		} else {
			hi--
		}
	}
	keep := make([]int, 0, k)
	for i := 0; i < lo; i++ {
		keep = append(keep, i)
	}
	for i := hi; i < l; i++ {
		keep = append(keep, i)
	}
	y := mat.Zeros(l, k)
	vals := make([]float64, k)
	for t, i := range keep {
		vals[t] = e.Values[i]
		for r := 0; r < l; r++ {
			y.Set(r, t, e.Vectors.At(r, i))
		}
	}
	var v mat.Dense
	v.Mul(q, y)
	return &Eigen{Values: vals, Vectors: &v, Sweeps: e.Sweeps, PSD: e.PSD}, nil
}
