// Package moments holds the data and the moment estimates of the
// learners: sparse document-term corpora with their readers (UCI
// bag-of-words, directories of plain or tagged text), and mergeable
// accumulators of the moments of SPEC.md section 1.
//
// The moments weigh every document alike, whatever its length: a
// document's pair and triple counts are divided by l(l-1) and
// l(l-1)(l-2) for its l tokens. A very long document is therefore
// harmless, but a document of a few words, or of one word repeated,
// weighs as much as any other while its co-occurrences are all in one
// or two words. ReadText's rules for real text (RealText, documented on
// TextOptions and reported by ReadTextReport) remove such documents and
// the other debris of real directories: binary files, HTML and XML
// markup, words repeated far beyond ordinary text (capped at a share of
// their document), and words too rare (MinDocFreq) or too common
// (MaxDocFrac) to tell topics apart.
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
