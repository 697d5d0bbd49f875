package vec

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// legacySSE matches one instruction (a line's statements split at ';',
// labels and comments removed) whose mnemonic is not VEX or EVEX encoded
// (no leading V) and that names an XMM register as an operand: a legacy
// SSE instruction such as MOVQ AX, X13 or MOVSD X0, ret+8(FP).
var legacySSE = regexp.MustCompile(`^\s*([A-UW-Z][A-Z0-9]*)\s+(.*[\s,])?X([0-9]|1[0-5])\s*(,|$)`)

// statements returns the instructions of one line of Go assembly: the
// line without its comments, split at ';', each without a leading label
// and a trailing line continuation, and a #define line without its
// name and parameters (its body may hold instructions).
func statements(line string) []string {
	line, _, _ = strings.Cut(line, "//")
	for {
		i := strings.Index(line, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(line[i:], "*/")
		if j < 0 {
			line = line[:i]
			break
		}
		line = line[:i] + " " + line[i+j+2:]
	}
	if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "#define"); ok {
		rest = strings.TrimSpace(rest)
		name := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == '(' })
		if name < 0 {
			return nil
		}
		rest = rest[name:]
		if strings.HasPrefix(rest, "(") {
			_, rest, _ = strings.Cut(rest, ")")
		}
		line = rest
	}
	var out []string
	for _, st := range strings.Split(line, ";") {
		st = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(st), "\\"))
		if i := strings.Index(st, ":"); i > 0 && !strings.ContainsAny(st[:i], " \t,()$") {
			st = strings.TrimSpace(st[i+1:])
		}
		if st != "" {
			out = append(out, st)
		}
	}
	return out
}

// TestStatements pins what TestNoLegacySSE reads of a line: the
// statements of joined lines, labelled lines and macro bodies, and
// operands X0 to X15 only (not X16 as a symbol, nor ·X1(SB)).
func TestStatements(t *testing.T) {
	for _, c := range []struct {
		line   string
		legacy []string
	}{
		{"\tMOVQ AX, X13", []string{"MOVQ"}},
		{"\tVMOVQ AX, X13", nil},
		{"\tMOVSD X0, ret+48(FP) // result", []string{"MOVSD"}},
		{"loop: MOVQ AX, X0", []string{"MOVQ"}},
		{"\tVZEROUPPER; MOVQ AX, X1; RET", []string{"MOVQ"}},
		{"#define LOAD(r) MOVUPS (SI), X2 \\", []string{"MOVUPS"}},
		{"\tMOVUPS (SI), X2 \\", []string{"MOVUPS"}},
		{"\tMOVQ $X1, AX", nil},
		{"\tCALL ·X1(SB)", nil},
		{"\tADDQ X16, AX", nil},
		{"\t/* MOVQ AX, X0 */ VMOVQ AX, X0", nil},
		{"\tKMOVW AX, K1", nil},
		{"\tVADDPD Y1, Y2, Y3", nil},
	} {
		var got []string
		for _, st := range statements(c.line) {
			if m := legacySSE.FindStringSubmatch(st); m != nil {
				got = append(got, m[1])
			}
		}
		if strings.Join(got, " ") != strings.Join(c.legacy, " ") {
			t.Errorf("%q: legacy SSE %q, want %q", c.line, got, c.legacy)
		}
	}
}

// TestNoLegacySSE keeps the amd64 assembly of the module free of legacy
// SSE instructions on XMM registers. An SSE instruction that writes an
// XMM register while the upper halves of the YMM registers are dirty
// pays a state-transition or merge penalty: on the Intel Xeon VM of the
// benchmarks it cost about 120 ns each time, five times SecularAt's whole
// time on 64 elements, when the secular kernels loaded a constant with
// MOVQ AX, X13 after writing a YMM register. The kernels use the VEX
// forms (VMOVQ, VMOVSD) instead. It reads every *_amd64.s file under the
// module root, statement by statement (see statements).
func TestNoLegacySSE(t *testing.T) {
	root := filepath.Join("..", "..")
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_amd64.s") {
			return nil
		}
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			for _, st := range statements(sc.Text()) {
				if m := legacySSE.FindStringSubmatch(st); m != nil {
					t.Errorf("%s:%d: legacy SSE instruction %s on an XMM register: %q", path, line, m[1], st)
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Fatalf("found %d amd64 assembly files under %s, want the module's (at least 5)", files, root)
	}
}
