package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// bg is the context of the tests that are not about cancellation.
var bg = context.Background()

func TestCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(bg, []string{"info"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "micro-tile") {
		t.Fatalf("info printed %q", out.String())
	}
	out.Reset()
	if err := run(bg, []string{"demo", "-n", "40"}, &out, &errb); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "generic") {
		t.Fatalf("demo printed %q", out.String())
	}
	if err := run(bg, []string{"nonsense"}, &out, &errb); err == nil {
		t.Fatal("unknown command accepted")
	}
	out.Reset()
	if err := run(bg, []string{"help"}, &out, &errb); err != nil || !strings.Contains(out.String(), "usage") {
		t.Fatalf("help: %v %q", err, out.String())
	}
	for _, c := range []string{"example", "demo", "dag", "lda", "treemix", "(the default)"} {
		if !strings.Contains(out.String(), c) {
			t.Fatalf("help lacks %q:\n%s", c, out.String())
		}
	}
	// No command runs example, the default (here failing fast on its
	// flags' check rather than learning).
	if err := run(bg, []string{"-k", "0"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "example") {
		t.Fatalf("default command: %v", err)
	}
}
