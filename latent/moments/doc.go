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
package moments
