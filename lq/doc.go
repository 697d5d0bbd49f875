// Package lq computes Householder LQ factorizations of row-major
// matrices and what they are used for: QR factorizations (through the
// transpose), least-squares and minimum-norm solutions, the
// pseudo-inverse, the numerical rank, and orthonormal bases of the column
// and row spaces.
//
// # Why LQ
//
// LQ is the row-major twin of QR. The LQ factorization A = L*Q of a
// row-major A applies Householder reflectors to rows, which are
// contiguous, exactly as LAPACK's QR applies them to the contiguous
// columns of a column-major matrix. Small problems (at most 64 rows
// below the current panel) apply each reflector as it is generated, as
// a matrix-vector product and a rank-one update (LAPACK's dlarf; LAPACK
// factors unblocked below 128 columns too). Larger ones factor panels of
// 32 rows that way and update the rest of the matrix in compact WY form
// (I - Vᵀ*T*V, Schreiber and Van Loan) with two kernels.Gemm calls, so
// the bulk of the work runs at the speed of the matrix product; products
// with Q are blocked likewise when the work is large enough to pay. QR
// of A is the LQ of Aᵀ: FactorizeQR transposes once (O(mn)) and factors.
// FactorizeInPlace and FactorizePivotedInPlace skip the copy of the input when
// it is scratch space.
//
// # What is here
//
//   - Factorize, FactorizeQR (and FactorizeInPlace): LQ and QR, with the factors,
//     products with the orthogonal factor, and full-rank Solve (minimum
//     norm for LQ, least squares for QR).
//   - FactorizePivoted: LQ with row pivoting (QR with column pivoting of Aᵀ,
//     LAPACK's dgeqp3 applied to rows), which orders the diagonal of L by
//     decreasing magnitude and reveals the numerical rank; the Jacobi SVD
//     of package svd uses it as its preconditioner.
//   - LeastSquares and PseudoInverse for any shape and rank (a complete
//     orthogonal decomposition, as LAPACK's dgelsy), ColSpace and
//     RowSpace for orthonormal bases.
//
// # Errors
//
// Input with NaN or infinite entries gives ErrNotFinite; the full-rank
// solvers return ErrSingular for numerically rank-deficient matrices.
// Shape mismatches are programming errors and panic.
package lq
