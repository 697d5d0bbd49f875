package tensor3

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/mat"
)

var ctx = context.Background()

// symNoise returns a random symmetric tensor with Frobenius norm e.
func symNoise(r *rand.Rand, d int, e float64) *Sym {
	x := randSym(r, d)
	if n := x.NormFrob(); n > 0 {
		x.Scale(e/n, x)
	}
	return x
}

// checkRecovery compares a decomposition with the planted one (values
// lam, distinct and decreasing, and the columns of v) and returns the
// largest eigenvector and eigenvalue errors.
func checkRecovery(t *testing.T, what string, dec *Decomposition, lam []float64, v *mat.Dense) (vecErr, valErr float64) {
	t.Helper()
	d, k := v.Dims()
	if len(dec.Values) != k {
		t.Fatalf("%s: %d values, want %d", what, len(dec.Values), k)
	}
	if r, c := dec.Vectors.Dims(); r != d || c != k {
		t.Fatalf("%s: vectors are %dx%d, want %dx%d", what, r, c, d, k)
	}
	for i := 0; i < k; i++ {
		if i > 0 && dec.Values[i] > dec.Values[i-1] {
			t.Fatalf("%s: values not sorted: %v", what, dec.Values)
		}
		// The planted values are distinct and sorted, so component i
		// matches planted component i.
		valErr = max(valErr, math.Abs(dec.Values[i]-lam[i]))
		var e, n float64
		for a := 0; a < d; a++ {
			x := dec.Vectors.At(a, i)
			e += (x - v.At(a, i)) * (x - v.At(a, i))
			n += x * x
		}
		if math.Abs(math.Sqrt(n)-1) > 1e-12 {
			t.Fatalf("%s: vector %d has norm %v", what, i, math.Sqrt(n))
		}
		vecErr = max(vecErr, math.Sqrt(e))
	}
	return vecErr, valErr
}

// residual recomputes ||T - sum lambda v(x)v(x)v||_F from the dense
// expansion.
func residual(x *Sym, dec *Decomposition) float64 {
	d := x.Dim()
	a := x.Dense()
	for m, lam := range dec.Values {
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				for l := 0; l < d; l++ {
					a[at3(d, i, j, l)] -= lam * dec.Vectors.At(i, m) * dec.Vectors.At(j, m) * dec.Vectors.At(l, m)
				}
			}
		}
	}
	return fullNorm(a)
}

// TestPowerMethodPlanted plants an orthogonal decomposition with
// eigenvalues in [1, 2), adds symmetric noise of Frobenius norm e (which
// bounds its spectral norm), and checks the bounds of Anandkumar et al.
// (2014, Theorem 5.1): eigenvector errors at most 8e/lambda_min and
// eigenvalue errors at most 5e, with 1e-10 added for rounding; and a
// residual close to the noise.
func TestPowerMethodPlanted(t *testing.T) {
	ks := []int{5, 10, 20, 35, 50}
	if emulated() {
		ks = []int{5, 12}
	}
	for _, simultaneous := range []bool{false, true} {
		for _, k := range ks {
			for _, extra := range []int{0, 4} {
				d := k + extra
				for _, e := range []float64{0, 1e-6, 1e-3} {
					name := fmt.Sprintf("simultaneous=%v/k=%d/d=%d/noise=%g", simultaneous, k, d, e)
					t.Run(name, func(t *testing.T) {
						r := rand.New(rand.NewPCG(uint64(k), uint64(d)))
						v := orthonormalCols(r, d, k)
						lam := make([]float64, k)
						for i := range lam {
							lam[i] = 2 - float64(i)/float64(k)
						}
						x := planted(lam, v)
						if e > 0 {
							x.Add(x, symNoise(r, d, e))
						}
						dec, err := PowerMethod(ctx, x, k, &PowerOptions{Simultaneous: simultaneous, Seed: 7})
						if err != nil {
							t.Fatal(err)
						}
						vecErr, valErr := checkRecovery(t, name, dec, lam, v)
						t.Logf("eigenvector error %.3g, eigenvalue error %.3g, residual %.3g", vecErr, valErr, dec.Residual)
						if vecErr > 8*e/lam[k-1]+1e-10 || valErr > 5*e+1e-10 {
							t.Fatalf("eigenvector error %.3g (bound %.3g), eigenvalue error %.3g (bound %.3g)", vecErr, 8*e/lam[k-1]+1e-10, valErr, 5*e+1e-10)
						}
						if res := residual(x, dec); math.Abs(dec.Residual-res) > 1e-12*(1+res) || res > 4*e+1e-10 {
							t.Fatalf("residual %v, recomputed %v, noise %v", dec.Residual, res, e)
						}
					})
				}
			}
		}
	}
}

// TestPowerMethodDeterministic: the same seed gives the same bits, and
// the eigenvalues come out non-negative for components planted with
// negative weights.
func TestPowerMethodDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	d, k := 12, 6
	v := orthonormalCols(r, d, k)
	lam := []float64{-3, 2.5, -2, 1.5, -1, 0.5}
	x := planted(lam, v)
	x.Add(x, symNoise(r, d, 1e-4))
	for _, opts := range []*PowerOptions{nil, {Simultaneous: true}, {Starts: 3, Iters: 7, Polish: -1, Tol: -1}} {
		a, err := PowerMethod(ctx, x, k, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := PowerMethod(ctx, x, k, opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Values {
			if math.Float64bits(a.Values[i]) != math.Float64bits(b.Values[i]) {
				t.Fatalf("%+v: values differ between runs", opts)
			}
			if a.Values[i] < 0 {
				t.Fatalf("%+v: negative eigenvalue %v", opts, a.Values[i])
			}
			for j := 0; j < d; j++ {
				if math.Float64bits(a.Vectors.At(j, i)) != math.Float64bits(b.Vectors.At(j, i)) {
					t.Fatalf("%+v: vectors differ between runs", opts)
				}
			}
		}
		if math.Float64bits(a.Residual) != math.Float64bits(b.Residual) {
			t.Fatalf("%+v: residuals differ", opts)
		}
		if opts == nil {
			// |lambda| sorted: 3, 2.5, 2, ...; signs folded into the vectors.
			for i, want := range []float64{3, 2.5, 2, 1.5, 1, 0.5} {
				if math.Abs(a.Values[i]-want) > 1e-3 {
					t.Fatalf("values %v", a.Values)
				}
				sign := math.Copysign(1, lam[i])
				var e float64
				for j := 0; j < d; j++ {
					e = max(e, math.Abs(a.Vectors.At(j, i)-sign*v.At(j, i)))
				}
				if e > 1e-3 {
					t.Fatalf("component %d: vector off by %v", i, e)
				}
			}
		}
	}
}

func TestPowerMethodErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 1))
	x := randSym(r, 5)
	x.Set(1, 4, 2, math.NaN())
	if _, err := PowerMethod(ctx, x, 2, nil); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("NaN: err = %v", err)
	}
	x.Set(1, 4, 2, math.Inf(-1))
	if _, err := PowerMethod(ctx, x, 2, &PowerOptions{Simultaneous: true}); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("Inf: err = %v", err)
	}
	// Values so large that T(I, v, v) overflows.
	y := New(20, nil)
	for i := range y.RawData() {
		y.RawData()[i] = 1e308
	}
	if _, err := PowerMethod(ctx, y, 2, nil); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("overflow: err = %v", err)
	}
	// No convergence within one step.
	z := randSym(r, 6)
	dec, err := PowerMethod(ctx, z, 3, &PowerOptions{Simultaneous: true, SimIters: 1})
	if !errors.Is(err, ErrNoConvergence) || dec == nil || len(dec.Values) != 3 {
		t.Fatalf("one step: err = %v, dec = %v", err, dec)
	}
	// The zero tensor: eigenvalues 0, unit vectors, residual 0.
	for _, sim := range []bool{false, true} {
		dec, err := PowerMethod(ctx, New(4, nil), 3, &PowerOptions{Simultaneous: sim})
		if err != nil || dec.Residual != 0 {
			t.Fatalf("zero tensor: %v %v", dec, err)
		}
		for i, v := range dec.Values {
			var n float64
			for j := 0; j < 4; j++ {
				n += dec.Vectors.At(j, i) * dec.Vectors.At(j, i)
			}
			if v != 0 || math.Abs(n-1) > 1e-12 {
				t.Fatalf("zero tensor: value %v, vector norm^2 %v", v, n)
			}
		}
	}
	// No components.
	if dec, err := PowerMethod(ctx, x, 0, nil); err == nil || dec != nil {
		t.Fatalf("k = 0 on a tensor with NaN: %v %v", dec, err)
	}
	if dec, err := PowerMethod(ctx, randSym(r, 3), 0, nil); err != nil || len(dec.Values) != 0 {
		t.Fatalf("k = 0: %v %v", dec, err)
	}
	mustPanic(t, "k > d", func() { PowerMethod(ctx, New(3, nil), 4, nil) })
	mustPanic(t, "nil ctx", func() { PowerMethod(nil, New(3, nil), 1, nil) })
}

// TestPowerMethodContext: a cancelled context stops both methods with
// ctx.Err() and no decomposition, and the Seed names the starts: another
// seed gives other bits.
func TestPowerMethodContext(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	x := randSym(r, 6)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, sim := range []bool{false, true} {
		dec, err := PowerMethod(cancelled, x, 3, &PowerOptions{Simultaneous: sim})
		if !errors.Is(err, context.Canceled) || dec != nil {
			t.Errorf("simultaneous=%v: cancelled context gave %v, %v", sim, dec, err)
		}
	}
	a, err := PowerMethod(ctx, x, 3, &PowerOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := PowerMethod(ctx, x, 3, &PowerOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if mat.Equal(a.Vectors, b.Vectors) {
		t.Error("Seed 1 and Seed 2 give the same bits: the seed is not used")
	}
}
