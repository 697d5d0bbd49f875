// Package lq computes Householder LQ factorizations of row-major
// matrices and what they are used for: QR factorizations (through the
// transpose), least-squares and minimum-norm solutions, the
// pseudo-inverse, the numerical rank, and orthonormal bases of the column
// and row spaces.
//
// # The factorizations
//
// For an m x n matrix A and k = min(m, n):
//
//   - LQ: A = L*Q with L m x k lower trapezoidal and Q k x n with
//     orthonormal rows, the first k rows of the orthogonal
//     Q_full = H_{k-1}*...*H_0. Each H_i = I - tau_i*v_i*v_iᵀ is a
//     Householder reflector (v_i zero before position i, 1 at i) chosen
//     so that row i of A*H_0*...*H_i is zero right of the diagonal.
//   - QR: A = Q*R, Q m x k with orthonormal columns, R k x n upper
//     trapezoidal, from the LQ factorization Aᵀ = Rᵀ*Qᵀ.
//   - Row-pivoted LQ: Pᵀ*A = L*Q with P a permutation chosen greedily
//     (at step i the remaining row of largest norm), so that
//     |L[0][0]| >= |L[1][1]| >= ...; the numerical rank is the number of
//     |L[i][i]| > rcond*|L[0][0]|.
//   - Complete orthogonal decomposition, for any shape and rank r:
//     A*P = Q1ᵀ*E from the row-pivoted LQ of Aᵀ truncated to rank r, then
//     E = T*Z with T r x r triangular and Z r x n with orthonormal rows.
//     The minimum-norm least-squares solution of A*X ≈ B (the X of least
//     ||X||_F among those minimizing ||A*X - B||_F) is then
//     X = P*Zᵀ*T⁻¹*Q1*B, and the pseudo-inverse is the X for B = I.
//
// Full-rank Solve: for LQ (m <= n) the minimum-norm solution of A*X = B,
// X = Qᵀ*L⁻¹*B; for QR (m >= n) the least-squares solution,
// X = R⁻¹*Qᵀ*B.
//
// A matrix whose largest magnitude is above MaxSafe(m, n) or below
// 2^-500 is scaled by a power of two (exactly, unless entries underflow)
// before it is factored, and the triangular factor scaled back, so that
// the norms and updates inside can neither overflow nor underflow.
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
// A solution that does not fit in float64 gives ErrRange, never NaN or
// an infinity. The triangular solves fall back, where their plain form
// overflows, to arithmetic with an unbounded exponent, so ErrRange means
// that the solution, or its products with the orthogonal factors, come
// within a factor of about the matrix's dimensions of the top of the
// range: a right-hand side near the top, or an rcond so small that
// LeastSquares keeps a pivot at the level of rounding errors of a matrix
// near the bottom of the range.
// Shape mismatches are programming errors and panic.
package lq
