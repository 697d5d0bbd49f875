package linear

import (
	"errors"
	"strings"
	"testing"

	"github.com/moments-go/moments/mat"
)

func TestReadCSV(t *testing.T) {
	d, err := ReadCSV(strings.NewReader("# comment\na, b ,c\n1,2,3\n\n 4 , 5.5,-6e1\n"), &CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.FromRows([][]float64{{1, 2, 3}, {4, 5.5, -60}})
	if !mat.Equal(d.X, want) || len(d.Names) != 3 || d.Names[1] != "b" {
		t.Fatalf("got %v %q", d.X, d.Names)
	}
	if d.NumSamples() != 2 || d.Dim() != 3 {
		t.Fatalf("dims %d %d", d.NumSamples(), d.Dim())
	}
	blk := mat.Zeros(1, 3)
	d.Block(1, 2, blk)
	if blk.At(0, 2) != -60 {
		t.Fatalf("block %v", blk)
	}
	d, err = ReadCSV(strings.NewReader("1;2\n3;4\n"), &CSVOptions{Comma: ';'})
	if err != nil || d.Names != nil || d.NumSamples() != 2 {
		t.Fatalf("no header: %v %v", d, err)
	}
	for _, tc := range []struct {
		in          string
		line, field int
	}{
		{"1,2\n3\n", 2, 0},
		{"1,2\n3,x\n", 2, 2},
		{"1,2\n3,NaN\n", 2, 2},
		{"x,y\n1,inf\n", 2, 2},
		{"1,2\n1e400,1\n", 2, 1},
		{"a,b\n", 1, 0},
		{"", 0, 0},
	} {
		_, err := ReadCSV(strings.NewReader(tc.in), nil)
		var de *DataError
		if !errors.As(err, &de) || !errors.Is(err, ErrBadData) || de.Line != tc.line || de.Field != tc.field {
			t.Errorf("%q: %v (want line %d, field %d)", tc.in, err, tc.line, tc.field)
		}
	}
}

// TestReadCSVBOM reads CSV files that start with a UTF-8 byte order
// mark: without a header the first sample must survive (the mark used to
// make it look like a header), with a header the first name must not
// carry the mark.
func TestReadCSVBOM(t *testing.T) {
	d, err := ReadCSV(strings.NewReader("\ufeff1,2\n3,4\n"), &CSVOptions{})
	if err != nil || d.Names != nil || !mat.Equal(d.X, mat.FromRows([][]float64{{1, 2}, {3, 4}})) {
		t.Fatalf("no header: %v %v", d, err)
	}
	d, err = ReadCSV(strings.NewReader("\ufeffv0,v1\n1,2\n"), &CSVOptions{})
	if err != nil || len(d.Names) != 2 || d.Names[0] != "v0" || d.NumSamples() != 1 {
		t.Fatalf("header: %q %v", d.Names, err)
	}
}
