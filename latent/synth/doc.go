// Package synth generates data from the models the learners recover:
// random variates (Gamma, Dirichlet, alias tables), LDA topic models and
// corpora drawn from them (streamed, never stored), correlated topic
// models (CorrelatedTopics), the linear models of SPEC.md section 5.1
// (Bernoulli-Gaussian coefficients with a gap, the four noise families,
// DAGs and hierarchies with their population moments), and the
// switch-factor corpora of the ECA tests.
//
// Every generator takes a seeded *rand.Rand or a seed: the same seed
// gives the same data, on any machine.
package synth
