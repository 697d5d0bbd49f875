// Package sym3 holds the third-moment update of the tensor3 package:
// Rows adds alpha * sum_s w[s] * y_s (x) y_s (x) y_s to a symmetric
// d x d x d tensor stored packed (Len, Base), as register-blocked
// products on the stored entries only. It has a portable Go micro-kernel
// (the reference) and AVX2, AVX-512 and NEON ones, one per level of
// internal/simd; Rows runs the selected level.
package sym3
