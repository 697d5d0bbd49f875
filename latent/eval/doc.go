// Package eval measures learned models against the truth and against
// data. It is for tests, benchmarks and reports; the learners do not
// depend on it.
//
// Matching. Learned factors come in an arbitrary order, so they are
// matched to the true ones first by an assignment: Assign solves
// min sum_i cost(i, p(i)) over injections p (the Hungarian method);
// MatchTopics uses the l1 distance between topic columns, MatchColumns
// the |cosine| similarity of factor columns, which ignores their scale
// and sign.
//
// Factor matrices. For a truth A (n x k) and an estimate Â,
//
//	dist(A, Â) = (1/||A||_F^2) sum_i min_j ||A e_i - nu_ij Â e_j||^2,
//
// nu_ij = <A e_i, Â e_j> / ||Â e_j||^2 the best scale (Dist), the
// distance of the linear-model papers, invariant to the order and scale
// of the estimated columns; RelError, ||Â - A||_F / ||A||_F on aligned
// matrices, rescales nothing and is to be read beside it; Support gives
// the precision and recall of the estimated non-zeros, raw or above a
// fraction tau of their column's largest.
//
// Topics. TopWords lists each topic's most probable words; UMass and
// NPMI score their coherence by document co-occurrence in a corpus
// (UMass: the mean over pairs of log((D(a, b) + 1) / D(b)); NPMI: the
// mean of log(p(a,b) / (p(a) p(b))) / -log p(a,b)); Perplexity is
// exp(-log-likelihood / tokens) of held-out text.
//
// Clusterings. NMI is the normalised mutual information
// I(U;V) / ((H(U) + H(V)) / 2) of two labelings.
package eval
