package moments

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"unicode/utf8"
)

// ReadText's own tokenizers, Words and those of Tagged, are run by the
// reader itself rather than through the Tokenizer's emit (ownTokenizer
// tells them): it finds the words (or fields) 64 bytes at a time, as the
// bits of a mask computed eight bytes at a time (SWAR: SIMD within a
// register), and looks a word of at most 16 ASCII letters up by two
// words of its bytes, lower-cased in registers, with no call per token
// and no copy. Anything else (longer words, bytes past ASCII) goes
// through the same logic as the Tokenizers, rune by rune where it is not
// ASCII, so the tokens are the same; the tests check them against the
// reader as it was before.

// Per-byte constants of the SWAR tests.
const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
	swarLow7  = 0x7f7f7f7f7f7f7f7f
	swarCase  = 0x2020202020202020
)

// swarIn returns, of the bytes of t (each below 0x80), those in
// [lo, hi] as their high bits.
func swarIn(t uint64, lo, hi byte) uint64 {
	return (t + (0x80-uint64(lo))*swarOnes) &^ (t + (0x7f-uint64(hi))*swarOnes) & swarHighs
}

// swarLetters returns the ASCII letters among the bytes of x as their
// high bits.
func swarLetters(x uint64) uint64 {
	return swarIn((x|swarCase)&swarLow7, 'a', 'z') &^ x
}

// swarSpaces returns the ASCII white space (that of byteClass) among the
// bytes of x as their high bits.
func swarSpaces(x uint64) uint64 {
	t := x & swarLow7
	return (swarIn(t, '\t', '\r') | swarIn(t, ' ', ' ')) &^ x
}

// swarEq returns the bytes of x equal to c (an ASCII byte) as their high
// bits.
func swarEq(x uint64, c byte) uint64 {
	return swarIn(x&swarLow7, c, c) &^ x
}

// endLetters returns the index of the first byte that is not an ASCII
// letter in text at or after i, or len(text).
func endLetters(text []byte, i int) int {
	for ; i+8 <= len(text); i += 8 {
		x := binary.LittleEndian.Uint64(text[i:])
		if m := ^swarLetters(x) & swarHighs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(text) && isLetter(text[i]) {
		i++
	}
	return i
}

// lowerHead returns the head (see tableSlot) of the n <= 8 ASCII letters
// at text[i:], lower-cased.
func lowerHead(text []byte, i, n int) uint64 {
	var x uint64
	if i+8 <= len(text) {
		x = binary.LittleEndian.Uint64(text[i:])
	} else {
		for j := i + n - 1; j >= i; j-- {
			x = x<<8 | uint64(text[j])
		}
	}
	return (x | swarCase) & headMask(n)
}

// addLetters counts the word of the ASCII letters text[i:e].
func (dc *docCounter) addLetters(text []byte, i, e int) {
	n := e - i
	if n <= 8 {
		dc.addHead(lowerHead(text, i, n), 0, n)
		return
	}
	if n <= 16 {
		dc.addHead(lowerHead(text, i, 8), lowerHead(text, i+8, n-8), n)
		return
	}
	if n < dc.minLen {
		return
	}
	t := dc.table
	ent, found := t.findLetters(text, i, e)
	if !found {
		// Lower-cased eight bytes at a time: they are all letters.
		buf := dc.buf[:0]
		for j := i; j < e; j += 8 {
			buf = binary.LittleEndian.AppendUint64(buf, lowerHead(text, j, min(8, e-j)))
		}
		buf = buf[:n]
		dc.buf = buf
		h, head, _ := t.hash(buf)
		ent = t.insert(buf, h, head)
		dc.count = append(dc.count, 0)
	}
	if dc.count[ent] == 0 {
		dc.touched = append(dc.touched, int32(ent))
	}
	dc.count[ent]++
}

// findLetters is find for the word of the ASCII letters text[i:e] (more
// than eight), lower-cased as they are read.
func (t *wordTable) findLetters(text []byte, i, e int) (int, bool) {
	n := e - i
	head := lowerHead(text, i, 8)
	h := t.hashHead(head, n)
	for j := i + 8; j < e; j += 8 {
		h = hashMix(h^lowerHead(text, j, min(8, e-j)), hashK2)
	}
	want := tag(h, n)
	for k := h >> t.shift; ; k = (k + 1) & t.mask {
		s := &t.slots[k]
		if s.meta == 0 {
			return 0, false
		}
		if s.meta>>32 != want || s.head != head {
			continue
		}
		ent := int(uint32(s.meta)) - 1
		key := t.key(ent)
		if len(key) != n {
			continue
		}
		same := true
		for j := 8; j < n && same; j += 8 {
			same = loadHead(key[j:]) == lowerHead(text, i+j, min(8, n-j))
		}
		if same {
			return ent, true
		}
	}
}

// addHead counts the word of n <= 16 lower-case ASCII letters whose
// first eight bytes are head and next eight tail (as in a head; 0 for a
// word of at most eight). It looks the word up first in the small cache
// of the words met last, whose slots stay in the processor's cache,
// then in the table (find, inlined, the word's slot and tail compared
// instead of its bytes).
func (dc *docCounter) addHead(head, tail uint64, n int) {
	if n < dc.shortLen {
		return
	}
	t := dc.table
	h := hashMix(head^t.seed, hashK1^uint64(n))
	if n > 8 {
		h = hashMix(h^tail, hashK2)
	}
	want := h>>40<<8 | uint64(n)
	c := &dc.cache[h>>16&uint64(len(dc.cache)-1)]
	ent := int(uint32(c.meta)) - 1
	if c.meta>>32 != want || c.head != head || (n > 8 && t.tails[ent] != tail) {
		for i := h >> t.shift; ; i = (i + 1) & t.mask {
			s := t.slots[i]
			if s.meta>>32 == want && s.head == head {
				ent = int(uint32(s.meta)) - 1
				if n <= 8 || t.tails[ent] == tail {
					break
				}
			}
			if s.meta == 0 {
				ent = t.insertHead(head, tail, n, h)
				dc.count = append(dc.count, 0)
				break
			}
		}
		*c = tableSlot{meta: want<<32 | uint64(ent+1), head: head}
	}
	if dc.count[ent] == 0 {
		dc.touched = append(dc.touched, int32(ent))
	}
	dc.count[ent]++
}

// The runs the reader's scans look for, 64 bytes at a time: the words
// of Words (ASCII letters and bytes of multi-byte runes), the fields of
// Tagged (bytes that are not ASCII white space).
const (
	runWords = iota
	runFields
)

// blockMask returns the bytes of b[:64] in a run of the kind as the bits
// of a word (bit j for b[j]).
func blockMask(b []byte, kind int) uint64 {
	b = b[:64]
	var m uint64
	for k := 0; k < 8; k++ {
		x := binary.LittleEndian.Uint64(b[8*k:])
		var r uint64
		if kind == runWords {
			r = (swarLetters(x) | x) & swarHighs
		} else {
			r = ^swarSpaces(x) & swarHighs
		}
		// The high bits of the eight bytes gathered into the top byte.
		m |= (r >> 7 * 0x0102040810204080 >> 56) << (8 * k)
	}
	return m
}

// scanRuns counts the words of the runs of the kind in text, with sep
// as for countTagged. It finds the runs 64 bytes at a time, as the bits
// of a mask (the last bytes padded with spaces, in no run), and handles
// the most common runs itself: for Words, at most eight ASCII letters;
// for Tagged, at most seven ASCII letters and white space, or a sep and
// a tag of at most eight bytes. It passes the others to word or field.
func (dc *docCounter) scanRuns(text []byte, kind int, sep int) {
	var pad [64]byte
	n := len(text)
	minLen := dc.shortLen
	pending := -1 // the start of a run that goes on past the block
	var carry uint64
	for i := 0; i < n; i += 64 {
		block := text[i:]
		if len(block) < 64 {
			copy(pad[copy(pad[:], block):], "                                                                ")
			block = pad[:]
		}
		m := blockMask(block, kind)
		starts := m &^ (m<<1 | carry)
		ends := ^m & (m<<1 | carry)
		carry = m >> 63
		for {
			s := pending
			if s < 0 {
				if starts == 0 {
					break
				}
				s = i + bits.TrailingZeros64(starts)
				starts &= starts - 1
			}
			if ends == 0 {
				pending = s
				break
			}
			e := i + bits.TrailingZeros64(ends)
			ends &= ends - 1
			pending = -1
			if s+8 > n {
				dc.run(text, s, e, kind, sep)
				continue
			}
			x := binary.LittleEndian.Uint64(text[s:])
			if kind == runWords {
				l := e - s
				switch {
				case l <= 8 && x&swarHighs&headMask(l) == 0:
					if l >= minLen {
						dc.addHead((x|swarCase)&headMask(l), 0, l)
					}
				case l > 8 && l <= 16 && s+16 <= n:
					x2 := binary.LittleEndian.Uint64(text[s+8:]) & headMask(l-8)
					if (x|x2)&swarHighs != 0 {
						dc.word(text, s, e)
					} else if l >= minLen {
						dc.addHead(x|swarCase, x2|swarCase&headMask(l-8), l)
					}
				default:
					dc.word(text, s, e)
				}
				continue
			}
			// The field's letters: l of them, the first eight in x, the
			// next in tail.
			var l int
			var tail uint64
			if nl := ^swarLetters(x) & swarHighs; nl != 0 {
				l = bits.TrailingZeros64(nl) >> 3
			} else if s+16 <= n {
				x2 := binary.LittleEndian.Uint64(text[s+8:])
				nl := ^swarLetters(x2) & swarHighs
				if nl == 0 {
					dc.field(text, s, e, sep)
					continue
				}
				l = 8 + bits.TrailingZeros64(nl)>>3
				tail = (x2 | swarCase) & headMask(l-8)
			} else {
				dc.field(text, s, e, sep)
				continue
			}
			if le := s + l; le < e {
				c := text[le]
				if int(c) != sep || l == 0 {
					if c >= utf8.RuneSelf {
						dc.field(text, s, e, sep)
					}
					continue
				}
				tag := e - le - 1
				if tag > 8 || le+9 > n {
					dc.field(text, s, e, sep)
					continue
				}
				if swarEq(binary.LittleEndian.Uint64(text[le+1:]), c)&headMask(tag) != 0 {
					continue // a second sep: the word would hold the first
				}
			}
			if l >= minLen {
				dc.addHead((x|swarCase)&headMask(min(l, 8)), tail, l)
			}
		}
	}
	if pending >= 0 {
		dc.run(text, pending, n, kind, sep)
	}
}

// run counts the words of the run text[s:e] of the kind.
func (dc *docCounter) run(text []byte, s, e, kind, sep int) {
	if kind == runWords {
		dc.word(text, s, e)
	} else {
		dc.field(text, s, e, sep)
	}
}

// word counts the words of text[s:e], a run of ASCII letters and bytes
// of multi-byte runes (text[e] is neither).
func (dc *docCounter) word(text []byte, s, e int) {
	if !hasHigh(text[s:e]) {
		dc.addLetters(text, s, e)
		return
	}
	// Runes past ASCII, as Words reads them: a word goes up to the first
	// rune that is not a letter, which it takes (the run's ASCII bytes
	// are all letters, so appendWord always moves on).
	for i := s; i < e; {
		var buf []byte
		buf, i = appendWord(dc.buf[:0], text[:e], i)
		if len(buf) > 0 {
			dc.add(buf)
		}
		dc.buf = buf
	}
}

// hasHigh says whether b has a byte above ASCII.
func hasHigh(b []byte) bool {
	var or uint64
	for ; len(b) >= 8; b = b[8:] {
		or |= binary.LittleEndian.Uint64(b)
	}
	for _, c := range b {
		or |= uint64(c)
	}
	return or&swarHighs != 0
}

// field counts the word of the field text[s:e] of tagged text (text[e]
// is white space or the end), with sep as for countTagged.
func (dc *docCounter) field(text []byte, s, e, sep int) {
	le := endLetters(text, s) // <= e: white space is no letter
	if le == e {
		dc.addLetters(text, s, e)
		return
	}
	c := text[le]
	if c >= utf8.RuneSelf {
		fieldSep := byte('a') // a sep that never acts, as taggedField reads it
		if sep >= 0 {
			fieldSep = byte(sep)
		}
		word, _ := taggedField(text, s, fieldSep, dc.buf[:0])
		if len(word) > 0 {
			dc.add(word)
		}
		dc.buf = word[:0]
		return
	}
	if int(c) != sep || le == s {
		return
	}
	for j := le + 1; j < e; j++ {
		if text[j] == c {
			return // a second sep: the word would hold the first
		}
	}
	dc.addLetters(text, s, le)
}

// countWords counts the tokens Words finds in text.
func (dc *docCounter) countWords(text []byte) { dc.scanRuns(text, runWords, -1) }

// countTagged counts the tokens Tagged(sep) finds in text; sep < 0 is a
// sep that never acts (a letter, white space or a byte above ASCII).
func (dc *docCounter) countTagged(text []byte, sep int) { dc.scanRuns(text, runFields, sep) }

// Code pointers of the tokenizers the reader runs itself.
var (
	wordsCode  = reflect.ValueOf(Words).Pointer()
	taggedCode = reflect.ValueOf(Tagged('/')).Pointer()
)

// ownTokenizer says whether tok is Words or a Tokenizer of Tagged, which
// the reader runs itself, and for Tagged returns its sep (-1 for a sep
// that never acts). Every Tokenizer of Tagged runs the same code, which
// tells them apart; the sep of one is found by asking it to split "a",
// c, "b" for each ASCII byte c that can be a sep: it gives "a" only for
// its own.
func ownTokenizer(tok Tokenizer) (own, tagged bool, sep int) {
	switch reflect.ValueOf(tok).Pointer() {
	case wordsCode:
		return true, false, -1
	case taggedCode:
		sep = -1
		for c := 0; c < utf8.RuneSelf; c++ {
			if byteClass[c] != classOther {
				continue
			}
			got := false
			tok([]byte{'a', byte(c), 'b'}, func(w []byte) { got = got || string(w) == "a" })
			if got {
				sep = c
			}
		}
		return true, true, sep
	}
	return false, false, -1
}
