// Package linear learns linear models with hidden variables from the low
// order moments of single-view data (SPEC.md sections 3-5; the papers
// "Learning Linear Bayesian Networks with Latent Variables" and
// "Learning Topic Models and Latent Bayesian Networks Under Expansion
// Constraints" by Anandkumar, Hsu, Javanmard and Kakade).
//
// # Models
//
// Observed x in R^n, hidden h in R^k, x = A h + eps with independent
// observation noises eps (the single-view linear model). The columns of
// A are identifiable from Sigma = E[x x^T] when their support has the
// expansion property and A satisfies a rank condition (n >= 3k), up to
// permutation and scale: the learners return A in the canonical form of
// the linear-BN paper (hidden variables of unit variance, each column's
// largest entry positive).
//
//   - DLD, DLDSearch: split a matrix C = A B^T + D into its rank-k and
//     diagonal parts given a 3-way partition of the indices; the search
//     tries random partitions and keeps the one whose diagonal blocks are
//     most nearly diagonal (the paper's rule for sampled moments).
//   - LearnTWM: the sparse columns of A from L = A H A^T by l1
//     minimisation (the basic variant and the projection variant of
//     App. G), on the batch l1 solver of package simplex, followed by a
//     least-squares refinement of each column on its estimated zero set.
//   - LearnCoefficients: DLDSearch + LearnTWM + UnitVariance (ALGORITHM 1).
//   - LearnHierarchy: multi-level DAGs, any number of levels (Theorem
//     3.4 / 5.5): each level's hidden second moment B L B^T is the input
//     of the next.
//   - LearnDAG: hidden variables related by a DAG, h = Lambda h + eta with
//     independent skewed eta (effective depth one, ALGORITHM 2 /
//     TMLearn): A from Sigma, the directions of the hidden noises by ECA
//     on the third moments (ECATensor: one whitened k x k x k tensor and
//     the robust tensor power method of package tensor3; ECAPower and
//     ECASingle: the paper's DLD of Psi(zeta) slices), the causal order
//     from C = A^+ S (CausalOrder), and Lambda.
//   - LearnDAGGivenOrder (Remark 4.4): Lambda from second moments when an
//     oracle gives the topological order; LambdaFromOrder.
//   - LearnObservedBN (Remark 4.3): fully observed linear BNs, the
//     problem of LiNGAM.
//   - Identifiability: CheckExpansion (exact for k <= MaxExactExpansion),
//     ExpansionSufficient (polynomial), Incoherence (c_A), RankCondition,
//     RowGaps, ColumnsLeadRows, L1Recovery.
//   - Data: ReadCSV reads numeric samples (a moments.Samples);
//     SampleThird gives the third moments of samples, with the whitened
//     third moment in one pass (WhitenedThirdMoments); PsiFunc adapts a
//     formula for Psi(zeta) such as a model's population moments.
//
// # Beyond the papers
//
// Three steps differ from the papers, all exact for exact moments and
// much more accurate on sampled ones (see the package tests and
// bench/cmd/linear):
//
//   - LearnTWM counts non-zeros relative to a noise level estimated from
//     the l1 solutions (so exact moments count exact non-zeros) and
//     refines each chosen column by least squares on its zero set, which
//     it then clears (TWMOptions).
//   - ECATensor replaces a DLD of Psi(W v) in every power iteration by
//     one pass computing E[(W^T x)^(x)3], from which it removes the
//     contribution of the observation noises, estimated by alternating
//     with the decomposition (DAGOptions.Zetas for the DLD-of-slices
//     estimate instead).
//   - CausalOrder works on C, whose support holds every ancestral
//     relation, rather than on C^{-1}.
//
// # The verdict
//
// Every learner's result embeds a Verdict: the checks of the conditions
// under which its estimate is consistent, computed from the estimate and
// the moments, each saying whether it holds and by what margin (Check),
// and a line in Warnings for each that fails. A learner whose conditions
// fail still returns its estimate; the caller decides (the moments
// command prints the warnings on stderr). The checks:
//
//   - expansion: ExpansionMargin of the learned support of A, the least
//     |N(S)| - |S| - d_max, with the support bounded by the noise level
//     of each column (see SupportTol): exact for exact moments;
//   - l1 recovery: on the learned model's own exact moments, every
//     learned column is the l1 solution of some row's problem (the
//     covering condition of Theorem 3.2; n l1 problems) or, failing
//     that, is found by the l1 rounds of LearnTWM (about one more
//     LearnTWM); Options.SkipL1Check leaves it out;
//   - spectrum gap: s_k/s_{k+1} of the DLD blocks and of L, the gap that
//     sets the rank k (MinSpectrumGap);
//   - DLD partition: the off-diagonal ratio of the chosen partition
//     (MaxOffDiagRatio);
//   - noise skewness (LearnDAG, LearnObservedBN, LearnCrossDAG): the
//     least |skewness| of the recovered noises against a bound that
//     scales with the number of samples (MinSkewness);
//   - triangularity of the learned order (MaxTriangularity).
//
// The thresholds come from a sweep over random and conditioned models,
// on population moments and on samples (TestVerdictSweep; the figures
// are in the constants' comments). On exact moments the checks are
// exact; on samples the support of A is uncertain, and the expansion
// check can miss a model outside the conditions or flag one whose
// margin is 0. Exact moments that cannot support the model at all are
// errors: a DLD block of rank below k, or two or more noises whose
// third moments vanish (ErrRankDeficient).
//
// # Errors
//
// Data problems are errors matching ErrNotFinite, ErrTooManyFactors,
// ErrRankDeficient, ErrNoConvergence or ErrBadData (a *DataError with the
// line and field for malformed CSV); an option value that makes no sense
// (a NaN, an infinity, a negative count or tolerance, a relative
// tolerance above one) is an error matching ErrBadOption that names the
// option and its value. Shape mismatches are programming errors and
// panic. Every random choice comes from a seed in the options:
// the same inputs give the same bits, for any number of workers.
//
// # Memory
//
// The learners follow the memory rule of package mat: Options.MaxMemory
// (embedded in DAGOptions) and CSVOptions.MaxMemory bound what they hold
// (0 means mat.DefaultMaxMemory, 4 GiB; negative, no limit).
// LearnCoefficients, LearnHierarchy, LearnDAG, LearnCrossDAG and
// LearnObservedBN estimate their n x n matrices (60 + 10 workers of them,
// from the measured peak heap of LearnDAG, plus the Psi slices for
// LearnDAG; for LearnObservedBN eight and the packed n x n x n tensor) and refuse a job over the limit with a
// *mat.MemoryError matching mat.ErrTooLarge before they allocate.
// Options.CheckMemory and DAGOptions.CheckMemory give the same answer
// without data, so that a program can refuse a job before it computes
// Sigma. LearnTWMEig and LearnCrossDAGEig take the top k eigenpairs of
// L or Pairs instead of the matrix (all that LearnTWM, the whitening and
// the hidden second moment use of it), so that a vocabulary-sized Pairs
// given only by its products (package topic) is never formed: they hold
// O(n k) (DAGOptions.CheckMemoryEig); LearnTWM keeps per l1 candidate
// its w (k numbers) rather than s = B w (n numbers), and at most 64 l1
// solvers. ReadCSV stops at the line whose samples would pass the limit.
package linear
