package jacobi

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/simd/simdtest"
)

const eps = simdtest.Eps

// pairLayout places np pairs of n-vectors in one guarded buffer: vector j
// starts at offset off[j], with a gap of sentinels after each vector and
// unaligned starts, so that writes outside the vectors show up.
type pairLayout struct {
	x   *simdtest.Guarded
	off []int
	n   int
}

func newPairLayout(r *rand.Rand, n, nvec int) *pairLayout {
	off := make([]int, nvec)
	pos := 0
	for j := range off {
		pos += 1 + r.IntN(5) // gap (and misalignment) before every vector
		off[j] = pos
		pos += n
	}
	pos += 3
	l := &pairLayout{off: off, n: n}
	inVec := make([]bool, pos)
	for _, o := range off {
		for k := o; k < o+n; k++ {
			inVec[k] = true
		}
	}
	l.x = simdtest.NewGuarded(pos, r.IntN(8), func(i int) float64 {
		if inVec[i] {
			return r.NormFloat64()
		}
		return simdtest.Sentinel
	})
	return l
}

// checkGaps reports writes into the gaps between the vectors.
func (l *pairLayout) checkGaps(t *testing.T, what string) {
	t.Helper()
	l.x.Check(t, what)
	x := l.x.S()
	inVec := make([]bool, len(x))
	for _, o := range l.off {
		for k := o; k < o+l.n; k++ {
			inVec[k] = true
		}
	}
	for i, v := range x {
		if !inVec[i] && v != simdtest.Sentinel {
			t.Fatalf("%s: wrote between the vectors: x[%d] = %v", what, i, v)
		}
	}
}

// pairOffsets returns the offsets of np pairs drawn from the vectors of
// l; with distinct, each vector appears at most once.
func pairOffsets(r *rand.Rand, l *pairLayout, np int, distinct bool) []int {
	o := make([]int, 2*np)
	perm := r.Perm(len(l.off))
	for i := range o {
		if distinct {
			o[i] = l.off[perm[i]]
		} else {
			o[i] = l.off[r.IntN(len(l.off))]
		}
	}
	return o
}

func jacobiLengths() []int {
	var ns []int
	for n := 0; n <= 3*32+1; n++ {
		ns = append(ns, n)
	}
	return append(ns, 255, 257, 1001)
}

func TestRotPairs(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(32, uint64(p)))
		for _, n := range jacobiLengths() {
			for _, np := range []int{0, 1, 3, 6} {
				// Distinct vectors, and (odd n) vectors shared by several
				// pairs, which must be rotated in order.
				distinct := n%2 == 0
				l := newPairLayout(r, n, 2*np+1)
				o := pairOffsets(r, l, np, distinct)
				if !distinct {
					for i := 0; i < np; i++ {
						for o[2*i] == o[2*i+1] && len(l.off) > 1 {
							o[2*i+1] = l.off[r.IntN(len(l.off))]
						}
					}
				}
				cs := make([]float64, 2*np)
				for i := 0; i < np; i++ {
					th := r.Float64() * 2 * math.Pi
					cs[2*i], cs[2*i+1] = math.Cos(th), math.Sin(th)
				}
				want := append([]float64(nil), l.x.S()...)
				rotPairsGeneric(want, n, o, cs)
				im.RotPairs(l.x.S(), n, o, cs)
				l.checkGaps(t, "RotPairs")
				// Each application errs by about 2 eps |u|+|v| per
				// element; chains of up to np rotations accumulate.
				x := l.x.S()
				for k := range x {
					if x[k] == simdtest.Sentinel {
						continue
					}
					if d := math.Abs(x[k] - want[k]); d > 8*float64(np+1)*eps*(math.Abs(want[k])+3) {
						t.Fatalf("n=%d np=%d: x[%d] = %v, reference %v", n, np, k, x[k], want[k])
					}
				}
			}
		}
	})
}

func TestPairsNaNInf(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		for _, n := range []int{1, 7, 8, 9, 33} {
			for _, bad := range []float64{math.NaN(), math.Inf(1)} {
				x := make([]float64, 2*n)
				for i := range x {
					x[i] = 1
				}
				x[n-1] = bad
				im.RotPairs(x, n, []int{0, n}, []float64{0.6, 0.8})
				if v := x[2*n-1]; !(v != v || math.IsInf(v, 0)) {
					t.Errorf("n=%d: RotPairs with %v left %v", n, bad, v)
				}
			}
		}
	})
}

func TestJacobiPanics(t *testing.T) {
	t.Parallel()
	x := make([]float64, 10)
	for name, f := range map[string]func(){
		"offset past end":  func() { RotPairs(x, 4, []int{0, 7}, []float64{1, 0}) },
		"negative offset":  func() { RotPairs(x, 4, []int{-1, 4}, []float64{1, 0}) },
		"too few offsets":  func() { RotPairs(x, 4, []int{0}, []float64{1, 0}) },
		"odd cs":           func() { RotPairs(x, 4, []int{0, 4}, []float64{1}) },
		"negative n":       func() { RotPairs(x, -1, []int{0, 4}, []float64{1, 0}) },
		"steps mismatch":   func() { Steps(x, 4, 4, []int{0, 1}, []int{2}, make([]float64, 2), 0, make([]float64, 2)) },
		"row out of range": func() { Steps(x, 4, 4, []int{0, 2}, []int{1}, make([]float64, 3), 0, make([]float64, 2)) },
		"short cs":         func() { Steps(x, 4, 4, []int{0, 1}, []int{1}, make([]float64, 2), 0, make([]float64, 1)) },
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

// stepCase builds an r x n matrix (row stride ld, padding filled with
// junk that must not change) with rows of varied norms, some zero, some
// beyond the fast range, some exactly orthogonal (disjoint supports),
// some nearly parallel (the norm update cancels), and pairs them.
func stepCase(r *rand.Rand, nrows, n, ld int) (x []float64, sq []float64, rows []int, kinds []int) {
	x = make([]float64, nrows*ld)
	for i := range x {
		x[i] = 1e300 // junk in the padding
	}
	sq = make([]float64, nrows)
	kinds = make([]int, nrows)
	for i := 0; i < nrows; i++ {
		row := x[i*ld : i*ld+n]
		scale := math.Ldexp(1, r.IntN(60)-30)
		kind := r.IntN(10)
		kinds[i] = kind
		for k := range row {
			row[k] = scale * r.NormFloat64()
			if kind == 0 && k%2 == 1 || kind == 1 && k%2 == 0 {
				row[k] = 0 // disjoint supports: orthogonal to the other kind
			}
		}
		switch kind {
		case 2:
			clear(row)
		case 3:
			for k := range row {
				row[k] *= 0x1p-300 // squared norm below SqMin
			}
		case 4:
			if i > 0 {
				prev := x[(i-1)*ld : (i-1)*ld+n]
				for k := range row {
					row[k] = prev[k] * (1 + 1e-9*r.NormFloat64())
				}
			}
		}
		for _, v := range row {
			sq[i] += v * v
		}
	}
	perm := r.Perm(nrows)
	np := nrows / 2
	rows = make([]int, 2*np)
	copy(rows, perm)
	// Nearly parallel rows i-1, i as a pair now and then.
	for i := 0; i+1 < 2*np; i += 2 {
		if r.IntN(4) == 0 && rows[i] > 0 {
			p := rows[i]
			for j := range rows {
				if rows[j] == p-1 && j != i {
					rows[j], rows[i+1] = rows[i+1], rows[j]
				}
			}
		}
	}
	return x, sq, rows, kinds
}

func TestJacobiSteps(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(33, uint64(p)))
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 25, 31, 32, 33, 40, 64, 65, 100, 257} {
			for _, nrows := range []int{2, 3, 6, 16, 17, 34, 40} {
				ld := n + r.IntN(3)
				x, sq, rows, kinds := stepCase(r, nrows, n, ld)
				tol := 1e-8
				// Several steps over the same rows: each a random set of
				// disjoint pairs, so that later steps see the rows the
				// earlier ones rotated. Only rows whose fate does not hang
				// on rounding take part: not the nearly parallel ones
				// (after their rotation one is rounding noise), and with
				// n >= 4 (two 1-vectors rotate to an exact or a rounding
				// zero).
				steps := randomSteps(r, len(rows)/2)
				var stable []int
				for i, k := range kinds {
					if k != 4 && !(i+1 < nrows && kinds[i+1] == 4) {
						stable = append(stable, i)
					}
				}
				for k := r.IntN(4); k > 0 && n >= 4 && len(stable) >= 2; k-- {
					r.Shuffle(len(stable), func(i, j int) { stable[i], stable[j] = stable[j], stable[i] })
					c := 1 + r.IntN(len(stable)/2)
					rows = append(rows, stable[:2*c]...)
					steps = append(steps, c)
				}
				checkJacobiRun(t, fmt.Sprintf("n=%d rows=%d", n, nrows), x, n, ld, nrows, rows, steps, sq, tol,
					func(x, sq, cs []float64) (int, int, float64, float64) {
						return im.Steps(x, n, ld, rows, steps, sq, tol, cs)
					})
			}
		}
	})
}

// checkJacobiRun runs f (Steps or a plan of the same schedule) on
// copies of x and sq and compares its results with jacobiStepsGeneric's:
// counts exactly, the rest to rounding.
func checkJacobiRun(t *testing.T, label string, x []float64, n, ld, nrows int, rows, steps []int, sq []float64, tol float64,
	f func(x, sq, cs []float64) (int, int, float64, float64)) {
	t.Helper()
	x0, sq0 := x, sq
	x, sq = append([]float64(nil), x0...), append([]float64(nil), sq0...)
	wantX, wantSq := append([]float64(nil), x0...), append([]float64(nil), sq0...)
	wantCs := make([]float64, len(rows))
	wr, wl, wc, ws := jacobiStepsGeneric(wantX, n, ld, rows, steps, wantSq, tol*tol, wantCs)
	cs := make([]float64, len(rows)+1)
	cs[len(rows)] = simdtest.Sentinel
	gr, gl, gc, gs := f(x, sq, cs)
	if cs[len(rows)] != simdtest.Sentinel {
		t.Fatalf("%s: wrote past cs", label)
	}
	if gr != wr || gl != wl {
		t.Fatalf("%s: rotated, left = %d, %d; reference %d, %d", label, gr, gl, wr, wl)
	}
	if !close(gc, wc, 1e-12) || !close(gs, ws, 1e-12) {
		t.Fatalf("%s: max cos², sin = %v, %v; reference %v, %v", label, gc, gs, wc, ws)
	}
	for i := range cs[:len(rows)] {
		if !(math.Abs(cs[i]-wantCs[i]) <= 1e-12*math.Abs(wantCs[i])+1e-15) {
			t.Fatalf("%s: cs[%d] = %v, reference %v", label, i, cs[i], wantCs[i])
		}
	}
	// A squared norm recomputed after cancellation errs by rounding
	// relative to the pair's squared norms.
	pairSq := append([]float64(nil), sq0...)
	for i := 0; i+1 < len(rows); i += 2 {
		s := sq0[rows[i]] + sq0[rows[i+1]]
		pairSq[rows[i]], pairSq[rows[i+1]] = s, s
	}
	for i := range sq {
		if !close(sq[i], wantSq[i], 1e-12) && !(math.Abs(sq[i]-wantSq[i]) <= 1e-26*float64(n)*pairSq[i]) {
			t.Fatalf("%s: sq[%d] = %v, reference %v (was %v)", label, i, sq[i], wantSq[i], sq0[i])
		}
	}
	for i := 0; i < nrows; i++ {
		scale := math.Sqrt(wantSq[i]) + math.Sqrt(sq0[i]) + 1e-300
		for k := 0; k < ld; k++ {
			got, want := x[i*ld+k], wantX[i*ld+k]
			if k >= n {
				if got != x0[i*ld+k] {
					t.Fatalf("%s: padding of row %d changed", label, i)
				}
				continue
			}
			if math.Abs(got-want) > 1e-13*scale {
				t.Fatalf("%s: x[%d][%d] = %v, reference %v", label, i, k, got, want)
			}
		}
	}
}

// close reports whether x and y agree to a relative tolerance (or are
// both tiny).
func close(x, y, tol float64) bool {
	return math.Abs(x-y) <= tol*math.Max(math.Abs(x), math.Abs(y))+1e-300
}

// randomSteps splits np pairs into steps of random sizes (some empty).
func randomSteps(r *rand.Rand, np int) []int {
	var steps []int
	for np > 0 {
		c := min(np, r.IntN(12))
		steps = append(steps, c)
		np -= c
	}
	return steps
}

// TestJacobiPlan checks plans against jacobiStepsGeneric on two kinds of
// schedules: a wavefront over a block of rows (the row-cyclic order of
// svd, where nearly every dot product is fused into a rotation of the
// step before) and random steps over rows whose fate does not hang on
// rounding (where fused dot products meet rows not rotated, both rows of
// a pair fused, and rows outside the fast range).
func TestJacobiPlan(t *testing.T) {
	t.Parallel()
	simdtest.EachLevel(t, func(t *testing.T, p simd.Level) {
		im := table.For(p)
		r := rand.New(rand.NewPCG(34, uint64(p)))
		for _, n := range []int{1, 7, 8, 16, 24, 40, 64, 72, 104, 257, 304} {
			for _, nrows := range []int{2, 3, 9, 17, 40, 75} {
				ld := n + r.IntN(3)
				if r.IntN(2) == 0 {
					ld = n
				}
				check := func(what string, x, sq []float64, rows, steps []int) {
					plan := NewPlan(rows, steps)
					if what == "wavefront" && len(steps) > 3 && fusedDots(plan) == 0 {
						t.Fatalf("wavefront of %d steps: no dot product fused", len(steps))
					}
					checkJacobiRun(t, fmt.Sprintf("%s n=%d rows=%d", what, n, nrows), x, n, ld, nrows, rows, steps, sq, 1e-8,
						func(x, sq, cs []float64) (int, int, float64, float64) {
							return im.planSteps(plan, x, n, ld, sq, 1e-8, cs)
						})
				}
				x, sq, rows0, kinds := stepCase(r, nrows, n, ld)
				// Each row once, in steps of random sizes: no dot product
				// is fused, but nearly parallel pairs make the kernel
				// recompute squared norms.
				check("one pass", x, sq, rows0, randomSteps(r, len(rows0)/2))
				// With fewer columns than rows, rotations leave rows of
				// rounding noise, whose later fate is arbitrary: no
				// wavefront then. Nearly parallel rows are made ordinary
				// for it, for the same reason.
				if n >= nrows {
					xw, sqw := append([]float64(nil), x...), append([]float64(nil), sq...)
					for i, k := range kinds {
						if k == 4 {
							sqw[i] = 0
							for c := i * ld; c < i*ld+n; c++ {
								xw[c] = r.NormFloat64()
								sqw[i] += xw[c] * xw[c]
							}
						}
					}
					i0 := r.IntN(nrows - 1)
					rows, steps := wavefront(i0, min(nrows, i0+1+r.IntN(24)), nrows)
					check("wavefront", xw, sqw, rows, steps)
				}
				// Random steps over the stable rows.
				var stable []int
				for i, k := range kinds {
					if k != 4 && !(i+1 < nrows && kinds[i+1] == 4) {
						stable = append(stable, i)
					}
				}
				if len(stable) < 2 || n < 4 {
					continue
				}
				var rows, steps []int
				for k := 2 + r.IntN(10); k > 0; k-- {
					r.Shuffle(len(stable), func(i, j int) { stable[i], stable[j] = stable[j], stable[i] })
					c := r.IntN(len(stable)/2 + 1)
					rows = append(rows, stable[:2*c]...)
					steps = append(steps, c)
				}
				check("random", x, sq, rows, steps)
			}
		}
	})
}

// fusedDots returns the number of the plan's dot products formed in the
// rotation of an earlier pair: those not in the records' own masks.
func fusedDots(p *Plan) int {
	n := 0
	for g := 0; g < len(p.groups); g += planGroup {
		n += int(p.groups[g+planCount]) - bits.OnesCount32(uint32(p.groups[g+planOwn]))
	}
	return n
}

// wavefront returns the schedule of the pairs (p, q), p in [i0, i1) and
// p < q < nrows, by anti-diagonals p + q of the grid (as svd sweeps a
// block of rows).
func wavefront(i0, i1, nrows int) (rows, steps []int) {
	last := nrows - 1 - i0
	for w := 1; w <= i1-i0-1+last; w++ {
		c := 0
		for t := max(0, w-last); t <= min(i1-i0-1, (w-1)/2); t++ {
			rows = append(rows, i0+t, i0+w-t)
			c++
		}
		steps = append(steps, c)
	}
	return rows, steps
}

func TestJacobiPlanPanics(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		rows, steps []int
	}{
		{"odd rows", []int{0, 1, 2}, []int{1}},
		{"counts", []int{0, 1, 2, 3}, []int{1}},
		{"negative count", []int{0, 1}, []int{2, -1}},
		{"negative row", []int{0, -1}, []int{1}},
		{"row twice in a step", []int{0, 1, 1, 2}, []int{2}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			NewPlan(c.rows, c.steps)
		}()
	}
	p := NewPlan([]int{0, 3}, []int{1})
	for _, f := range []func(){
		func() { p.Steps(make([]float64, 30), 8, 8, make([]float64, 3), 1e-8, make([]float64, 2)) }, // row 3 beyond x and sq
		func() { p.Steps(make([]float64, 32), 8, 8, make([]float64, 4), 1e-8, make([]float64, 1)) }, // cs too short
		func() { p.Steps(make([]float64, 32), 8, 7, make([]float64, 4), 1e-8, make([]float64, 2)) }, // stride
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("Steps: no panic")
				}
			}()
			f()
		}()
	}
}
