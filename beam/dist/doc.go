// Package dist runs the learners of moments on Apache Beam, for data
// sharded over many files: spectral LDA and ECA (LearnLDA, LearnECA,
// DocMoments), the linear Bayesian networks (LearnDAG,
// LearnCoefficients, SampleMoments) and mixtures of trees
// (LearnTreemix, Tables).
//
// # Passes
//
// Every moment of the library is a sum over documents or samples, so a
// pass over the data is one Beam pipeline:
//
//	shards (sorted paths) -> ParDo: read one shard, sum its part -> Combine(TreeFn) -> write the sum
//
// The ParDo reads a whole shard (through Beam's file systems, so gs://
// works with the gcs file system imported) and sums its documents with
// the core's accumulators: moments.MeanAccumulator for M1,
// moments.PairsAccumulator for Pairs X, moments.TriplesAccumulator for
// the whitened third moment; the Gram matrix of the centred samples for
// Sigma, the contracted third moments for Psi, y(x)y(x)y and the
// diagonal third moments for the whitened route of LearnDAG;
// treemix.Count for the joint tables. A shard's part is that sum (an
// accumulator's average times the number of documents it averages).
// The driver (this process) gets the total from a small file in
// Options.TempDir and finishes the moment as the core does (divides by
// the count, subtracts the M1 terms of the variant).
//
// The learners drive the passes. A learner that needs several passes
// runs one pipeline per pass with the small intermediate handed to
// every worker: LDA runs one for M1, one per block product Pairs X of
// the eigensolver (the n x r block X is written to TempDir and read once
// per worker by the DoFn's Setup, the role a side input would play),
// and one for the whitened third moment with the n x k whitening W.
// DocMoments and SampleMoments implement topic.Moments and
// linear.WhitenedThirdMoments, so the core's learners run unchanged on
// top of them; Tables implements treemix.Source.
//
// # Determinism and tolerance
//
// TreeFn adds the parts along a fixed binary tree over the shard
// indices (shards in the lexical order of their paths), whatever order
// the runner delivers them and merges accumulators in: a pass gives the
// same bits on any runner, for any bundling, number of workers or
// retry. What it does not keep is the in-process chunking: the library
// sums fixed chunks of 256+ documents and merges them in order, the
// pipeline sums whole shards and merges them in a tree, so the two
// round differently. The stated tolerance, which the tests check on
// generated data, is 1e-12 relative (max-norm of the difference over
// the max-norm of the in-process value) for every moment; on the
// generated data of the tests the learned LDA topics, ECA factors and
// linear coefficients agree to it too (measured: 2e-16 to 5e-13). A
// learned model inherits the sensitivity of the iterative solvers to
// the order of summation, which the in-process learner shows as well
// when only the order of the documents changes: on the 20,000-document
// corpus of cmd/beambench the topics differ by 6.4e-6, and by 3.1e-6 in
// process with the documents reversed.
//
// Options.Exact makes the document passes the same bits as in process,
// and so LearnLDA and LearnECA the same bits as topic.LearnLDA and
// topic.LearnECA on the concatenated shards. A first pass counts the
// documents of every shard, which numbers them across the sorted shards;
// every pass then cuts them into the in-process chunks
// (moments.MeanChunk, moments.WideChunk). A shard sums each chunk that
// lies inside it in a fresh accumulator and writes its encoding
// (MarshalBinary) to TempDir; the documents of a chunk that straddles
// shards meet, keyed by the chunk, in a GroupByKey and are summed in
// order by one worker; the driver merges the chunks' accumulators in
// chunk order, as the library does. The cost is the driver's: every
// pass sends it one accumulator per chunk (about 256 of 8n bytes for
// M1, max(16, nnz/(20n)) of 8nw bytes for Pairs X), which suits corpora
// of up to millions of documents, not billions.
//
// The tables of LearnTreemix are sums of integers, so they and the
// mixture are bit-identical to treemix.Learn on treemix.Empirical of the
// concatenated samples in either mode. The sample moments of the linear
// learners have no exact mode.
//
// # Shards
//
// Documents come in the Formats UCI (docword files with a header
// each), Counts (a document a line of id:count), TextLines and
// TextFiles (text over a given vocabulary); samples as CSV shards read
// by linear.ReadCSV or treemix.ReadCSV, each with an optional header
// line. An empty shard (no bytes, or only blank and comment lines) has
// no documents or samples. A malformed shard stops the pass with a
// *moments.DataError naming the shard and the line (and the field where
// there is one); the runner's error wraps its text.
package dist
