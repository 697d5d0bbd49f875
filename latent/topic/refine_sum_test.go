package topic

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/synth"
	"github.com/moments-go/moments/mat"
)

// TestExpElogKLSum checks the topic terms of Refine's bound, as
// expElogKL sums them (log Gammas below 10 through one logarithm of a
// product, rows in blocks), against the same terms computed one by one
// with math.Lgamma and summed exactly (math/big, 256 bits), on a lambda
// like Refine's: 40% of the entries equal to eta, the others from eta to
// 1e5. The tolerance is the terms' own error bounds, 4 eps (|log
// Gamma(v)| + 16) for each of ours and 4 eps |log Gamma(v)| for
// math.Lgamma, 8 eps |(eta - v) E[log beta]|, plus 64 eps times the sum
// of the terms' magnitudes for the summation (the blocked sum's bound is
// about (k + 32 + n/32) eps times it); the plain sum in entry order
// misses the exact one by far more on real corpora (1e-5 where this
// sum's error was 3e-9 on Brown's starting lambda).
func TestExpElogKLSum(t *testing.T) {
	const eps = 0x1p-52
	r := rand.New(rand.NewPCG(13, 1))
	n, k, eta := 3000, 7, 0.1
	lambda := mat.Zeros(n, k)
	data := lambda.RawData()
	for i := range data {
		if r.Float64() < 0.4 {
			data[i] = eta
		} else {
			data[i] = eta + math.Pow(10, -8+13*r.Float64())
		}
	}
	eb := mat.Zeros(n, k)
	got := expElogKL(eb, lambda, eta)

	sums := make([]float64, k)
	for i := 0; i < n; i++ {
		for j, v := range lambda.RawRow(i) {
			sums[j] += v
		}
	}
	exact := new(big.Float).SetPrec(256)
	var mag, tol float64
	add := func(x float64) {
		exact.Add(exact, new(big.Float).SetPrec(256).SetFloat64(x))
		mag += math.Abs(x)
	}
	lgEta, _ := math.Lgamma(eta)
	lgNEta, _ := math.Lgamma(float64(n) * eta)
	for _, v := range sums {
		lg, _ := math.Lgamma(v)
		add(lgNEta)
		add(-float64(n) * lgEta)
		add(-lg)
		tol += 4 * eps * (math.Abs(lgNEta) + float64(n)*math.Abs(lgEta) + math.Abs(lg))
	}
	for i := 0; i < n; i++ {
		for j, v := range lambda.RawRow(i) {
			lg, _ := math.Lgamma(v)
			elog := digamma(v) - digamma(sums[j])
			add(lg)
			add((eta - v) * elog)
			tol += 4*eps*(math.Abs(lg)+16) + 4*eps*math.Abs(lg) + 8*eps*math.Abs((eta-v)*elog)
			if want := math.Exp(elog); math.Abs(eb.At(i, j)-want) > 64*eps*(math.Abs(elog)+2)*want {
				t.Fatalf("exp(E log beta)[%d,%d] = %v, want %v", i, j, eb.At(i, j), want)
			}
		}
	}
	tol += 64 * eps * mag
	want, _ := exact.Float64()
	if math.Abs(got-want) > tol {
		t.Fatalf("topic terms %.17g, exact sum %.17g: error %.3g > %.3g", got, want, got-want, tol)
	}
	t.Logf("error %.3g, tolerance %.3g, sum of magnitudes %.3g", got-want, tol, mag)
}

// TestLogProd checks logProd against the sum of math.Log over factors
// from 1e-300 to 1e300 (some beyond its range, taken by their logarithm)
// to (number of factors) eps times the largest partial sum, and that it
// can fail: a factor left out is seen.
func TestLogProd(t *testing.T) {
	const eps = 0x1p-52
	r := rand.New(rand.NewPCG(2, 9))
	lp := newLogProd()
	var sum, peak float64
	const m = 5000
	for i := 0; i < m; i++ {
		x := math.Pow(10, -300+600*r.Float64())
		if i%3 == 0 {
			x = 0.001 + r.Float64()
		}
		lp.mul(x)
		sum += math.Log(x)
		peak = math.Max(peak, math.Abs(sum))
	}
	if got := lp.log(); math.Abs(got-sum) > m*eps*peak {
		t.Fatalf("logProd %.17g, sum of logs %.17g", got, sum)
	}
	lp.mul(2)
	if got := lp.log(); math.Abs(got-sum-math.Ln2) > m*eps*peak || math.Abs(got-sum) < 0.5 {
		t.Fatalf("after a factor 2: logProd %.17g, sum of logs + ln 2 %.17g", got, sum+math.Ln2)
	}
}

// TestDivide checks divide against c/z one by one: within 3 ulps of the
// correctly rounded quotient (its comment's bound) on z from 1e-300 to
// 1e300 (groups with a z outside [2^-250, 2^250] fall back to
// divisions), 0 where z is 0 or negative, for every length 0..11.
func TestDivide(t *testing.T) {
	const eps = 0x1p-52
	r := rand.New(rand.NewPCG(5, 5))
	for m := 0; m < 12; m++ {
		for trial := 0; trial < 200; trial++ {
			z, c, u := make([]float64, m), make([]float64, m), make([]float64, m)
			for i := range z {
				z[i] = math.Pow(10, -8+10*r.Float64())
				if trial%5 == 0 {
					z[i] = math.Pow(10, -300+600*r.Float64())
				}
				if r.IntN(20) == 0 {
					z[i] = float64(-r.IntN(2))
				}
				c[i] = float64(1 + r.IntN(5))
			}
			divide(u, c, z)
			for i := range z {
				want := 0.0
				if z[i] > 0 {
					want = c[i] / z[i]
				}
				if math.Abs(u[i]-want) > 3*eps*math.Abs(want) {
					t.Fatalf("m=%d: u[%d] = %v, c/z = %v/%v = %v", m, i, u[i], c[i], z[i], want)
				}
			}
		}
	}
}

// TestRefineDeadTopics checks that leaving topics out of a document's
// E-step (refineDead) changes Refine only at rounding level: on a
// generated corpus with a small alpha (0.004 per topic, as Refine meets
// on real text, so that topics do leave: the test asserts that some
// document's E-step ends with fewer live topics than k), refined from
// the true topics, with the E-steps run to a tight tolerance so that
// the number of iterations does not amplify rounding, the bounds of 4
// passes must agree to 1e-12 relative and the topics to 1e-9 relative
// with refineDead = 0, where no topic leaves.
func TestRefineDeadTopics(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	const k = 8
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = 0.004
	}
	model := synth.RandomLDA(r, 400, k, 0.05, alpha)
	train := model.NewCorpus(600, 60, 120, 5).Materialize()
	ctx := context.Background()
	raw := &LDAResult{Model: Model{Topics: model.Topics, Alpha: alpha}}
	opts := &RefineOptions{MaxPasses: 4, Tol: -1, DocTol: 1e-12, DocIters: 2000}
	got, rep, err := Refine(ctx, train, raw, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Some document must have lost topics under the final model.
	s := newEStepScratch(k)
	fewer := 0
	for i := 0; i < train.NumDocs(); i++ {
		d := train.Doc(i)
		gamma := make([]float64, k)
		for j := range gamma {
			gamma[j] = alpha[j] + float64(d.Len())/k
		}
		s.gather(got.Topics, d)
		s.estep(got.Alpha, d, gamma, 100, 1e-3)
		if s.live < k {
			fewer++
		}
	}
	if fewer == 0 {
		t.Fatal("no document's E-step dropped a topic: the test does not test refineDead")
	}
	old := refineDead
	refineDead = 0
	want, wantRep, err := Refine(ctx, train, raw, opts)
	refineDead = old
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range rep.Bounds {
		if w := wantRep.Bounds[p]; math.Abs(b-w) > 1e-12*math.Abs(w) {
			t.Fatalf("pass %d: bound %.17g, with every topic %.17g", p+1, b, w)
		}
	}
	var worst float64
	for i, v := range got.Topics.RawData() {
		w := want.Topics.RawData()[i]
		worst = math.Max(worst, math.Abs(v-w)/w)
	}
	if worst > 1e-9 {
		t.Fatalf("topics differ by %.3g relative from those with every topic", worst)
	}
	t.Logf("%d of %d documents drop topics; topics differ by %.3g relative", fewer, train.NumDocs(), worst)
}
