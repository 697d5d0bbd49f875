// Package tensor3 provides symmetric third-order tensors in packed
// storage and the operations the method-of-moments learners need: the
// updates that accumulate third moments, contractions with vectors and
// matrices, and the robust tensor power method that decomposes a
// whitened third moment into its components.
//
// # Storage
//
// A Sym of dimension d stores the d(d+1)(d+2)/6 values T[i][j][l] with
// i <= j <= l, grouped by the middle index (see Sym); At and Set accept
// the indices in any order, and Dense expands the full d^3 array for
// tests. Like mat.Dense, a Sym that receives a result (Copy, Scale, Add,
// Sub, AddScaled, Multilinear) may be empty and then takes the result's
// dimension; otherwise dimensions must match. Mismatched dimensions and
// indices out of range are programming errors and panic; data errors
// (NaN or Inf given to PowerMethod) are returned as errors.
//
// # Updates
//
// AddOuterRows adds sum_s w_s y_s(x)y_s(x)y_s over the rows of a matrix:
// the hot loop of every third-moment estimate, run by sym3.Rows
// (hand-written AVX-512, AVX2 and NEON micro-kernels, updating each
// stored value once per block of samples, a sixth of the work of the
// full outer products, in parallel with results that do not depend on
// the number of goroutines). AddOuter is the single-vector form,
// AddSymOuter adds the symmetrised u(x)v(x)w, AddSymMatOuter adds
// M(x)v plus its two other placements of v.
//
// The whitened multi-view third moment of SPEC.md 1.1 needs, besides
// the y(x)y(x)y terms, the corrections
// sum_i c_i (w_i(x)w_i(x)y + w_i(x)y(x)w_i + y(x)w_i(x)w_i) of each
// document: AddCountCorrection adds them for one document with sparse
// counts, and AddCrossRows adds them for a whole corpus at once, after
// the per-word sums u_i = sum_docs a_doc c_{doc,i} y_doc (O(nnz k)),
// through the same fast kernel. The last term, 2 sum_i c_i w_i(x)w_i(x)w_i,
// is AddOuterRows on the rows w_i with per-word weights.
//
// # Contractions
//
// ContractMat gives T(I, I, v) (a symmetric matrix), ContractVec
// T(I, v, v), ContractScalar T(v, v, v), and Multilinear the k x k x k
// tensor T(W, W, W) in O(d^3 k) flops, almost all of them in matrix
// products.
//
// # Decomposition
//
// PowerMethod runs the robust tensor power method (L random starts, N
// iterations each, the best start polished and deflated, k times) or,
// as an option, orthogonal simultaneous power iteration. Randomness comes
// from the caller's *rand.Rand, so the same seed gives the same bits;
// eigenvalues come sorted in decreasing order and made non-negative by
// the choice of sign of each eigenvector.
package tensor3
