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
//	moments bn [-bootstrap B] [-require a->b,...] [-forbid a->b,...]
//	           [-order a->b,...] [-json FILE] [-dot FILE] DATA.csv
//	                     learn a fully observed linear causal graph x =
//	                     Lambda x + eta (non-Gaussian noises; LiNGAM's problem):
//	                     the causal order, the edges pruned by an adaptive
//	                     lasso with the extended BIC, their weights and
//	                     confidences (z-scores, bootstrap probabilities)
//	moments dag -k K [-seed S] [-header auto|yes|no] [-prune P] DATA.csv
//	                     learn a linear model with K hidden variables
//	                     related by a DAG from numeric samples: A, Lambda,
//	                     the causal order and diagnostics
//	moments demo [-n N]  a self-check and speed demo of the numerics on
//	                     this machine
//	moments info         what the kernels found: CPU, caches,
//	                     implementations, GEMM blocking
//	moments lda -k K [-alpha0 A] [-seed S] CORPUS
//	                     learn an LDA topic model from a UCI bag-of-words
//	                     file or a directory of text files (spectral, then
//	                     -refine passes of variational EM; -model FILE
//	                     saves it)
//	moments lda infer MODEL CORPUS
//	                     the topic proportions of each document of CORPUS
//	                     under a saved model, as CSV (or JSON)
//	moments lp [-method dual|primal] [-json FILE] FILE.mps
//	                     solve the linear program of an MPS file and print
//	                     its status, objective, iterations and time
//	moments treemix -r R DATA.csv
//	                     learn a mixture of R tree models from discrete
//	                     data
//	moments help [CMD]   this text, or the help of CMD with its flags
//
// "moments CMD -h" (or -help) prints the help of CMD, as "moments help
// CMD" does, on standard output.
//
// Input files (DATA.csv, a UCI docword file and its vocabulary, the
// files of a text directory, an MPS file) may be gzip-compressed: they are recognised
// by their first bytes, whatever their name, and read decompressed.
//
// Output files (-svg, -json, -dot) are created before the work starts,
// as a temporary file in the destination's directory, so that a path
// that cannot be written fails at once; the file is renamed to its path
// only when it is completely written. A failed or interrupted run leaves
// no output file (and an older file at that path unchanged).
//
// Interrupting moments (Ctrl-C, SIGTERM) cancels the work: the progress
// line is ended and moments exits with a message such as
// "moments: lda: interrupted". A second interrupt kills it at once.
//
// Errors are printed on standard error as one line, "moments: CMD:
// message". The exit status is 0 on success (including -h and help), 1
// when the work fails (bad data, an unwritable output, an interrupt) and
// 2 for a usage error: an unknown command or flag, a flag value out of
// its range (NaN and infinities are never accepted), a missing or an
// unexpected argument. A usage error is followed by the command's
// synopsis.
//
// bn, dag, lda, treemix, demo and example take -max-memory SIZE (bytes, or
// 512MiB, 4GiB, 2GB; 0 for no limit; default half the physical memory,
// at most 4 GiB) and refuse, before allocating, a job whose moments need
// more. Note that -max-memory 0 means no limit, while the library's
// MaxMemory options read 0 as their 4 GiB default (and a negative value
// as no limit).
//
// The environment variable MOMENTS_KERNELS (generic, avx2, avx512, neon)
// forces a kernels implementation.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand of moments.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"bn":      {"learn a fully observed linear causal graph (LiNGAM) from numeric CSV", runBN},
	"dag":     {"learn a linear DAG with hidden variables from numeric CSV", runDAG},
	"demo":    {"self-check and speed of the numerics", runDemo},
	"example": {"Example 2 of the topic-model paper, learned (the default)", runExample},
	"info":    {"what the kernels found on this machine", runInfo},
	"lda":     {"learn an LDA topic model from a corpus (spectral)", runLDA},
	"lp":      {"solve a linear program from an MPS file (simplex)", runLP},
	"treemix": {"learn a mixture of trees from discrete CSV data", runTreemix},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first interrupt, the next one kills at once.
		<-ctx.Done()
		stop()
	}()
	code := exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr)
	stop()
	os.Exit(code)
}

// exit reports err on stderr, if not nil, and returns the exit status:
// 0 for success, 2 for a usage error, 1 for any other error.
func exit(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "moments:", err)
	var ue *usageError
	if !errors.As(err, &ue) {
		return 1
	}
	if ue.synopsis != "" {
		fmt.Fprintln(stderr, ue.synopsis)
	}
	if ue.cmd != "" {
		fmt.Fprintf(stderr, "Run 'moments help %s' for details.\n", ue.cmd)
	} else {
		fmt.Fprintln(stderr, "Run 'moments help' for usage.")
	}
	return 2
}

// run runs the command line args (without the program name) under ctx.
// Its error, if any, reads "CMD: message" (main adds "moments: ").
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name := "example"
	// "moments -n 20000" runs the default command with its flags.
	if len(args) > 0 && (isHelp(args[0]) || !strings.HasPrefix(args[0], "-")) {
		name, args = args[0], args[1:]
	}
	if isHelp(name) {
		return help(ctx, name, args, stdout)
	}
	cmd, ok := commands[name]
	if !ok {
		return &usageError{err: fmt.Errorf("unknown command %q", name)}
	}
	err := cmd.run(ctx, args, stdout, stderr)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return nil
	case ctx.Err() != nil:
		// The work stopped because it was cancelled: whatever error
		// that surfaced as, the cause is the interrupt.
		err = &interrupted{ctx.Err()}
	}
	return &cmdError{cmd: name, err: memoryMessage(name, err)}
}

// help is "moments help [CMD]" (and "moments -h"): the top-level usage,
// or CMD's help with its flags.
func help(ctx context.Context, name string, args []string, stdout io.Writer) error {
	if name != "help" || len(args) == 0 {
		if name != "help" && len(args) > 0 {
			return &usageError{err: fmt.Errorf("unexpected argument %q after %s", args[0], name)}
		}
		usage(stdout)
		return nil
	}
	if len(args) > 1 {
		return &usageError{err: fmt.Errorf("help: unexpected argument %q", args[1]), synopsis: "usage: moments help [command]"}
	}
	if args[0] == "help" {
		usage(stdout)
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return &usageError{err: fmt.Errorf("help: unknown command %q", args[0])}
	}
	err := cmd.run(ctx, []string{"-h"}, stdout, io.Discard)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// cmdError is the error of the command cmd; its message starts with
// "cmd: " once. A library error that already starts with the command's
// name ("treemix: ...") or with "moments: " (the library's package of
// readers, which is also the program's name) is not prefixed twice.
type cmdError struct {
	cmd string
	err error
}

func (e *cmdError) Error() string {
	msg := strings.TrimPrefix(e.err.Error(), "moments: ")
	if strings.HasPrefix(msg, e.cmd+": ") {
		return msg
	}
	return e.cmd + ": " + msg
}

func (e *cmdError) Unwrap() error { return e.err }

// interrupted is the error of work cancelled by Ctrl-C or SIGTERM; it
// wraps the context's error.
type interrupted struct{ err error }

func (e *interrupted) Error() string { return "interrupted" }
func (e *interrupted) Unwrap() error { return e.err }

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
	fmt.Fprintln(w, "\nRun 'moments help <command>' (or 'moments <command> -h') for a command's flags.")
}
