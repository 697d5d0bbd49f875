package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/moments-go/moments/mat"
)

// fallbackMaxMemory is the default of -max-memory where the physical
// memory is unknown, and its cap where it is known: the library's
// mat.DefaultMaxMemory.
const fallbackMaxMemory = mat.DefaultMaxMemory

// defaultMaxMemory returns half the physical memory, at most
// fallbackMaxMemory (4 GiB): a small input that asks for more (a CSV of
// 10 rows and 5000 columns in treemix wants 8.65 GB of rank tests)
// should be refused at once on a large machine too, and a job that
// really needs more says so with -max-memory.
func defaultMaxMemory() int64 {
	if total := physicalMemory(); total > 0 {
		return int64(min(total/2, uint64(fallbackMaxMemory)))
	}
	return fallbackMaxMemory
}

// memoryValue is the value of -max-memory: bytes, or -1 for no limit
// (the library's convention for a negative MaxMemory), and whether the
// flag was given.
type memoryValue struct {
	bytes int64
	set   bool
}

// String writes the limit as Set reads it; "" for the default, which
// depends on the machine (so that the help text does not).
func (m *memoryValue) String() string {
	switch {
	case m == nil || !m.set:
		return ""
	case m.bytes < 0:
		return "0"
	}
	return strconv.FormatInt(m.bytes, 10)
}

// Set reads a size: plain bytes or a number with a unit, decimal (kB,
// MB, GB, TB) or binary (KiB, MiB, GiB, TiB), as in 512MiB, 4GiB, 2GB or
// 1.5e9; 0 means no limit.
func (m *memoryValue) Set(s string) error {
	v, err := parseBytes(s)
	if err != nil {
		return err
	}
	if v == 0 {
		v = -1
	}
	*m = memoryValue{bytes: v, set: true}
	return nil
}

var byteUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// parseBytes reads a non-negative size in bytes with an optional unit.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] >= 'a' && t[i-1] <= 'z' || t[i-1] >= 'A' && t[i-1] <= 'Z') {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(t[i:])
	scale, ok := byteUnits[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q (want B, kB, MB, GB, TB, KiB, MiB, GiB or TiB)", s, t[i:])
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a size in bytes", s)
	}
	b := v * scale
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(b), nil
}

// maxMemoryFlag adds -max-memory to fs and returns where its value, in
// the library's convention (bytes; negative for no limit), will be.
//
// The memory rule of the command: every subcommand that reads data or
// allocates by a flag has -max-memory, the most its moments and tables
// may take. A job that needs more is refused before it allocates, with
// a message that gives the need and the limit. The default is half the
// physical memory (read from the system on Linux) but at most 4 GiB, and
// 4 GiB where the system does not say: a job the default admits leaves
// the other half to the data, the runtime and the rest of the machine,
// and a small input whose tables would fill a large machine is refused
// there too.
func maxMemoryFlag(fs *flag.FlagSet) *int64 {
	v := &memoryValue{bytes: defaultMaxMemory()}
	fs.Var(v, "max-memory", "the most memory the moments and tables may take, a `SIZE` in bytes or with a unit as in 512MiB, 4GiB, 2GB (0: no limit, unlike the library's MaxMemory 0, which is 4GiB; default: half the physical memory, at most 4GiB)")
	return &v.bytes
}

// memoryError is a *mat.MemoryError as the command reports it.
type memoryError struct {
	cmd string
	err *mat.MemoryError
}

func (e *memoryError) Error() string {
	need := "need " + mat.FormatBytes(e.err.Need)
	if e.err.Need == math.MaxInt64 {
		need = "need more than " + mat.FormatBytes(e.err.Need) + " (the sizes overflow)"
	}
	return fmt.Sprintf("%s: %s %s, over -max-memory %s", e.cmd, e.err.What, need, mat.FormatBytes(e.err.Limit))
}

func (e *memoryError) Unwrap() error { return e.err }

// memoryMessage rewrites a refusal by the memory rule into the command's
// words ("dag: the moments of 12000 variables need 18.4 GB, over
// -max-memory 8 GB"); other errors pass unchanged.
func memoryMessage(cmd string, err error) error {
	var me *mat.MemoryError
	if errors.As(err, &me) {
		return &memoryError{cmd: cmd, err: me}
	}
	return err
}
