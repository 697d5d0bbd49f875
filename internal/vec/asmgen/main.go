// Command asmgen writes the AVX2 and AVX-512 kernels of internal/vec
// (vec_amd64.s) with avo. Run it through go generate in internal/vec;
// check.sh verifies that the committed file is what it writes. It is a
// module of its own so that the library does not require avo. avo
// emits only amd64: the NEON kernels (neon_arm64.s) are hand-written.
//
// The two levels share every loop: a level (level.go) says how wide a
// vector is, which instructions zero, mask, compare and reduce at that
// width, and the kernels (kernels.go) are written once against it. Each
// kernel keeps a fixed order of operations, so its results are the same
// bits on every run and every machine of the level; for the reductions
// that is four accumulators over blocks of four vectors, single vectors
// into the first, the masked tail into the second, then (a0+a1)+(a2+a3)
// and the lanes halved pairwise (the secular equation's kernels keep
// that order, zhat with products for sums). internal/vec's
// order_amd64_test.go and secular_order_amd64_test.go pin these orders. The Go prototypes and the scalar loops the kernels
// compute are in internal/vec/stubs_amd64.go.
package main

import . "github.com/mmcloughlin/avo/build"

func main() {
	ConstraintExpr("!purego")
	tailMasks()
	for _, l := range []*level{avx512, avx2} {
		dot(l)
		axpy(l)
		scal(l)
		asum(l)
		sumSq(l)
		maxAbs(l)
		indexAbs(l)
		rot(l)
		gemvN(l)
		gemvT(l)
		ger(l)
		gemvNT(l)
		axpyRows(l)
	}
	// The secular equation's kernels are bound by division, which
	// 512-bit vectors do no faster per element than 256-bit ones (half
	// as fast on the AMD EPYC the benchmarks ran on), while their tails
	// are longer: the AVX-512 level calls these AVX2 routines.
	secular(avx2)
	secularVec(avx2)
	secularVec2(avx2)
	zhat(avx2, false)
	zhat(avx2, true)
	Generate()
}
