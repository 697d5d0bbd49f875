package simplex

import "math"

// scaleSpreadGeometric is the spread max|a|/min|a| of the equilibrated
// matrix above which scaleFactors first applies geometric-mean scaling.
const scaleSpreadGeometric = 1e6

// scaleFactors returns row and column scale factors (powers of two) for
// the m x n matrix in compressed column form, chosen so that the scaled
// matrix R A C has entries of magnitude near one. It equilibrates the
// rows (largest magnitude one), then the columns. If the spread
// max|a|/min|a| of the result still exceeds scaleSpreadGeometric, it
// starts again with passes of geometric-mean scaling (each row, then each
// column, divided by the square root of the product of its largest and
// smallest magnitudes, while the spread improves by 10% or more) before
// equilibrating. (On the NETLIB problems equilibration alone gives the
// fewest iterations; geometric scaling pays off on badly scaled data.)
// Empty rows and columns get 1. Powers of two make scaling and unscaling
// exact.
func scaleFactors(m, n int, start, idx []int, val []float64) (rowScale, colScale []float64) {
	rowScale = make([]float64, m)
	colScale = make([]float64, n)
	ones := func() {
		for i := range rowScale {
			rowScale[i] = 1
		}
		for j := range colScale {
			colScale[j] = 1
		}
	}
	ones()
	if start[n] == 0 {
		return
	}
	sc := scaler{m: m, n: n, start: start, idx: idx, val: val, row: rowScale, col: colScale}
	sc.equilibrate()
	if sc.spread() > scaleSpreadGeometric {
		ones()
		sc.geometric()
		sc.equilibrate()
	}
	roundPow2(rowScale)
	roundPow2(colScale)
	return
}

type scaler struct {
	m, n     int
	start    []int
	idx      []int
	val      []float64
	row, col []float64
}

// spread returns max|a|/min|a| over the nonzeros of the scaled matrix.
func (s *scaler) spread() float64 {
	lo, hi := math.Inf(1), 0.0
	for j := 0; j < s.n; j++ {
		for k := s.start[j]; k < s.start[j+1]; k++ {
			a := math.Abs(s.val[k]) * s.row[s.idx[k]] * s.col[j]
			if a == 0 {
				continue
			}
			lo = math.Min(lo, a)
			hi = math.Max(hi, a)
		}
	}
	if hi == 0 {
		return 1
	}
	return hi / lo
}

// equilibrate scales each row, then each column, to largest magnitude
// one.
func (s *scaler) equilibrate() {
	rmax := make([]float64, s.m)
	for j := 0; j < s.n; j++ {
		for k := s.start[j]; k < s.start[j+1]; k++ {
			i := s.idx[k]
			rmax[i] = math.Max(rmax[i], math.Abs(s.val[k])*s.col[j])
		}
	}
	for i, v := range rmax {
		if v > 0 {
			s.row[i] = clampScale(1 / v)
		}
	}
	for j := 0; j < s.n; j++ {
		hi := 0.0
		for k := s.start[j]; k < s.start[j+1]; k++ {
			hi = math.Max(hi, math.Abs(s.val[k])*s.row[s.idx[k]])
		}
		if hi > 0 {
			s.col[j] = clampScale(1 / hi)
		}
	}
}

// geometric runs passes of geometric-mean scaling of the rows and then
// the columns while the spread improves by at least 10%.
func (s *scaler) geometric() {
	m, n := s.m, s.n
	rmin := make([]float64, m)
	rmax := make([]float64, m)
	savedR := make([]float64, m)
	savedC := make([]float64, n)
	prev := s.spread()
	for pass := 0; pass < 10; pass++ {
		copy(savedR, s.row)
		copy(savedC, s.col)
		for i := range rmin {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := 0; j < n; j++ {
			for k := s.start[j]; k < s.start[j+1]; k++ {
				a := math.Abs(s.val[k]) * s.col[j]
				if a == 0 {
					continue
				}
				i := s.idx[k]
				rmin[i] = math.Min(rmin[i], a)
				rmax[i] = math.Max(rmax[i], a)
			}
		}
		for i := 0; i < m; i++ {
			if rmax[i] > 0 {
				s.row[i] = clampScale(1 / (math.Sqrt(rmin[i]) * math.Sqrt(rmax[i])))
			}
		}
		for j := 0; j < n; j++ {
			lo, hi := math.Inf(1), 0.0
			for k := s.start[j]; k < s.start[j+1]; k++ {
				a := math.Abs(s.val[k]) * s.row[s.idx[k]]
				if a == 0 {
					continue
				}
				lo = math.Min(lo, a)
				hi = math.Max(hi, a)
			}
			if hi > 0 {
				s.col[j] = clampScale(1 / (math.Sqrt(lo) * math.Sqrt(hi)))
			}
		}
		sp := s.spread()
		if sp > 0.9*prev {
			if sp > prev {
				copy(s.row, savedR)
				copy(s.col, savedC)
			}
			return
		}
		prev = sp
	}
}

// roundPow2 replaces each factor by the nearest power of two, clamped to
// [2^-40, 2^40].
func roundPow2(s []float64) {
	for i, v := range s {
		if !(v > 0) || math.IsInf(v, 0) {
			s[i] = 1
			continue
		}
		e := math.Round(math.Log2(v))
		e = math.Max(-40, math.Min(40, e))
		s[i] = math.Ldexp(1, int(e))
	}
}

// maxScale bounds the scale factors to [1/maxScale, maxScale]: the
// reciprocal of a subnormal entry overflows to +Inf (and one of an entry
// near 2^-1000 leaves no room for the rest of its row), which made the
// scaled problem meaningless (found by fuzzing: an l1 problem with an
// entry of 3.39e-321 was reported infeasible). An entry that small
// beside entries of order one cannot be brought near one anyway.
const maxScale = 0x1p256

// clampScale returns x bounded to [1/maxScale, maxScale].
func clampScale(x float64) float64 {
	return math.Max(1/maxScale, math.Min(maxScale, x))
}
