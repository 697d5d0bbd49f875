package kernels

import (
	"cmp"
	"fmt"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"
	"github.com/moments-go/moments/internal/simd"
)

// impl is one implementation of the kernels: the vector kernels of its
// level, its GEMM building blocks and their blocking.
type impl struct {
	level    simd.Level
	gemm     gemmImpl
	blocking Blocking
	// peak, if not nil, runs n iterations of peakFlops independent
	// fused multiply-add flops touching no memory (the benchmarks'
	// measure of the peak the micro-kernels are compared with).
	peak      func(n int)
	peakFlops float64
}

var table simd.Table[impl]

// cur returns the selected implementation.
func cur() *impl { return table.Get() }

// register records the implementation of level l from its GEMM building
// blocks: the vector kernels are internal/vec's of the same level, and
// the blocking is sized from the caches for g's micro-tile.
func register(l simd.Level, g gemmImpl, peak func(int), peakFlops float64) {
	g.level = l
	l1, l2, l3 := cacheSizes()
	table.Register(l, &impl{
		level: l, gemm: g,
		blocking: chooseBlocking(g.mr, g.nr, l1, l2, l3),
		peak:     peak, peakFlops: peakFlops,
	})
}

func init() {
	register(simd.Generic, gemmImpl{mr: genericMR, nr: genericNR, kernel: gemmKernelGeneric}, nil, 0)
	registerArch()
}

// Use makes every kernel run on the implementation named name: "generic"
// (the portable Go reference), "avx2", "avx512" or "neon"
// (case-insensitive). It returns an error, and changes nothing, if the
// name is unknown or the implementation cannot run on this CPU in this
// build. Use is meant for benchmarks and tests that compare
// implementations; it is safe to call while kernels run (each call runs
// on one implementation, the old or the new), but it affects every
// caller in the process. Info().Implementations lists the names Use
// accepts here.
func Use(name string) error {
	l, err := simd.Parse(name)
	if err == nil {
		err = simd.Use(l)
	}
	if err != nil {
		return fmt.Errorf("kernels: %w", err)
	}
	return nil
}

// CPUInfo describes the processor as the kernels saw it at start-up and
// the implementation in use.
type CPUInfo struct {
	Brand           string   // processor brand string, or the architecture if the CPU reports none
	L1D             int      // L1 data cache per core in bytes (0 if unknown; the blocking then assumes 32 KiB)
	L2              int      // L2 cache in bytes (0 if unknown; assumed 512 KiB)
	L3              int      // L3 cache in bytes (0 if unknown; assumed 4 MiB)
	Cores           int      // physical cores (0 if unknown)
	AVX512          []string // AVX-512 subsets the CPU reports (F, CD, BW, DQ, VL, ...)
	Purego          bool     // built with -tags purego (or for an architecture without assembly)
	Implementations []string // names Use accepts here: "generic" first, the default last
	Active          string   // name of the implementation in use
	Blocking        Blocking // GEMM blocking of the active implementation
}

// Info returns what the kernels know about this machine.
func Info() CPUInfo {
	c := cpuid.CPU
	im := cur()
	info := CPUInfo{
		Brand:    cmp.Or(strings.TrimSpace(c.BrandName), runtime.GOARCH+" (no brand string)"),
		L1D:      max(c.Cache.L1D, 0),
		L2:       max(c.Cache.L2, 0),
		L3:       max(c.Cache.L3, 0),
		Cores:    c.PhysicalCores,
		Purego:   simd.Purego(),
		Active:   im.level.String(),
		Blocking: im.blocking,
	}
	for _, l := range simd.Available() {
		info.Implementations = append(info.Implementations, l.String())
	}
	for _, f := range []struct {
		id   cpuid.FeatureID
		name string
	}{
		{cpuid.AVX512F, "F"}, {cpuid.AVX512CD, "CD"}, {cpuid.AVX512BW, "BW"},
		{cpuid.AVX512DQ, "DQ"}, {cpuid.AVX512VL, "VL"}, {cpuid.AVX512IFMA, "IFMA"},
		{cpuid.AVX512VBMI, "VBMI"}, {cpuid.AVX512BF16, "BF16"}, {cpuid.AVX512FP16, "FP16"},
	} {
		if c.Supports(f.id) {
			info.AVX512 = append(info.AVX512, f.name)
		}
	}
	return info
}

// String formats the information on one line.
func (i CPUInfo) String() string {
	b := i.Blocking
	s := fmt.Sprintf("%s; L1d %s, L2 %s, L3 %s; implementations %v, active %s; gemm mr=%d nr=%d kc=%d mc=%d nc=%d",
		i.Brand, cacheString(i.L1D), cacheString(i.L2), cacheString(i.L3), i.Implementations, i.Active, b.MR, b.NR, b.KC, b.MC, b.NC)
	if i.Purego {
		s += "; purego build"
	}
	return s
}

func cacheString(bytes int) string {
	if bytes <= 0 {
		return "unknown"
	}
	return fmt.Sprintf("%d KiB", bytes>>10)
}

// Blocking is the register and cache blocking of the GEMM: an MR x NR
// micro-tile of C is held in registers; a KC x NR panel of B stays in L1
// while MC x KC of A streams from L2; KC x NC of B is shared from L3.
type Blocking struct {
	MR, NR     int
	KC, MC, NC int
}

// cacheSizes returns L1D, L2 and L3 in bytes, with defaults where cpuid
// reports nothing (as it may under emulators and on some arm64 systems).
func cacheSizes() (l1, l2, l3 int) {
	c := cpuid.CPU.Cache
	l1, l2, l3 = c.L1D, c.L2, c.L3
	if l1 <= 0 {
		l1 = 32 << 10
	}
	if l2 <= 0 {
		l2 = 512 << 10
	}
	if l3 <= 0 {
		l3 = 4 << 20
	}
	return l1, l2, l3
}

// chooseBlocking sizes the GEMM loops from the caches: the KC x NR panel
// of B takes about half of L1 (the rest holds the streaming A panel and
// the C tile), the MC x KC block of A about half of L2, and the KC x NC
// block of B a quarter of L3 (shared with other cores).
func chooseBlocking(mr, nr, l1, l2, l3 int) Blocking {
	const f = 8 // bytes per float64
	kc := l1 / 2 / (nr * f)
	kc = clamp(kc&^7, 64, 512)
	mc := l2 / 2 / (kc * f)
	mc = clamp(mc/mr*mr, mr, 4096/mr*mr)
	nc := l3 / 4 / (kc * f)
	nc = clamp(nc/nr*nr, nr, 8192/nr*nr)
	return Blocking{MR: mr, NR: nr, KC: kc, MC: mc, NC: nc}
}

func clamp(x, lo, hi int) int { return min(max(x, lo), hi) }
