package treemix

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// WriteDOT writes the components of m as one Graphviz graph with a
// cluster per component (labelled with its weight): the edges of each
// network's Markov graph, directed parent -> child for forests. names,
// if not nil, label the variables.
func WriteDOT(w io.Writer, m *Mixture, names []string) error {
	bw := bufio.NewWriter(w)
	p, _, _ := m.Dims()
	label := func(v int) string {
		if names != nil && v < len(names) {
			return names[v]
		}
		return "Y" + strconv.Itoa(v)
	}
	fmt.Fprintln(bw, "digraph treemix {")
	fmt.Fprintln(bw, "  node [shape=circle];")
	for h, n := range m.Nets {
		fmt.Fprintf(bw, "  subgraph cluster_%d {\n", h)
		fmt.Fprintf(bw, "    label=%q;\n", fmt.Sprintf("H=%d, weight %.4f", h, m.Weights[h]))
		for v := range p {
			fmt.Fprintf(bw, "    \"h%d_%d\" [label=%q];\n", h, v, label(v))
		}
		if n.IsForest() {
			for v, ps := range n.Parents {
				for _, u := range ps {
					fmt.Fprintf(bw, "    \"h%d_%d\" -> \"h%d_%d\";\n", h, u, h, v)
				}
			}
		} else {
			for _, e := range n.Graph().Edges() {
				fmt.Fprintf(bw, "    \"h%d_%d\" -> \"h%d_%d\" [dir=none];\n", h, e[0], h, e[1])
			}
		}
		fmt.Fprintln(bw, "  }")
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}
