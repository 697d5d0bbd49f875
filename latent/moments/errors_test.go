package moments

import (
	"errors"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/csvscan"
)

// TestDataError: the text readers' malformed-input errors are
// *DataError values matching ErrBadData, with the line they name and the
// message they had before the type was shared.
func TestDataError(t *testing.T) {
	for _, tc := range []struct {
		read func() error
		line int
		msg  string
	}{
		{func() error { _, err := ReadUCI(strings.NewReader("1\n2\n1\n1 3 1\n"), nil, nil); return err }, 4,
			"moments: ReadUCI: line 4: word id 3 outside 1..2"},
		{func() error { _, err := ReadUCI(strings.NewReader("1\nx\n"), nil, nil); return err }, 2,
			`moments: ReadUCI: line 2: header value "x" is not a non-negative integer`},
		{func() error { _, err := ReadUCI(strings.NewReader("1\n2\n2\n1 1 1\n"), nil, nil); return err }, 0,
			"moments: ReadUCI: 1 entries, but the header announces 2"},
		{func() error { _, err := ReadLabels(strings.NewReader("a x\nb\n")); return err }, 2,
			`moments: ReadLabels: line 2: want "name label", got "b"`},
	} {
		err := tc.read()
		var de *DataError
		if !errors.As(err, &de) || !errors.Is(err, ErrBadData) || de.Line != tc.line || err.Error() != tc.msg {
			t.Errorf("error %v (%#v), want a DataError at line %d: %q", err, de, tc.line, tc.msg)
		}
	}
	// csvscan.ToDataError (what linear and treemix call) passes other
	// errors through.
	other := errors.New("other")
	if csvscan.ToDataError("x", other) != other || csvscan.ToDataError("x", nil) != nil {
		t.Error("ToDataError changed an error that is not the scanner's")
	}
	if got := (&DataError{Reader: "r", Line: 3, Field: 2, Msg: "m"}).Error(); got != "r: line 3, field 2: m" {
		t.Errorf("Error() = %q", got)
	}
}
