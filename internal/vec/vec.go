// Package vec holds the vector and matrix-vector kernels of every
// implementation level (internal/simd): the portable Go loops of
// generic.go and their AVX2, AVX-512 and NEON assembly. Each kernel is a
// function of the level, DotAt, AxpyAt and so on (at_*.go), that
// switches on the level and calls that level's routine directly (the
// generic loop where the level has none): a direct call costs less than
// one through a function value and lets the compiler see that the
// slices do not escape. The public kernels package checks the arguments
// and calls them; internal/jacobi's pair-by-pair steps call them too.
//
// The kernels assume checked arguments: equal lengths where the loop of
// their comment indexes two slices, and in-range matrices. The assembly
// computes the scalar loop of its generic version up to the order of
// summation and fused multiply-adds.
package vec
