package moments

import (
	"context"
	"sync"

	"github.com/moments-go/moments/internal/par"
	"github.com/moments-go/moments/internal/simd"
	"github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/internal/vec"
	"github.com/moments-go/moments/kernels"
	"github.com/moments-go/moments/mat"
)

// wordIndex is a corpus transposed for PairsTimes: for each word, the
// documents of at least two tokens it occurs in, in document order,
// each with c/(l(l-1)) (c the word's count in the document, l its
// length), the weight PairsAccumulator gives it.
type wordIndex struct {
	ptr  []int // word w's entries are doc[ptr[w]:ptr[w+1]]
	doc  []int32
	coef []float64
	docs int // documents with at least two tokens
}

// wordIndexCache builds a DocMoments' wordIndex once, on first use; the
// copies of a DocMoments share it.
type wordIndexCache struct {
	once sync.Once
	idx  *wordIndex // nil when the index is not used
}

// useWordMajor reports whether PairsTimes transposes the corpus: when it
// has no more documents than words, so that the documents' products
// with X (docs x m) are no larger than one accumulator of the
// document-major pass (n x m) and stay in cache while the result is
// written one word at a time.
func useWordMajor(docs, n int) bool { return docs <= n }

// wordIndexBytes returns the bytes of the wordIndex of nnz entries over
// n words.
func wordIndexBytes(nnz, n int) int64 {
	return size.Add(size.Mul(nnz, 12), size.Float64s(n+1))
}

// index returns m's wordIndex, building it on first use (two serial
// passes over the documents), or nil when PairsTimes should not use one
// (see useWordMajor) or it would not fit the memory limit.
func (m *DocMoments) index() *wordIndex {
	if m.words == nil {
		return nil
	}
	m.words.once.Do(func() {
		n := len(m.M1)
		if !useWordMajor(m.src.NumDocs(), n) || m.opts.check("the word index", wordIndexBytes(m.NNZ, n)) != nil {
			return
		}
		idx := &wordIndex{ptr: make([]int, n+1)}
		m.src.Range(0, m.src.NumDocs(), func(_ int, d Doc) {
			if d.Len() < 2 {
				return
			}
			for _, w := range d.Words {
				idx.ptr[w+1]++
			}
		})
		for w := 0; w < n; w++ {
			idx.ptr[w+1] += idx.ptr[w]
		}
		idx.doc = make([]int32, idx.ptr[n])
		idx.coef = make([]float64, idx.ptr[n])
		next := append([]int(nil), idx.ptr[:n]...)
		m.src.Range(0, m.src.NumDocs(), func(i int, d Doc) {
			l := d.Len()
			if l < 2 {
				return
			}
			idx.docs++
			scale := 1 / (float64(l) * float64(l-1))
			for j, w := range d.Words {
				e := next[w]
				idx.doc[e] = int32(i)
				idx.coef[e] = float64(d.Counts[j]) * scale
				next[w]++
			}
		})
		m.words.idx = idx
	})
	return m.words.idx
}

// pairsWordMajor returns the estimate of E[x1 x2^T] X with the same bits
// as the document-major pass of PairsAccumulators (chunks of size
// documents, merged in order) and its Finalize: first T = the rows
// c_d^T X of the documents of at least two tokens (each as
// PairsAccumulator.Add computes it), then each word's row of the result
// from T and the word's entries, chunk by chunk as the accumulators sum
// them. It returns nil, 0 when no document has two tokens.
func (m *DocMoments) pairsWordMajor(ctx context.Context, idx *wordIndex, x *mat.Dense, chunk int) (*mat.Dense, int, error) {
	if idx.docs == 0 {
		return nil, 0, nil
	}
	n, k := x.Dims()
	docs := m.src.NumDocs()
	t := mat.Zeros(docs, k)
	docChunk := chunkSize(docs)
	err := par.For(ctx, (docs+docChunk-1)/docChunk, m.opts.workers(), func(c int) {
		lo, hi := c*docChunk, min((c+1)*docChunk, docs)
		var counts []float64
		m.src.Range(lo, hi, func(i int, d Doc) {
			if d.Len() < 2 {
				return
			}
			counts = addDocRows(t.RawRow(i), x, d, counts)
		})
	})
	if err != nil {
		return nil, 0, err
	}
	if m.opts.Progress != nil {
		m.opts.Progress("pairs", docs, docs)
	}
	out := mat.Zeros(n, k)
	td := t.RawData()
	lv := simd.Current()
	const wordBlock = 512
	err = par.For(ctx, (n+wordBlock-1)/wordBlock, m.opts.workers(), func(b int) {
		part := make([]float64, k)
		for w := b * wordBlock; w < min((b+1)*wordBlock, n); w++ {
			row := out.RawRow(w)
			var v float64
			for e, end := idx.ptr[w], idx.ptr[w+1]; e < end; {
				// One chunk's entries: its accumulator's row and weight.
				last := (int(idx.doc[e])/chunk + 1) * chunk
				var vc float64
				e0 := e
				for ; e < end && int(idx.doc[e]) < last; e++ {
					vc += idx.coef[e]
				}
				// The chunk's sum, then row += part as the accumulators
				// merge (an Axpy by 1 is that add; a sum of fused
				// multiply-adds from +0 may end at -0, which the add
				// makes +0, as Merge does).
				clear(part)
				vec.AxpyRowsAt(lv, part, td, t.Stride(), idx.doc[e0:e], idx.coef[e0:e])
				vec.AxpyAt(lv, 1, part, row)
				v += vc
			}
			if v != 0 {
				kernels.Axpy(-v, x.RawRow(w), row)
			}
		}
	})
	if err != nil {
		return nil, 0, err
	}
	out.Scale(1/float64(idx.docs), out)
	return out, idx.docs, nil
}
