// Package synth generates data from the models the learners recover:
// random variates (Gamma, Dirichlet, alias tables), LDA topic models and
// corpora drawn from them (streamed, never stored), and, with the
// learners that need them, the other models of SPEC.md.
//
// Every generator takes a seeded *rand.Rand or a seed: the same seed
// gives the same data, on any machine.
package synth
