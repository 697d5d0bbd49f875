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

// legacySSE matches an instruction line whose mnemonic is not VEX or
// EVEX encoded (no leading V) and that names an XMM register: a legacy
// SSE instruction such as MOVQ AX, X13 or MOVSD X0, ret+8(FP).
var legacySSE = regexp.MustCompile(`^\s*([A-UW-Z][A-Z0-9]*)\s+.*\bX([0-9]|1[0-5])\b`)

// TestNoLegacySSE keeps the amd64 assembly of the module free of legacy
// SSE instructions on XMM registers. An SSE instruction that writes an
// XMM register while the upper halves of the YMM registers are dirty
// pays a state-transition or merge penalty: on the Intel Xeon VM of the
// benchmarks it cost about 120 ns each time, five times SecularAt's whole
// time on 64 elements, when the secular kernels loaded a constant with
// MOVQ AX, X13 after writing a YMM register. The kernels use the VEX
// forms (VMOVQ, VMOVSD) instead. It reads every *_amd64.s file under the
// module root, ignoring comments.
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
			text, _, _ := strings.Cut(sc.Text(), "//")
			if m := legacySSE.FindStringSubmatch(text); m != nil {
				t.Errorf("%s:%d: legacy SSE instruction %s on an XMM register: %q", path, line, m[1], strings.TrimSpace(text))
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
