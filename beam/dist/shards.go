package dist

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/moments-go/moments/latent/linear"
	"github.com/moments-go/moments/latent/moments"
	"github.com/moments-go/moments/latent/treemix"
	"github.com/moments-go/moments/mat"
	"github.com/moments-go/moments/tensor3"
)

// Format says how a shard of documents is written.
type Format string

const (
	// UCI shards are UCI bag-of-words docword files, each with its own
	// header (documents D, words W, non-zeros NNZ) and 1-based document
	// ids local to the shard; W must equal the vocabulary size.
	UCI Format = "uci"
	// Counts shards hold one document a line: white-space separated
	// "id:count" pairs with 0-based word ids below the vocabulary size
	// (a word may repeat; its counts add). An empty line is an empty
	// document.
	Counts Format = "counts"
	// TextLines shards hold one document a line of text, split into
	// words by moments.Words; words missing from the vocabulary are
	// dropped.
	TextLines Format = "lines"
	// TextFiles shards are one document each, read as TextLines reads
	// a line.
	TextFiles Format = "files"
)

// shardFn reads one shard and emits its part of a pass. Kind selects
// the pass; the other fields are what that pass needs (they travel to
// the workers with the pipeline, so the large ones are paths).
type shardFn struct {
	Kind string

	// Documents.
	Format    Format
	VocabSize int
	VocabPath string // text formats: the vocabulary, one word a line
	NewIDPath string // the renumbering of the words, "" for none
	MatPath   string // X (pairs), W (triples, third) or the zetas (psi)

	// Blocks is the number of blocks a part is cut into; Shards the
	// number of shards (for the counts of the exact passes).
	Blocks, Shards int

	// Samples (numeric and discrete).
	Comma  int32
	Header int
	States int
	Mean   []float64
	Sets   [][]int

	mat   *mat.Dense
	vocab map[string]int32
	newID []int32
}

// Setup loads what the pass hands to every worker.
func (f *shardFn) Setup(ctx context.Context) error {
	var err error
	if f.MatPath != "" {
		if f.mat, err = getMatrix(ctx, f.MatPath); err != nil {
			return err
		}
	}
	if f.NewIDPath != "" {
		if f.newID, err = getInts(ctx, f.NewIDPath); err != nil {
			return err
		}
	}
	if f.VocabPath != "" {
		b, err := readAll(ctx, f.VocabPath)
		if err != nil {
			return err
		}
		f.vocab = make(map[string]int32)
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			w := string(bytes.TrimSpace(sc.Bytes()))
			if _, dup := f.vocab[w]; !dup {
				f.vocab[w] = int32(len(f.vocab))
			}
		}
	}
	return nil
}

// ProcessElement reads the shard and emits its part, cut into Blocks
// contiguous blocks of its Data keyed 0..Blocks-1 (each with the counts
// and maxima of the whole part; an empty shard emits empty blocks).
func (f *shardFn) ProcessElement(ctx context.Context, s ShardRef, emit func(int, Part)) error {
	p, err := f.part(ctx, s)
	if err != nil {
		return err
	}
	blocks := max(f.Blocks, 1)
	if len(p.Data) > 0 && len(p.Data) < blocks {
		panic(fmt.Sprintf("dist: a part of %d values cut into %d blocks", len(p.Data), blocks))
	}
	for b := 0; b < blocks; b++ {
		q := Part{Shard: s.Index, Count: append([]int64(nil), p.Count...), Max: p.Max}
		if len(p.Data) > 0 {
			q.Data = p.Data[b*len(p.Data)/blocks : (b+1)*len(p.Data)/blocks]
		}
		q.Count[len(q.Count)-1] = int64(len(encodePart(q)))
		emit(b, q)
	}
	return nil
}

// part computes the part of shard s; its last counter is left for the
// part's size.
func (f *shardFn) part(ctx context.Context, s ShardRef) (Part, error) {
	b, err := readAll(ctx, s.Path)
	if err != nil {
		return Part{}, fmt.Errorf("shard %s: %w", s.Path, err)
	}
	switch f.Kind {
	case "doc-count":
		c, err := f.readDocs(s.Path, b)
		if err != nil {
			return Part{}, err
		}
		data := make([]float64, 2*f.Shards)
		data[s.Index], data[f.Shards+s.Index] = float64(c.NumDocs()), float64(c.NNZ())
		return Part{Count: []int64{0}, Data: data}, nil
	case "doc-mean", "doc-pairs", "doc-triples":
		c, err := f.readDocs(s.Path, b)
		if err != nil {
			return Part{}, err
		}
		return f.docPart(c), nil
	case "sample-mean", "sample-cov", "sample-psi", "sample-third":
		x, err := f.readSamples(s.Path, b)
		if err != nil {
			return Part{}, err
		}
		return f.samplePart(x), nil
	case "tm-dims", "tm-count":
		x, err := f.readDiscrete(s.Path, b)
		if err != nil {
			return Part{}, err
		}
		return f.discretePart(ctx, x)
	}
	panic("dist: unknown pass " + f.Kind)
}

// named returns err with the shard's path as the reader of a
// *moments.DataError, or prefixed with it otherwise.
func named(path string, err error) error {
	var de *moments.DataError
	if errors.As(err, &de) {
		c := *de
		c.Reader = path
		return &c
	}
	return fmt.Errorf("shard %s: %w", path, err)
}

// blank reports whether b holds only white space and '#' comment lines.
func blank(b []byte) bool {
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' {
			return false
		}
	}
	return true
}

// readDocs parses a shard of documents into a corpus over the whole
// vocabulary (renumbered if the pass says so).
func (f *shardFn) readDocs(path string, b []byte) (*moments.Corpus, error) {
	var bld moments.Builder
	bld.SetVocabSize(f.VocabSize)
	switch f.Format {
	case UCI:
		if len(bytes.TrimSpace(b)) == 0 {
			break
		}
		c, err := moments.ReadUCI(bytes.NewReader(b), nil, nil)
		if err != nil {
			return nil, named(path, err)
		}
		if c.VocabSize() != f.VocabSize {
			return nil, &moments.DataError{Reader: path, Line: 2, Msg: fmt.Sprintf("the header declares %d words, the vocabulary has %d", c.VocabSize(), f.VocabSize)}
		}
		for i := 0; i < c.NumDocs(); i++ {
			if err := bld.AddSorted(c.Doc(i)); err != nil {
				return nil, named(path, err)
			}
		}
	case Counts:
		line := 0
		var ids []int32
		var counts []uint32
		for len(b) > 0 {
			line++
			var l []byte
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				l, b = b[:i], b[i+1:]
			} else {
				l, b = b, nil
			}
			ids, counts = ids[:0], counts[:0]
			for field, tok := range bytes.Fields(l) {
				colon := bytes.IndexByte(tok, ':')
				bad := func(msg string) error {
					return &moments.DataError{Reader: path, Line: line, Field: field + 1, Msg: fmt.Sprintf("%q: %s", tok, msg)}
				}
				if colon < 0 {
					return nil, bad("want id:count")
				}
				id, err := strconv.ParseInt(string(tok[:colon]), 10, 32)
				if err != nil || id < 0 || int(id) >= f.VocabSize {
					return nil, bad(fmt.Sprintf("want a word id in 0..%d", f.VocabSize-1))
				}
				n, err := strconv.ParseUint(string(tok[colon+1:]), 10, 32)
				if err != nil || n == 0 {
					return nil, bad("want a positive count")
				}
				ids = append(ids, int32(id))
				counts = append(counts, uint32(n))
			}
			if err := bld.Add(ids, counts); err != nil {
				return nil, &moments.DataError{Reader: path, Line: line, Msg: err.Error()}
			}
		}
	case TextLines, TextFiles:
		docs := [][]byte{b}
		if f.Format == TextLines {
			docs = bytes.Split(b, []byte{'\n'})
			if len(docs[len(docs)-1]) == 0 {
				docs = docs[:len(docs)-1]
			}
		}
		var ids []int32
		var counts []uint32
		for _, d := range docs {
			ids, counts = ids[:0], counts[:0]
			moments.Words(d, func(tok []byte) {
				if id, ok := f.vocab[string(tok)]; ok {
					ids = append(ids, id)
					counts = append(counts, 1)
				}
			})
			if err := bld.Add(ids, counts); err != nil {
				return nil, named(path, err)
			}
		}
	default:
		return nil, fmt.Errorf("dist: unknown document format %q", f.Format)
	}
	c := bld.Corpus()
	if f.newID != nil {
		var re moments.Builder
		re.SetVocabSize(len(f.newID))
		var ids []int32
		var counts []uint32
		for i := 0; i < c.NumDocs(); i++ {
			d := c.Doc(i)
			ids, counts = ids[:0], counts[:0]
			for j, w := range d.Words {
				ids = append(ids, f.newID[w])
				counts = append(counts, d.Counts[j])
			}
			if err := re.Add(ids, counts); err != nil {
				return nil, named(path, err)
			}
		}
		c = re.Corpus()
	}
	return c, nil
}

// docPart computes the part of a corpus for a document pass. Every
// value is a sum over the shard's documents (an accumulator's finalized
// average times the number of documents it averages), so that the parts
// of the shards add up.
func (f *shardFn) docPart(c *moments.Corpus) Part {
	switch f.Kind {
	case "doc-mean":
		n := f.VocabSize
		if f.newID != nil {
			n = maxID(f.newID) + 1
		}
		a := moments.NewMeanAccumulator(n)
		for i := 0; i < c.NumDocs(); i++ {
			a.Add(c.Doc(i))
		}
		m1, docs := a.Finalize()
		scale(m1, float64(docs))
		return Part{Count: []int64{int64(docs), int64(c.NNZ()), int64(c.NumDocs()), 0}, Data: m1}
	case "doc-pairs":
		a := moments.NewPairsAccumulator(f.mat)
		for i := 0; i < c.NumDocs(); i++ {
			a.Add(c.Doc(i))
		}
		out, docs := a.Finalize()
		data := flatten(out)
		scale(data, float64(docs))
		return Part{Count: []int64{int64(docs), 0}, Data: data}
	default: // doc-triples
		a := moments.NewTriplesAccumulator(f.mat)
		for i := 0; i < c.NumDocs(); i++ {
			a.Add(c.Doc(i))
		}
		t, p, docs3, docs2 := a.Finalize()
		td := append([]float64(nil), t.RawData()...)
		scale(td, float64(docs3))
		pd := flatten(p)
		scale(pd, float64(docs2))
		return Part{Count: []int64{int64(docs3), int64(docs2), 0}, Data: append(td, pd...)}
	}
}

func maxID(v []int32) int {
	m := -1
	for _, x := range v {
		m = max(m, int(x))
	}
	return m
}

// scale multiplies v by s; s = 0 leaves zeros (and no NaN from an empty
// accumulator).
func scale(v []float64, s float64) {
	for i := range v {
		if s == 0 {
			v[i] = 0
		} else {
			v[i] *= s
		}
	}
}

// flatten returns the rows of m, one after the other.
func flatten(m *mat.Dense) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		out = append(out, m.RawRow(i)...)
	}
	return out
}

// unflatten is the inverse of flatten.
func unflatten(v []float64, r, c int) *mat.Dense {
	m := mat.Zeros(r, c)
	for i := 0; i < r; i++ {
		copy(m.RawRow(i), v[i*c:(i+1)*c])
	}
	return m
}

// readSamples parses a shard of numeric samples (nil for a shard
// without any).
func (f *shardFn) readSamples(path string, b []byte) (*mat.Dense, error) {
	if blank(b) {
		return nil, nil
	}
	d, err := linear.ReadCSV(bytes.NewReader(b), &linear.CSVOptions{Comma: rune(f.Comma), Header: f.Header, MaxMemory: -1})
	if err != nil {
		if f.Header >= 0 && headerOnly(b) {
			return nil, nil
		}
		return nil, named(path, err)
	}
	return d.X, nil
}

// headerOnly reports whether b has a single line that is not blank or
// a comment (a shard holding the header alone).
func headerOnly(b []byte) bool {
	n := 0
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' {
			n++
		}
	}
	return n == 1
}

// samplePart computes the part of a block of samples (rows) for a
// sample pass: sums over the samples.
func (f *shardFn) samplePart(x *mat.Dense) Part {
	if x == nil {
		return Part{Count: []int64{0, 0}}
	}
	ns, d := x.Dims()
	switch f.Kind {
	case "sample-mean":
		sum := make([]float64, d)
		for i := 0; i < ns; i++ {
			for j, v := range x.RawRow(i) {
				sum[j] += v
			}
		}
		return Part{Count: []int64{int64(ns), 0}, Max: []int64{int64(d), int64(-d)}, Data: sum}
	case "sample-cov":
		center(x, f.Mean)
		var g mat.Dense
		g.GramCols(x)
		return Part{Count: []int64{int64(ns), 0}, Data: flatten(&g)}
	case "sample-psi":
		center(x, f.Mean)
		_, m := f.mat.Dims()
		var z, y, p mat.Dense
		z.Mul(x, f.mat)
		data := make([]float64, 0, m*d*d)
		for j := 0; j < m; j++ {
			y.Reset()
			y.Copy(x)
			for i := 0; i < ns; i++ {
				row := y.RawRow(i)
				zij := z.At(i, j)
				for c := range row {
					row[c] *= zij
				}
			}
			p.Reset()
			p.MulAT(&y, x)
			data = append(data, flatten(&p)...)
		}
		return Part{Count: []int64{int64(ns), 0}, Data: data}
	default: // sample-third
		center(x, f.Mean)
		_, k := f.mat.Dims()
		diag := make([]float64, d)
		for i := 0; i < ns; i++ {
			for j, v := range x.RawRow(i) {
				diag[j] += v * v * v
			}
		}
		var y mat.Dense
		y.Mul(x, f.mat)
		t := tensor3.New(k, nil)
		t.AddOuterRows(1, &y, nil)
		return Part{Count: []int64{int64(ns), 0}, Data: append(append([]float64(nil), t.RawData()...), diag...)}
	}
}

// center subtracts mean from every row of x.
func center(x *mat.Dense, mean []float64) {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		row := x.RawRow(i)
		for j, m := range mean {
			row[j] -= m
		}
	}
}

// readDiscrete parses a shard of discrete samples (nil for a shard
// without any).
func (f *shardFn) readDiscrete(path string, b []byte) (*treemix.Data, error) {
	if blank(b) {
		return nil, nil
	}
	x, err := treemix.ReadCSV(bytes.NewReader(b), &treemix.CSVOptions{Comma: rune(f.Comma), Header: f.Header, States: f.States, MaxMemory: -1})
	if err != nil {
		return nil, named(path, err)
	}
	if n, _, _ := x.Dims(); n == 0 {
		return nil, nil
	}
	return x, nil
}

// discretePart computes the part of discrete samples for the passes of
// treemix: their dimensions, or the joint counts of Sets.
func (f *shardFn) discretePart(ctx context.Context, x *treemix.Data) (Part, error) {
	if x == nil {
		return Part{Count: []int64{0, 0}}, nil
	}
	n, p, d := x.Dims()
	if f.Kind == "tm-dims" {
		return Part{Count: []int64{int64(n), 0}, Max: []int64{int64(p), int64(-p), int64(d)}}, nil
	}
	ts, err := treemix.Count(ctx, x, f.Sets, &treemix.Options{Workers: 1, MaxMemory: -1})
	if err != nil {
		return Part{}, err
	}
	var data []float64
	for _, t := range ts {
		data = append(data, t.P...)
	}
	return Part{Count: []int64{int64(n), 0}, Data: data}, nil
}
