// Command moments is the command-line face of the moments library.
//
// Usage:
//
//	moments              the main job (for now: a self-check and speed
//	                     demo of the numerics on this machine)
//	moments info         what the kernels found: CPU, caches, paths,
//	                     GEMM blocking
//	moments lda -k K [-alpha0 A] [-seed S] CORPUS
//	                     learn an LDA topic model from a UCI bag-of-words
//	                     file or a directory of text files
//	moments treemix -r R DATA.csv
//	                     learn a mixture of R tree models from discrete
//	                     data (see moments treemix -h)
//	moments help         this text
//
// The environment variable MOMENTS_KERNELS (generic, avx2, avx512, neon)
// forces a kernel path.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand of moments.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"demo":    {"self-check and speed of the numerics (the default)", runDemo},
	"info":    {"what the kernels found on this machine", runInfo},
	"lda":     {"learn an LDA topic model from a corpus (spectral)", runLDA},
	"treemix": {"learn a mixture of trees from discrete CSV data", runTreemix},
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "moments:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	name := "demo"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return nil
	}
	cmd, ok := commands[name]
	if !ok {
		usage(stderr)
		return fmt.Errorf("unknown command %q", name)
	}
	return cmd.run(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: moments [command] [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
