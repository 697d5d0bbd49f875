package treemix

import "slices"

// factor is a non-negative function of a few variables, stored like a
// Table with its variables in increasing order.
type factor struct {
	vars []int
	p    []float64
}

// strides returns, for each variable of union (sorted), the stride of
// that variable in f's layout (0 if f does not have it).
func (f *factor) strides(union []int, d int) []int {
	st := make([]int, len(union))
	s := 1
	for i := len(f.vars) - 1; i >= 0; i-- {
		st[slices.Index(union, f.vars[i])] = s
		s *= d
	}
	return st
}

// multiply returns the product of the factors, over the union of their
// variables.
func multiply(d int, fs ...*factor) *factor {
	var union []int
	for _, f := range fs {
		union = append(union, f.vars...)
	}
	slices.Sort(union)
	union = slices.Compact(union)
	out := &factor{vars: union, p: make([]float64, pow(d, len(union)))}
	st := make([][]int, len(fs))
	idx := make([]int, len(fs))
	for i, f := range fs {
		st[i] = f.strides(union, d)
	}
	states := make([]int, len(union))
	for k := range out.p {
		v := 1.0
		for i, f := range fs {
			v *= f.p[idx[i]]
		}
		out.p[k] = v
		for j := len(union) - 1; j >= 0; j-- {
			states[j]++
			for i := range fs {
				idx[i] += st[i][j]
			}
			if states[j] < d {
				break
			}
			states[j] = 0
			for i := range fs {
				idx[i] -= d * st[i][j]
			}
		}
	}
	return out
}

// sumOut returns f with variable v summed out.
func sumOut(d int, f *factor, v int) *factor {
	pos := slices.Index(f.vars, v)
	if pos < 0 {
		return f
	}
	vars := slices.Delete(slices.Clone(f.vars), pos, pos+1)
	out := &factor{vars: vars, p: make([]float64, pow(d, len(vars)))}
	inner := pow(d, len(f.vars)-1-pos) // stride of v in f
	outer := len(f.p) / (inner * d)
	for a := range outer {
		for s := range d {
			src := f.p[(a*d+s)*inner : (a*d+s+1)*inner]
			dst := out.p[a*inner : (a+1)*inner]
			for b, x := range src {
				dst[b] += x
			}
		}
	}
	return out
}

// eliminate multiplies the factors and sums out every variable not in
// keep, one at a time in a greedy order (the variable whose elimination
// makes the smallest factor first), and returns the factor over keep.
func eliminate(d int, fs []*factor, keep []int) *factor {
	fs = slices.Clone(fs)
	for {
		// candidate variables
		var cand []int
		for _, f := range fs {
			for _, v := range f.vars {
				if !slices.Contains(keep, v) {
					cand = append(cand, v)
				}
			}
		}
		if len(cand) == 0 {
			break
		}
		slices.Sort(cand)
		cand = slices.Compact(cand)
		best, bestSize := -1, 0
		for _, v := range cand {
			var vars []int
			for _, f := range fs {
				if slices.Contains(f.vars, v) {
					vars = append(vars, f.vars...)
				}
			}
			slices.Sort(vars)
			size := len(slices.Compact(vars))
			if best < 0 || size < bestSize {
				best, bestSize = v, size
			}
		}
		var with, without []*factor
		for _, f := range fs {
			if slices.Contains(f.vars, best) {
				with = append(with, f)
			} else {
				without = append(without, f)
			}
		}
		fs = append(without, sumOut(d, multiply(d, with...), best))
	}
	return multiply(d, fs...)
}

// toTable reorders a factor over the variables of vars (as a set) into a
// Table over vars in the given order.
func (f *factor) toTable(vars []int, d int) *Table {
	t := NewTable(slices.Clone(vars), d)
	st := f.strides(sortedCopy(vars), d)
	// st is indexed by position in sorted vars; map to positions in vars
	sorted := sortedCopy(vars)
	stv := make([]int, len(vars))
	for i, v := range vars {
		stv[i] = st[slices.Index(sorted, v)]
	}
	states := make([]int, len(vars))
	idx := 0
	for k := range t.P {
		t.P[k] = f.p[idx]
		for j := len(vars) - 1; j >= 0; j-- {
			states[j]++
			idx += stv[j]
			if states[j] < d {
				break
			}
			states[j] = 0
			idx -= d * stv[j]
		}
	}
	return t
}
