package dist

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/mat"
)

// The exact passes (Options.Exact) cut the corpus into the chunks of the
// in-process passes (moments.MeanChunk, moments.WideChunk) over the
// documents numbered across the sorted shards. A shard sums every chunk
// that lies inside it in a fresh accumulator and writes its encoding to
// TempDir; the documents of a chunk that straddles shards go, keyed by
// the chunk, through a GroupByKey to one worker that sums them in order.
// The driver merges the chunks' accumulators in chunk order, as
// par.Reduce does in process, so every moment is the same bits as the
// in-process pass, and so is the learned model.

// Piece is the documents of one shard that belong to a chunk straddling
// shards: the shard's index and the documents, encoded by encodeDocs.
type Piece struct {
	Shard int
	Docs  []byte
}

// chunkFn reads a shard for an exact pass.
type chunkFn struct {
	Shard shardFn
	// Offsets[s] is the number of documents in the shards before s;
	// Offsets[len] the total.
	Offsets []int
	Size    int    // documents per chunk
	Words   int    // words of the accumulators (M1's length)
	Out     string // chunk c goes to Out-c
}

// Setup loads what the shard reader needs.
func (f *chunkFn) Setup(ctx context.Context) error { return f.Shard.Setup(ctx) }

// ProcessElement sums the chunks inside shard s and emits the pieces of
// the others.
func (f *chunkFn) ProcessElement(ctx context.Context, s ShardRef, emit func(int, Piece)) error {
	b, err := readAll(ctx, s.Path)
	if err != nil {
		return fmt.Errorf("shard %s: %w", s.Path, err)
	}
	c, err := f.Shard.readDocs(s.Path, b)
	if err != nil {
		return err
	}
	lo, hi := f.Offsets[s.Index], f.Offsets[s.Index+1]
	if c.NumDocs() != hi-lo {
		return fmt.Errorf("shard %s: %d documents, %d when counted", s.Path, c.NumDocs(), hi-lo)
	}
	for g := lo; g < hi; {
		chunk := g / f.Size
		end := min((chunk+1)*f.Size, f.Offsets[len(f.Offsets)-1])
		stop := min(end, hi)
		if g == chunk*f.Size && stop == end {
			a := newChunkAcc(f.Shard.Kind, f.Words, f.Shard.mat)
			c.Range(g-lo, stop-lo, func(_ int, d moments.Doc) { a.Add(d) })
			enc, err := a.MarshalBinary()
			if err != nil {
				return err
			}
			if err := writeAll(ctx, fmt.Sprintf("%s-%d", f.Out, chunk), enc); err != nil {
				return err
			}
		} else {
			emit(chunk, Piece{Shard: s.Index, Docs: encodeDocs(c, g-lo, stop-lo)})
		}
		g = stop
	}
	return nil
}

// assembleFn sums the pieces of a straddling chunk in shard order.
type assembleFn struct {
	Kind    string
	MatPath string
	Words   int
	Out     string

	mat *mat.Dense
}

// Setup loads X or W.
func (f *assembleFn) Setup(ctx context.Context) error {
	var err error
	if f.MatPath != "" {
		f.mat, err = getMatrix(ctx, f.MatPath)
	}
	return err
}

// ProcessElement sums the pieces of chunk and writes its accumulator.
func (f *assembleFn) ProcessElement(ctx context.Context, chunk int, pieces func(*Piece) bool) error {
	var all []Piece
	var p Piece
	for pieces(&p) {
		all = append(all, p)
	}
	slices.SortFunc(all, func(a, b Piece) int { return a.Shard - b.Shard })
	a := newChunkAcc(f.Kind, f.Words, f.mat)
	for _, p := range all {
		if err := decodeDocs(p.Docs, a.Add); err != nil {
			return err
		}
	}
	enc, err := a.MarshalBinary()
	if err != nil {
		return err
	}
	return writeAll(ctx, fmt.Sprintf("%s-%d", f.Out, chunk), enc)
}

// chunkAcc is what the exact passes need of an accumulator.
type chunkAcc interface {
	Add(moments.Doc)
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

func newChunkAcc(kind string, words int, m *mat.Dense) chunkAcc {
	switch kind {
	case "doc-mean":
		return moments.NewMeanAccumulator(words)
	case "doc-pairs":
		return moments.NewPairsAccumulator(m)
	case "doc-triples":
		return moments.NewTriplesAccumulator(m)
	}
	panic("dist: no exact pass " + kind)
}

// encodeDocs encodes documents lo..hi-1 of c: per document the number
// of words, then (word, count) pairs, as uvarints.
func encodeDocs(c *moments.Corpus, lo, hi int) []byte {
	var b []byte
	c.Range(lo, hi, func(_ int, d moments.Doc) {
		b = binary.AppendUvarint(b, uint64(len(d.Words)))
		for j, w := range d.Words {
			b = binary.AppendUvarint(b, uint64(w))
			b = binary.AppendUvarint(b, uint64(d.Counts[j]))
		}
	})
	return b
}

// decodeDocs calls add with each document encoded in b.
func decodeDocs(b []byte, add func(moments.Doc)) error {
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	for len(b) > 0 {
		l, ok := next()
		if !ok || l > uint64(len(b)) {
			return fmt.Errorf("dist: corrupt documents of a chunk")
		}
		d := moments.Doc{Words: make([]int32, l), Counts: make([]uint32, l)}
		for j := range d.Words {
			w, ok1 := next()
			c, ok2 := next()
			if !ok1 || !ok2 {
				return fmt.Errorf("dist: corrupt documents of a chunk")
			}
			d.Words[j], d.Counts[j] = int32(w), uint32(c)
		}
		add(d)
	}
	return nil
}

func init() {
	register.DoFn3x1[context.Context, ShardRef, func(int, Piece), error](&chunkFn{})
	register.Emitter2[int, Piece]()
	register.DoFn3x1[context.Context, int, func(*Piece) bool, error](&assembleFn{})
	register.Iter1[Piece]()
}

// runExact runs an exact pass of fn.Kind (with X or W = m) in chunks of
// size documents over the shards that start at offsets, and calls merge
// with the chunks' accumulators in chunk order.
func (r *runner) runExact(ctx context.Context, name string, fn shardFn, offsets []int, size, words int, broadcast int64, m *mat.Dense, merge func(chunkAcc)) error {
	if ctx == nil {
		panic("dist: nil context")
	}
	values := words
	if m != nil {
		_, w := m.Dims()
		values = words * (w + 1) // the sums and the per-word weights
	}
	if err := r.checkMemory(name, values); err != nil {
		return err
	}
	start := time.Now()
	total := offsets[len(offsets)-1]
	out := r.tempPath("chunks-" + name)
	p, s := beam.NewPipelineWithRoot()
	refs := make([]ShardRef, len(r.shards))
	for i, path := range r.shards {
		refs[i] = ShardRef{Index: i, Path: path}
	}
	cf := &chunkFn{Shard: fn, Offsets: offsets, Size: size, Words: words, Out: out}
	pieces := beam.ParDo(s, cf, beam.CreateList(s, refs))
	beam.ParDo0(s, &assembleFn{Kind: fn.Kind, MatPath: fn.MatPath, Words: words, Out: out}, beam.GroupByKey(s, pieces))
	run := r.opts.Runner
	if run == nil {
		run = func(ctx context.Context, p *beam.Pipeline) error { _, err := prism.Execute(ctx, p); return err }
	}
	if err := run(ctx, p); err != nil {
		return fmt.Errorf("dist: the %s pass: %w", name, err)
	}
	var bytes int64
	for c := 0; c*size < total; c++ {
		path := fmt.Sprintf("%s-%d", out, c)
		b, err := readAll(ctx, path)
		if err != nil {
			return fmt.Errorf("dist: the %s pass: chunk %d: %w", name, c, err)
		}
		removeFile(ctx, path)
		bytes += int64(len(b))
		a := newChunkAcc(fn.Kind, words, m)
		if err := a.UnmarshalBinary(b); err != nil {
			return fmt.Errorf("dist: the %s pass: chunk %d: %w", name, c, err)
		}
		merge(a)
	}
	if r.opts.OnPass != nil {
		r.opts.OnPass(PassStats{Name: name, Shards: len(r.shards), Blocks: (total + size - 1) / size, PartBytes: bytes, BroadcastBytes: broadcast, Wall: time.Since(start)})
	}
	return nil
}

// exactMean counts the documents of every shard (one pass) and runs the
// M1 pass in the chunks of moments.MeanChunk.
func exactMean(ctx context.Context, r *runner, fn shardFn) (*DocMoments, error) {
	cfn := fn
	cfn.Kind, cfn.Shards = "doc-count", len(r.shards)
	part, err := r.run(ctx, "count", &cfn, 0, 2*len(r.shards))
	if err != nil {
		return nil, err
	}
	offsets := make([]int, len(r.shards)+1)
	nnz := 0
	for s := range r.shards {
		offsets[s+1] = offsets[s] + int(part.Data[s])
		nnz += int(part.Data[len(r.shards)+s])
	}
	total := offsets[len(r.shards)]
	acc := moments.NewMeanAccumulator(fn.VocabSize)
	mfn := fn
	mfn.Kind = "doc-mean"
	if err := r.runExact(ctx, "mean", mfn, offsets, moments.MeanChunk(total), fn.VocabSize, 0, nil,
		func(a chunkAcc) { acc.Merge(a.(*moments.MeanAccumulator)) }); err != nil {
		return nil, err
	}
	m1, docs1 := acc.Finalize()
	if m1 == nil {
		m1 = make([]float64, fn.VocabSize)
	}
	return &DocMoments{M1: m1, Docs1: docs1, NNZ: nnz, NumDocs: total, r: r, fn: fn, offsets: offsets}, nil
}
