// Package moments holds the data and the moment estimates of the
// learners: sparse document-term corpora with their readers (UCI
// bag-of-words, directories of plain or tagged text), and mergeable
// accumulators of the moments of SPEC.md section 1.
//
// # Memory
//
// The readers and the passes follow the memory rule of package mat:
// UCIOptions, TextOptions and Options have a MaxMemory (bytes; 0 means
// mat.DefaultMaxMemory, 4 GiB; negative, no limit), and a job whose
// sizes would need more is refused with a *mat.MemoryError (matching
// mat.ErrTooLarge) before they are allocated. ReadUCI allocates as it
// reads entries, never in proportion to what its header declares, and
// checks the corpus the header describes before building it; ReadText
// checks before each file what it holds so far; NewDocMoments,
// PairsTimes, WhitenedTriples, NewSampleMoments and Psi count their
// accumulators (up to 1 + 2 workers of them: vocabulary-sized vectors,
// n x k products, d x d sums). ReadBrown reads a fixed corpus of 6 MB
// under the default limit.
package moments
