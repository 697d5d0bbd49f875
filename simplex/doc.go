// Package simplex solves linear programs with a bounded revised simplex
// method, reads them from MPS files, and minimises ||B w||_1 subject to
// q^T w = 1 quickly, one problem or many with the same B.
//
// # Problems and results
//
// A Problem is
//
//	minimise c^T x + Offset  subject to  RowLower <= A x <= RowUpper,
//	                                     ColLower <=  x  <= ColUpper,
//
// with A in compressed column form (Sparse) and any limit possibly
// infinite, so rows are equalities, inequalities of either sense, ranges
// or free, and variables are fixed, boxed, one-sided or free; Maximize
// turns the objective around. Solve returns a Result with the status, x,
// the row activities A x, the objective c^T x (the Offset is reported
// apart), the row duals y and the reduced costs d = c - A^T y, the
// iteration count, the final Basis (a warm start for a similar problem:
// Options.Basis) and, for an unbounded problem, a ray.
//
// # Errors
//
// Data problems are errors, never panics: Solve and Validate return an
// *InputError (errors.Is(err, ErrInvalid)) for NaN or infinite data,
// inconsistent sizes, a row listed twice in a column, or a lower limit
// above its upper limit. A valid problem always gives a Result; the error
// is nil exactly when the status is Optimal, and otherwise ErrInfeasible,
// ErrUnbounded, ErrIterationLimit, ErrNumerical, or the context's error
// (wrapped) when the context passed to Solve ends. The contexts of Solve
// and L1MinBatch must not be nil: a nil one is a programmer error and
// panics with a message. ReadMPS reports
// malformed input as an *MPSError (errors.Is(err, ErrMPS)) with the line
// number.
//
// # The method
//
// Presolve (Options.NoPresolve turns it off; it is also skipped with a
// warm start, Options.Basis): fixed columns are removed (their terms move
// into the row limits), and so are columns without entries, at the bound
// their cost favours (kept if that bound is infinite); a row with one
// entry becomes a bound of its column; empty rows and rows that the
// bounds of their columns make redundant are removed; a forcing row, one
// whose limit the activity reaches only with every column at a bound
// (within 1e-9 relative; bounds from singleton rows excepted), fixes its
// columns there and is removed; the passes repeat while they remove
// something. Then every equality row with two entries,
// a x_j + b x_k = rhs, is removed with x_k, which is substituted out
// (x_k = (rhs - a x_j)/b, with |b| >= 0.1 |a|; the shorter column goes
// when both qualify): x_k's bounds become bounds of x_j, its cost moves
// to x_j and the Offset, and its other rows get x_j's multiple of its
// entries (fill-in) and shifted limits. Both stages repeat on what is
// left while they reduce it. A row whose activity range (from the
// bounds) misses its limits, an empty row with limits that exclude zero
// and singleton rows that ask for an empty interval make the problem
// Infeasible before any iteration (by more than 1e-6 relative; closer
// cases go to the simplex method). Postsolve gives back x, the duals of
// all rows (zero for removed rows, except a singleton row whose bound
// holds its column at the optimum, which takes the column's reduced
// cost over its entry; a forcing row takes the dual nearest zero, of the
// sign of its limit, that leaves its columns' reduced costs of the signs
// their bounds need; a doubleton row's dual makes the substituted
// column's reduced cost zero, or, when x_j sits at a bound that came
// from x_k's, x_j's, and x_k is then nonbasic at that bound) and
// d = c - A^T y on the original data, and a Basis of the original
// problem. Result.Events says what presolve did.
//
// Solve scales the problem (rows, then columns, to largest magnitude one,
// by powers of two; first geometric-mean passes if the spread of the
// magnitudes stays above 1e6), adds a logical variable for every row
// (A x + s = 0, so s = -A x carries the row limits), and starts from the
// slack basis or from Options.Basis. The default method is the dual
// simplex method:
//
//   - Basis factorization: sparse LU, M B = U with M = R_t...R_1 L^{-1}.
//     Column and row singletons are pivoted first (no fill), the rest by
//     Markowitz pivoting (lowest (r-1)(c-1) over a few short rows and
//     columns) with threshold partial pivoting (a pivot is at least 0.1 of
//     the largest element of its column). A singular basis has its bad
//     columns replaced by logicals. U is kept by rows and by columns.
//   - Updates: Forrest–Tomlin (the spike L^{-1} a_q replaces a column of
//     U, which is moved last, and a row eta restores triangularity), with
//     a stability check of the new diagonal against the pivot of the
//     tableau; refactorization every 100 updates (Options.RefactorInterval),
//     when the factors' size doubles, or when an update fails the check.
//   - Pricing: dual steepest edge (weights ||e_r^T B^{-1}||^2 updated each
//     iteration with one extra solve, exact for the leaving row).
//   - Ratio test: bound flipping (boxed variables whose reduced cost
//     changes sign are moved to their other bound while the slope of the
//     dual objective stays positive) combined with Harris' tolerances and
//     the largest pivot among the candidates; found by a weighted
//     selection rather than a sort. Pivot elements below 1e-7 are never
//     used; a pivot that disagrees between the pivotal row and column
//     triggers a refactorization.
//   - Degeneracy: the costs are perturbed at random (deterministically,
//     Options.Seed) in the direction of dual feasibility, by about
//     5e-6 times (1 + |c_j|) for the structural variables that are not
//     free and a tenth of that for the logical ones (without the latter,
//     problems whose variables are all free, or whose objective is
//     sparse, are dually degenerate in every row and the method
//     stalls); afterwards the perturbation is removed
//     and the primal simplex method repairs the few dual infeasibilities
//     this leaves. After 200 degenerate iterations a smallest-index rule
//     takes over until progress resumes.
//   - Phase 1: if the start is not dual feasible after flipping boxed
//     variables, the dual method first solves an auxiliary problem whose
//     bounds are [-1000, 1000] for free variables, [0, 1] or [-1, 0] for
//     one-sided ones and [0, 0] for the others; its optimal basis is dual
//     feasible for the original problem unless that problem is dual
//     infeasible, in which case the primal method decides between
//     Unbounded and Infeasible. A row that the dual ratio test cannot
//     repair (infeasibility) is confirmed by the primal phase 1.
//
// The primal method (Options.Method = Primal; also used for the clean-up)
// minimises the sum of infeasibilities while there are any (composite
// phase 1), with devex pricing (reference weights updated from the pivot
// row, reset when one passes 1e6) and Harris' ratio test; in phase 1 the
// step passes the points where violated basic variables reach their
// bounds while the sum of infeasibilities still falls, so that one
// iteration can repair many. As the main method it first makes the free
// variables basic (each in place of a logical variable, no iteration
// counted; not with a warm start) and relaxes every finite bound of the
// variables that are not fixed by a random amount (10 to 20 times the
// primal tolerance plus 1e-6 of the bound, deterministic) against primal
// degeneracy; at the end the bounds are restored and the dual method
// removes the few violations this leaves.
//
// Tolerances: primal feasibility 1e-7 (Options.PrimalTol), dual
// feasibility 1e-7 (Options.DualTol), both applied to the scaled problem
// but tightened per variable where scaling would loosen them, so that
// they also bound the violations in the original units relative to 1 +
// |limit| and 1 + |c_j| (by at most a factor 1e4); pivots 1e-7; LU pivots
// 1e-11 absolute and 0.1 relative. An optimum is confirmed on a fresh
// factorization before it is returned.
//
// Solve is deterministic: no clock, no map iteration, a seeded
// perturbation; the same problem and options give the same iterations.
//
// # MPS
//
// ReadMPS reads fixed and free MPS (NAME, OBJSENSE, ROWS, COLUMNS, RHS,
// RANGES, BOUNDS with UP, LO, FX, FR, MI, PL, BV, LI, UI; integer markers
// are ignored and BV, LI, UI are treated as continuous bounds). A right-
// hand side on the objective row is the constant -rhs, reported in
// Problem.Offset.
//
// WriteMPS writes a Problem as free MPS that ReadMPS reads back as the
// same problem (and that other solvers, such as glpsol, read).
//
// # l1 minimisation
//
// L1Min(B, q, opts) minimises ||B w||_1 subject to q^T w = 1 for B
// n x k with k much smaller than n (the l1 problems of the linear learners'
// identifiability tests), through the dual
//
//	max mu  subject to  B^T y = mu q,  -1 <= y <= 1,
//
// which has only k equality rows and n boxed variables. A bounded dual
// simplex method works on it with the k x k basis inverse held explicitly
// (dense, updated in product form and recomputed every 64 updates): the
// pivotal row is one matrix-vector product with B, the ratio test flips
// bounds (often many per iteration), and dual steepest-edge weights are
// the exact squared norms of the inverse's rows. The start comes from a
// few iteratively reweighted least-squares steps (the rows with the
// smallest residuals, kept well conditioned, form the basis). The costs
// of y are perturbed against the dual degeneracy of sparse optima and
// the perturbation is removed at the end. w is the basis' dual solution,
// so B w has at least k-1 exact zeros.
//
// L1MinBatch and L1Solver solve many problems with the same B, reusing
// the storage and B^T, and warm-start each from the best earlier optimum:
// an optimal basis of one q is a vertex for every q' with q'^T w != 0,
// with value ||B w||_1 / |q'^T w|, and the solver starts from whichever
// of that vertex and its crash is better. Problems that the dense method
// cannot start (B of rank below k) go to Solve.
package simplex
