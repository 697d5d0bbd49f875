package moments

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

func randDense(r *rand.Rand, rows, cols int) *mat.Dense {
	m := mat.Zeros(rows, cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			m.Set(i, j, r.NormFloat64())
		}
	}
	return m
}

// whiten3 returns T(W, W, W) for a dense n^3 tensor t.
func whiten3(t []float64, n int, w *mat.Dense) *tensor3.Sym {
	_, k := w.Dims()
	out := tensor3.New(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			for c := b; c < k; c++ {
				var s float64
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						for l := 0; l < n; l++ {
							s += t[(i*n+j)*n+l] * w.At(i, a) * w.At(j, b) * w.At(l, c)
						}
					}
				}
				out.Set(a, b, c, s)
			}
		}
	}
	return out
}

func maxDiff(a, b *tensor3.Sym) float64 {
	var d float64
	for i, v := range a.RawData() {
		d = math.Max(d, math.Abs(v-b.RawData()[i]))
	}
	return d
}

// TestTriplesDocIdentity checks the per-document estimate against its
// definition: the average over ordered triples of distinct token
// positions of w_{x_p}(x)w_{x_q}(x)w_{x_r}.
func TestTriplesDocIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	const n, k = 7, 3
	w := randDense(r, n, k)
	for trial := 0; trial < 40; trial++ {
		l := 3 + r.IntN(6)
		tokens := make([]int32, l)
		ones := make([]uint32, l)
		for i := range tokens {
			tokens[i] = int32(r.IntN(n))
			ones[i] = 1
		}
		var b Builder
		b.SetVocabSize(n)
		if err := b.Add(tokens, ones); err != nil {
			t.Fatal(err)
		}
		acc := NewTriplesAccumulator(w)
		acc.Add(b.Corpus().Doc(0))
		got, _, docs3, _ := acc.Finalize()
		want := tensor3.New(k, nil)
		triples := 0.0
		for p := range tokens {
			for q := range tokens {
				for s := range tokens {
					if p == q || p == s || q == s {
						continue
					}
					triples++
					for a := 0; a < k; a++ {
						for bb := a; bb < k; bb++ {
							for c := bb; c < k; c++ {
								want.Set(a, bb, c, want.At(a, bb, c)+w.At(int(tokens[p]), a)*w.At(int(tokens[q]), bb)*w.At(int(tokens[s]), c))
							}
						}
					}
				}
			}
		}
		want.Scale(1/triples, want)
		if docs3 != 1 || maxDiff(got, want) > 1e-12 {
			t.Fatalf("tokens %v: differs from the definition by %v", tokens, maxDiff(got, want))
		}
	}
}

// TestTriplesVariants compares WhitenedTriples with a dense n^3
// reference of each variant, whitened with a random W.
func TestTriplesVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	const n, k = 9, 3
	c := randomCorpus(r, 300, n, 0, 9)
	w := randDense(r, n, k)
	// Dense raw moments by their per-document definitions.
	e3 := make([]float64, n*n*n)
	e2 := mat.Zeros(n, n)
	m1 := make([]float64, n)
	d1, d2, d3 := 0, 0, 0
	for i := 0; i < c.NumDocs(); i++ {
		d := c.Doc(i)
		cnt := make([]float64, n)
		for j, wd := range d.Words {
			cnt[wd] = float64(d.Counts[j])
		}
		l := float64(d.Len())
		if l >= 1 {
			d1++
			for a := range cnt {
				m1[a] += cnt[a] / l
			}
		}
		if l >= 2 {
			d2++
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					v := cnt[a] * cnt[b]
					if a == b {
						v -= cnt[a]
					}
					e2.Set(a, b, e2.At(a, b)+v/(l*(l-1)))
				}
			}
		}
		if l >= 3 {
			d3++
			den := l * (l - 1) * (l - 2)
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					for g := 0; g < n; g++ {
						v := cnt[a] * cnt[b] * cnt[g]
						if a == b {
							v -= cnt[a] * cnt[g]
						}
						if a == g {
							v -= cnt[a] * cnt[b]
						}
						if b == g {
							v -= cnt[b] * cnt[a]
						}
						if a == b && b == g {
							v += 2 * cnt[a]
						}
						e3[(a*n+b)*n+g] += v / den
					}
				}
			}
		}
	}
	for i := range m1 {
		m1[i] /= float64(d1)
	}
	e2.Scale(1/float64(d2), e2)
	for i := range e3 {
		e3[i] /= float64(d3)
	}
	for _, v := range []Variant{Raw, Central, LDA} {
		const a0 = 1.7
		c2, c3 := map[Variant]float64{Central: 1, LDA: a0 / (a0 + 2)}[v], map[Variant]float64{Central: 2, LDA: 2 * a0 * a0 / ((a0 + 2) * (a0 + 1))}[v]
		ref := make([]float64, len(e3))
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				for g := 0; g < n; g++ {
					ref[(a*n+b)*n+g] = e3[(a*n+b)*n+g] - c2*(e2.At(a, b)*m1[g]+e2.At(a, g)*m1[b]+e2.At(b, g)*m1[a]) + c3*m1[a]*m1[b]*m1[g]
				}
			}
		}
		want := whiten3(ref, n, w)
		dm, err := NewDocMoments(context.Background(), c, v, a0, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dm.WhitenedTriples(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(got, want); d > 1e-11*want.NormFrob() {
			t.Fatalf("%v: differs from the dense reference by %v (norm %v)", v, d, want.NormFrob())
		}
	}
}

func TestTriplesWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	r := rand.New(rand.NewPCG(13, 13))
	c := randomCorpus(r, 3000, 200, 0, 30)
	w := randDense(r, 200, 6)
	var first *tensor3.Sym
	for _, workers := range []int{1, 2, 5, 8} {
		dm, err := NewDocMoments(context.Background(), c, LDA, 1, &Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		got, err := dm.WhitenedTriples(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = got
			continue
		}
		for i, v := range got.RawData() {
			if math.Float64bits(v) != math.Float64bits(first.RawData()[i]) {
				t.Fatalf("%d workers: entry %d differs from 1 worker", workers, i)
			}
		}
	}
}

// TestWhitenedRawBasis: the whitened third moment of W = Q B built from
// the raw moments in the basis Q (WhitenedRaw, then B by
// tensor3.Sym.Multilinear and the variant's correction with TriplesCoef)
// equals WhitenedTriples(W) of the LDA and central variants to a scaled
// residual of 1e-12, and WhitenedRaw's pairs equal Q^T PairsTimes(Q) of
// the raw variant to 1e-12.
func TestWhitenedRawBasis(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(61, 62))
	const n, m, k = 40, 6, 4
	c := randomCorpus(r, 400, n, 2, 30)
	q := randDense(r, n, m)
	b := randDense(r, m, k)
	var w mat.Dense
	w.Mul(q, b)
	for _, v := range []struct {
		variant Variant
		alpha0  float64
	}{{LDA, 0.3}, {LDA, 3}, {Central, 0}} {
		dm, err := NewDocMoments(ctx, c, v.variant, v.alpha0, nil)
		if err != nil {
			t.Fatal(err)
		}
		direct, err := dm.WhitenedTriples(ctx, &w)
		if err != nil {
			t.Fatal(err)
		}
		t3, p, err := dm.WhitenedRaw(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got := tensor3.New(k, nil)
		got.Multilinear(t3, b)
		var pb, pw mat.Dense
		pb.Mul(p, b)
		pw.MulAT(b, &pb)
		pw.Symmetrize()
		mw := w.MulVecT(nil, dm.M1)
		c2, c3 := dm.TriplesCoef()
		got.AddSymMatOuter(-c2, &pw, mw)
		got.AddOuter(c3, mw)
		diff := got.Clone()
		diff.Sub(diff, direct)
		if rel := diff.NormFrob() / direct.NormFrob(); !(rel <= 1e-12) {
			t.Errorf("%v alpha0 %v: ||T from the basis - T direct|| / ||T|| = %.3g", v.variant, v.alpha0, rel)
		}
		raw := *dm
		raw.Variant = Raw
		pq, err := raw.PairsTimes(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var qp mat.Dense
		qp.MulAT(q, pq)
		qp.Sub(&qp, p)
		if rel := qp.NormFrob() / p.NormFrob(); !(rel <= 1e-12) {
			t.Errorf("%v: ||Q^T E[x1 x2^T] Q - WhitenedRaw's pairs|| / ||pairs|| = %.3g", v.variant, rel)
		}
	}
}

// TestTriplesCoef: the coefficients of each variant.
func TestTriplesCoef(t *testing.T) {
	for _, c := range []struct {
		m      DocMoments
		c2, c3 float64
	}{
		{DocMoments{Variant: Raw}, 0, 0},
		{DocMoments{Variant: Central}, 1, 2},
		{DocMoments{Variant: LDA, Alpha0: 2}, 0.5, 2 * 4.0 / (4 * 3)},
	} {
		if c2, c3 := c.m.TriplesCoef(); c2 != c.c2 || math.Abs(c3-c.c3) > 1e-15 {
			t.Errorf("%v: TriplesCoef = %v, %v, want %v, %v", c.m.Variant, c2, c3, c.c2, c.c3)
		}
	}
}
