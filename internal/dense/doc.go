// Package dense is the module's small dense linear algebra toolkit for
// the handful-by-handful matrices inside the learners and the LP solver,
// where the blocked factorizations of packages lq and svd would be
// overkill and where no symmetric structure is available:
//
//   - LU factorization with partial pivoting, P A = L U, and the solve
//     of A x = b from it (LUFactor, LUSolve);
//   - the inverse A⁻¹ by Gauss-Jordan elimination with partial pivoting,
//     in place (Invert);
//   - the Cholesky factorization A = L Lᵀ of a symmetric positive
//     definite A, the solve of A x = b from it, and the inverse of a
//     lower triangular L (Cholesky, CholeskySolve, InvertLower);
//   - the eigenvalues of a small nonsymmetric matrix whose eigenvalues are
//     real: reduction to upper Hessenberg form H = Qᵀ A Q by Householder
//     reflections, then the shifted QR algorithm (Wilkinson shifts,
//     Givens rotations, deflation of negligible subdiagonal entries)
//     (RealEigenvalues);
//   - Gram-Schmidt orthogonalization of a vector against orthonormal
//     ones (Orthogonalize).
//
// Matrices are n x n, row-major, with row stride n: element (i, j) of a
// is a[i*n+j]. Only Hessenberg and RealEigenvalues allocate (O(n) scratch
// and the result); the others work in the caller's slices. The
// functions report numerical failure (a pivot below the caller's
// threshold, complex eigenvalues) by a false result or an error; a slice
// shorter than the stated size is a programmer error and panics.
package dense
