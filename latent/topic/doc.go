// Package topic learns topic models by the method of moments: Excess
// Correlation Analysis for independent skewed factors (ECA, Algorithm 1
// of Anandkumar, Foster, Hsu, Kakade and Liu, "A Spectral Algorithm for
// Latent Dirichlet Allocation") and its LDA variant with alpha recovery
// (Algorithm 2), following SPEC.md section 2.
//
// A learner sees the data only through a Moments: products of Pairs with
// thin matrices and the whitened third moment Triples(W, W, W). For a
// corpus these come from passes over the documents
// (latent/moments.DocMoments), which never form a vocabulary-sized matrix
// or tensor; for tests and for reasoning about a model, the population
// moments of a known model (LDAMoments, FactorMoments) go through the same
// code, and the learners then recover the model exactly.
//
// The steps: the k algebraically largest eigenpairs U, D of Pairs by a
// block eigensolver on the Pairs operator (svd.TopEigSym: LOBPCG with a
// test on the Ritz residuals; an empirical Pairs is indefinite, and its
// negative eigenvalues, noise that can be larger in magnitude than the
// signal, must not displace the positive ones); the whitening
// W = U D^{-1/2}, with diagnostics (the spectrum, its condition number,
// how many positive eigenvalues Pairs has, the eigensolver's products and
// residual) and a typed error when k is more than the data support, which
// names the largest k that can be whitened; the whitened third moment; its
// decomposition by the robust tensor power method (the default) or, as in
// the paper, by the eigenvectors of T(I, I, theta) for a random theta; and
// the topics O_i = (W^+)^T v_i. For LDA each topic is normalised to sum 1
// (which fixes its sign), alpha comes from the eigenvalues, and topics are
// projected onto the probability simplex with the moved mass reported.
//
// A learned model is checked for plausibility, and Result.Warnings says
// what is wrong with an implausible one (the model is still returned):
// LDA alphas whose sum is more than a factor MaxAlphaRatio (2) from the
// given alpha0 (with the model's own moments they sum to alpha0
// exactly), two topics at l1 distance below MinTopicL1 (0.25) or two ECA
// factors with |cosine| above MaxFactorCos (0.99), and fewer than
// MinDocsPerTopic (10) documents per topic. Option values that make no
// sense are errors matching ErrBadOption.
//
// Correlated learns correlated topic models (TMLearn of "Learning Topic
// Models and Latent Bayesian Networks Under Expansion Constraints"): the
// topics' activities related by a linear Bayesian network, the topics
// sparse with the expansion property; it finds the top k eigenpairs of
// the central cross moments of the documents from their products with
// thin blocks and runs latent/linear.LearnCrossDAGEig, never forming an
// n x n matrix, so vocabularies of tens of thousands of words fit.
//
// Result.Infer estimates the topic proportions of a document by a few
// variational fixed-point iterations given the topics and alpha, from
// which come labels (the most probable topic) and held-out perplexity.
//
// Refine improves an LDA model, typically the spectral estimate, by
// passes of batch variational EM over the documents (variational Bayes
// on the topics by default, Blei et al.'s point estimates with
// RefineOptions.Point), with alpha fixed; the spectral estimate is the
// starting point. A Model (vocabulary, topics, alpha, the settings it
// was learned with) is saved by Save and read back, bit for bit, by Load,
// as versioned JSON; Load checks every dimension and value.
//
// # Memory
//
// The learners follow the memory rule of package mat: Options.MaxMemory
// (and CorrelatedOptions.MaxMemory) bound what learning holds, 0 meaning
// mat.DefaultMaxMemory (4 GiB) and a negative value no limit. LDA, ECA
// and Correlated estimate, before their first pass, the largest
// allocations the job needs (the sketches of Pairs, n x (k+11), and the
// accumulators of the passes, up to 1 + 2 workers of them; Correlated
// adds the l1 solvers of TWMLearn, O(n k): no learner forms an n x n
// matrix) and refuse a job over the limit with a
// *mat.MemoryError matching mat.ErrTooLarge. LDA and ECA learn on the
// words that occur in the corpus when fewer than half of the declared
// vocabulary do (the other words have zero rows in every moment, hence
// in every topic): a vocabulary declared far larger than the corpus
// costs only the n x k topics returned and five bytes a word.
package topic
