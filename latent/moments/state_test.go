package moments

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/moments-go/moments/mat"
)

// TestStateReproducesPasses sums the chunks of MeanChunk and WideChunk
// in separate accumulators, moves each through MarshalBinary and
// UnmarshalBinary, merges them in order and checks that the results are
// the bits of the passes of DocMoments.
func TestStateReproducesPasses(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	const docs, n = 3000, 40
	var b Builder
	b.SetVocabSize(n)
	for i := 0; i < docs; i++ {
		l := 1 + r.IntN(12)
		ids := make([]int32, l)
		counts := make([]uint32, l)
		for j := range ids {
			ids[j], counts[j] = int32(r.IntN(n)), uint32(1+r.IntN(3))
		}
		if err := b.Add(ids, counts); err != nil {
			t.Fatal(err)
		}
	}
	c := b.Corpus()
	dm, err := NewDocMoments(ctx, c, Central, 0, &Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	same := func(what string, got, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: value %d is %v, the pass gives %v", what, i, got[i], want[i])
			}
		}
	}
	// fold sums the chunks of size docs each in a fresh accumulator, moves
	// it through its encoding and merges it into res.
	fold := func(size int, fresh func() interface {
		Add(Doc)
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}, merge func(dst, src any)) any {
		res := fresh()
		for lo := 0; lo < docs; lo += size {
			a := fresh()
			c.Range(lo, min(lo+size, docs), func(_ int, d Doc) { a.Add(d) })
			enc, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back := fresh()
			if err := back.UnmarshalBinary(enc); err != nil {
				t.Fatal(err)
			}
			merge(res, back)
		}
		return res
	}
	mean := fold(MeanChunk(docs), func() interface {
		Add(Doc)
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	} {
		return NewMeanAccumulator(n)
	}, func(dst, src any) { dst.(*MeanAccumulator).Merge(src.(*MeanAccumulator)) }).(*MeanAccumulator)
	m1, _ := mean.Finalize()
	same("M1", m1, dm.M1)
	if mean.nnz != dm.NNZ {
		t.Fatalf("nnz %d, want %d", mean.nnz, dm.NNZ)
	}

	x := mat.Zeros(n, 3)
	for i := 0; i < n; i++ {
		for j := range x.RawRow(i) {
			x.RawRow(i)[j] = r.NormFloat64()
		}
	}
	wide := WideChunk(docs, dm.NNZ, n)
	pairs := fold(wide, func() interface {
		Add(Doc)
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	} {
		return NewPairsAccumulator(x)
	}, func(dst, src any) { dst.(*PairsAccumulator).Merge(src.(*PairsAccumulator)) }).(*PairsAccumulator)
	p, _ := pairs.Finalize()
	// The raw variant: PairsTimes is Finalize's result itself.
	raw := &DocMoments{M1: dm.M1, NNZ: dm.NNZ, Variant: Raw, src: c}
	want, err := raw.PairsTimes(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	flat := func(m *mat.Dense) []float64 {
		var out []float64
		for i := 0; i < n; i++ {
			out = append(out, m.RawRow(i)...)
		}
		return out
	}
	same("Pairs X", flat(p), flat(want))

	triples := fold(wide, func() interface {
		Add(Doc)
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	} {
		return NewTriplesAccumulator(x)
	}, func(dst, src any) { dst.(*TriplesAccumulator).Merge(src.(*TriplesAccumulator)) }).(*TriplesAccumulator)
	tr, _, docs3, _ := triples.Finalize()
	ref := NewTriplesAccumulator(x)
	c.Range(0, docs, func(_ int, d Doc) { ref.Add(d) })
	if _, _, want3, _ := ref.Finalize(); docs3 != want3 {
		t.Fatalf("docs3 %d, want %d", docs3, want3)
	}
	wt, err := raw.WhitenedTriples(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	same("Triples(W,W,W)", tr.RawData(), wt.RawData())

	// Bytes of another shape are refused.
	enc, _ := NewMeanAccumulator(n).MarshalBinary()
	if err := NewMeanAccumulator(n + 1).UnmarshalBinary(enc); err == nil {
		t.Error("a mean state of 40 words decodes into 41")
	}
	if err := NewPairsAccumulator(x).UnmarshalBinary(enc[:5]); err == nil {
		t.Error("5 bytes decode into a pairs accumulator")
	}
}

// TestStateBadBytes: truncated, extended or garbled encodings are refused
// with an error matching ErrBadData, and the accumulator they were
// decoded into keeps its state bit for bit.
func TestStateBadBytes(t *testing.T) {
	const n = 6
	r := rand.New(rand.NewPCG(3, 9))
	x := mat.Zeros(n, 2)
	for i := range n {
		for j := range 2 {
			x.Set(i, j, r.NormFloat64())
		}
	}
	type acc interface {
		Add(Doc)
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}
	for name, a := range map[string]acc{
		"mean":    NewMeanAccumulator(n),
		"pairs":   NewPairsAccumulator(x),
		"triples": NewTriplesAccumulator(x),
	} {
		for i := range 5 {
			a.Add(Doc{Words: []int32{int32(i), int32(i + 1)}, Counts: []uint32{uint32(1 + i), 2}})
		}
		before, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		// Garbled: the first float vector's length field says one more.
		garbled := slices.Clone(before)
		lenAt := 8
		if name == "mean" {
			lenAt = 16
		}
		garbled[lenAt]++
		for what, b := range map[string][]byte{
			"truncated": before[:len(before)-8],
			"extended":  append(slices.Clone(before), 0, 0, 0, 0, 0, 0, 0, 0),
			"garbled":   garbled,
			"empty":     nil,
		} {
			if err := a.UnmarshalBinary(b); !errors.Is(err, ErrBadData) {
				t.Errorf("%s, %s bytes: %v, want ErrBadData", name, what, err)
			}
			after, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(after, before) {
				t.Errorf("%s, %s bytes: the state changed", name, what)
			}
		}
	}
}
