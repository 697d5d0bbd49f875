// Package treemix learns mixtures of discrete graphical models by the
// spectral method of Anandkumar, Hsu, Huang and Kakade ("Learning
// high-dimensional mixtures of graphical models", SPEC.md section 6),
// and mixtures of trees by EM (Meilă and Jordan) as the baseline and as a
// refinement.
//
// # Data and tables
//
// Data holds N samples of p variables with d states each (ReadCSV reads
// integer CSV, with errors that name the line). Everything the spectral
// method reads is a joint probability table of a few variables (Table),
// supplied by a Source: Empirical counts them in one parallel pass over
// the data (Count; integer counts, so the result never depends on the
// number of workers, and tables of parts of a data set merge with
// Table.Add), and Exact computes them from a known Mixture by variable
// elimination. The two are interchangeable, which is how the tests feed
// exact marginals to the very code that runs on data.
//
// # The spectral method
//
//   - RankTest (Algorithm 1) estimates the union graph G_∪ of the
//     components' Markov graphs: u and v are non-neighbours when some set
//     S of at most eta nodes makes every matrix
//     [P(Y_u = i, Y_v = j, Y_S = k)]_ij of effective rank at most r. It
//     searches level by level like the PC algorithm and prunes the
//     separators to the strongest neighbours, so p = 50, d = 4, eta = 2
//     takes seconds.
//   - FindMixtureComponents (Algorithm 2 with Procedure 3) estimates the
//     mixing weights and the pairwise marginals P(Y_a, Y_b | H = h) of
//     every component from triplets (u*, c, {a, b}) made conditionally
//     independent by a separator S, with one diagonaliser shared by all
//     triplets so that the hidden labels agree; u* is a node isolated in
//     G_∪.
//   - Components.Mixture builds the Chow–Liu tree of every component
//     (Procedure 4, ChowLiu); Components.MarkovGraphs estimates the
//     components' own Markov graphs (Appendix A.1).
//   - Learn runs the three stages.
//
// The method needs more states than components (d > r; Data.Group merges
// variables to get there), a reference node isolated in the union graph,
// and full-rank views of the hidden variable; otherwise it returns
// ErrFewStates, ErrNoReference or ErrRankDeficient.
//
// # Models
//
// A Mixture holds the weights and one Bayesian network (Net) per
// component; the learners return forests. It computes log-likelihoods,
// posteriors P(H | y), samples, exact marginals and its union graph, and
// WriteDOT draws it. RandomTreeMixture and RandomGraphMixture generate
// the test models: mixtures of trees, and of bounded-degree graphs, with
// a reference node isolated.
//
// # EM
//
// EM runs expectation-maximisation for mixtures of trees from any
// starting Mixture: RandomStart for the baseline, or the spectral
// estimate. Passes over the data are parallel, in fixed chunks merged in
// order, so results are bit-identical for any number of workers.
//
// # Memory
//
// Every stage follows the memory rule of package mat: Options.MaxMemory
// (shared by LearnOptions, RankOptions, SpectralOptions and EMOptions)
// and CSVOptions.MaxMemory bound what a stage holds (0 means
// mat.DefaultMaxMemory, 4 GiB; negative, no limit). Count checks the
// tables it is asked for, RankTest each level's tests before listing
// them (a level costs about 600 bytes and one table of d^(level+2)
// cells a test), EM its weighted pair tables (r p(p-1)/2 d^2 values per
// accumulator); a stage over the limit is refused with a
// *mat.MemoryError matching mat.ErrTooLarge before it allocates.
// RankTest stops at the first level without tests: no higher level can
// have any.
package treemix
