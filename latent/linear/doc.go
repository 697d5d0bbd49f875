// Package linear learns linear models with hidden variables from the
// second and third moments of their observed variables, by the methods
// of Anandkumar, Hsu, Javanmard and Kakade ("Learning Linear Bayesian
// Networks with Latent Variables"; "Learning Topic Models and Latent
// Bayesian Networks Under Expansion Constraints").
//
// The papers' algorithms go by these names here: DLD is DLD (DLDSearch
// tries partitions), LearnTWM is TWMLearn of the papers,
// LearnCoefficients is their Part 1 (DLD then TWMLearn), LearnDAG is
// ALGORITHM 2 of the linear-BN paper, and LearnCrossDAG and
// LearnCrossDAGEig are TMLearn of the topic-model paper (on dense cross
// moments, and on their top eigenpairs; LearnCorrelatedTopics runs it on
// a corpus).
//
// # The model
//
// Observed x in R^n and hidden h in R^k (k <= n/3) are related by
//
//	x = A h + eps,
//
// eps a vector of independent observation noises, independent of h. The
// second moment is Sigma = E[(x - mu)(x - mu)^T] = A E[h h^T] A^T + D,
// D diagonal (the noise variances), so Sigma is a rank-k matrix L plus a
// diagonal. A is identifiable up to the order and scale of its columns
// when
//
//   - (rank) the rows of A split into three parts whose blocks A[I] each
//     have rank k, so that L can be told from D;
//   - (expansion) the support of A expands: |N(S)| >= |S| + d_max for
//     every set S of at least two columns, N(S) the rows with a non-zero
//     in some column of S and d_max the largest number of non-zeros of
//     a column. Then the columns of A are the sparsest vectors of the
//     column space of L, and l1 minimisation finds them.
//
// The learners return A in canonical form: every hidden variable scaled
// to unit variance, each column signed so that its entry of largest
// magnitude is positive.
//
// # The steps
//
// DLD separates L from D. For a partition of the indices into parts I,
// J, K (RandomPartition), with V_J the top k right singular vectors of
// C[I,J] and U_K the top k left singular vectors of C[K,J],
//
//	L[I,I] = C[I,J] V_J (U_K^T C[K,J] V_J)^{-1} U_K^T C[K,I],
//
// exact when each block has rank k; the parts take turns. DLDSearch
// tries random partitions and keeps the one whose diagonal blocks
// C[I,I] - L[I,I] are most nearly diagonal. With Options.RefineNoise
// (off by default) the learners then refine D by the EM steps of
// Gaussian factor analysis from the best few partitions and keep the
// best fit to all of C (see its documentation for what it gains and
// why it is not the default).
//
// LearnTWM recovers the columns from L. With B = L^{1/2} (n x k, from
// the top k eigenpairs), every vector of the column space is B w, and
// for each row i
//
//	min ||B w||_1  subject to  (B^T e_i)^T w = 1
//
// is a linear program (solved by the batch l1 solver of package
// simplex) whose solution, under the expansion condition, is a multiple
// of a column of A whenever row i lies in that column's support alone.
// The basic variant solves every row's problem once and keeps the k
// sparsest independent candidates; the projection variant (the default)
// runs k rounds, each excluding the span of the columns found. Each
// column is then refined: the entries near zero form its zero set Z,
// and the column becomes the vector of the column space closest to
// vanishing on Z (the least right singular vector of the rows Z of the
// basis), which averages the sampling noise over all of Z.
//
// LearnCoefficients = DLDSearch + LearnTWM + UnitVariance, which
// rescales A so that B L B^T (B the pseudo-inverse of A) has unit
// diagonal. LearnHierarchy repeats the step up a hierarchy: the hidden
// second moment of one level is the Sigma of the level above.
//
// # Hidden DAGs: third and fourth moments
//
// When the hidden variables are related by a DAG, h = Lambda h + eta
// with Lambda strictly lower triangular in a topological order and eta
// independent with non-zero skewness, h = G eta with G = (I - Lambda)^{-1}
// and x = A G eta + eps: the columns of A G are independent components.
// LearnDAG finds them from the third moments Psi(zeta) = E[(x - mu)(x -
// mu)^T <zeta, x - mu>] (ThirdMoments): whiten L with W (W^T L W = I,
// n x k); the whitened third moment E[(W^T x)^(x)3], less the part of the
// observation noises, is orthogonally decomposable, sum_j s_j v_j (x)
// v_j (x) v_j with s_j the skewness of eta_j, and the robust tensor
// power method (package tensor3) gives the v_j (ECATensor; ECAPower and
// ECASingle work on DLDs of slices Psi(W v) instead). Then S = (W^+)^T V
// holds the columns of A G up to scale, and C = A^+ S is G up to the
// order and scale of its columns. CausalOrder matches C's rows to its
// columns (an assignment, so that the diagonal carries the largest
// entries) and orders the rows so that the matched matrix is lower
// triangular: the support of G holds every ancestral relation.
// Lambda = I - diag(C~) C~^{-1} with C~ the matched, ordered C
// (DAG.LambdaThird), or, from second moments alone given the order,
// Lambda = I - diag(L) L^{-1} with L the Cholesky factor of the hidden
// second moment in that order (LambdaFromOrder, DAG.LambdaSecond;
// LearnDAGGivenOrder when an oracle gives the order).
//
// Symmetric hidden noises (uniform, Laplace) have no skewness, and the
// third moments cannot separate them. Given samples (NoisyFourthMoments,
// such as SampleThird), LearnDAG then uses the whitened fourth
// cumulant, sum_j k_j v_j^(x)4 over the same directions (k_j the excess
// kurtosis of eta_j) plus the observation noises' part, without forming
// it: the fixed point u <- E[(u.y)^3 y] - 3 (u^T C u) C u less the
// noises' part, over the whitened samples y (C their covariance), costs
// two N x k x k products a step. DAGOptions.Cumulants chooses between
// the third, the fourth and both per data set, from the measured
// skewness and excess kurtosis of the recovered noises, DAG.Cumulants
// reports it, and the verdict warns when neither separates the noises
// (see Cumulants, section "Hidden variables"). The cross-moment
// learners use the third only.
//
// LearnObservedBN is the case A = I without noise, x = Lambda x + eta,
// the problem of LiNGAM (see "Fully observed networks" below); it also
// takes the fourth cumulant, which separates symmetric non-Gaussian
// noises (uniform, Laplace) that the third cannot, through an implicit
// contraction over the whitened samples (FourthMoments, SampleThird), and
// chooses between the two per data set (Cumulants). LearnCrossDAG and
// LearnCrossDAGEig take cross
// moments of conditionally independent views instead (Pairs = A
// E[h h^T] A^T with no diagonal, and the whitened third cross cumulant:
// the correlated topic model); the Eig variants take the top k
// eigenpairs of L or Pairs instead of the matrix, so that a
// vocabulary-sized Pairs given only by its products is never formed.
//
// The identifiability conditions can be checked on a known A:
// CheckExpansion (exact for k <= MaxExactExpansion), ExpansionSufficient
// (polynomial), Incoherence (c_A), RankCondition, RowGaps,
// ColumnsLeadRows and L1Recovery (whether the l1 step recovers every
// column from A's exact moments).
//
// Data: ReadCSV reads numeric samples (a moments.Samples); SampleThird
// gives their third moments, with the whitened third moment in one pass
// (WhitenedThirdMoments), and the whitened samples and diagonal moments
// that the fourth-order routes contract (FourthMoments,
// NoisyFourthMoments: N x k floats held in memory, checked against
// MaxMemory); PsiFunc adapts a formula for Psi(zeta) such as a model's
// population moments (third-order only).
//
// # Pruning Lambda
//
// Given the causal order, the estimates of Lambda are dense below the
// diagonal: sampling noise makes every coefficient non-zero. The
// learners (LearnDAG, LearnCrossDAG, LearnCrossDAGEig, LearnObservedBN)
// find the zeros by the rule of SparseLambda (DAGOptions.Pruning,
// default PruneBIC), computed from the second moment alone (the hidden
// second moment for hidden variables), with no further pass over the
// data: for each variable, an adaptive lasso on its predecessors (the
// penalty of coefficient j is lambda |b_j| / |b0_j|^gamma, b0 the
// least-squares coefficients; DAGOptions.PruneGamma, 1 by default) solved by
// coordinate descent on the Gram matrix for 60 values of lambda; each
// support met is refitted by least squares, and the one with the least
// extended Bayesian information criterion N log(RSS/N) + |A| log N + 2
// gamma' log C(m, |A|) (DAGOptions.PruneEBIC, gamma' = 1 by default) is
// kept. N is the number of samples (DAGOptions.Samples, or what the
// third moments know); without it the moments are taken as exact and
// only coefficients that do not change the fit are dropped. Lambda keeps
// its estimate on the support (for LearnObservedBN, the least-squares
// refit); LambdaSecond and LambdaThird stay dense. DAG.StdErr and
// ObservedBN.StdErr hold the standard error of each kept coefficient,
// from Sigma and N. On random networks with skewed noises (expected
// degree 2 and 4, weights +-[0.5, 2], exponential and chi-square noises;
// 20 models per cell), given the true order the rule's support has F1
// 0.994 or more at p = 20 and 50 and N = 1000, 5000 and 20000 (SHD at
// most 0.8 per model; recall 1.000 throughout). With the order that
// LearnObservedBN learns from the third moments, F1 is 0.83, 0.95 and
// 0.999 at p = 20 and N = 1000, 5000, 20000 (0.57, 0.87, 0.998 for the
// dense third-moment estimate thresholded at 0.1) and 0.67, 0.79 and
// 0.994 at p = 50 (0.24, 0.70, 0.985): the remaining errors are those of
// the order, each misordered edge costing several more (the command
// bench/cmd/linear -sections prune prints the table). On the hidden
// DAG of the moments command's main job (Example 2 of the topic-model
// paper, 100k samples), the non-zeros of Lambda have precision 0.77
// where the dense estimate had 0.30, at the same recall (0.99).
//
// # Fully observed networks
//
// LearnObservedBN takes prior knowledge about the variables
// (DAGOptions.Required and Forbidden edges, PartialOrder pairs): the
// causal order obeys the required edges and the partial order, and the
// pruning keeps the required edges and never adds a forbidden one.
// BootstrapObservedBN refits on bootstrap resamples of the samples (each
// only re-weights the passes of the moments) and returns each edge's
// bootstrap probability (BootstrapBN.EdgeProb), the confidence LiNGAM's
// users read; ObservedBN.StdErr gives a cheaper one, the z-score
// |Lambda_ij| / StdErr_ij.
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
//     learned column is the l1 solution of some row's problem or,
//     failing that, is found by the l1 rounds of LearnTWM (about one
//     more LearnTWM); Options.SkipL1Check leaves it out;
//   - spectrum gap: s_k/s_{k+1} of the DLD blocks and of L, the gap that
//     sets the rank k (MinSpectrumGap);
//   - DLD partition: the off-diagonal ratio of the chosen partition
//     (MaxOffDiagRatio);
//   - noise skewness (LearnDAG, LearnObservedBN, LearnCrossDAG): the
//     least |skewness| of the recovered noises against a bound that
//     scales with the number of samples (MinSkewness);
//   - noise kurtosis and noise non-Gaussianity (LearnObservedBN and
//     LearnDAG with the fourth cumulant or both): the least |excess kurtosis| of the
//     recovered noises (MinKurtosis), and whether every noise is skewed
//     or kurtic enough for some cumulant to separate it (it fails for
//     Gaussian noises); fixed-point convergence of those cumulants;
//   - triangularity of the learned order (MaxTriangularity;
//     MaxHiddenTriangularity in LearnDAG);
//   - split stability and split expansion (LearnDAG on samples, unless
//     DAGOptions.SkipSplitCheck): the coefficient step is learned again
//     on each half of the samples, on the partition of the full
//     estimate. For an estimate that varies linearly with the moments,
//     as it does where the model is identified and N is large, the
//     full estimate of each column of A is the midpoint of the halves',
//     and the largest over the smallest of |a1 - a|, |a2 - a| and
//     |a1 - a2|/sqrt 2 (a the full estimate, a1 and a2 the halves') is
//     exactly sqrt 2; a model where the l1 step picks among near-equal
//     solutions gives one estimate of the three on another solution,
//     and a large ratio (at most MaxSplitRatio). The halves' difference
//     also gives each column's standard error, sqrt(mean_i (a1_i -
//     a2_i)^2/4), and the expansion check is repeated on the support
//     those errors resolve (N(S) from the entries above SplitLowSigmas
//     of them, d_max from those above SplitHighSigmas): a wrong
//     estimate that is stable (the same wrong l1 solution from every
//     half) has small errors, and its support then fails the property
//     as it does on exact moments. The two halves cost about one more
//     LearnDAG's coefficient step each: LearnDAG takes about twice as
//     long.
//
// The thresholds come from a sweep over random and conditioned models,
// on population moments and on samples (TestVerdictSweep prints it; the
// figures are in the constants' comments). On exact moments the checks
// are exact. On samples, of the estimates at N = 10k and 100k of
// random small models (k = 3..5, n = 12..24, edge density 0.3 and 0.5;
// 30 and 15 models) and of conditioned 24 x 4, 60 x 8 and 150 x 25
// models (5, 3 and 3), every one of the 70 estimates of models that
// fail the conditions carries a warning, and of the 22 estimates of
// models that meet them three do: a 24 x 4 model whose estimate at 10k
// is wrong (rel F of A 0.40) and whose halves at 100k disagree (one half
// gives a wrong estimate), and a 150 x 25 model at 10k whose Lambda is
// wrong (rel F 0.60). Models are classed by the support of their true A
// at the thresholds 0, 1%, 2% and 5% of each column's largest entry;
// the 6 models whose class changes between them (their expansion
// property hangs on entries below 1% of the column's largest, which no
// estimate at N <= 100k resolves) are left out of those counts: a check
// computed from data cannot tell their classes apart. Exact moments
// that cannot support the model at all are errors: a DLD block of rank
// below k, or two or more noises whose third moments vanish
// (ErrRankDeficient).
//
// # Options, randomness, progress, cancellation
//
// Every learner takes a *Options-style struct (Options, DAGOptions,
// DLDOptions, TWMOptions, CSVOptions, SparseOptions, BootstrapOptions);
// nil means the documented
// defaults. Every random choice comes from a Seed in the options: the
// same inputs give the same bits, for any number of workers. Progress,
// a moments.Progress, is told the stages of long runs. The learners take
// a context.Context, which must not be nil (a nil one panics); cancelling
// it stops the work with the context's error.
//
// # Errors
//
// Data problems are errors matching ErrNotFinite, ErrTooManyFactors,
// ErrRankDeficient, ErrNoConvergence or ErrBadData (a *DataError with the
// line and field for malformed CSV); an option value that makes no sense
// (a NaN, an infinity, a negative count or tolerance, a relative
// tolerance above one) is an error matching ErrBadOption that names the
// option and its value. Shape mismatches are programming errors and
// panic.
//
// # Memory
//
// The learners follow the memory rule of package mat: Options.MaxMemory
// (embedded in DAGOptions) and CSVOptions.MaxMemory bound what they hold
// (0 means mat.DefaultMaxMemory, 4 GiB; negative, no limit).
// LearnCoefficients, LearnHierarchy, LearnDAG, LearnCrossDAG and
// LearnObservedBN estimate their n x n matrices (60 + 10 workers of them,
// from the measured peak heap of LearnDAG, plus the Psi slices for
// LearnDAG; for LearnObservedBN eight and the packed n x n x n tensor)
// and refuse a job over the limit with a *mat.MemoryError matching
// mat.ErrTooLarge before they allocate. Options.CheckMemory and
// DAGOptions.CheckMemory give the same answer without data, so that a
// program can refuse a job before it computes Sigma. LearnTWMEig and
// LearnCrossDAGEig hold O(n k) (DAGOptions.CheckMemoryEig); LearnTWM
// keeps per l1 candidate its w (k numbers) rather than s = B w (n
// numbers), and at most 64 l1 solvers. ReadCSV stops at the line whose
// samples would pass the limit.
package linear
