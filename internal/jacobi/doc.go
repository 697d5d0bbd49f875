// Package jacobi holds the batched kernels of one-sided Jacobi methods
// for the svd package: a step of a sweep rotates a set of disjoint pairs
// of rows, and one call does a whole step, or a whole sweep of a small
// matrix, so that the call overhead is paid once per step.
//
//   - Steps rotates pairs of rows of a row-major matrix, step by step,
//     each pair so that its rows become orthogonal (the rotation of the
//     smaller angle, computed from the pair's 2x2 Gram matrix), and keeps
//     the rows' squared norms up to date; Plan is the same schedule
//     prepared for repeated sweeps.
//   - RotPairs applies the rotations of a step to another matrix (for
//     example the accumulated right singular vectors).
//   - SweepT runs a whole round-robin sweep on up to 32 rows stored by
//     slots, all pairs of a step on the lanes of a few vectors.
//
// Pairs whose squared norms lie outside [SqMin, SqMax] are left to the
// caller. Every kernel has a portable Go version (the reference) and
// assembly for some levels of internal/simd (AVX-512 for Plan and SweepT;
// AVX2, AVX-512 and NEON for RotPairs; the vector kernels of
// internal/vec for Steps); the package-level functions run the selected
// level.
package jacobi
