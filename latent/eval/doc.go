// Package eval measures learned models against the truth and against
// data (SPEC.md section 5.2): matching of factors or topics (the
// Hungarian method), l1 error per topic, the dist of the linear-model
// papers and the relative Frobenius error to read beside it, support
// precision and recall, topic coherence (UMass and NPMI on document
// co-occurrence), normalised mutual information, perplexity.
package eval
