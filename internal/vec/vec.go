// Package vec holds the vector and matrix-vector kernels of every
// implementation level (internal/simd): the portable Go loops of
// generic.go and their AVX2, AVX-512 and NEON assembly. Each kernel is a
// function of the level, DotAt, AxpyAt and so on (at_*.go), that
// switches on the level and calls that level's routine directly (the
// generic loop where the level has none): a direct call costs less than
// one through a function value and lets the compiler see that the
// slices do not escape. The public kernels package checks the arguments
// and calls them; internal/jacobi's pair-by-pair steps call them too, and
// so do svd's bidiagonal reduction (GemvNTAt, a fused pair of
// matrix-vector products that has no public kernel), its Jacobi path's
// scan of the row maxima (MaxAbsAt), and the merges of both of its
// divide-and-conquer solvers: the secular equation's sums (SecularAt),
// the eigenvector or singular-vector rows (SecularVecAt, SecularVec2At)
// and Gu and Eisenstat's products (ZhatAt), loops bound by division,
// where a vector division does four (these have 256-bit routines only,
// which the AVX-512 level calls too: 512-bit divisions are no faster per
// element).
//
// The kernels assume checked arguments: equal lengths where the loop of
// their comment indexes two slices, and in-range matrices. The assembly
// computes the scalar loop of its generic version up to the order of
// summation and fused multiply-adds, but for the division-bound loops
// of the secular equation: there the generic versions take one division
// for two reciprocals, or for a run of eight products, and the assembly
// one true division per element, which is at least as accurate.
//
// The AVX2 and AVX-512 routines (vec_amd64.s) are generated: the
// program in asmgen (a module of its own, using avo) writes both widths
// from one description of each loop. Change asmgen and run go generate,
// never the .s file; asmgen/check.sh verifies that the two agree. The
// NEON routines (neon_arm64.s) are written by hand, as avo emits only
// amd64.
package vec

//go:generate sh -c "cd asmgen && go run . -out ../vec_amd64.s"
