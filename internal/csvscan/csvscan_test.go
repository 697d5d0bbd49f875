package csvscan_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/csvscan"
)

func isInt(f []byte) bool { _, err := strconv.Atoi(string(f)); return err == nil }

// Example reads a header, skips a comment and a blank line, and reports
// each record with its line number.
func Example() {
	in := "a, b\n# comment\n\n1, 2\n3,4\n"
	names, lines, err := csvscan.Records(strings.NewReader(in), ',', 0, isInt, func(line int, fields [][]byte) error {
		fmt.Printf("line %d: %q\n", line, fields)
		return nil
	})
	fmt.Println(names, lines, err)
	// Output:
	// line 4: ["1" "2"]
	// line 5: ["3" "4"]
	// [a b] 5 <nil>
}

func TestRecords(t *testing.T) {
	noop := func(int, [][]byte) error { return nil }
	cases := []struct {
		in     string
		header int
		names  int
		line   int    // of the error, 0: none
		msg    string // part of the error
	}{
		{"1,2\n3\n", 0, 0, 2, "1 fields, expected 2"},
		{"x,y\n1,2,3\n", 0, 2, 2, "3 fields, expected 2"},
		{"1,2\n", 1, 2, 0, ""},
		{"a,b\n", -1, 0, 0, ""},
		{"", 0, 0, 0, ""},
	}
	for _, c := range cases {
		names, _, err := csvscan.Records(strings.NewReader(c.in), ',', c.header, isInt, noop)
		if len(names) != c.names {
			t.Errorf("%q: names %q", c.in, names)
		}
		var e *csvscan.Error
		switch {
		case c.line == 0 && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.line > 0 && (!errors.As(err, &e) || e.Line != c.line || !strings.Contains(e.Msg, c.msg)):
			t.Errorf("%q: %v, want line %d: %s", c.in, err, c.line, c.msg)
		}
	}
	stop := errors.New("stop")
	if _, _, err := csvscan.Records(strings.NewReader("1\n2\n"), ',', 0, isInt, func(line int, _ [][]byte) error {
		if line == 2 {
			return stop
		}
		return nil
	}); err != stop {
		t.Errorf("the error of record: %v", err)
	}
	if got := csvscan.Format("p", 3, 2, "m"); got != "p: line 3, field 2: m" {
		t.Errorf("Format: %q", got)
	}
	if got := csvscan.Format("p", 0, 0, "m"); got != "p: m" {
		t.Errorf("Format: %q", got)
	}
}
