package moments

import (
	"bytes"
	"strings"
)

// stripMarkup returns text with HTML and XML markup replaced by spaces
// (see TextOptions.StripMarkup). It returns text itself when there is no
// markup; otherwise it writes the result in buf (grown as needed) and
// returns it with buf. It jumps from one '<' or '&' to the next, copying
// the text between them whole.
func stripMarkup(text, buf []byte) (out, bufOut []byte) {
	copied := 0 // text[:copied] is accounted for in out
	var m markupFinds
	lt := bytes.IndexByte(text, '<')
	amp := bytes.IndexByte(text, '&')
	i := 0
	for {
		// The next '<' or '&' at or after i.
		if lt >= 0 && lt < i {
			lt = nextByte(text, i, '<')
		}
		if amp >= 0 && amp < i {
			amp = nextByte(text, i, '&')
		}
		switch {
		case lt < 0 && amp < 0:
			i = -1
		case lt < 0:
			i = amp
		case amp < 0:
			i = lt
		default:
			i = min(lt, amp)
		}
		if i < 0 {
			break
		}
		n := m.at(text, i)
		if n == 0 {
			i++
			continue
		}
		if out == nil {
			out = buf[:0]
		}
		out = append(out, text[copied:i]...)
		out = append(out, ' ')
		i += n
		copied = i
	}
	if out == nil {
		return text, buf
	}
	out = append(out, text[copied:]...)
	return out, out
}

// nextByte returns the index of the first c in text at or after i, or -1.
func nextByte(text []byte, i int, c byte) int {
	if j := bytes.IndexByte(text[i:], c); j >= 0 {
		return i + j
	}
	return -1
}

// markupFinds remembers the searches of markupAt across the calls of
// one stripMarkup, so that text with many '<' and no '>' (or no "-->",
// or no closing tag of a style or script element) is scanned once, not
// once per '<': the time stays linear in the text.
type markupFinds struct {
	gt, comment, style, script found
}

// found is the first match of a pattern at or after from (-1: none).
type found struct {
	from, at int
	valid    bool
}

// next returns the index of the first match at or after q, searching
// again only when q lies outside what the last search answered.
func (f *found) next(q int, search func(from int) int) int {
	if !f.valid || q < f.from || (f.at >= 0 && q > f.at) {
		f.from, f.at, f.valid = q, search(q), true
	}
	return f.at
}

// at returns the length of the markup (a character reference, a tag, a
// comment, a style or script element) that starts at text[i], a '<' or
// '&', or 0 if none does.
func (m *markupFinds) at(text []byte, i int) int {
	if text[i] == '&' {
		return charRef(text[i:])
	}
	if i+1 >= len(text) {
		return 0
	}
	next := text[i+1]
	if !(next == '/' || next == '!' || next == '?' || byteClass[next] == classLetter) {
		return 0
	}
	rest := text[i:]
	end := -1
	if bytes.HasPrefix(rest, []byte("<!--")) {
		if c := m.comment.next(i, func(from int) int { return index(text, from, []byte("-->")) }); c >= 0 {
			end = c - i + 3
		}
	} else if gt := m.gt.next(i, func(from int) int { return nextByte(text, from, '>') }); gt >= 0 {
		end = gt - i + 1
		// The contents of style and script elements are not text.
		for _, el := range [...]struct {
			name string
			f    *found
		}{{"style", &m.style}, {"script", &m.script}} {
			if len(rest) > len(el.name)+1 && strings.EqualFold(string(rest[1:1+len(el.name)]), el.name) &&
				(rest[1+len(el.name)] == '>' || byteClass[rest[1+len(el.name)]] == classSpace) {
				closeTag := []byte("</" + el.name)
				if c := el.f.next(i+end, func(from int) int { return indexFold(text, from, closeTag) }); c >= 0 {
					if gt := m.gt.next(c, func(from int) int { return nextByte(text, from, '>') }); gt >= 0 {
						end = gt - i + 1
					}
				}
			}
		}
	}
	return max(end, 0)
}

// index returns the index of the first sub in text at or after from, or -1.
func index(text []byte, from int, sub []byte) int {
	if j := bytes.Index(text[from:], sub); j >= 0 {
		return from + j
	}
	return -1
}

// charRef returns the length of the character reference (&name; &#digits;
// &#xhex;) at the start of s, or 0.
func charRef(s []byte) int {
	i := 1
	if i < len(s) && s[i] == '#' {
		i++
		if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
			i++
		}
	}
	start := i
	for i < len(s) && i-start < 10 && (byteClass[s[i]] == classLetter || ('0' <= s[i] && s[i] <= '9')) {
		i++
	}
	if i > start && i < len(s) && s[i] == ';' {
		return i + 1
	}
	return 0
}

// indexFold returns the index of the first sub (which starts with '<')
// in s at or after from, ignoring case, or -1.
func indexFold(s []byte, from int, sub []byte) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
