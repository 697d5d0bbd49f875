// Package treemix learns mixtures of discrete graphical models: a
// hidden variable H with r states picks a component h with probability
// w_h, and the p observed variables Y_1..Y_p, each with d states, follow
// that component's Bayesian network. It implements the spectral method
// of Anandkumar, Hsu, Huang and Kakade ("Learning high-dimensional
// mixtures of graphical models", NIPS 2012), and expectation-maximisation
// for mixtures of trees (Meilă and Jordan, 2001) as the baseline and as
// a refinement of the spectral estimate.
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
// # The union graph: rank tests
//
// The union graph G_∪ joins u and v when they are joined in the Markov
// graph of some component. Write M_{u,v,{S;k}} for the d x d matrix
// [P(Y_u = i, Y_v = j, Y_S = k)]_ij. If a set S separates u from v in
// every component, Y_u and Y_v are independent given (H, Y_S = k), so
// M_{u,v,{S;k}} is a sum of r rank-one matrices and has rank at most r;
// if u and v are adjacent in some component, no S brings the rank down
// (for generic parameters and d > r). LearnUnionGraph declares u and v
// non-neighbours when some S of at most Eta nodes makes every
// M_{u,v,{S;k}} of effective rank at most r: its (r+1)-th singular value
// below a threshold ξ, fixed (RankOptions.Xi) or scaled to the sampling
// noise of configuration k, XiScale·sqrt(P(Y_S = k)/N). It searches
// level by level like the PC algorithm (level l tries the sets of l
// neighbours of u or of v) and draws the larger separators from the
// neighbours most dependent on u or v, so p = 50, d = 4, Eta = 2 takes
// seconds.
//
// # The components: spectral decomposition with a reference node
//
// A reference node u* isolated in G_∪ depends on H alone, so its pair
// tables with any node c factor through H: M_{u*,c} = M_{u*|H} diag(w)
// M_{c|H}^T, with M_{u*|H} = [P(Y_u* = i | H = h)]_ih of rank r. For a
// target pair {a, b}, a witness c outside the neighbourhoods of a and b
// and a set S that separates {a, b} from c, the three views Y_u*, Y_c
// and (Y_a, Y_b) are independent given (H, Y_S = k): a mixture of
// product distributions. With U the top r left singular vectors of
// [P(Y_u*, Y_j)]_j, V_k those of U^T M_{u*,c,{S;k}} on the right,
// A = U^T M_{u*,c,{S;k}} V_k and B_q the same matrix restricted to
// (Y_a, Y_b) = q, every observable operator C_q = B_q A^{-1} equals
// R diag(P(Y_a, Y_b = q | H, Y_S = k)) R^{-1} with R = U^T M_{u*|H} (up
// to the scale of its columns), the same R for every triplet and every
// configuration. LearnComponents finds R once, from a random combination
// of all the operators (Jennrich's simultaneous diagonalisation), which
// gives the hidden labels one meaning in every table; then
// M_{u*|H} = U R, the weights solve P(Y_u*) = M_{u*|H} w, and
// P(Y_a, Y_b, H = h) = Σ_k P(H = h, Y_S = k) [R^{-1} C_q R]_hh. Pairs
// without a witness are demixed through the reference alone,
// P(H, Y_a, Y_b) = M_{u*|H}^+ P(Y_u*, Y_a, Y_b). From the pairwise
// marginals of a component, Components.Mixture builds its Chow–Liu tree
// (the maximum spanning tree under the mutual informations I(Y_a; Y_b |
// H = h); ChowLiu), and Components.MarkovGraphs estimates the
// components' own Markov graphs by testing, within each node's
// neighbourhood, which neighbours it depends on given the others.
//
// Learn runs the three stages. The method needs more states than
// components (d > r; Data.Group merges variables to get there), a
// reference node isolated in the union graph, and full-rank views of the
// hidden variable; otherwise it returns ErrFewStates, ErrNoReference or
// ErrRankDeficient.
//
// # EM
//
// LearnEM runs expectation-maximisation for mixtures of trees from any
// starting Mixture (RandomStart for the baseline, or the spectral
// estimate): the E-step computes the posteriors P(H = h | y_i) and from
// them the weighted single and pair tables of every component; the
// M-step sets w_h to the mean posterior and every component to the
// Chow–Liu tree of its weighted tables, smoothed by a uniform Dirichlet
// prior (EMOptions.Prior). No iteration lowers the likelihood (with a
// prior, the likelihood times the prior).
// Passes over the data are parallel, in fixed chunks merged in order,
// so results are bit-identical for any number of workers.
//
// # Models
//
// A Mixture holds the weights and one Bayesian network (Net) per
// component; the learners return forests. It computes log-likelihoods,
// posteriors P(H | y), samples, exact marginals and its union graph, and
// WriteDOT draws it. RandomTreeMixture and RandomGraphMixture generate
// test models: mixtures of trees, and of bounded-degree graphs, with a
// reference node isolated.
//
// # Conventions
//
// Every function that takes options takes a pointer; nil means the
// documented defaults. Randomness comes from seeds (GenOptions.Seed,
// SpectralOptions.Seed, the seed arguments of Sample, Split and
// RandomStart): the same seed gives the same bits, and nothing reads the
// clock. Long computations take a context, which must not be nil, and
// report their advance through Options.Progress (a moments.Progress).
// Malformed input is a *DataError (moments.DataError) matching
// ErrBadData, and so is a Mixture that fails Validate. The learners,
// Count, LogLikelihood and Posteriors check their options and return
// ErrBadOption for a value out of range (a negative Workers among
// them). The generators (RandomTreeMixture, RandomGraphMixture and
// their GenOptions, RandomStart) take their arguments from code and
// panic, with a message, on values out of range: those are programmer
// errors, not data.
//
// # Memory
//
// Every stage follows the memory rule of package mat: Options.MaxMemory
// (shared by LearnOptions, RankOptions, SpectralOptions and EMOptions)
// and CSVOptions.MaxMemory bound what a stage holds (0 means
// mat.DefaultMaxMemory, 4 GiB; negative, no limit). Count checks the
// tables it is asked for, LearnUnionGraph each level's tests before
// listing them (a level costs about 600 bytes and one table of
// d^(level+2) cells a test), LearnEM its weighted pair tables
// (r p(p-1)/2 d^2 values per accumulator); a stage over the limit is
// refused with a *mat.MemoryError matching mat.ErrTooLarge before it
// allocates. LearnUnionGraph stops at the first level without tests: no
// higher level can have any.
package treemix
