package jacobi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

// permute2 emulates a two-source lane permute: lane i of the result is
// lane idx[i] of (t1, t2) (0-7 from t1, 8-15 from t2).
func permute2(t1, t2 []float64, idx [8]uint64) []float64 {
	out := make([]float64, 8)
	for i, j := range idx {
		if j < 8 {
			out[i] = t1[j]
		} else {
			out[i] = t2[j-8]
		}
	}
	return out
}

// TestJacobiTPerm checks the permute tables of the assembly against
// ringShift, the reference move round the ring.
func TestJacobiTPerm(t *testing.T) {
	t.Parallel()
	for m := 1; m <= 16; m++ {
		s := 8 * ((m + 7) / 8)
		col := make([]float64, 2*s)
		for i := 0; i < m; i++ {
			col[i], col[s+i] = float64(1+i), float64(-1-i)
		}
		want := append([]float64(nil), col...)
		if m > 1 {
			ringShift(want, m, s)
		}
		p := jacobiTPerm(m)
		var got []float64
		if s == 8 {
			got = append(permute2(col[:8], col[8:], p[0]), permute2(col[:8], col[8:], p[1])...)
		} else {
			alo, ahi, blo, bhi := col[0:8], col[8:16], col[16:24], col[24:32]
			got = append(append(append(permute2(alo, blo, p[0]), permute2(alo, ahi, p[1])...),
				permute2(blo, bhi, p[2])...), permute2(bhi, ahi, p[3])...)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("m=%d: permutes give %v, ring %v", m, got, want)
			}
		}
	}
}

// slotCase fills the slots of m pairs with random rows of n columns
// (plus ntot-n further columns) of varied norms, some zero, some beyond
// the fast range; unused slots hold zeros.
func slotCase(r *rand.Rand, m, n, ntot int) (tt, sq []float64) {
	s := 8 * ((m + 7) / 8)
	tt = make([]float64, ntot*2*s)
	sq = make([]float64, 2*s)
	for _, side := range []int{0, s} {
		for i := 0; i < m; i++ {
			kind := r.IntN(12)
			scale := math.Ldexp(1, r.IntN(40)-20)
			if kind == 1 {
				scale *= 0x1p-300
			}
			for k := 0; k < ntot; k++ {
				v := scale * r.NormFloat64()
				if kind == 0 && k < n {
					v = 0
				}
				if kind == 2 && side == s {
					// nearly parallel to its partner: the norm update
					// cancels
					v = tt[k*2*s+i] * (1 + 1e-7*r.NormFloat64())
				}
				tt[k*2*s+side+i] = v
				if k < n {
					sq[side+i] += v * v
				}
			}
		}
	}
	return tt, sq
}

func TestJacobiSweepT(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(34, uint64(p)))
		for m := 1; m <= 16; m++ {
			for _, n := range []int{0, 1, 2, 3, 5, 8, 13, 25, 40} {
				if n > 0 && n < 2*m {
					// More rows than columns: most rows end as rounding
					// noise, whose fate hangs on rounding.
					continue
				}
				for _, extra := range []int{0, 3} {
					ntot := n + extra
					tt, sq := slotCase(r, m, n, ntot)
					tol := 1e-8
					wantT, wantSq := append([]float64(nil), tt...), append([]float64(nil), sq...)
					wr, wl, wc, ws := jacobiSweepTGeneric(wantT, m, n, ntot, wantSq, tol*tol)
					gr, gl, gc, gs := im.SweepT(tt, m, n, ntot, sq, tol)
					if gr != wr || gl != wl {
						t.Fatalf("m=%d n=%d ntot=%d: rotated, left = %d, %d; reference %d, %d", m, n, ntot, gr, gl, wr, wl)
					}
					if !close(gc, wc, 1e-10) || !close(gs, ws, 1e-10) {
						t.Fatalf("m=%d n=%d: max cos², sin = %v, %v; reference %v, %v", m, n, gc, gs, wc, ws)
					}
					s := 8 * ((m + 7) / 8)
					for j := range sq {
						if (j%s >= m) && (sq[j] != 0) {
							t.Fatalf("m=%d: unused slot %d has norm %v", m, j, sq[j])
						}
					}
					// Compare rows slot by slot, relative to their norms;
					// a row that cancels to (near) zero keeps rounding
					// noise of the size of the rows it met.
					var total float64
					for _, v := range wantSq {
						total += v
					}
					for j := 0; j < 2*s; j++ {
						noise := 1e-13 * math.Sqrt(total)
						if math.Abs(sq[j]-wantSq[j]) > 1e-12*wantSq[j]+1e-14*math.Sqrt(wantSq[j]*total)+1e-26*total {
							t.Fatalf("m=%d n=%d: sq[%d] = %v, reference %v", m, n, j, sq[j], wantSq[j])
						}
						for k := 0; k < ntot; k++ {
							got, want := tt[k*2*s+j], wantT[k*2*s+j]
							if j%s >= m && got != 0 {
								t.Fatalf("m=%d: unused slot %d column %d = %v", m, j, k, got)
							}
							sc := math.Sqrt(wantSq[j])
							if k >= n {
								sc = math.Abs(want) + sc
							}
							if math.Abs(got-want) > 1e-11*sc+noise {
								t.Fatalf("m=%d n=%d ntot=%d: slot %d column %d = %v, reference %v", m, n, ntot, j, k, got, want)
							}
						}
					}
				}
			}
		}
	})
}

func TestJacobiSweepTPanics(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(){
		"m = 0":        func() { SweepT(make([]float64, 16), 0, 1, 1, make([]float64, 16), 0) },
		"m = 17":       func() { SweepT(make([]float64, 64), 17, 1, 1, make([]float64, 64), 0) },
		"short t":      func() { SweepT(make([]float64, 31), 4, 2, 2, make([]float64, 16), 0) },
		"short sq":     func() { SweepT(make([]float64, 32), 9, 1, 1, make([]float64, 16), 0) },
		"ntot below n": func() { SweepT(make([]float64, 64), 4, 3, 2, make([]float64, 16), 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
