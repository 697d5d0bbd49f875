package moments

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"unicode"
	"unicode/utf8"
)

// ReadText's own tokenizers, Words and those of Tagged, are run by the
// reader itself rather than through the Tokenizer's emit: it finds the
// words eight bytes at a time (SWAR: SIMD within a register) and looks a
// word of at most eight ASCII letters up by a single word of its bytes,
// lower-cased in the register, with no call per token. Anything not
// ASCII goes through the same rune by rune logic as the Tokenizers, so
// the tokens are the same.

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

// skipNonLetters returns the index of the first ASCII letter or byte of
// a multi-byte rune in text at or after i, or len(text).
func skipNonLetters(text []byte, i int) int {
	for ; i+8 <= len(text); i += 8 {
		x := binary.LittleEndian.Uint64(text[i:])
		if m := (swarLetters(x) | x) & swarHighs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(text) && text[i] < utf8.RuneSelf && !isLetter(text[i]) {
		i++
	}
	return i
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

// endField returns the index of the first ASCII white space in text at
// or after i (or len(text)) and whether sep (if sep >= 0) comes before
// it.
func endField(text []byte, i int, sep int) (int, bool) {
	seen := false
	for ; i+8 <= len(text); i += 8 {
		x := binary.LittleEndian.Uint64(text[i:])
		var s uint64
		if sep >= 0 {
			s = swarEq(x, byte(sep))
		}
		if m := swarSpaces(x); m != 0 {
			at := bits.TrailingZeros64(m)
			return i + at>>3, seen || s&(uint64(1)<<at-1) != 0
		}
		seen = seen || s != 0
	}
	for ; i < len(text) && byteClass[text[i]] != classSpace; i++ {
		if int(text[i]) == sep {
			seen = true
		}
	}
	return i, seen
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
	if n < dc.minLen {
		return
	}
	if n > 8 {
		dc.buf = appendLower(dc.buf[:0], text[i:e])
		dc.add(dc.buf)
		return
	}
	head := lowerHead(text, i, n)
	t := dc.table
	ent, h, found := t.findHead(head, n)
	if !found {
		ent = t.insertHead(head, n, h)
		dc.count = append(dc.count, 0)
	} else if ent < t.stops {
		return
	}
	id := int32(ent - t.stops)
	if dc.count[id] == 0 {
		dc.touched = append(dc.touched, id)
	}
	dc.count[id]++
}

// countWords counts the tokens Words finds in text.
func (dc *docCounter) countWords(text []byte) {
	n := len(text)
	for i := skipNonLetters(text, 0); i < n; i = skipNonLetters(text, i) {
		if text[i] < utf8.RuneSelf {
			e := endLetters(text, i)
			if e == n || text[e] < utf8.RuneSelf {
				dc.addLetters(text, i, e)
				i = e
				continue
			}
		}
		// A word with runes past ASCII, as Words reads it: up to the
		// first rune that is not a letter, which it takes.
		buf := dc.buf[:0]
		for i < n {
			if c := text[i]; c < utf8.RuneSelf {
				if !isLetter(c) {
					break
				}
				buf = append(buf, c|0x20)
				i++
				continue
			}
			r, size := utf8.DecodeRune(text[i:])
			i += size
			if !unicode.IsLetter(r) {
				break
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		}
		if len(buf) > 0 {
			dc.add(buf)
		}
		dc.buf = buf
	}
}

// countTagged counts the tokens Tagged(sep) finds in text; sep < 0 is a
// sep that never acts (a letter, white space or a byte above ASCII).
func (dc *docCounter) countTagged(text []byte, sep int) {
	fieldSep := byte('a') // what taggedField takes for a sep that never acts
	if sep >= 0 {
		fieldSep = byte(sep)
	}
	n := len(text)
	for i := 0; i < n; {
		if byteClass[text[i]] == classSpace {
			i++
			continue
		}
		e := endLetters(text, i)
		if e < n && text[e] >= utf8.RuneSelf {
			word, next := taggedField(text, i, fieldSep, dc.buf[:0])
			if len(word) > 0 {
				dc.add(word)
			}
			dc.buf = word[:0]
			i = next
			continue
		}
		word, end := e > i, e
		if e < n && byteClass[text[e]] != classSpace {
			// The field holds a word only if this is its only sep.
			var again bool
			end, again = endField(text, e+1, sep)
			word = word && sep >= 0 && int(text[e]) == sep && !again
		}
		if word {
			dc.addLetters(text, i, e)
		}
		i = end
	}
}

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
