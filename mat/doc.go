// Package mat provides Dense, a row-major float64 matrix with cheap
// views, and the basic linear algebra on it: element-wise arithmetic,
// matrix products, Gram matrices, matrix-vector products, norms and
// formatting. The heavy lifting is done by package kernels.
//
// # Storage and views
//
// A Dense with r rows and c columns stores element (i, j) at
// data[i*stride+j], where the stride is at least c. Slice returns a view:
// a Dense that shares the memory of a rectangular block of its parent and
// keeps the parent's stride, so the view's rows are not contiguous and
// the elements between them (the padding) belong to the parent. Every
// method works on views and never touches the padding.
//
// # The receiver is the destination
//
// Methods that compute a matrix write it into their receiver:
//
//	var c mat.Dense
//	c.Mul(a, b) // c = a*b
//
// A receiver that is empty (0x0, such as the zero value, or one cleared
// by Reset) is given the shape of the result, with new storage. A
// receiver that has a shape must already have the result's shape; a
// mismatch panics with a message that names both shapes, such as
// "mat: Mul: destination is 3x4, result is 3x5". Panics are for
// programming errors only (mismatched shapes, indices out of range,
// negative sizes), and every message starts with "mat: " and the name of
// the method.
//
// # Aliasing
//
// Products (Mul, MulAT, MulBT, GramCols, GramRows, MulVec, MulVecT)
// accept a destination that shares memory with an operand: they compute
// into a temporary and copy the result over. Copy does the same for a
// source that partially overlaps the destination. The element-wise
// methods (Add, Sub, Scale, AddScaled, MulElem) work in place: their
// destination may be exactly the same view as an operand (the same
// first element, stride and shape), as in a.Add(a, b), but a destination
// that overlaps an operand in any other way panics, because the result
// would depend on the order in which elements are written. The overlap
// test is exact: views of one array whose rows interleave without
// sharing an element do not overlap.
//
// # Products
//
// Mul, MulAT, MulBT, GramCols and GramRows call kernels.Gemm and
// kernels.Syrk: cache-blocked, packed (but for the tall and skinny
// shapes that kernels runs without packing: see its package doc) and run
// on up to GOMAXPROCS goroutines (see kernels.SetMaxWorkers). The result never depends on the
// number of goroutines: the same inputs give bit-identical outputs on any
// machine configuration that selects the same kernels implementation.
// The Gram
// matrices do about half the work of a general product and come out
// exactly symmetric.
//
// # Norms
//
// For an r x c matrix A: NormFrob is ||A||_F = sqrt(sum_ij a_ij²)
// (computed with scaling, so it neither overflows nor underflows when
// the result is representable), Norm1 the largest column sum of
// magnitudes max_j sum_i |a_ij|, NormInf the largest row sum
// max_i sum_j |a_ij|, and NormMax the largest magnitude max_ij |a_ij|;
// all are 0 for an empty matrix. ScalePow2 multiplies by 2^e exactly
// (unless elements overflow or underflow), the scaling the
// factorizations use to keep their intermediate sums in range.
//
// # Floating point
//
// NaN and Inf follow IEEE 754 through arithmetic and products (but a
// product with a zero inner dimension is exactly zero). The norms
// propagate NaN: a matrix holding a NaN has NaN for every norm; otherwise
// a matrix holding an Inf has an infinite norm.
//
// # Memory limits
//
// The library's memory rule lives here, in its lowest package, so that
// every package refuses the same way. Every reader and learner that
// takes data has a MaxMemory option (bytes) and checks, before it
// allocates, what the sizes it is given or reads (declared dimensions,
// n x n moments, k x k x k tensors, tables of counts) will cost. A job
// whose largest allocations would exceed the limit is refused with a
// *MemoryError (What, Need and Limit), which matches ErrTooLarge. Sizes
// are computed with saturating arithmetic, so dimensions whose products
// overflow an int are refused too, never wrapped. MaxMemory 0 means
// DefaultMaxMemory (4 GiB); a negative MaxMemory means no limit.
// CheckMemory applies the rule; FormatBytes writes sizes for messages.
package mat
