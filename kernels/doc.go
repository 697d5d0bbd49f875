// Package kernels holds the float64 building blocks of moments: vector
// kernels (Dot, Axpy, Scal, Asum, Nrm2, Iamax, Rot, and their strided
// Inc forms), matrix-vector kernels (Gemv, Ger) and a cache-blocked,
// parallel matrix product (Gemm, Syrk; GemmSerial for callers that share
// out products among goroutines of their own) built from packing
// routines and a register-blocked micro-kernel in the manner of Goto and
// BLIS. Two tall-skinny shapes, in which packing would cost as much as the
// multiply-adds, skip it with the avx2 and avx512 implementations and
// read the rows of A and B where they lie: C = Aᵀ B with C at most
// 128 x 128 and k >= 8 (Gram products of tall matrices; Syrk with trans
// too), and C = A B with n and k at most 60 (40 with avx2); both need m
// >= 4, and with avx2 n >= 12. The choice depends on the shape alone.
//
// # Implementations
//
// Every kernel has a portable Go implementation, "generic" (the
// reference, always compiled), and hand-written assembly: "avx2" (amd64
// with AVX2 and FMA3, 256-bit vectors), "avx512" (amd64 with AVX-512F,
// 512-bit vectors) and "neon" (arm64 Advanced SIMD, 128-bit vectors). At
// start-up the package reads the CPU's features (golang.org/x/sys/cpu)
// and cache sizes (github.com/klauspost/cpuid/v2) and selects the widest
// implementation the CPU and the OS support; the GEMM blocking
// (micro-tile MR x NR, KC, MC, NC) is sized from the caches.
//
// The environment variable MOMENTS_KERNELS (generic, avx2, avx512 or
// neon) forces an implementation at start-up; naming one that cannot run
// here stops the program at start-up with a message that says why. Use
// switches implementations at run time (benchmarks and comparisons do),
// and Info reports the CPU, the implementations that can run and the one
// in use. Building with -tags purego compiles no assembly at all: every
// call runs the generic implementation.
//
// # Conventions
//
// Matrices are row-major with an explicit row stride. The unit-stride
// vector kernels work on the first len(x) elements of every slice
// argument and panic if another vector is shorter than x; the Inc forms
// take n elements at positive strides (x[0], x[inc], ...,
// x[(n-1)*inc]). Sizes that do not fit the slices, negative sizes and
// non-positive strides are programming errors and panic with a message
// naming the kernel. Floating-point semantics follow IEEE 754: NaN and
// Inf propagate (Nrm2 and Iamax state what they return for them). The
// assembly may sum in a different order than the reference and uses
// fused multiply-adds, so results agree with the reference to rounding,
// not bit for bit; but each implementation is deterministic, Gemm and
// Syrk give bit-identical results for any number of worker goroutines
// (SetMaxWorkers), and GemmSerial gives Gemm's bits.
package kernels
