package main

import (
	"math"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestScore checks every kind of error on a 4-variable graph with edges
// 0 -> 1, 1 -> 2, 0 -> 3 against an estimate with 0 -> 1 kept, 1 -> 2
// reversed, 0 -> 3 missing and 2 -> 3 extra.
func TestScore(t *testing.T) {
	truth := mat.Zeros(4, 4)
	truth.Set(1, 0, 1)
	truth.Set(2, 1, -0.7)
	truth.Set(3, 0, 2)
	est := mat.Zeros(4, 4)
	est.Set(1, 0, 0.9)
	est.Set(1, 2, 0.5)  // 2 -> 1: reversed
	est.Set(3, 2, 0.05) // 2 -> 3: extra, below tol 0.1
	s := scoreOf(truth, est, 0)
	// SHD: reversed 1, missing 1, extra 1; TP 1 of 3 estimated, 3 true.
	if s.SHD != 3 {
		t.Errorf("SHD = %d, want 3", s.SHD)
	}
	if math.Abs(s.Precision-1.0/3) > 1e-15 || math.Abs(s.Recall-1.0/3) > 1e-15 || math.Abs(s.F1-1.0/3) > 1e-15 {
		t.Errorf("precision, recall, F1 = %v, %v, %v, want 1/3 each", s.Precision, s.Recall, s.F1)
	}
	s = scoreOf(truth, est, 0.1) // the extra edge is gone
	if s.SHD != 2 || math.Abs(s.Precision-0.5) > 1e-15 {
		t.Errorf("tol 0.1: SHD %d precision %v, want 2 and 0.5", s.SHD, s.Precision)
	}
	s = scoreOf(truth, truth, 0)
	if s.SHD != 0 || s.F1 != 1 {
		t.Errorf("truth against itself: SHD %d F1 %v, want 0 and 1", s.SHD, s.F1)
	}
	s = scoreOf(truth, mat.Zeros(4, 4), 0)
	if s.SHD != 3 || s.Precision != 1 || s.Recall != 0 {
		t.Errorf("empty estimate: %+v, want SHD 3, precision 1, recall 0", s)
	}
	nan := mat.Zeros(4, 4)
	nan.Set(1, 0, math.NaN())
	if s := scoreOf(truth, nan, 0); s.SHD != 3 {
		t.Errorf("a NaN entry counted as an edge: SHD %d, want 3", s.SHD)
	}
}

// TestModel checks the grid's DAGs: acyclic in their order, weights in
// +-[0.5, 2], and a mean degree within 10% of the requested one over 40
// seeds (2 * edges / p per DAG; the standard error of the mean is about
// 2% here).
func TestModel(t *testing.T) {
	for _, tc := range []struct{ p, degree int }{{20, 2}, {20, 4}, {50, 4}} {
		var deg float64
		const seeds = 40
		for seed := 1; seed <= seeds; seed++ {
			b, order, sd := model(tc.p, tc.degree, seed)
			pos := make([]int, tc.p)
			for k, v := range order {
				pos[v] = k
			}
			edges := 0
			for i := 0; i < tc.p; i++ {
				if sd[i] < math.Sqrt(0.5) || sd[i] > 1 {
					t.Fatalf("sd %v outside [sqrt 0.5, 1]", sd[i])
				}
				for j := 0; j < tc.p; j++ {
					w := b.At(i, j)
					if w == 0 {
						continue
					}
					edges++
					if pos[j] >= pos[i] {
						t.Fatalf("edge %d -> %d against the causal order", j, i)
					}
					if a := math.Abs(w); a < 0.5 || a > 2 {
						t.Fatalf("weight %v outside +-[0.5, 2]", w)
					}
				}
			}
			deg += 2 * float64(edges) / float64(tc.p)
		}
		deg /= seeds
		if math.Abs(deg-float64(tc.degree)) > 0.1*float64(tc.degree) {
			t.Errorf("p %d degree %d: mean degree %.2f", tc.p, tc.degree, deg)
		}
	}
}

// TestNoises checks that each family is standardized and has its
// skewness: mean and variance within 3% of 0 and 1, and the skewness
// within 0.3 of 2 (exp), 2.83 (chi2) and 0 (uniform, Laplace) over
// 200000 draws, with the excess kurtosis of uniform (-1.2) and Laplace
// (3) within 0.3.
func TestNoises(t *testing.T) {
	want := map[string][2]float64{"exp": {2, math.NaN()}, "chi2": {2 * math.Sqrt2, math.NaN()}, "uniform": {0, -1.2}, "laplace": {0, 3}}
	for _, noise := range noises {
		d := newDataset(noise, 1, 1, 200000, 1)
		r := newRand(d)
		var m [5]float64
		for i := 0; i < d.N; i++ {
			v := draw(r, noise)
			pw := 1.0
			for k := range m {
				m[k] += pw
				pw *= v
			}
		}
		for k := range m {
			m[k] /= float64(d.N)
		}
		mean := m[1]
		v := m[2] - mean*mean
		skew := (m[3] - 3*mean*m[2] + 2*mean*mean*mean) / math.Pow(v, 1.5)
		kurt := (m[4]-4*mean*m[3]+6*mean*mean*m[2]-3*mean*mean*mean*mean)/(v*v) - 3
		if math.Abs(mean) > 0.03 || math.Abs(v-1) > 0.03 {
			t.Errorf("%s: mean %.3f variance %.3f", noise, mean, v)
		}
		w := want[noise]
		if math.Abs(skew-w[0]) > 0.3 {
			t.Errorf("%s: skewness %.3f, want %.3f", noise, skew, w[0])
		}
		if !math.IsNaN(w[1]) && math.Abs(kurt-w[1]) > 0.3 {
			t.Errorf("%s: excess kurtosis %.3f, want %.3f", noise, kurt, w[1])
		}
	}
}

// TestWriteRead checks that a data set survives its CSV exactly and is
// the same on every call (the seeded streams).
func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	d := newDataset("laplace", 6, 2, 2000, 3)
	if err := write(dir, d); err != nil {
		t.Fatal(err)
	}
	x, err := readCSV(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	b, x2 := samples(d)
	if !mat.Equal(x, x2) {
		t.Fatal("the CSV does not hold the samples exactly, or the samples are not reproducible")
	}
	truth, err := readTruth(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(truth, b) {
		t.Fatal("the truth file does not hold B exactly")
	}
	_, x3 := samples(newDataset("laplace", 6, 2, 2000, 4))
	if x3.At(0, 0) == x.At(0, 0) {
		t.Fatal("seeds 3 and 4 drew the same first sample")
	}
}

// TestSamplesFollowB checks that the samples follow their DAG in the
// convention B[i][j] = coefficient of x_j in x_i: the residuals (I - B) x
// are the independent noises, so their sample correlations are below
// 0.05 (the standard error is 0.007 at N = 20000), which B transposed
// or the wrong order would break.
func TestSamplesFollowB(t *testing.T) {
	d := newDataset("exp", 8, 4, 20000, 2)
	b, x := samples(d)
	p, n := d.P, d.N
	e := mat.Zeros(n, p)
	for s := 0; s < n; s++ {
		for i := 0; i < p; i++ {
			v := x.At(s, i)
			for j := 0; j < p; j++ {
				v -= b.At(i, j) * x.At(s, j)
			}
			e.Set(s, i, v)
		}
	}
	col := func(m *mat.Dense, j int) []float64 {
		c := make([]float64, n)
		for s := range c {
			c[s] = m.At(s, j)
		}
		return c
	}
	corr := func(a, c []float64) float64 {
		var ma, mc float64
		for s := range a {
			ma += a[s]
			mc += c[s]
		}
		ma /= float64(n)
		mc /= float64(n)
		var sab, saa, scc float64
		for s := range a {
			sab += (a[s] - ma) * (c[s] - mc)
			saa += (a[s] - ma) * (a[s] - ma)
			scc += (c[s] - mc) * (c[s] - mc)
		}
		return sab / math.Sqrt(saa*scc)
	}
	edges, strong := 0, 0
	for i := 0; i < p; i++ {
		for j := i + 1; j < p; j++ {
			if r := corr(col(e, i), col(e, j)); math.Abs(r) > 0.05 {
				t.Errorf("residuals %d and %d correlate: %.3f", i, j, r)
			}
			if b.At(i, j) != 0 || b.At(j, i) != 0 {
				edges++
				if math.Abs(corr(col(x, i), col(x, j))) > 0.05 {
					strong++
				}
			}
		}
	}
	if edges == 0 || strong == 0 {
		t.Fatalf("the DAG has %d edges, %d of them with correlated ends: the check tests nothing", edges, strong)
	}
}

// TestOrderAccuracy checks the order diagnostic on the graph 0 -> 1,
// 1 -> 2, 0 -> 3: right in a topological order, 2 of 3 edges when 1 and
// 2 swap, and -1 for a list that is no order.
func TestOrderAccuracy(t *testing.T) {
	truth := mat.Zeros(4, 4)
	truth.Set(1, 0, 1)
	truth.Set(2, 1, 1)
	truth.Set(3, 0, 1)
	for _, tc := range []struct {
		order []int
		want  float64
	}{
		{[]int{0, 3, 1, 2}, 1},
		{[]int{0, 2, 1, 3}, 2.0 / 3},
		{[]int{3, 2, 1, 0}, 0},
		{[]int{0, 1, 2}, -1},
		{[]int{0, 1, 1, 3}, -1},
		{[]int{0, 1, 2, 4}, -1},
	} {
		if got := orderAccuracy(truth, tc.order); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("order %v: %v, want %v", tc.order, got, tc.want)
		}
	}
}
