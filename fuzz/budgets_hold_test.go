package fuzz

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/fstest"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/mat"
)

// TestBudgetsHold runs the readers and learners of the fuzz targets on
// inputs larger than the fuzzer makes (a CSV of 2000 x 20, a corpus of
// 6000 entries, 400 samples of 9 variables...) under the targets'
// budgets: the constants must hold for ordinary data, or the targets
// would report allocations that are no runaway.
func TestBudgetsHold(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	var csv, ints bytes.Buffer
	for i := 0; i < 2000; i++ {
		for j := 0; j < 20; j++ {
			if j > 0 {
				csv.WriteByte(',')
				ints.WriteByte(',')
			}
			fmt.Fprintf(&csv, "%.6g", r.NormFloat64()*100)
			fmt.Fprintf(&ints, "%d", r.IntN(4))
		}
		csv.WriteByte('\n')
		ints.WriteByte('\n')
	}
	var data *linear.Data
	var err error
	bounded(t, "linear.ReadCSV", readerBudget, csv.Len(), func() {
		data, err = linear.ReadCSV(bytes.NewReader(csv.Bytes()), nil)
	})
	if err != nil || data.NumSamples() != 2000 {
		t.Fatalf("linear.ReadCSV: %v", err)
	}
	var tx *treemix.Data
	bounded(t, "treemix.ReadCSV", readerBudget, ints.Len(), func() {
		tx, err = treemix.ReadCSV(bytes.NewReader(ints.Bytes()), &treemix.CSVOptions{})
	})
	if err != nil {
		t.Fatalf("treemix.ReadCSV: %v", err)
	}

	const docs, words, perDoc = 200, 500, 30
	var uci, text bytes.Buffer
	fmt.Fprintf(&uci, "%d\n%d\n%d\n", docs, words, docs*perDoc)
	for d := 1; d <= docs; d++ {
		for _, w := range r.Perm(words)[:perDoc] {
			fmt.Fprintf(&uci, "%d %d %d\n", d, w+1, 1+r.IntN(5))
			fmt.Fprintf(&text, "w%c%c%c ", 'a'+w%26, 'a'+w/26%26, 'a'+r.IntN(3))
		}
	}
	var c *moments.Corpus
	bounded(t, "moments.ReadUCI", readerBudget, uci.Len(), func() {
		c, err = moments.ReadUCI(bytes.NewReader(uci.Bytes()), nil, nil)
	})
	if err != nil {
		t.Fatalf("moments.ReadUCI: %v", err)
	}
	bounded(t, "moments.ReadText", readerBudget, text.Len(), func() {
		_, err = moments.ReadText(fstest.MapFS{"a": {Data: text.Bytes()}}, nil)
	})
	if err != nil {
		t.Fatalf("moments.ReadText: %v", err)
	}
	bounded(t, "topic.LearnLDA", topicBudget, c.NNZ()+c.VocabSize(), func() {
		_, err = topic.LearnLDA(context.Background(), c, 5, 1, &topic.Options{Seed: 1})
	})
	t.Logf("LDA: %v", err)

	x := mat.Zeros(400, 9)
	for i := 0; i < 400; i++ {
		h := r.ExpFloat64()
		for j := 0; j < 9; j++ {
			x.Set(i, j, h*float64(1+j%3)+r.ExpFloat64())
		}
	}
	sm, err := moments.NewSampleMoments(context.Background(), moments.DenseSamples{X: x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	third := &linear.SampleThird{Moments: sm, Src: moments.DenseSamples{X: x}}
	bounded(t, "linear.LearnDAG", linearBudget, 400*9+81, func() {
		_, err = linear.LearnDAG(context.Background(), sm.Sigma, third, 2, &linear.DAGOptions{})
	})
	t.Logf("LearnDAG: %v", err)
	bounded(t, "linear.LearnObservedBN", linearBudget, 400*9+81, func() {
		_, err = linear.LearnObservedBN(context.Background(), sm.Sigma, third, &linear.DAGOptions{})
	})
	t.Logf("LearnObservedBN: %v", err)

	sub := tx.Select([]int{0, 1, 2, 3, 4, 5})
	n, p, d := sub.Dims()
	bounded(t, "treemix.Learn", treemixBudget, treemixCells(n, p, d, 4), func() {
		_, _, err = treemix.Learn(context.Background(), treemix.Empirical(sub, &treemix.Options{}), 2, &treemix.LearnOptions{})
	})
	t.Logf("treemix.Learn: %v", err)
	bounded(t, "treemix.EM", treemixBudget, treemixCells(n, p, d, 0)*2*11*4, func() {
		_, _, err = treemix.LearnEM(context.Background(), sub, treemix.RandomStart(sub, 2, 14), &treemix.EMOptions{MaxIter: 10})
	})
	t.Logf("treemix.EM: %v", err)
}
