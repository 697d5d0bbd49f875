package moments

import (
	"encoding/binary"
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
// must come from an accumulator of the same vocabulary size. Bytes that
// are not such an encoding return an error matching ErrBadData and leave
// a unchanged.
func (a *MeanAccumulator) UnmarshalBinary(b []byte) error {
	return unmarshalState(b, func(d *stateDecoder) {
		d.int(&a.docs)
		d.int(&a.nnz)
		d.floats(a.sum)
	})
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
// product is only meaningful for the same X). Bytes that are not such an
// encoding return an error matching ErrBadData and leave a unchanged.
func (a *PairsAccumulator) UnmarshalBinary(b []byte) error {
	return unmarshalState(b, a.decode)
}

func (a *PairsAccumulator) decode(d *stateDecoder) {
	d.int(&a.docs)
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
// must come from an accumulator for a W of the same shape. Bytes that
// are not such an encoding return an error matching ErrBadData and leave
// a unchanged (documents it holds included).
func (a *TriplesAccumulator) UnmarshalBinary(b []byte) error {
	return unmarshalState(b, func(d *stateDecoder) {
		if !d.dry {
			a.filled = 0
		}
		d.int(&a.docs3)
		d.floats(a.cube.RawData())
		d.dense(a.u)
		d.floats(a.v)
		a.pairs.decode(d)
	})
}

// unmarshalState runs decode over b twice: first dry, only checking
// that b holds an encoding of the right shape, then, if it does,
// storing the values. So a failed decoding changes nothing.
func unmarshalState(b []byte, decode func(*stateDecoder)) error {
	d := stateDecoder{b: b, dry: true}
	decode(&d)
	if d.bad || len(d.b) != 0 {
		return fmt.Errorf("%w: moments: not an encoded accumulator of this shape (%d bytes left)", ErrBadData, len(d.b))
	}
	d = stateDecoder{b: b}
	decode(&d)
	return nil
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

// stateDecoder reads what stateEncoder wrote; when dry it only checks
// the lengths and stores nothing.
type stateDecoder struct {
	b        []byte
	bad, dry bool
}

// read returns the next 8 bytes as an int (0 and bad if there are none).
func (d *stateDecoder) read() int {
	if len(d.b) < 8 {
		d.bad = true
		return 0
	}
	v := int(int64(binary.LittleEndian.Uint64(d.b)))
	d.b = d.b[8:]
	return v
}

// int reads an int into *dst (unless dry).
func (d *stateDecoder) int(dst *int) {
	if v := d.read(); !d.dry && !d.bad {
		*dst = v
	}
}

// floats fills dst (unless dry), which must have the encoded length.
func (d *stateDecoder) floats(dst []float64) {
	if n := d.read(); n != len(dst) || len(d.b) < 8*n {
		d.bad = true
		return
	}
	if d.dry {
		d.b = d.b[8*len(dst):]
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
