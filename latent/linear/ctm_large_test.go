package linear

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/moments-go/moments/latent/eval"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/synth"
)

// peakHeap samples runtime.MemStats.HeapAlloc every 5 ms until stop is
// called, which returns the largest value seen.
func peakHeap() (stop func() uint64) {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peak = max(peak, ms.HeapAlloc)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// ctmCorpus draws docs documents of lengths uniform in [minLen, maxLen]
// from m as m.NewCorpus does (the same model of a document, not the same
// random draws), in O(n) memory: m.NewCorpus holds n unit components
// with their alias tables, n x n numbers, which a vocabulary of 20 000
// words cannot afford. Each document's distribution q = Background + A h
// is sampled by inverting its cumulative sum.
func ctmCorpus(m *synth.CorrelatedTopics, docs, minLen, maxLen int, seed uint64) *moments.Corpus {
	n, k := m.Dims()
	r := rand.New(rand.NewPCG(seed, 0xc7))
	g := m.G()
	eta := make([]float64, k)
	q := make([]float64, n)
	cdf := make([]float64, n)
	var b moments.Builder
	b.SetVocabSize(n)
	for d := 0; d < docs; d++ {
		for j, p := range m.P {
			eta[j] = 0
			if r.Float64() < p {
				eta[j] = 1
			}
		}
		m.A.MulVec(q, g.MulVec(nil, eta))
		var sum float64
		for i, bg := range m.Background {
			sum += q[i] + bg
			cdf[i] = sum
		}
		l := minLen + r.IntN(maxLen-minLen+1)
		words := make([]int32, l)
		counts := make([]uint32, l)
		for t := range words {
			words[t] = int32(min(sort.SearchFloat64s(cdf, r.Float64()*sum), n-1))
			counts[t] = 1
		}
		if err := b.Add(words, counts); err != nil {
			panic(err)
		}
	}
	return b.Corpus()
}

// TestCorrelatedLargeVocab learns a correlated topic model over a
// generated vocabulary of MOMENTS_CTM_WORDS words (default 20 000; the
// test runs only when that variable or MOMENTS_CTM_LARGE is set, since
// it takes minutes on two cores) under the default memory limit (4 GiB),
// and logs the time, the peak heap (HeapAlloc sampled every 5 ms) and
// dist(A). It asserts that learning succeeds and that the peak heap
// stays under 1 GiB per 20 000 words (an n x n matrix of 20 000 words
// alone is 3.2 GB).
// It measures cost, not accuracy: synth.RandomCorrelatedTopics keeps
// every word within 80% of its background probability 1/n, so the
// topics' share of the cross moments falls as n grows and a corpus of
// 20 000 documents does not identify them (dist(A) near 1); accuracy is
// TestCorrelatedSampled's and, against the dense path,
// TestCorrelatedDenseAgrees's.
//
// Measured (MOMENTS_CTM_WORDS=20000, two shared cores, k = 5, 20 000
// documents of 100-300 tokens): 124 s, peak HeapAlloc 651 MB (which
// includes garbage awaiting collection: every l1 solution allocates an
// n-vector), 10 000 l1 problems; MOMENTS_CTM_WORDS=50000: 378 s, peak
// HeapAlloc 1523 MB.
func TestCorrelatedLargeVocab(t *testing.T) {
	n := 20000
	if s := os.Getenv("MOMENTS_CTM_WORDS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		n = v
	} else if os.Getenv("MOMENTS_CTM_LARGE") == "" {
		t.Skip("set MOMENTS_CTM_LARGE=1 (or MOMENTS_CTM_WORDS) to run")
	}
	k, docs := 5, 20000
	if s := os.Getenv("MOMENTS_CTM_DOCS"); s != "" {
		docs, _ = strconv.Atoi(s)
	}
	m := synth.RandomCorrelatedTopics(rand.New(rand.NewPCG(2, 7)), n, k, 200/float64(n))
	ta, _ := ctmTruth(m)
	c := ctmCorpus(m, docs, 100, 300, 1)
	runtime.GC()
	stop := peakHeap()
	start := time.Now()
	d, err := LearnCorrelatedTopics(context.Background(), c, k, &CorrelatedTopicsOptions{DAG: DAGOptions{Options: Options{Seed: 2}}})
	el := time.Since(start)
	peak := stop()
	if err != nil {
		t.Fatalf("%d words: %v", n, err)
	}
	dist := eval.Dist(ta, d.A)
	t.Logf("%d words, k = %d, %d docs, GOMAXPROCS %d: %.1f s, peak heap %.1f MB, dist(A) %.3g, TWM problems %d",
		n, k, docs, runtime.GOMAXPROCS(0), el.Seconds(), float64(peak)/1e6, dist, d.Coefficients.TWM.Problems)
	// O(n k): 1 GiB per 20 000 words.
	if limit := uint64(1<<30) * uint64(max(n, 20000)) / 20000; peak > limit {
		t.Errorf("peak heap %d bytes, above %d", peak, limit)
	}
}
