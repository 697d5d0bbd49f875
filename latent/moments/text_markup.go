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
		n := markupAt(text, i)
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

// markupAt returns the length of the markup (a character reference, a
// tag, a comment, a style or script element) that starts at text[i], a
// '<' or '&', or 0 if none does.
func markupAt(text []byte, i int) int {
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
	var end int
	if bytes.HasPrefix(rest, []byte("<!--")) {
		end = bytes.Index(rest, []byte("-->"))
		if end >= 0 {
			end += 3
		}
	} else if end = bytes.IndexByte(rest, '>'); end >= 0 {
		end++
		// The contents of style and script elements are not text.
		for _, el := range []string{"style", "script"} {
			if len(rest) > len(el)+1 && strings.EqualFold(string(rest[1:1+len(el)]), el) &&
				(rest[1+len(el)] == '>' || byteClass[rest[1+len(el)]] == classSpace) {
				if close := indexFold(rest[end:], []byte("</"+el)); close >= 0 {
					if gt := bytes.IndexByte(rest[end+close:], '>'); gt >= 0 {
						end += close + gt + 1
					}
				}
			}
		}
	}
	return max(end, 0)
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

// indexFold is bytes.Index, ignoring case.
func indexFold(s, sub []byte) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
