// Package moments holds the data and the moment estimates of the
// learners: sparse document-term corpora with their readers (UCI
// bag-of-words, directories of plain or tagged text), and mergeable
// accumulators of the low-order moments that the method-of-moments
// learners (packages topic and linear) decompose.
//
// # Moments of documents
//
// A document of l tokens over a vocabulary of n words is its vector of
// counts c in N^n. Take three distinct tokens of it, x1, x2, x3, as
// one-hot vectors in R^n. Their moments are estimated without bias from
// each document by
//
//	M1      = E[x1]                 from  c / l                               (l >= 1)
//	E[x1 x2^T]                      from  (c c^T - diag(c)) / (l (l-1))       (l >= 2)
//	E[x1 (x) x2 (x) x3]             from  (c(x)c(x)c - sum_i c_i (e_i(x)e_i(x)c + perms)
//	                                       + 2 sum_i c_i e_i(x)e_i(x)e_i) / (l (l-1) (l-2))   (l >= 3)
//
// each averaged over the documents with enough tokens. A Variant picks
// the second and third moments, Pairs and Triples, that a learner
// decomposes: the raw ones above; the central ones (Central, for
// independent skewed factors, Excess Correlation Analysis), Pairs =
// E[x1 x2^T] - M1 M1^T and the central third moment; or those of latent
// Dirichlet allocation with a known alpha0, the sum of the Dirichlet
// parameters (LDA),
//
//	Pairs   = E[x1 x2^T] - a0/(a0+1) M1 M1^T
//	Triples = E[x1(x)x2(x)x3] - a0/(a0+2) (E[x1 x2^T](x)M1 + its two other placements)
//	          + 2 a0^2/((a0+2)(a0+1)) M1(x)M1(x)M1
//
// which for an LDA model with topics O_i and parameters alpha_i equal
// sum_i alpha_i/((a0+1) a0) O_i O_i^T and sum_i 2 alpha_i/((a0+2)(a0+1)
// a0) O_i(x)O_i(x)O_i: low-rank forms whose factors are the topics.
//
// These are n x n and n x n x n, too large to form for a real
// vocabulary. DocMoments gives what the learners need instead, with
// passes over a Source that hold nothing larger than n x k: the
// products Pairs X with thin n x m matrices (PairsTimes), from which a
// block eigensolver finds the top eigenpairs U, D of Pairs
// (svd.TopEigSym on svd.SymOperator(n, PairsTimes)), and, for the whitening W = U D^{-1/2} (so that W^T
// Pairs W = I), the whitened third moment Triples(W, W, W), a k x k x k
// symmetric tensor (WhitenedTriples). The whitened tensor of a model of
// k components is orthogonally decomposable, sum_i lambda_i v_i(x)v_i(x)v_i
// with orthonormal v_i, which the learners decompose (by the tensor power
// method) to recover the components (W^+)^T v_i.
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
// # Moments of samples
//
// Single-view data are samples x in R^d (Samples). SampleMoments holds
// their mean and covariance Sigma = (1/N) sum (x - mean)(x - mean)^T and
// gives slices of the central third moment, Psi(zeta) = (1/N) sum
// (x - mean)(x - mean)^T <zeta, x - mean>, with one pass each.
//
// # Passes, progress and contexts
//
// Every pass cuts its items into chunks whose size depends on the data
// alone and merges the chunks' sums in order, so results are the same
// bits for any number of workers. Options (nil meaning the defaults)
// sets the workers, the memory limit and a Progress callback, the one
// progress shape of the learners, with the stages named on
// Options.Progress. Functions that pass over the data take a context,
// which must not be nil, and stop with its error once it is done.
//
// # Errors
//
// Errors that data or options can cause are classified by sentinels
// under errors.Is: ErrBadData for malformed or too little input (the
// readers return it as a *DataError naming the line), ErrBadOption for
// an option or argument that makes no sense (a negative
// Options.Workers, alpha0 <= 0 for the LDA variant), ErrNotFinite for
// NaN or Inf in samples, and mat.ErrTooLarge for the memory rule below.
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
// n x k products, d x d sums); SpectralMemory estimates what a spectral
// learner's passes and eigensolver hold together. On a corpus of no more
// documents than words, PairsTimes also keeps the corpus transposed (12
// bytes per stored count, built on its first call when that fits the
// limit; otherwise it makes the document-major pass). ReadBrown reads a
// fixed corpus of 6 MB under the default limit.
package moments
