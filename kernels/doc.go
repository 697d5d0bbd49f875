// Package kernels holds the float64 building blocks of moments: vector
// kernels (Dot, Axpy, Scal, Asum, Nrm2, Iamax, Rot), matrix-vector kernels
// (Gemv, Ger) and a cache-blocked, parallel matrix product (Gemm, Syrk)
// built from packing routines and a register-blocked micro-kernel in the
// manner of Goto and BLIS.
//
// # Implementations and dispatch
//
// Every kernel has a portable Go version (the reference, always compiled)
// and hand-written assembly for amd64 with AVX2+FMA, amd64 with
// AVX-512F, and arm64 with NEON. At start-up the package reads the CPU's
// features (golang.org/x/sys/cpu) and cache sizes
// (github.com/klauspost/cpuid/v2) and picks the widest path the CPU and
// the OS support; the GEMM blocking (micro-tile MR x NR, KC, MC, NC) is
// sized from the caches. The environment variable MOMENTS_KERNELS
// (generic, avx2, avx512 or neon) forces a path; naming one that cannot
// run here stops the program at start-up with a message that says why.
// Use switches paths at run time (tests and benchmarks do), and Info
// reports what was found.
//
// Building with -tags purego compiles no assembly at all: every call runs
// the Go reference.
//
// # Conventions
//
// Matrices are row-major with an explicit row stride. Sizes that do not
// fit the slices, negative sizes and non-positive strides are programming
// errors and panic with a message naming the kernel. Floating-point
// semantics follow IEEE 754: NaN and Inf propagate (Nrm2 and Iamax state
// what they return for them). The assembly may sum in a different order
// than the reference and uses fused multiply-adds, so results agree with
// the reference to rounding, not bit for bit; but each path is
// deterministic, and Gemm and Syrk give bit-identical results for any
// number of worker goroutines.
package kernels
