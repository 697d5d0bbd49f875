package moments

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/moments-go/moments/internal/csvscan"
	"github.com/moments-go/moments/mat"
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

// TestErrorKinds: every error data or options can cause is classified by
// a sentinel under errors.Is: too little data and a malformed document
// are ErrBadData, a negative Workers or a bad alpha0 ErrBadOption, NaN
// in samples ErrNotFinite.
func TestErrorKinds(t *testing.T) {
	ctx := context.Background()
	var b Builder
	if err := b.Add([]int32{0}, []uint32{1, 2}); !errors.Is(err, ErrBadData) {
		t.Errorf("Add, lengths differ: %v, want ErrBadData", err)
	}
	if err := b.Add([]int32{-1}, []uint32{1}); !errors.Is(err, ErrBadData) {
		t.Errorf("Add, negative id: %v, want ErrBadData", err)
	}
	if err := b.Add([]int32{2, 2}, []uint32{math.MaxUint32, 1}); !errors.Is(err, ErrBadData) {
		t.Errorf("Add, count overflow: %v, want ErrBadData", err)
	}
	if err := b.AddSorted(Doc{Words: []int32{1, 0}, Counts: []uint32{1, 1}}); !errors.Is(err, ErrBadData) {
		t.Errorf("AddSorted, unsorted: %v, want ErrBadData", err)
	}
	if err := b.AddSorted(Doc{Words: []int32{1}, Counts: nil}); !errors.Is(err, ErrBadData) {
		t.Errorf("AddSorted, lengths differ: %v, want ErrBadData", err)
	}

	// One document of one token: the mean exists, Pairs and Triples not.
	var one Builder
	if err := one.Add([]int32{0}, []uint32{1}); err != nil {
		t.Fatal(err)
	}
	one.SetVocabSize(2)
	c1 := one.Corpus()
	dm, err := NewDocMoments(ctx, c1, Raw, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dm.PairsTimes(ctx, mat.Identity(2)); !errors.Is(err, ErrBadData) {
		t.Errorf("PairsTimes with no two-token document: %v, want ErrBadData", err)
	}
	if _, err := dm.WhitenedTriples(ctx, mat.Identity(2)); !errors.Is(err, ErrBadData) {
		t.Errorf("WhitenedTriples with no three-token document: %v, want ErrBadData", err)
	}
	// A corpus of empty documents has no first moment.
	var empty Builder
	if err := empty.Add(nil, nil); err != nil {
		t.Fatal(err)
	}
	empty.SetVocabSize(2)
	if _, err := NewDocMoments(ctx, empty.Corpus(), Raw, 0, nil); !errors.Is(err, ErrBadData) {
		t.Errorf("NewDocMoments, no token: %v, want ErrBadData", err)
	}
	for _, a := range []float64{0, -1, math.NaN()} {
		if _, err := NewDocMoments(ctx, c1, LDA, a, nil); !errors.Is(err, ErrBadOption) {
			t.Errorf("NewDocMoments, alpha0 = %v: %v, want ErrBadOption", a, err)
		}
	}
	if _, err := NewDocMoments(ctx, c1, Raw, 0, &Options{Workers: -1}); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "Workers = -1") {
		t.Errorf("NewDocMoments, Workers = -1: %v, want ErrBadOption naming Workers", err)
	}

	x := mat.Zeros(3, 2)
	if _, err := NewSampleMoments(ctx, DenseSamples{X: x}, &Options{Workers: -2}); !errors.Is(err, ErrBadOption) {
		t.Errorf("NewSampleMoments, Workers = -2: %v, want ErrBadOption", err)
	}
	if _, err := NewSampleMoments(ctx, DenseSamples{X: mat.Zeros(0, 2)}, nil); !errors.Is(err, ErrBadData) {
		t.Errorf("NewSampleMoments, no samples: %v, want ErrBadData", err)
	}
	x.Set(1, 1, math.NaN())
	if _, err := NewSampleMoments(ctx, DenseSamples{X: x}, nil); !errors.Is(err, ErrNotFinite) || !strings.HasPrefix(ErrNotFinite.Error(), "moments: ") {
		t.Errorf("NewSampleMoments, NaN: %v, want ErrNotFinite with the prefix \"moments: \"", err)
	}
}
