// Package svd computes singular value decompositions and symmetric
// eigendecompositions by one-sided Jacobi methods (and, for large
// matrices, by bidiagonal or tridiagonal reduction), and their truncated
// and randomized variants.
//
// # Definitions
//
// The thin singular value decomposition of an m x n matrix A, with
// p = min(m, n), is A = U*Σ*Vᵀ: U m x p and V n x p with orthonormal
// columns (the left and right singular vectors), Σ = diag(S) with
// S[0] >= S[1] >= ... >= S[p-1] >= 0 (the singular values). The
// eigendecomposition of a symmetric n x n A is A = V*Λ*Vᵀ with V
// orthogonal and Λ = diag(λ) real. The pseudo-inverse is
// A⁺ = V*Σ⁺*Uᵀ, Σ⁺ inverting the singular values above rcond*S[0]; the
// numerical rank is their number.
//
// One-sided Jacobi orthogonalizes the rows x_i of a matrix X by plane
// rotations: for a pair (i, j) it applies the rotation G that makes
// x_iᵀx_j zero, and it sweeps over all pairs until every
// |x_iᵀx_j| <= tol*||x_i||*||x_j||. The final X equals Σ*Wᵀ up to the
// order of its rows (the row norms are the singular values, the
// normalized rows the singular vectors W), and the product of the
// rotations is the other factor.
//
// # Methods
//
// Factorize computes the SVD by one of two methods (Options.Method; by
// default the first while min(m, n) is below BidiagonalMin = 48, the
// second from there on, where it is faster).
//
// MethodJacobi is a one-sided Jacobi SVD with QR preconditioning in the
// manner of LAPACK's dgejsv (Drmač and Veselić, "New fast and accurate
// Jacobi SVD algorithm", I and II): the matrix (or its transpose, so
// that it is wide) is reduced to a triangle by the row-pivoted LQ
// factorization of package lq (after an unpivoted one when it is more
// than twice as wide as high); when its right singular vectors are
// wanted, a second (QR) factorization of the triangle makes the
// triangular solve that yields them accurate; and one-sided Jacobi
// rotations of the rows of the triangle finish the job. Row-major
// storage makes the rotations act on contiguous rows. The sweeps run on
// batched assembly kernels (AVX-512, AVX2, NEON): every
// step of a sweep is a set of disjoint pairs of rows whose dot products,
// rotations and row updates are each done at once (the rotations in the
// lanes of a vector, the dot products of the next step while the rows
// are rotated), in de Rijk's row-cyclic order executed as a
// wavefront over blocks of rows that stay in cache, or, for at most 32
// rows, in the round-robin order on a transposed copy of the rows. The
// method computes singular values with high relative accuracy for
// matrices that are well conditioned up to a diagonal scaling of their
// rows or columns, such as graded matrices, where bidiagonalization-based
// SVDs only give absolute accuracy.
//
// MethodBidiagonal works in the manner of LAPACK's dgesdd: Z = A, or Aᵀ
// when A is tall, so that Z is p x q with p <= q, scaled by a power of
// two; when q > 1.6p, first the LQ factorization Z = L*Q0 (of package
// lq's kind), so that the rest works on the p x p triangle L; then
// Householder reflectors applied alternately from the right (zeroing a
// row right of the diagonal) and from the left (zeroing a column below
// the subdiagonal) reduce it to a lower bidiagonal matrix, blocked as in
// LAPACK's dgebrd (panels of 32 steps, the trailing updates as matrix
// products, the matrix-vector products of each step split among
// goroutines); the SVD of the bidiagonal matrix follows, by divide and
// conquer when vectors are wanted (on two or more goroutines from order
// 200 its first half starts while the reduction makes the rest of the
// bidiagonal matrix), by dqds for the values alone; and the
// reflectors are applied to its singular vectors in blocks as compact WY
// transformations (matrix products). Its singular values have the
// absolute accuracy of order eps*S[0] of a backward stable method, its
// vectors are orthogonal to working precision; small singular values of
// graded matrices lose the relative accuracy that MethodJacobi keeps.
//
// EigSym computes all eigenpairs of a symmetric matrix by one of two
// methods (EigOptions.Method; by default the first below order
// TridiagonalMin = 128, the second from there on). The Jacobi method: for
// a positive semidefinite matrix (of any rank), one-sided Jacobi on its
// pivoted Cholesky factor, which needs no accumulated rotations and keeps
// high relative accuracy; for an indefinite one, the Jacobi SVD followed
// by a small two-sided Jacobi step that restores the signs. The
// tridiagonal method, in the manner of LAPACK's dsyevd: blocked
// Householder reduction to a tridiagonal matrix T (panels as in dlatrd,
// the trailing updates as matrix products), Cuppen's divide and conquer
// on T (deflation as in dlaed2, the eigenvectors of each rank-one update
// by the method of Gu and Eisenstat, so that they are orthogonal to
// working precision even for clustered eigenvalues; blocks of at most 32
// by the implicit QL method), and the reflectors applied to the
// eigenvectors as compact WY blocks. Its eigenvalues have absolute
// accuracy of order eps*||A||, for every spectrum.
//
// RangeFinder, Randomized and RandomizedEigSym are the randomized
// methods of Halko, Martinsson and Tropp for the top k singular triples
// or eigenpairs: a Gaussian block Ω, Y = (A*Aᵀ)^q*A*Ω orthonormalized
// after each product into Q whose range approximates that of A, then the
// small decomposition of Qᵀ*A. TopEigSym finds the k algebraically
// largest eigenpairs of a symmetric operator by LOBPCG (block
// Rayleigh-Ritz on the span of the current block, its residuals and the
// previous directions), which is right for indefinite operators; a
// solve's final block (TopEigen.Basis), given as TopEigOptions.Start,
// warm-starts the solve of a nearby operator in fewer products. These
// four take an Operator, which is either a stored matrix (DenseOperator)
// or functions (MulFunc) that multiply thin matrices by A and Aᵀ, so
// that a moment matrix never has to be formed; they take a
// context.Context (which must not be nil), check it before each product,
// and return an error of the operator (a failed pass over data, say) or
// of the context as it is.
//
// PseudoInverse, SVD.Solve, SVD.Rank and SVD.Truncate cover the usual
// uses of a decomposition. Where the plain product V*diag(1/S)*Uᵀ*B
// overflows, PseudoInverse and SVD.Solve form it again scaled by powers
// of two, so they return a finite result whenever it fits in float64
// (even where 1/S[r-1] alone overflows) and ErrRange where it does not,
// never an infinity or NaN.
//
// # Range
//
// MethodBidiagonal scales A by a power of two that brings its largest
// magnitude into [0.5, 1), exactly unless entries then underflow: it is
// backward stable for any finite A, and its singular values below about
// 2^-1022 times the largest magnitude of A come out as zero or
// inaccurate. What follows is about MethodJacobi.
//
// MethodJacobi works on A scaled by a power of two, exactly (so that the
// vectors and the values, scaled back, are those of A). Normally the
// largest magnitude is brought near 1. When the largest magnitudes of
// the rows or of the columns of A span more than 2^950, it is brought
// instead up to about lq.MaxSafe(m, n) = 2^(1018 - 2 bitlen(max(m, n)))
// (bitlen(x) the number of bits of x; 2^1010 for max(m, n) < 16), the
// largest scale at which the LQ factorizations and the sweeps cannot
// overflow, and a square A is factored as Aᵀ when its columns span the
// wider range. Rows of the triangular factor whose norm falls below
// 2^-1000 after scaling are set to zero (they would be made of subnormal
// numbers, too coarse for the rotations). So the relative accuracy holds
// for the singular values down to about 2^-1000/scale: 2^-(2018 - 2
// bitlen(max(m, n))) times the largest magnitude of A (about 2^-2000
// times it for max(m, n) < 256), which reaches the smallest subnormal
// number whenever the largest magnitude is below about 2^930; smaller
// values come out as zero. Subnormal results keep the precision that
// their format has. One more limit: the factorizations act on Z = A or
// Aᵀ, whichever is wide (p = min(m, n) rows), and a Householder vector,
// normalized to a leading 1, cannot hold components of a row of Z more
// than 2^1074 apart, so singular values that depend on entries smaller
// than about 2^-1000 times the largest entry of their row of Z (the
// columns of a wide A, the rows of a tall one; for a square A, the side
// of narrower range) are accurate to about 2^-1000 times that entry,
// absolutely. Rows and columns of A graded over the whole range, down
// to that limit, are covered when the grading is across the short side
// (diagonal and graded matrices spanning 1e-300 to 1e300 are tested).
//
// # Errors
//
// Input with NaN or infinite entries gives ErrNotFinite. A Jacobi
// iteration that does not converge within its sweep cap (30 by default;
// preconditioned matrices need about 4 to 10), a QL iteration of the
// tridiagonal method that needs more than 60 steps for one eigenvalue
// (two or three are usual), or an SVD of a bidiagonal matrix that does
// not converge, gives a *ConvergenceError,
// which matches ErrNoConvergence with errors.Is. Shape mismatches and
// out-of-range arguments are programming errors and panic.
//
// # Determinism
//
// Results depend only on the input (and, for the randomized methods and
// TopEigSym, the Seed of their options, which names a fixed PCG stream:
// no *rand.Rand is taken): the matrix products give bit-identical
// results for any number of goroutines.
package svd
