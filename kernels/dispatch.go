package kernels

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/klauspost/cpuid/v2"
)

// Path names one implementation of the kernels.
type Path uint8

// The implementations. Generic is always compiled and is the reference
// the others are tested against.
const (
	Generic Path = iota // portable Go
	AVX2                // amd64 with AVX2 and FMA3, 256-bit vectors
	AVX512              // amd64 with AVX-512F, 512-bit vectors
	NEON                // arm64 Advanced SIMD, 128-bit vectors
)

var pathNames = [...]string{Generic: "generic", AVX2: "avx2", AVX512: "avx512", NEON: "neon"}

// String returns the name MOMENTS_KERNELS uses for p.
func (p Path) String() string {
	if int(p) < len(pathNames) {
		return pathNames[p]
	}
	return fmt.Sprintf("Path(%d)", p)
}

// ParsePath returns the path named s ("generic", "avx2", "avx512" or
// "neon", case-insensitive).
func ParsePath(s string) (Path, error) {
	for p, name := range pathNames {
		if strings.EqualFold(s, name) {
			return Path(p), nil
		}
	}
	return Generic, fmt.Errorf("kernels: unknown path %q (want generic, avx2, avx512 or neon)", s)
}

// CPU features this build can use, set once at start-up. They are false
// in a purego build, which compiles no assembly, and on other
// architectures.
var (
	HasAVX2   bool // amd64: AVX2 and FMA3, enabled by the OS
	HasAVX512 bool // amd64: AVX-512F (plus AVX2 and FMA3), enabled by the OS
	HasNEON   bool // arm64: Advanced SIMD with double precision
)

// EnvVar is the environment variable that forces a path at start-up.
const EnvVar = "MOMENTS_KERNELS"

// active is the path every kernel call dispatches on. It is written only
// by Use (at init, or by a caller that has stopped all other work).
var active Path

// Supported reports whether p can run on this CPU in this build.
func Supported(p Path) bool {
	switch p {
	case Generic:
		return true
	case AVX2:
		return HasAVX2
	case AVX512:
		return HasAVX512
	case NEON:
		return HasNEON
	}
	return false
}

// Available lists the paths that can run here, the generic one first and
// the one chosen by default last.
func Available() []Path {
	var ps []Path
	for _, p := range []Path{Generic, NEON, AVX2, AVX512} {
		if Supported(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// Active returns the path the kernels use now.
func Active() Path { return active }

// Use makes every kernel run on path p. It returns an error, and changes
// nothing, if p cannot run here. Use is meant for start-up, tests and
// benchmarks: it must not run concurrently with any kernel call.
func Use(p Path) error {
	if !Supported(p) {
		return fmt.Errorf("kernels: path %v is not supported on this CPU/build (%s; available: %v)", p, cpuSummary(), Available())
	}
	active = p
	setBlocking(p)
	return nil
}

func cpuSummary() string {
	s := fmt.Sprintf("%s/%s", runtime.GOARCH, strings.TrimSpace(cpuid.CPU.BrandName))
	if purego {
		s += ", built with -tags purego"
	}
	return s
}

// CPUInfo describes the processor as the kernels saw it at start-up.
type CPUInfo struct {
	Brand    string   // processor brand string, or the architecture if the CPU reports none
	L1D      int      // L1 data cache per core in bytes (0 if unknown; the blocking then assumes 32 KiB)
	L2       int      // L2 cache in bytes (0 if unknown; assumed 512 KiB)
	L3       int      // L3 cache in bytes (0 if unknown; assumed 4 MiB)
	Cores    int      // physical cores (0 if unknown)
	AVX512   []string // AVX-512 subsets the CPU reports (F, CD, BW, DQ, VL, ...)
	Paths    []Path   // paths that can run here
	Active   Path     // path in use
	Blocking Blocking // GEMM blocking of the active path
}

// Info returns what the kernels know about this machine.
func Info() CPUInfo {
	c := cpuid.CPU
	info := CPUInfo{
		Brand:    cmp.Or(strings.TrimSpace(c.BrandName), runtime.GOARCH+" (no brand string)"),
		L1D:      max(c.Cache.L1D, 0),
		L2:       max(c.Cache.L2, 0),
		L3:       max(c.Cache.L3, 0),
		Cores:    c.PhysicalCores,
		Paths:    Available(),
		Active:   active,
		Blocking: GemmBlocking(),
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
	return fmt.Sprintf("%s; L1d %s, L2 %s, L3 %s; paths %v, active %v; gemm mr=%d nr=%d kc=%d mc=%d nc=%d",
		i.Brand, cacheString(i.L1D), cacheString(i.L2), cacheString(i.L3), i.Paths, i.Active, b.MR, b.NR, b.KC, b.MC, b.NC)
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

var blocking atomic.Pointer[Blocking]

// GemmBlocking returns the blocking the GEMM uses on the active path.
func GemmBlocking() Blocking { return *blocking.Load() }

func setBlocking(p Path) {
	g := gemmFor(p)
	l1, l2, l3 := cacheSizes()
	b := chooseBlocking(g.mr, g.nr, l1, l2, l3)
	blocking.Store(&b)
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

func init() {
	detectCPU()
	p := Available()[len(Available())-1]
	if env, ok := os.LookupEnv(EnvVar); ok && env != "" {
		q, err := ParsePath(env)
		if err == nil && !Supported(q) {
			err = fmt.Errorf("%s=%s, but this CPU/build cannot run it (%s; available: %v)", EnvVar, env, cpuSummary(), Available())
		}
		if err != nil {
			// A forced path that cannot run is a configuration error;
			// running another path silently would mislabel every
			// measurement made under it.
			panic("moments/kernels: " + err.Error())
		}
		p = q
	}
	if err := Use(p); err != nil {
		panic(err)
	}
}
