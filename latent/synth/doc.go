// Package synth generates data from the models the learners recover, for
// tests, benchmarks and examples.
//
// Random variates: Gamma (Marsaglia and Tsang), Dirichlet (normalised
// Gammas) and alias tables for drawing from a discrete distribution in
// O(1) (NewAlias).
//
// Topic models: LDA (k topics over n words, each document's topic
// proportions theta ~ Dirichlet(alpha), each token's topic drawn from
// theta and its word from that topic); Switches (independent binary
// factors h_i, skewed unless P_i = 1/2, each moving a share of the word
// distribution from a base to a topic, so that E[x | h] = Base + O h);
// CorrelatedTopics (topic activities h = Lambda h + eta with independent
// Bernoulli eta, words drawn from Background + A h). Their corpora (the
// NewCorpus method of each) are streamed from a seed, never stored:
// document i is drawn from a stream seeded by (seed, i), so it is the
// same in whatever order or block it is read.
//
// Linear models: x = A h + eps with A Bernoulli(p)-Gaussian (each entry
// non-zero with probability p, standard normal) and a gap in every row
// (the largest |entry| at least 1/(1 - gamma) times the second,
// EnsureGap); noises from six families of given variance (exponential,
// Poisson, scaled chi-squared with one degree of freedom, Gaussian,
// uniform, Laplace; the first three are skewed, the last two symmetric
// with non-zero excess kurtosis). DAG is the model with hidden variables
// related by a DAG, h = Lambda h + eta, so that x = A G eta + eps with
// G = (I - Lambda)^{-1}; Hierarchy stacks levels x_{l+1} = A_l x_l +
// eps_{l+1} under a top level of independent variables. Both give their
// population moments (Sigma = B diag(var eta) B^T + diag(var eps) with B
// = A G, and Psi(zeta) = E[x x^T <zeta, x>]) and streamed samples.
//
// Randomness: the model generators (Random..., BernoulliGaussian,
// StrictlyLower, RandomNoise) and the variates draw from a *rand.Rand
// that the caller seeds, so that a test can draw a model and then more
// from one stream; the streams of samples and documents take a seed.
// Either way the same seed gives the same data on any machine.
package synth
