// Command moments is the command-line face of the moments library.
//
// Usage:
//
//	moments [example] [-n N] [-svg FILE]
//	                     the main job: Example 2 of the topic-model paper
//	                     (25 hidden variables in a DAG, 150 observed,
//	                     skewed noises), learned from N streamed samples;
//	                     prints the paper's measures and the time of each
//	                     stage and writes the scatter plot of true against
//	                     estimated entries (example.svg)
//	moments dag -k K [-seed S] [-header auto|yes|no] [-prune P] DATA.csv
//	                     learn a linear model with K hidden variables
//	                     related by a DAG from numeric samples: A, Lambda,
//	                     the causal order and diagnostics
//	moments demo [-n N]  a self-check and speed demo of the numerics on
//	                     this machine
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
// dag, lda, treemix, demo and example take -max-memory SIZE (bytes, or
// 512MiB, 4GiB, 2GB; 0 for no limit; default half the physical memory)
// and refuse, before allocating, a job whose moments need more.
//
// The environment variable MOMENTS_KERNELS (generic, avx2, avx512, neon)
// forces a kernel path.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand of moments.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"dag":     {"learn a linear DAG with hidden variables from numeric CSV", runDAG},
	"demo":    {"self-check and speed of the numerics", runDemo},
	"example": {"Example 2 of the topic-model paper, learned (the default)", runExample},
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
	name := "example"
	// "moments -n 20000" runs the default command with its flags.
	if len(args) > 0 && (isHelp(args[0]) || !strings.HasPrefix(args[0], "-")) {
		name, args = args[0], args[1:]
	}
	if isHelp(name) {
		usage(stdout)
		return nil
	}
	cmd, ok := commands[name]
	if !ok {
		usage(stderr)
		return fmt.Errorf("unknown command %q", name)
	}
	return memoryMessage(name, cmd.run(args, stdout, stderr))
}

// newFlags returns the flag set of a subcommand: errors and the usage
// (usage, then the flags) go to stderr.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// writeFile creates the file path and writes it with write, closing it
// in every case; it returns the first error.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func isHelp(s string) bool { return s == "help" || s == "-h" || s == "-help" || s == "--help" }

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: moments [command] [arguments]\n\nWithout a command (or with flags alone) it runs example.\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
