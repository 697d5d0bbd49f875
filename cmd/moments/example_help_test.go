package main

import (
	"io"
	"os"
)

// Example prints the commands of moments (what `moments help` prints).
func Example() {
	if err := run(bg, []string{"help"}, os.Stdout, io.Discard); err != nil {
		panic(err)
	}
	// Output:
	// usage: moments [command] [arguments]
	//
	// Without a command (or with flags alone) it runs example.
	//
	// commands:
	//   bn       learn a fully observed linear causal graph (LiNGAM) from numeric CSV
	//   dag      learn a linear DAG with hidden variables from numeric CSV
	//   demo     self-check and speed of the numerics
	//   example  Example 2 of the topic-model paper, learned (the default)
	//   info     what the kernels found on this machine
	//   lda      learn an LDA topic model from a corpus (spectral)
	//   lp       solve a linear program from an MPS file (simplex)
	//   treemix  learn a mixture of trees from discrete CSV data
	//
	// Run 'moments help <command>' (or 'moments <command> -h') for a command's flags.
}
