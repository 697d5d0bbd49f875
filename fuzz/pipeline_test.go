package fuzz

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/topic"
	"github.com/moments-go/moments/latent/treemix"
)

// The targets of this file follow a file through what the moments
// command does with it: read, form the moments, learn. The sizes come
// from the file (its header, its number of columns), so a small file can
// declare a job of gigabytes: issue 14 found a 60 KB UCI file that took
// 5 GB, and a 72 KB CSV of 3 x 12 000 values that took 4.6 GB and did not
// end. Each job runs with MaxMemory set to half its budget, which is
// proportional to the size of the file: the library must refuse what
// would need more (a *mat.MemoryError, matching mat.ErrTooLarge), so that
// what it allocates stays within the budget, or fail otherwise, or learn
// a finite model of the documented shape.

// pipelineBudget is per byte of the file (and a fixed allowance for the
// learner's working set at small sizes).
var pipelineBudget = budget{base: 16 << 20, perUnit: 4 << 10}

// pipelineMemory is the MaxMemory of a job on a file of the given size.
func pipelineMemory(size int) int64 {
	return int64(pipelineBudget.bytes(size) / 2)
}

// uciOf writes a corpus of docs documents over words words, perDoc
// entries each, in the UCI format.
func uciOf(r *rand.Rand, docs, words, perDoc int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d\n%d\n%d\n", docs, words, docs*perDoc)
	for d := 1; d <= docs; d++ {
		for _, w := range r.Perm(words)[:perDoc] {
			fmt.Fprintf(&b, "%d %d %d\n", d, w+1, 1+r.IntN(5))
		}
	}
	return b.Bytes()
}

// FuzzLDAFromUCI: ReadUCI then LDA with k = 1..8 (the path of moments
// lda), with MaxMemory, either fails or gives topics on the simplex,
// within pipelineBudget per byte of the docword file.
func FuzzLDAFromUCI(f *testing.F) {
	f.Add([]byte("3\n10000000\n3\n1 1 2\n2 9999999 1\n3 5 4\n"), uint8(1)) // W = 10^7 (issue 14), k = 2
	f.Add([]byte("3\n10000000\n3\n1 1 2\n2 9999999 1\n3 5 4\n"), uint8(2)) // k = 3
	f.Add([]byte("16777216\n3\n1\n1 1 1\n"), uint8(0))                     // D = 2^24
	f.Add([]byte("1\n1\n10000000\n1 1 1\n"), uint8(0))                     // NNZ = 10^7
	f.Add(uciOf(rand.New(rand.NewPCG(1, 1)), 20, 12, 5), uint8(2))
	f.Fuzz(func(t *testing.T, docword []byte, kb uint8) {
		mem := pipelineMemory(len(docword))
		k := 1 + int(kb%8)
		var c *moments.Corpus
		var res *topic.LDAResult
		var err error
		bounded(t, "ReadUCI + LDA", pipelineBudget, len(docword), func() {
			c, err = moments.ReadUCI(bytes.NewReader(docword), nil, &moments.UCIOptions{MaxMemory: mem})
			if err != nil {
				return
			}
			res, err = topic.LearnLDA(context.Background(), c, k, 1, &topic.Options{MaxMemory: mem, Passes: moments.Options{Workers: 1}})
		})
		if err != nil || res == nil {
			return
		}
		checkLDA(t, res, c.VocabSize(), k)
	})
}

// FuzzDAGFromCSV: linear.ReadCSV, NewSampleMoments and LearnDAG (the
// path of moments dag), with k from the input (2^62 included) and
// MaxMemory, either fail or give a finite DAG of the documented shape,
// within pipelineBudget per byte of the file.
func FuzzDAGFromCSV(f *testing.F) {
	for _, c := range hostileCSVs() {
		f.Add(c, uint8(1))
	}
	f.Add(hostileCSVs()[0], uint8(255)) // 3 x 12000 with k = 2^62
	var small bytes.Buffer
	r := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 40; i++ {
		h := r.ExpFloat64()
		fmt.Fprintf(&small, "%.4g,%.4g,%.4g,%.4g,%.4g,%.4g\n", h+r.ExpFloat64(), 2*h+r.ExpFloat64(), h-r.ExpFloat64(),
			r.ExpFloat64(), h+r.ExpFloat64(), 3*h+r.ExpFloat64())
	}
	f.Add(small.Bytes(), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, kb uint8) {
		mem := pipelineMemory(len(data))
		k := int(kb % 4)
		if kb == 255 {
			k = 1 << 62
		}
		var d *linear.Data
		var dag *linear.DAG
		var err error
		bounded(t, "ReadCSV + LearnDAG", pipelineBudget, len(data), func() {
			d, err = linear.ReadCSV(bytes.NewReader(data), &linear.CSVOptions{MaxMemory: mem})
			if err != nil {
				return
			}
			mo := moments.Options{Workers: 1, MaxMemory: mem}
			var sm *moments.SampleMoments
			sm, err = moments.NewSampleMoments(context.Background(), d, &mo)
			if err != nil {
				return
			}
			opts := &linear.DAGOptions{Options: linear.Options{MaxMemory: mem, DLD: linear.DLDOptions{Partitions: 4, Workers: 1}}, MaxIter: 30}
			dag, err = linear.LearnDAG(context.Background(), sm.Sigma, &linear.SampleThird{Moments: sm, Src: d, Passes: mo}, k, opts)
		})
		if err != nil || dag == nil {
			return
		}
		n := d.Dim()
		checkFinite(t, "A", dag.A, n, k)
		checkFinite(t, "Lambda", dag.Lambda, k, k)
		if !isPerm(dag.Order, k) {
			t.Fatalf("order %v", dag.Order)
		}
	})
}

// FuzzTreemixFromCSV: treemix.ReadCSV then Learn with r = 1..3 and Eta
// from the input (10^9 included), the path of moments treemix, with
// MaxMemory (a sixth of the budget: see below), either fail or give a valid mixture, within pipelineBudget
// per byte of the file.
func FuzzTreemixFromCSV(f *testing.F) {
	var wide bytes.Buffer
	r := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 10; i++ {
		for j := 0; j < 5000; j++ {
			if j > 0 {
				wide.WriteByte(',')
			}
			wide.WriteByte(byte('0' + r.IntN(3)))
		}
		wide.WriteByte('\n')
	}
	f.Add(wide.Bytes(), uint8(1), uint8(0))                                     // 10 x 5000 (issue 14)
	f.Add([]byte("x\n0\n1\n1\n2\n"), uint8(1), uint8(0))                        // one column
	f.Add([]byte("0,1,2,0\n1,2,0,1\n2,0,1,2\n0,0,1,1\n"), uint8(1), uint8(255)) // Eta = 10^9
	f.Fuzz(func(t *testing.T, data []byte, rb, eb uint8) {
		// MaxMemory bounds what one stage holds, and the treemix
		// pipeline runs five that can each reach it (the pair tables and
		// their counts, the rank tests, the reference views and their
		// SVDs, the decomposition, EM), so a total allocation within the
		// budget needs a limit of a sixth of it rather than a half.
		mem := pipelineMemory(len(data)) / 3
		rr := 1 + int(rb%3)
		eta := int(eb % 4)
		if eb == 255 {
			eta = 1_000_000_000
		}
		var x *treemix.Data
		var m *treemix.Mixture
		var err error
		bounded(t, "treemix ReadCSV + Learn", pipelineBudget, len(data), func() {
			x, err = treemix.ReadCSV(bytes.NewReader(data), &treemix.CSVOptions{MaxMemory: mem})
			if err != nil {
				return
			}
			o := treemix.Options{Workers: 1, MaxMemory: mem}
			m, _, err = treemix.Learn(context.Background(), treemix.Empirical(x, &o), rr, &treemix.LearnOptions{Options: o, Rank: treemix.RankOptions{Eta: eta}})
		})
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("invalid mixture: %v", err)
		}
		_, p, d := x.Dims()
		if mp, md, mr := m.Dims(); mp != p || md != d || mr != rr {
			t.Fatalf("mixture of %d over %d variables with %d states, want %d, %d, %d", mr, mp, md, rr, p, d)
		}
	})
}
