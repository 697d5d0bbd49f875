package simdtest

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// Eps is the unit roundoff of float64.
const Eps = 0x1p-53

// Lengths are all vector lengths up to three times the widest unrolled
// loop of the kernels (32 elements on AVX-512) and a few large ones.
func Lengths() []int {
	var ns []int
	for n := 0; n <= 3*32+1; n++ {
		ns = append(ns, n)
	}
	return append(ns, 255, 256, 257, 1000, 4099)
}

const (
	guard = 8 // guard elements on each side of every output
	// Sentinel is the value of the guard elements of a Guarded slice.
	Sentinel = -7.0e300
)

// Guarded is a slice of n elements that starts a chosen number of
// elements past a 64-byte boundary, with guard Sentinel values on both
// sides, so that a kernel that writes outside it is caught by Check.
type Guarded struct {
	raw []float64
	lo  int
	n   int
}

// NewGuarded returns a guarded slice of n elements starting off elements
// past a 64-byte boundary, filled by fill.
func NewGuarded(n, off int, fill func(i int) float64) *Guarded {
	raw := make([]float64, n+2*guard+16)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	base := int((64-p%64)%64)/8 + guard + off
	for i := range raw {
		raw[i] = Sentinel
	}
	g := &Guarded{raw: raw, lo: base, n: n}
	s := g.S()
	for i := range s {
		s[i] = fill(i)
	}
	return g
}

// S is the slice itself, with its capacity cut so that nothing past it
// can be reached from Go.
func (g *Guarded) S() []float64 { return g.raw[g.lo : g.lo+g.n : g.lo+g.n] }

// Check fails the test if anything outside the slice was written.
func (g *Guarded) Check(t *testing.T, what string) {
	t.Helper()
	for i, v := range g.raw {
		if (i < g.lo || i >= g.lo+g.n) && v != Sentinel && !(v != v && Sentinel != Sentinel) {
			t.Fatalf("%s: wrote outside its output: raw[%d] = %v (slice is raw[%d:%d])", what, i, v, g.lo, g.lo+g.n)
		}
	}
}

// RandVec returns a fill function for NewGuarded drawing standard normal
// values from r.
func RandVec(r *rand.Rand) func(int) float64 {
	return func(int) float64 { return r.NormFloat64() }
}

// RandSlice returns n standard normal values drawn from r.
func RandSlice(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	return s
}

// SumBound is the classical bound for a computed sum of n terms whose
// absolute values add to s: the reference and the kernel each err by at
// most n*Eps*s (to first order), so they differ by at most twice that.
func SumBound(n int, s float64) float64 {
	return 2*float64(n+2)*Eps*s + 1e-300
}
