// Package bench holds the benchmarks of moments and the comparisons with
// other libraries. It is a module of its own so that the core module
// depends on nothing but golang.org/x/sys and cpuid: gonum is required
// here only, as an anchor.
//
// Go benchmarks (go test -bench . in this directory) cover every kernel on
// every path the machine supports and the matrix product at several
// sizes. The script anchors.sh measures, in one run, our GEMM against
// OpenBLAS (through Debian's python3-numpy) and gonum, and prints the
// ratios; see README.md at the repository's root. The script recut.sh
// compares two revisions on a fixed set of these benchmarks (GEMM, LQ,
// SVD, simplex, tensor3, Brown, linear, treemix), each revision with its
// own test binaries, in interleaved rounds; run it with -help. The script
// lingam_grid.sh runs issue 18's grid of fully observed linear
// non-Gaussian models (cmd/lingamgrid): latent/linear.LearnObservedBN
// against cdt15/lingam's DirectLiNGAM and ICA-LiNGAM (a checkout given by
// LINGAM_SRC, run by lingam_grid.py on Debian's numpy, scipy and
// scikit-learn, never copied here) and the Go port in bench/lingam, on
// the same seeded CSV files, all scored by the same code.
package bench
