// Package moments holds the data and the moment estimates of the
// learners: sparse document-term corpora with their readers (UCI
// bag-of-words, directories of plain or tagged text), and mergeable
// accumulators of the moments of SPEC.md section 1.
package moments
