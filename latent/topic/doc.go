// Package topic learns topic models by the method of moments: Excess
// Correlation Analysis for independent skewed factors (ECA, Algorithm 1
// of Anandkumar, Foster, Hsu, Kakade and Liu, "A Spectral Algorithm for
// Latent Dirichlet Allocation") and its LDA variant with alpha recovery
// (Algorithm 2).
//
// # The models and their moments
//
// In latent Dirichlet allocation with k topics, each a distribution O_i
// over the n words, a document draws topic proportions theta from
// Dirichlet(alpha), alpha0 = sum alpha_i, and each token from the mixture
// sum_i theta_i O_i. With x1, x2, x3 three distinct tokens of a document
// as one-hot vectors and M1 = E[x1], the alpha0-corrected moments
// (package moments, Variant LDA) are
//
//	Pairs   = E[x1 x2^T] - a0/(a0+1) M1 M1^T = sum_i alpha_i / ((a0+1) a0) O_i O_i^T
//	Triples = sum_i 2 alpha_i / ((a0+2)(a0+1) a0) O_i(x)O_i(x)O_i
//
// (LDAMoments computes them for a known model). In ECA the observation
// is x = O h + noise with independent factors h_i of variance sigma_i^2
// and central third moment mu3_i; its central moments (Variant Central)
// are Pairs = O diag(sigma^2) O^T and Triples = sum_i mu3_i
// O_i(x)O_i(x)O_i (FactorMoments).
//
// # The steps
//
// A learner sees the data only through a Moments: products of Pairs with
// thin matrices and the whitened third moment Triples(W, W, W). For a
// corpus these come from passes over the documents
// (moments.DocMoments), which never form a vocabulary-sized matrix or
// tensor; the population moments of a known model go through the same
// code, and the learners then recover the model exactly.
//
//  1. The k algebraically largest eigenpairs U, D of Pairs, by a block
//     eigensolver on the Pairs operator (svd.TopEigSym: LOBPCG with a
//     test on the Ritz residuals). An empirical Pairs is indefinite, and
//     its negative eigenvalues, noise that can be larger in magnitude
//     than the signal, must not displace the positive ones. On a corpus
//     the residuals are driven to SampleTol(documents) = 1e-2/sqrt(docs)
//     times ||Pairs|| (at least 1e-6), a hundredth of the sampling
//     error of the moments themselves.
//  2. The whitening W = U D^{-1/2}, so that W^T Pairs W = I_k, with
//     diagnostics (Whitening: the spectrum, its condition number, how
//     many positive eigenvalues Pairs has, the eigensolver's products and
//     residual) and a typed error, WhiteningError, when k is more than
//     the data support, which names the largest k that can be whitened.
//  3. The whitened third moment T = Triples(W, W, W), k x k x k. With
//     the model's moments it is sum_i lambda_i v_i(x)v_i(x)v_i with
//     orthonormal v_i = sqrt(w_i) W^T O_i (w_i the weight of O_i in
//     Pairs) and lambda_i = c_i / w_i^{3/2} (c_i its weight in Triples).
//     It is decomposed by the robust tensor power method (the default),
//     or, as in the paper, by the eigenvectors of T(I, I, theta) for a
//     random theta (Method).
//  4. The components O_i = (W^+)^T v_i = U D^{1/2} v_i, up to scale. For
//     LDA each topic is normalised to sum 1 (which fixes its sign), alpha
//     comes from the eigenvalues, lambda_i = 2/(a0+2) sqrt(a0 (a0+1) /
//     alpha_i), and topics are projected onto the probability simplex
//     with the moved mass reported. For ECA the factors are returned in
//     canonical form, O_i sigma_i, each up to sign.
//
// LearnLDA and LearnECA learn from a corpus (a moments.Source);
// LearnLDAMoments and LearnECAMoments from given moments. They return an
// *LDAResult (a Model: topics and alpha; the moved masses; the
// diagnostics, Spectral) and an *ECAResult (the factors; Spectral). All
// take a context, which must not be nil, and *Options, nil meaning the
// defaults; Options.Seed seeds every random choice and Options.Passes
// sets the workers and the progress callback (moments.Progress) of the
// passes.
//
// A learned model is checked for plausibility, and Spectral.Warnings
// says what is wrong with an implausible one (the model is still
// returned): LDA alphas whose sum is more than a factor MaxAlphaRatio (2)
// from the given alpha0 (with the model's own moments they sum to alpha0
// exactly), two topics at l1 distance below MinTopicL1 (0.25) or two ECA
// factors with |cosine| above MaxFactorCos (0.99), and fewer than
// MinDocsPerTopic (10) documents per topic. Option values that make no
// sense are errors matching ErrBadOption.
//
// # Using an LDA model
//
// Model.Infer estimates the topic proportions of a document by a few
// variational fixed-point iterations given the topics and alpha, from
// which come labels (the most probable topic) and held-out perplexity,
// exp(-log-likelihood / tokens). SelectAlpha0 chooses alpha0 by the
// document-completion likelihood of held-out documents; its fits share
// one eigensolve and one pass over the documents: the Pairs of different
// alpha0 differ by a multiple of M1 M1^T, so each alpha0 is fitted in
// the common basis of the top eigenvectors of one of them and M1, from
// the raw moments projected on it (a Rayleigh-Ritz approximation whose
// error lies far below the sampling error). The chosen fit's
// Alpha0Score.Basis, as Options.Eigen.Start, warm-starts the final
// LearnLDA, which makes the exact fit.
//
// Refine improves an LDA model, typically the spectral estimate, by
// passes of batch variational EM over the documents (variational Bayes
// on the topics by default, Blei et al.'s point estimates with
// RefineOptions.Point), with alpha fixed; the spectral estimate is the
// starting point. A Model (vocabulary, topics, alpha, the settings it
// was learned with) is saved by Save and read back, bit for bit, by Load,
// as versioned JSON; Load checks every dimension and value.
//
// Correlated topic models, whose topics' activities are related by a
// linear Bayesian network, are learned by linear.LearnCorrelatedTopics.
//
// # Memory
//
// The learners follow the memory rule of package mat: Options.MaxMemory
// bounds what learning holds, 0 meaning mat.DefaultMaxMemory (4 GiB) and
// a negative value no limit. Before their first pass the learners
// estimate the largest allocations the job needs
// (moments.SpectralMemory: the eigensolver's blocks, n x l with
// l = min(k + max(10, k/2), n), or k + max(5, k/4) from a warm start,
// and the accumulators of the passes,
// n x (l + 1) each and up to 1 + 2 workers of them; no learner forms an
// n x n matrix) and refuse a job over the limit with a
// *mat.MemoryError matching mat.ErrTooLarge. LearnLDA and LearnECA learn
// on the words that occur in the corpus when fewer than half of the
// declared vocabulary do (the other words have zero rows in every
// moment, hence in every topic): a vocabulary declared far larger than
// the corpus costs only the n x k topics returned and five bytes a word.
package topic
