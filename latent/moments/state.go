package moments

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/moments-go/moments/mat"
)

// This file lets a distributed runner reproduce the passes of
// DocMoments bit for bit: it exposes the chunk sizes the passes cut the
// documents into, and encodes the accumulators, so that a worker can
// sum one chunk and the driver can merge the chunks in order.

// MeanChunk returns the number of documents per chunk of the M1 pass
// of NewDocMoments over total documents: chunk c holds documents
// c*size .. min((c+1)*size, total)-1. The result of the pass is
// MeanAccumulator.Finalize of a fresh accumulator into which the
// accumulators of the chunks (each fresh, with the chunk's documents
// added in order) are merged in chunk order.
func MeanChunk(total int) int { return chunkSize(total) }

// WideChunk returns the number of documents per chunk of the passes of
// DocMoments.PairsTimes and DocMoments.WhitenedTriples over total
// documents with nnz stored counts (DocMoments.NNZ) and n words (the
// length of M1), cut and merged as MeanChunk says. The triples pass
// flushes each chunk's accumulator at the chunk's end (MarshalBinary
// does too).
func WideChunk(total, nnz, n int) int { return wideChunk(total, nnz, n) }

// errState is the error for bytes that are not a state of the
// accumulator they are decoded into.
var errState = errors.New("moments: not an encoded accumulator of this shape")

// MarshalBinary encodes the sums of a: its documents, stored counts and
// per-word sums. UnmarshalBinary into an accumulator of the same
// vocabulary restores them exactly.
func (a *MeanAccumulator) MarshalBinary() ([]byte, error) {
	var e stateEncoder
	e.ints(a.docs, a.nnz)
	e.floats(a.sum)
	return e.b, nil
}

// UnmarshalBinary replaces the sums of a by those encoded in b, which
// must come from an accumulator of the same vocabulary size.
func (a *MeanAccumulator) UnmarshalBinary(b []byte) error {
	d := stateDecoder{b: b}
	a.docs, a.nnz = d.int(), d.int()
	d.floats(a.sum)
	return d.done()
}

// MarshalBinary encodes the sums of a (not X, which the decoding
// accumulator must be made with).
func (a *PairsAccumulator) MarshalBinary() ([]byte, error) {
	var e stateEncoder
	a.encode(&e)
	return e.b, nil
}

func (a *PairsAccumulator) encode(e *stateEncoder) {
	e.ints(a.docs)
	e.dense(a.sum)
	e.floats(a.v)
}

// UnmarshalBinary replaces the sums of a by those encoded in b, which
// must come from an accumulator for an X of the same shape (the
// product is only meaningful for the same X).
func (a *PairsAccumulator) UnmarshalBinary(b []byte) error {
	d := stateDecoder{b: b}
	a.decode(&d)
	return d.done()
}

func (a *PairsAccumulator) decode(d *stateDecoder) {
	a.docs = d.int()
	d.dense(a.sum)
	d.floats(a.v)
}

// MarshalBinary flushes the documents a holds back into its tensor (as
// the end of a chunk does) and encodes its sums (not W, which the
// decoding accumulator must be made with).
func (a *TriplesAccumulator) MarshalBinary() ([]byte, error) {
	a.flush()
	var e stateEncoder
	e.ints(a.docs3)
	e.floats(a.cube.RawData())
	e.dense(a.u)
	e.floats(a.v)
	a.pairs.encode(&e)
	return e.b, nil
}

// UnmarshalBinary replaces the sums of a by those encoded in b, which
// must come from an accumulator for a W of the same shape.
func (a *TriplesAccumulator) UnmarshalBinary(b []byte) error {
	d := stateDecoder{b: b}
	a.filled = 0
	a.docs3 = d.int()
	d.floats(a.cube.RawData())
	d.dense(a.u)
	d.floats(a.v)
	a.pairs.decode(&d)
	return d.done()
}

type stateEncoder struct{ b []byte }

func (e *stateEncoder) ints(v ...int) {
	for _, x := range v {
		e.b = binary.LittleEndian.AppendUint64(e.b, uint64(int64(x)))
	}
}

func (e *stateEncoder) floats(v []float64) {
	e.ints(len(v))
	for _, x := range v {
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x))
	}
}

func (e *stateEncoder) dense(m *mat.Dense) {
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		e.floats(m.RawRow(i))
	}
}

type stateDecoder struct {
	b   []byte
	bad bool
}

func (d *stateDecoder) int() int {
	if len(d.b) < 8 {
		d.bad = true
		return 0
	}
	v := int(int64(binary.LittleEndian.Uint64(d.b)))
	d.b = d.b[8:]
	return v
}

// floats fills dst, which must have the encoded length.
func (d *stateDecoder) floats(dst []float64) {
	if n := d.int(); n != len(dst) || len(d.b) < 8*n {
		d.bad = true
		return
	}
	for i := range dst {
		dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
	}
}

func (d *stateDecoder) dense(m *mat.Dense) {
	r, _ := m.Dims()
	for i := 0; i < r && !d.bad; i++ {
		d.floats(m.RawRow(i))
	}
}

func (d *stateDecoder) done() error {
	if d.bad || len(d.b) != 0 {
		return fmt.Errorf("%w (%d bytes left)", errState, len(d.b))
	}
	return nil
}
