package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExampleCommand(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "ex.svg")
	var out, errb bytes.Buffer
	// A smaller model than the paper's keeps the test short; flags alone
	// (no command name) run example, the default.
	if err := run(bg, []string{"-n", "20000", "-vars", "60", "-k", "8", "-q", "-svg", svg}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{
		"8 hidden variables", "60 observed", "20000 samples",
		"\nLambda ", "\nA ", "raw P/R", "P/R tau 0.1", "reversed", "triangularity",
		"sampling + moments", "DLD", "LearnTWM", "whitened third moment", "total", "written to " + svg,
	} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	if errb.Len() != 0 {
		t.Fatalf("-q printed on stderr: %q", errb.String())
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("<svg")) && !bytes.HasPrefix(bytes.TrimSpace(b), []byte("<?xml")) {
		t.Fatalf("not an SVG: %.80q", b)
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	root, circles := "", 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			if se.Name.Local == "circle" {
				circles++
			}
		}
	}
	// one point per entry of Lambda (8 x 8) and A (60 x 8)
	if root != "svg" || circles < 8*8+60*8 {
		t.Fatalf("SVG root %q with %d points", root, circles)
	}

	// -svg "" writes nothing; the default command is example.
	out.Reset()
	if err := run(bg, []string{"example", "-n", "20000", "-vars", "60", "-k", "8", "-q", "-svg", ""}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "written to") {
		t.Fatalf("-svg \"\" wrote a file:\n%s", out.String())
	}
	for _, args := range [][]string{{"-vars", "20", "-k", "8"}, {"-n", "1"}, {"-gamma", "1"}, {"extra"}, {"-nonsense"}} {
		if err := run(bg, append([]string{"example", "-q"}, args...), &out, &errb); err == nil {
			t.Fatalf("example %v accepted", args)
		}
	}
}
