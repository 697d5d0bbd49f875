package moments

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// wordTable interns the words ReadText meets: an open-addressing hash
// table (linear probing, at most half full) over keys kept end to end in
// one byte arena, so that a lookup allocates nothing and a new word
// costs its bytes and a few words of table. Entry e is the key
// keys[ends[e-1]:ends[e]]; the first stops entries are not words (the
// stop words, and the words of ASCII letters shorter than MinWordLen
// when it is at most 3), the others the words, entry stops+id being word
// id. A slot holds the key's first eight bytes too, and tails its next
// eight, so that a word of at most 16 bytes (most words) is found
// without reading the arena.
type wordTable struct {
	slots []tableSlot
	mask  uint64
	shift uint // a key's home slot is the top bits of its hash, hash >> shift
	keys  []byte
	ends  []int
	tails []uint64 // bytes 8 to 15 of each key as in a head, 0 for short keys
	stops int
	seed  uint64
}

// tableSlot is a slot of a wordTable: meta is 0 for an empty slot, else
// the tag of the key (bits 40 to 63 of its hash, then its length up to
// 255) above its entry + 1; head is the key's first eight bytes, read
// little-endian, zero past its end.
type tableSlot struct {
	meta uint64
	head uint64
}

// newWordTable returns a table holding the stop words and, if minLen
// is at most 3, the words of fewer than minLen lower-case ASCII letters:
// the reader's own tokenizers count those (as words that are not) rather
// than test the length of every word.
func newWordTable(stop []string, minLen int) *wordTable {
	t := &wordTable{seed: rand.Uint64()}
	t.grow(max(1024, 4*len(stop)+2048))
	add := func(b []byte) {
		h, head, _ := t.hash(b)
		if _, found := t.find(b, h, head); !found {
			t.insert(b, h, head)
		}
	}
	for _, w := range stop {
		add([]byte(w))
	}
	if minLen <= 3 {
		for c := byte('a'); c <= 'z'; c++ {
			if minLen > 1 {
				add([]byte{c})
			}
			for d := byte('a'); minLen > 2 && d <= 'z'; d++ {
				add([]byte{c, d})
			}
		}
	}
	t.stops = len(t.ends)
	return t
}

// Multipliers of the hash (odd 64-bit constants with well mixed bits).
const (
	hashK1 = 0xe7037ed1a0b428db
	hashK2 = 0x8ebc6af09c88c6e3
)

// hashMix multiplies a by b to 128 bits and folds the halves together.
func hashMix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// hashHead is the hash of a key of n <= 8 bytes whose head (see
// tableSlot) is head; a longer key goes on from it with hashMore.
func (t *wordTable) hashHead(head uint64, n int) uint64 {
	return hashMix(head^t.seed, hashK1^uint64(n))
}

// headMask keeps the first n bytes (n <= 8) of a little-endian word.
func headMask(n int) uint64 { return ^uint64(0) >> (64 - 8*uint(n)) }

// loadHead returns the head of w (see tableSlot). It reads eight bytes
// at once when w's capacity allows, masking what lies past its end.
func loadHead(w []byte) uint64 {
	n := min(len(w), 8)
	if cap(w) >= 8 {
		return binary.LittleEndian.Uint64(w[:8]) & headMask(n)
	}
	var x uint64
	for i := n - 1; i >= 0; i-- {
		x = x<<8 | uint64(w[i])
	}
	return x
}

// hash returns the hash and head of w and whether w is all ASCII.
func (t *wordTable) hash(w []byte) (h, head uint64, ascii bool) {
	head = loadHead(w)
	h = t.hashHead(head, len(w))
	or := head
	for rest := w[min(len(w), 8):]; len(rest) > 0; {
		x := loadHead(rest)
		or |= x
		h = hashMix(h^x, hashK2)
		rest = rest[min(len(rest), 8):]
	}
	return h, head, or&0x8080808080808080 == 0
}

// tag is the tag (see tableSlot) of a key of n bytes with hash h.
func tag(h uint64, n int) uint64 { return h>>40<<8 | uint64(min(n, 255)) }

// find returns the entry of w, whose hash and head are h and head, and
// whether it is there.
func (t *wordTable) find(w []byte, h, head uint64) (int, bool) {
	want := tag(h, len(w))
	for i := h >> t.shift; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.meta == 0 {
			return 0, false
		}
		if s.meta>>32 == want && s.head == head {
			e := int(uint32(s.meta)) - 1
			if len(w) <= 8 || bytes.Equal(t.key(e)[8:], w[8:]) {
				return e, true
			}
		}
	}
}

// insert adds w, whose hash and head are h and head and which is not in
// the table, as the next entry and returns it.
func (t *wordTable) insert(w []byte, h, head uint64) int {
	if 2*(len(t.ends)+1) > len(t.slots) {
		t.grow(2 * len(t.slots))
	}
	e := len(t.ends)
	t.keys = append(t.keys, w...)
	t.ends = append(t.ends, len(t.keys))
	var tail uint64
	if len(w) > 8 {
		tail = loadHead(w[8:])
	}
	t.tails = append(t.tails, tail)
	t.place(h, head, len(w), e)
	return e
}

// insertHead is insert for a key of n <= 16 bytes given by its head
// and tail (bytes 8 to 15 as in a head).
func (t *wordTable) insertHead(head, tail uint64, n int, h uint64) int {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], head)
	binary.LittleEndian.PutUint64(b[8:], tail)
	return t.insert(b[:n], h, head)
}

// place puts entry e, a key of n bytes whose hash and head are h and
// head, in the first free slot.
func (t *wordTable) place(h, head uint64, n, e int) {
	i := h >> t.shift
	for t.slots[i].meta != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = tableSlot{meta: tag(h, n)<<32 | uint64(e+1), head: head}
}

// grow makes the table n slots (rounded up to a power of two) and places
// the entries again. Up to 2^24 slots, the slots' tags hold the top bits
// of the hashes that give the keys' homes, so the old slots are read in
// order and placed, in order too, without hashing the keys again.
func (t *wordTable) grow(n int) {
	b := bits.Len(uint(n - 1))
	n = 1 << b
	old := t.slots
	t.slots = make([]tableSlot, n)
	t.mask = uint64(n - 1)
	t.shift = uint(64 - b)
	if n <= 1<<24 {
		for _, s := range old {
			if s.meta != 0 {
				t.place(s.meta>>40<<40, s.head, int(s.meta>>32&0xff), int(uint32(s.meta))-1)
			}
		}
		return
	}
	for e := range t.ends {
		k := t.key(e)
		h, head, _ := t.hash(k)
		t.place(h, head, len(k), e)
	}
}

// key returns the bytes of entry e.
func (t *wordTable) key(e int) []byte {
	lo := 0
	if e > 0 {
		lo = t.ends[e-1]
	}
	return t.keys[lo:t.ends[e]]
}

// words returns the number of entries that are words (not stop words).
func (t *wordTable) words() int { return len(t.ends) - t.stops }

// word returns the bytes of word id.
func (t *wordTable) word(id int32) []byte { return t.key(t.stops + int(id)) }
