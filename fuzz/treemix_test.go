package fuzz

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/moments-go/moments/latent/treemix"
)

// FuzzTreemixReadCSV: ReadCSV never panics; a failure is a *DataError
// (matching ErrBadData) with a line number inside the input; a success
// round-trips through WriteCSV; within readerBudget per byte of input.
func FuzzTreemixReadCSV(f *testing.F) {
	for _, c := range hostileCSVs() {
		f.Add(c, uint8(0))
	}
	f.Add([]byte("a,b,c\n0,1,2\n2,0,1\n"), uint8(0))
	f.Add([]byte("# c\n\n1, 2\n3,4\n"), uint8(5))
	f.Add([]byte("0,1\n1,x\n"), uint8(0))
	f.Add([]byte("0;1\n1;-2\n"), uint8(0))
	f.Add([]byte("0,1\n1\n"), uint8(2))
	f.Add([]byte("300\n"), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, states uint8) {
		opts := treemix.CSVOptions{States: int(states), MaxMemory: int64(readerBudget.bytes(len(in)) / 2)}
		var x *treemix.Data
		var err error
		bounded(t, "treemix.ReadCSV", readerBudget, len(in), func() {
			x, err = treemix.ReadCSV(bytes.NewReader(in), &opts)
		})
		if err != nil {
			var de *treemix.DataError
			if !errors.As(err, &de) || !errors.Is(err, treemix.ErrBadData) {
				t.Fatalf("error %v is not a DataError", err)
			}
			if de.Line < 0 || de.Line > bytes.Count(in, []byte{'\n'})+1 {
				t.Fatalf("line %d outside the input", de.Line)
			}
			return
		}
		n, p, d := x.Dims()
		if n == 0 || d < 1 || (states > 0 && d != int(states)) {
			t.Fatalf("dims %d %d %d", n, p, d)
		}
		var buf bytes.Buffer
		if err := treemix.WriteCSV(&buf, x); err != nil {
			t.Fatal(err)
		}
		header := 0
		if x.Names != nil {
			header = 1
		}
		y, err := treemix.ReadCSV(&buf, &treemix.CSVOptions{States: d, Header: header})
		if err != nil {
			t.Fatalf("re-reading: %v\n%s", err, buf.String())
		}
		for i := range n {
			if !slices.Equal(x.Row(i, nil), y.Row(i, nil)) {
				t.Fatalf("row %d differs after a round trip", i)
			}
		}
	})
}

// FuzzTreemixRankTest: RankTest on arbitrary small data never panics,
// returns a graph on the right nodes whose removed pairs all have a
// separator within the bound, and gives the same graph for any number
// of workers.
func FuzzTreemixRankTest(f *testing.F) {
	f.Add([]byte{3, 1, 0, 1, 2, 0, 1, 2, 2, 1, 0, 0, 1, 2, 1, 2, 0, 0, 0, 1, 1, 2, 2, 2, 1, 0, 1, 0})
	f.Add([]byte{0, 0, 1})
	f.Add(bytes.Repeat([]byte{5, 2, 9, 4, 4, 1, 0, 7}, 40))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 3 {
			return
		}
		p := 2 + int(b[0])%5
		d := 2 + int(b[1])%3
		r := 1 + int(b[2])%(d-1)
		body := b[3:]
		n := len(body) / p
		if n == 0 {
			return
		}
		x := treemix.NewData(n, p, d)
		for i := range n {
			for v := range p {
				x.Set(i, v, int(body[i*p+v])%d)
			}
		}
		opts := treemix.RankOptions{Eta: 1 + int(b[0])%2, MinCount: 1}
		res, err := treemix.LearnUnionGraph(context.Background(), treemix.Empirical(x, &treemix.Options{Workers: 1}), r, &opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Graph.NumNodes() != p {
			t.Fatalf("graph on %d nodes for %d variables", res.Graph.NumNodes(), p)
		}
		for u := range p {
			for v := u + 1; v < p; v++ {
				sep, removed := res.Separators[[2]int{u, v}]
				if removed == res.Graph.Has(u, v) || len(sep) > opts.Eta || slices.Contains(sep, u) || slices.Contains(sep, v) {
					t.Fatalf("pair %d-%d: edge %v, separator %v", u, v, res.Graph.Has(u, v), sep)
				}
			}
		}
		res3, err := treemix.LearnUnionGraph(context.Background(), treemix.Empirical(x, &treemix.Options{Workers: 3}), r, &opts)
		if err != nil || !res3.Graph.Equal(res.Graph) {
			t.Fatalf("workers change the graph: %v", err)
		}
	})
}
