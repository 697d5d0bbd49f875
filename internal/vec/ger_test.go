package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// TestGerAt checks that GerAt gives the bits of AxpyAt row by row, at
// every level, for row counts that cover the four-row blocks and the
// single rows, row lengths that cover every tail, and a row stride with
// a gap that must stay untouched.
func TestGerAt(t *testing.T) {
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(7, 11))
		for _, m := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 13} {
			for n := 0; n <= 37; n++ {
				lda := n + 3
				x := simdtest.RandSlice(r, m)
				y := simdtest.RandSlice(r, n)
				alpha := r.NormFloat64()
				fill := simdtest.RandVec(r)
				g := simdtest.NewGuarded(m*lda, n%5, fill)
				a := g.S()
				want := make([]float64, len(a))
				copy(want, a)
				for i := 0; i < m; i++ {
					AxpyAt(l, alpha*x[i], y, want[i*lda:i*lda+n])
				}
				GerAt(l, m, n, alpha, a, lda, x, y)
				for k := range a {
					if math.Float64bits(a[k]) != math.Float64bits(want[k]) {
						t.Fatalf("m=%d n=%d: a[%d] = %v, want %v (AxpyAt by rows)", m, n, k, a[k], want[k])
					}
				}
				g.Check(t, "GerAt")
			}
		}
	})
}

// TestGemvNTAt checks GemvNTAt at every level against its loop in
// plain Go (sums in order, separate roundings), for row counts that cover
// the four-row groups and single rows and row lengths that cover every
// tail: the pairs and y must agree within 1e-13 relative to the sums of
// magnitudes (entries of order 1, at most 70 terms), and nothing outside
// y and xc, nor a, may change.
func TestGemvNTAt(t *testing.T) {
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(5, 9))
		for _, m := range []int{0, 1, 3, 4, 5, 8, 9, 11} {
			for _, n := range []int{0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 70} {
				lda := n + 2
				a := simdtest.RandSlice(r, m*lda)
				a0 := append([]float64(nil), a...)
				x := simdtest.RandSlice(r, n)
				alpha := r.NormFloat64()
				gy := simdtest.NewGuarded(n, m%3, simdtest.RandVec(r))
				gxc := simdtest.NewGuarded(2*m, n%3, simdtest.RandVec(r))
				y, xc := gy.S(), gxc.S()
				wantY := append([]float64(nil), y...)
				wantXC := append([]float64(nil), xc...)
				absY := make([]float64, n)
				for j := range absY {
					absY[j] = math.Abs(y[j])
				}
				absXC := make([]float64, 2*m)
				for i := 0; i < m; i++ {
					row := a[i*lda : i*lda+n]
					var d, ad float64
					for j, v := range row {
						d += v * x[j]
						ad += math.Abs(v * x[j])
					}
					tt := alpha * (d - wantXC[2*i])
					absXC[2*i] = math.Abs(alpha) * (ad + math.Abs(wantXC[2*i]))
					absXC[2*i+1] = math.Abs(wantXC[2*i+1]) + absXC[2*i]
					wantXC[2*i] = tt
					wantXC[2*i+1] -= tt
					for j, v := range row {
						wantY[j] += wantXC[2*i+1] * v
						absY[j] += absXC[2*i+1] * math.Abs(v)
					}
				}
				GemvNTAt(l, m, n, alpha, a, lda, x, y, xc)
				for i := range xc {
					if !(math.Abs(xc[i]-wantXC[i]) <= 1e-13*(absXC[i]+1)) {
						t.Fatalf("m=%d n=%d: xc[%d] = %v, want %v", m, n, i, xc[i], wantXC[i])
					}
				}
				for j := range y {
					if !(math.Abs(y[j]-wantY[j]) <= 1e-13*(absY[j]+1)) {
						t.Fatalf("m=%d n=%d: y[%d] = %v, want %v", m, n, j, y[j], wantY[j])
					}
				}
				for i := range a {
					if a[i] != a0[i] {
						t.Fatalf("m=%d n=%d: a[%d] changed", m, n, i)
					}
				}
				gy.Check(t, "GemvNTAt y")
				gxc.Check(t, "GemvNTAt xc")
			}
		}
	})
}

// TestAxpyRowsAt checks that AxpyRowsAt gives the bits of AxpyAt row by
// row, at every level, for row lengths that cover the blocks of four
// vectors and every tail after them, row lists with repeats, and a
// y inside guards that must stay untouched.
func TestAxpyRowsAt(t *testing.T) {
	simdtest.EachLevel(t, func(t *testing.T, l simd.Level) {
		r := rand.New(rand.NewPCG(5, 13))
		for _, rows := range []int{0, 1, 2, 3, 7, 16} {
			for n := 0; n <= 70; n++ {
				ldx := n + 5
				nx := 9
				x := simdtest.RandSlice(r, nx*ldx)
				idx := make([]int32, rows)
				coef := simdtest.RandSlice(r, rows)
				for e := range idx {
					idx[e] = int32(r.IntN(nx))
				}
				fill := simdtest.RandVec(r)
				g := simdtest.NewGuarded(n, n%5, fill)
				y := g.S()
				want := make([]float64, n)
				copy(want, y)
				for e, i := range idx {
					AxpyAt(l, coef[e], x[int(i)*ldx:int(i)*ldx+n], want)
				}
				AxpyRowsAt(l, y, x, ldx, idx, coef)
				for j := range y {
					if math.Float64bits(y[j]) != math.Float64bits(want[j]) {
						t.Fatalf("rows=%d n=%d: y[%d] = %v, want %v (AxpyAt by rows)", rows, n, j, y[j], want[j])
					}
				}
				g.Check(t, "AxpyRowsAt")
			}
		}
	})
}

// TestAxpyRowsAtChecks checks that AxpyRowsAt refuses rows outside x and
// missing coefficients.
func TestAxpyRowsAtChecks(t *testing.T) {
	x := make([]float64, 12)
	y := make([]float64, 3)
	for _, c := range []struct {
		name string
		idx  []int32
		coef []float64
	}{
		{"row past the end", []int32{0, 4}, []float64{1, 1}},
		{"negative row", []int32{-1}, []float64{1}},
		{"missing coefficient", []int32{0, 1}, []float64{1}},
	} {
		c := c
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			AxpyRowsAt(simd.Current(), y, x, 3, c.idx, c.coef)
		}()
	}
	// A stride whose product with the row index wraps around.
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("stride 2^62: no panic")
			}
		}()
		AxpyRowsAt(simd.Current(), y, x, 1<<62, []int32{4}, []float64{1})
	}()
	// The last row may end at the end of x, and an empty y reads nothing.
	AxpyRowsAt(simd.Current(), y, x, 3, []int32{3}, []float64{1})
	for _, l := range []simd.Level{simd.Generic, simd.Current()} {
		AxpyRowsAt(l, nil, nil, 1, []int32{7}, []float64{1})
	}
}
