package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
)

// cmdFlags is the flag set of a subcommand with its help text. The flag
// package prints nothing itself: parse turns -h into the help on stdout
// and every other problem into a usage error, which main reports once.
type cmdFlags struct {
	*flag.FlagSet
	// usage is the help before the list of flags; its first line is the
	// synopsis ("usage: moments dag -k K [flags] DATA.csv").
	usage string
}

func newFlags(name, usage string) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &cmdFlags{FlagSet: fs, usage: usage}
}

// parse parses args and wants exactly the positional arguments named by
// operands (such as "DATA.csv"). With -h or -help it prints the help on
// stdout and returns flag.ErrHelp, which run turns into success.
func (f *cmdFlags) parse(args []string, stdout io.Writer, operands ...string) error {
	err := f.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		f.help(stdout)
		return flag.ErrHelp
	}
	if err != nil {
		return f.usageErr(err)
	}
	if n := f.NArg(); n > len(operands) {
		return f.usagef("unexpected argument %q", f.Arg(len(operands)))
	} else if n < len(operands) {
		return f.usagef("missing %s", operands[n])
	}
	return nil
}

// help prints the usage text and the flags with their defaults.
func (f *cmdFlags) help(w io.Writer) {
	fmt.Fprint(w, f.usage)
	hasFlags := false
	f.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprint(w, "\nflags:\n")
		f.SetOutput(w)
		f.PrintDefaults()
		f.SetOutput(io.Discard)
	}
}

// isSet reports whether the flag name was given on the command line.
func (f *cmdFlags) isSet(name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// usageError is a mistake in the command line: main prints it with the
// synopsis of the command and exits with status 2.
type usageError struct {
	err error
	// cmd is the command whose usage applies ("" for moments itself).
	cmd string
	// synopsis is the first line of the command's help.
	synopsis string
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func (f *cmdFlags) usageErr(err error) error {
	if err == nil {
		return nil
	}
	syn, _, _ := strings.Cut(f.usage, "\n")
	return &usageError{err: err, cmd: f.Name(), synopsis: syn}
}

func (f *cmdFlags) usagef(format string, a ...any) error {
	return f.usageErr(fmt.Errorf(format, a...))
}

// check returns, as a usage error, the first of errs that is not nil.
func (f *cmdFlags) check(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return f.usageErr(err)
		}
	}
	return nil
}

// intIn says whether lo <= v <= hi for the flag name.
func intIn(name string, v, lo, hi int) error {
	switch {
	case v >= lo && v <= hi:
		return nil
	case hi == math.MaxInt:
		return fmt.Errorf("-%s %d: must be at least %d", name, v, lo)
	}
	return fmt.Errorf("-%s %d: must be between %d and %d", name, v, lo, hi)
}

// atLeast says whether v >= lo for the flag name.
func atLeast(name string, v, lo int) error { return intIn(name, v, lo, math.MaxInt) }

// interval is a range of float64: lo and hi, each included or not.
type interval struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

var (
	nonNegative = interval{lo: 0, hi: math.Inf(1), hiOpen: true}
	positive    = interval{lo: 0, hi: math.Inf(1), loOpen: true, hiOpen: true}
	unitOpen    = interval{lo: 0, hi: 1, loOpen: true, hiOpen: true} // (0, 1)
	unitHalf    = interval{lo: 0, hi: 1, hiOpen: true}               // [0, 1)
)

func (r interval) String() string {
	l, h := "[", "]"
	if r.loOpen {
		l = "("
	}
	if r.hiOpen {
		h = ")"
	}
	return fmt.Sprintf("%s%g, %g%s", l, r.lo, r.hi, h)
}

// floatIn says whether v is a finite number in r for the flag name: NaN
// and the infinities are always refused.
func floatIn(name string, v float64, r interval) error {
	ok := !math.IsNaN(v) && !math.IsInf(v, 0) &&
		(v > r.lo || !r.loOpen && v == r.lo) && (v < r.hi || !r.hiOpen && v == r.hi)
	if ok {
		return nil
	}
	return fmt.Errorf("-%s %v: want a finite number in %v", name, v, r)
}
