// Package tensor3 provides symmetric third-order tensors in packed
// storage and the operations the method-of-moments learners need: the
// updates that accumulate third moments, contractions with vectors and
// matrices, and the robust tensor power method that decomposes a
// whitened third moment into its components.
//
// # Definitions
//
// A symmetric tensor T of order 3 and dimension d has T[i][j][l] equal
// for every permutation of (i, j, l). u(x)v(x)w is the outer product,
// (u(x)v(x)w)[i][j][l] = u_i v_j w_l. For a d x k matrix W,
// T(W, W, W) is the k x k x k tensor
// sum_{i,j,l} T[i][j][l] W[i][a] W[j][b] W[l][c]; with vectors,
// T(I, v, v)_i = sum_{j,l} T[i][j][l] v_j v_l and
// T(v, v, v) = sum T[i][j][l] v_i v_j v_l. An orthogonally decomposable
// T = sum_{m<k} λ_m v_m(x)v_m(x)v_m (orthonormal v_m, λ_m > 0) has the
// v_m as its robust eigenvectors: the fixed points of the power map
// v <- T(I, v, v) / ||T(I, v, v)|| to which it converges from almost
// every start, with eigenvalues λ_m = T(v_m, v_m, v_m).
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
// the hot loop of every third-moment estimate, run by register-blocked
// (hand-written AVX-512, AVX2 and NEON micro-kernels, updating each
// stored value once per block of samples, a sixth of the work of the
// full outer products, in parallel with results that do not depend on
// the number of goroutines). AddOuter is the single-vector form,
// AddSymOuter adds the symmetrised u(x)v(x)w, AddSymMatOuter adds
// M(x)v plus its two other placements of v.
//
// The whitened third moment of a topic model estimated from word counts
// c (the multi-view moment with whitened word vectors w_i and y = sum_i
// c_i w_i for a document) needs, besides the y(x)y(x)y terms, the
// corrections
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
// PowerMethod runs the robust tensor power method of Anandkumar et al.
// (L random starts, N iterations of the power map each, the start of
// largest T(v, v, v) polished and deflated, T <- T - λ v(x)v(x)v, k
// times) or, as an option, orthogonal simultaneous power iteration.
// Randomness comes from PowerOptions.Seed, so the same seed gives the
// same bits; a context (never nil) can stop it between starts or steps;
// eigenvalues come sorted in decreasing order and made non-negative by
// the choice of sign of each eigenvector.
package tensor3
