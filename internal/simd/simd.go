// Package simd holds the dispatch state of the moments kernels: which
// instruction sets this CPU and build can use, which one is in use, and
// the tables through which the kernel packages (kernels, internal/vec,
// internal/jacobi, internal/sym3) reach the implementation of each.
//
// An implementation is a value: every kernel package describes it by a
// struct of functions, one per Level, and registers those structs in a
// Table. The package-level functions of the kernel packages dispatch
// through Table.Get, the one selected now; a test calls Table.For(l) for
// every level of Available and so runs every implementation side by side,
// without selecting anything. Use selects a level for all tables at once;
// it is meant for start-up, benchmarks and tests that run whole
// algorithms (simdtest.EachSelected), and is safe against concurrent
// kernel calls (each call sees one complete implementation, the old or
// the new).
//
// At start-up the widest level the CPU supports is selected, unless the
// environment variable MOMENTS_KERNELS (EnvVar) names one: generic, avx2,
// avx512 or neon, case-insensitive. Naming one that cannot run here stops
// the program at start-up with a message that says why. Building with
// -tags purego compiles no assembly and leaves only Generic.
package simd

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// Level names one implementation of the kernels.
type Level uint8

// The levels. Generic is the portable Go reference, always available;
// the others are hand-written assembly.
const (
	Generic Level = iota // portable Go
	AVX2                 // amd64 with AVX2 and FMA3, 256-bit vectors
	AVX512               // amd64 with AVX-512F, 512-bit vectors
	NEON                 // arm64 Advanced SIMD, 128-bit vectors

	NumLevels = iota // number of levels
)

var names = [NumLevels]string{Generic: "generic", AVX2: "avx2", AVX512: "avx512", NEON: "neon"}

// String returns the name of l as MOMENTS_KERNELS spells it.
func (l Level) String() string {
	if int(l) < len(names) {
		return names[l]
	}
	return fmt.Sprintf("Level(%d)", l)
}

// Parse returns the level named s (case-insensitive).
func Parse(s string) (Level, error) {
	for l, name := range names {
		if strings.EqualFold(s, name) {
			return Level(l), nil
		}
	}
	return Generic, fmt.Errorf("unknown implementation %q (want generic, avx2, avx512 or neon)", s)
}

// EnvVar is the environment variable that selects a level at start-up.
const EnvVar = "MOMENTS_KERNELS"

// supported[l] reports whether level l can run here; set once by detect
// at initialization and only read afterwards.
var supported [NumLevels]bool

// Supported reports whether level l can run on this CPU in this build.
func Supported(l Level) bool { return int(l) < len(supported) && supported[l] }

// Available lists the levels that can run here: Generic first, the
// default (the widest) last.
func Available() []Level {
	var ls []Level
	for _, l := range []Level{Generic, NEON, AVX2, AVX512} {
		if Supported(l) {
			ls = append(ls, l)
		}
	}
	return ls
}

// Purego reports whether this build compiles no assembly (-tags purego,
// or an architecture without kernels).
func Purego() bool { return purego }

var (
	current atomic.Uint32 // the selected Level

	mu     sync.Mutex // guards tables and the order of selections
	tables []selector
)

// selector is a Table seen by Use.
type selector interface{ selectLevel(Level) }

// Current returns the selected level.
func Current() Level { return Level(current.Load()) }

// Use selects level l for every kernel package. It returns an error, and
// changes nothing, if l cannot run here.
func Use(l Level) error {
	if !Supported(l) {
		return fmt.Errorf("implementation %v cannot run here (%s; available: %v)", l, describe(), Available())
	}
	mu.Lock()
	defer mu.Unlock()
	current.Store(uint32(l))
	for _, t := range tables {
		t.selectLevel(l)
	}
	return nil
}

func describe() string {
	s := archName
	if purego {
		s += ", built with -tags purego"
	}
	return s
}

// A Table holds the implementations of one kernel package, one *T per
// level, and the one selected now. The zero value is empty; Register
// the Generic implementation before any other.
type Table[T any] struct {
	byLevel [NumLevels]*T
	sel     atomic.Pointer[T]
	once    sync.Once
}

// Register records v as the implementation of level l. Levels without one
// fall back to the Generic implementation. It panics if l already has one
// or if the Generic one is missing; it is meant for package
// initialization.
func (t *Table[T]) Register(l Level, v *T) {
	if v == nil || int(l) >= len(t.byLevel) {
		panic(fmt.Sprintf("simd: Register(%v, %v): no implementation or unknown level", l, v))
	}
	mu.Lock()
	defer mu.Unlock()
	if t.byLevel[l] != nil {
		panic(fmt.Sprintf("simd: level %v registered twice", l))
	}
	if l != Generic && t.byLevel[Generic] == nil {
		panic(fmt.Sprintf("simd: level %v registered before the generic implementation", l))
	}
	t.byLevel[l] = v
	t.once.Do(func() { tables = append(tables, t) })
	t.selectLevel(Current())
}

func (t *Table[T]) selectLevel(l Level) { t.sel.Store(t.For(l)) }

// Get returns the selected implementation.
func (t *Table[T]) Get() *T { return t.sel.Load() }

// For returns the implementation of level l, or the Generic one if l has
// none of its own (as on levels this package does not specialize for).
// It does not check that l can run here: callers take l from Available.
func (t *Table[T]) For(l Level) *T {
	if int(l) < len(t.byLevel) && t.byLevel[l] != nil {
		return t.byLevel[l]
	}
	return t.byLevel[Generic]
}

func init() {
	supported[Generic] = true
	detect()
	ls := Available()
	l := ls[len(ls)-1]
	if env, ok := os.LookupEnv(EnvVar); ok && env != "" {
		e, err := Parse(env)
		if err == nil && !Supported(e) {
			err = fmt.Errorf("%s=%s, but this CPU/build cannot run it (%s; available: %v)", EnvVar, env, describe(), Available())
		}
		if err != nil {
			// A forced level that cannot run is a configuration error;
			// running another silently would mislabel every measurement
			// made under it.
			panic("moments/kernels: " + err.Error())
		}
		l = e
	}
	current.Store(uint32(l))
}
