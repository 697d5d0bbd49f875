package moments

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unsafe"

	memsize "github.com/moments-go/moments/internal/size"
	"github.com/moments-go/moments/mat"

	"github.com/moments-go/moments/internal/csvscan"
)

// ReadUCI reads a corpus in the UCI bag-of-words format: docword holds
// three header lines (the numbers of documents D, words W and non-zeros
// NNZ) and then NNZ lines "docID wordID count" with 1-based ids; vocab,
// if not nil, holds W lines, one word each. The entries may come in any
// order. Documents without entries are kept, as empty documents.
//
// Malformed input is an error that names the line: a missing or
// non-numeric field, an id out of range, a zero count, a repeated
// (document, word) pair, or a number of entries or vocabulary lines
// different from the header. What the reader allocates while reading
// grows with the entries it reads, never with what the header claims;
// a corpus that would need more than opts.MaxMemory is refused with a
// *mat.MemoryError before its document index (D+1 ints) is allocated.
// nil opts means the defaults. A UTF-8 byte order mark at the start of
// either file is skipped.
func ReadUCI(docword, vocab io.Reader, opts *UCIOptions) (*Corpus, error) {
	var o UCIOptions
	if opts != nil {
		o = *opts
	}
	sc := bufio.NewScanner(docword)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	header, line, err := readUCIHeader(sc)
	if err != nil {
		return nil, err
	}
	nd, nw, nnz := header[0], header[1], header[2]
	if nd > 1<<31-1 || nw > 1<<31-1 {
		return nil, lineError("moments: ReadUCI", 0, "%d documents and %d words are more than this reader supports", nd, nw)
	}
	entries, err := readUCIEntries(sc, line, nd, nw, nnz)
	if err != nil {
		return nil, err
	}
	// A header that announces vastly more documents or words than the
	// entries can use is corrupt, and would only make us allocate
	// gigabytes for it: allow up to maxEmpty documents and words beyond
	// the number of entries.
	const maxEmpty = 1 << 24
	if nd > nnz+maxEmpty || nw > nnz+maxEmpty {
		return nil, lineError("moments: ReadUCI", 0, "the header announces %d documents and %d words for only %d entries", nd, nw, nnz)
	}
	// The entries read, and the corpus: ptr (nd+1 ints), words and
	// counts (4 bytes each per entry).
	need := memsize.Add(memsize.Mul(nnz, int(unsafe.Sizeof(uciEntry{}))+8), memsize.Mul(nd+1, 8))
	if err := mat.CheckMemory(fmt.Sprintf("the corpus of %d documents and %d entries", nd, nnz), need, o.MaxMemory); err != nil {
		return nil, fmt.Errorf("moments: ReadUCI: %w", err)
	}
	c, err := uciCorpus(entries, nd, nw)
	if err != nil {
		return nil, err
	}
	if vocab != nil {
		names, err := readLines(vocab)
		if err != nil {
			return nil, fmt.Errorf("moments: ReadUCI: vocabulary: %w", err)
		}
		if len(names) != nw {
			return nil, lineError("moments: ReadUCI", 0, "vocabulary has %d words, the header announces %d", len(names), nw)
		}
		c.Vocab = names
	}
	return c, nil
}

// uciEntry is one "docID wordID count" line of a UCI file, ids 0-based,
// with its line number for the error about a repeated pair.
type uciEntry struct {
	doc, word int32
	count     uint32
	line      int
}

// readUCIHeader reads the three header values D, W and NNZ of a UCI
// file, one a line (blank lines skipped), and returns them with the
// number of lines read.
func readUCIHeader(sc *bufio.Scanner) (header [3]int, line int, err error) {
	for h := range header {
		for {
			if !sc.Scan() {
				if err := sc.Err(); err != nil {
					return header, line, lineError("moments: ReadUCI", line+1, "%v", err)
				}
				return header, line, lineError("moments: ReadUCI", line+1, "missing header (D, W and NNZ, one a line)")
			}
			line++
			b := sc.Bytes()
			if line == 1 {
				b = csvscan.TrimBOM(b)
			}
			if f := bytes.TrimSpace(b); len(f) > 0 {
				v, err := strconv.Atoi(string(f))
				if err != nil || v < 0 {
					return header, line, lineError("moments: ReadUCI", line, "header value %q is not a non-negative integer", f)
				}
				header[h] = v
				break
			}
		}
	}
	return header, line, nil
}

// readUCIEntries reads the entries that follow the header (line lines
// read so far) for nd documents, nw words and nnz entries, checking each
// line's fields and ids and the number of entries. What it holds grows
// with the entries read, not with the header's NNZ.
func readUCIEntries(sc *bufio.Scanner, line, nd, nw, nnz int) ([]uciEntry, error) {
	entries := make([]uciEntry, 0, min(nnz, 1<<16))
	for sc.Scan() {
		line++
		b := sc.Bytes()
		var v [3]uint64
		k := 0
		for k < 3 {
			b = bytes.TrimLeft(b, " \t\r")
			if len(b) == 0 {
				break
			}
			end := bytes.IndexAny(b, " \t\r")
			if end < 0 {
				end = len(b)
			}
			x, err := strconv.ParseUint(string(b[:end]), 10, 32)
			if err != nil {
				return nil, lineError("moments: ReadUCI", line, "%q is not a count or id", b[:end])
			}
			v[k] = x
			k++
			b = b[end:]
		}
		if k == 0 {
			continue // blank line
		}
		if k < 3 || len(bytes.TrimSpace(b)) > 0 {
			return nil, lineError("moments: ReadUCI", line, "want three fields \"docID wordID count\", got %q", sc.Bytes())
		}
		switch {
		case v[0] < 1 || v[0] > uint64(nd):
			return nil, lineError("moments: ReadUCI", line, "document id %d outside 1..%d", v[0], nd)
		case v[1] < 1 || v[1] > uint64(nw):
			return nil, lineError("moments: ReadUCI", line, "word id %d outside 1..%d", v[1], nw)
		case v[2] == 0:
			return nil, lineError("moments: ReadUCI", line, "zero count")
		}
		if len(entries) == nnz {
			return nil, lineError("moments: ReadUCI", line, "more entries than the %d the header announces", nnz)
		}
		entries = append(entries, uciEntry{int32(v[0] - 1), int32(v[1] - 1), uint32(v[2]), line})
	}
	if err := sc.Err(); err != nil {
		return nil, lineError("moments: ReadUCI", line+1, "%v", err)
	}
	if len(entries) != nnz {
		return nil, lineError("moments: ReadUCI", 0, "%d entries, but the header announces %d", len(entries), nnz)
	}
	return entries, nil
}

// uciCorpus sorts the entries by document and word and builds the
// corpus of nd documents over nw words, refusing a (document, word) pair
// given twice.
func uciCorpus(entries []uciEntry, nd, nw int) (*Corpus, error) {
	slices.SortFunc(entries, func(a, b uciEntry) int {
		if a.doc != b.doc {
			return int(a.doc - b.doc)
		}
		return int(a.word - b.word)
	})
	nnz := len(entries)
	c := &Corpus{vocabSize: nw, ptr: make([]int, nd+1), words: make([]int32, nnz), counts: make([]uint32, nnz)}
	for i, e := range entries {
		if i > 0 && e.doc == entries[i-1].doc && e.word == entries[i-1].word {
			a, b := entries[i-1].line, e.line
			return nil, lineError("moments: ReadUCI", 0, "lines %d and %d: document %d has word %d twice", min(a, b), max(a, b), e.doc+1, e.word+1)
		}
		c.ptr[e.doc+1]++
		c.words[i] = e.word
		c.counts[i] = e.count
		c.tokens += int(e.count)
	}
	for i := 0; i < nd; i++ {
		c.ptr[i+1] += c.ptr[i]
	}
	return c, nil
}

// UCIOptions controls ReadUCI. The zero value gives the defaults.
type UCIOptions struct {
	// MaxMemory bounds (bytes) the corpus the header announces; 0 means
	// mat.DefaultMaxMemory (4 GiB), negative no limit.
	MaxMemory int64
}

// readLines returns the non-blank lines of r, trimmed.
func readLines(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var out []string
	for n := 1; sc.Scan(); n++ {
		b := sc.Bytes()
		if n == 1 {
			b = csvscan.TrimBOM(b)
		}
		if s := string(bytes.TrimSpace(b)); s != "" {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}
