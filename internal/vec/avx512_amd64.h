// Macros of the AVX-512 vector kernels (avx512_amd64.s). internal/jacobi
// holds a twin of this header for its batched kernels, which share these
// loop bodies.

// TAILMASK sets K1 to the low CX bits (CX < 8).
#define TAILMASK MOVQ $1, AX; SHLQ CX, AX; DECQ AX; KMOVW AX, K1

// HSUM adds the eight lanes of Z0 into X0 (clobbers Y1/X1).
#define HSUM VEXTRACTF64X4 $1, Z0, Y1; VADDPD Y1, Y0, Y0; VEXTRACTF128 $1, Y0, X1; VADDPD X1, X0, X0; VPERMILPD $1, X0, X1; VADDSD X1, X0, X0

// ZERO4 clears the accumulators Z0-Z3.
#define ZERO4 VPXORQ Z0, Z0, Z0; VPXORQ Z1, Z1, Z1; VPXORQ Z2, Z2, Z2; VPXORQ Z3, Z3, Z3

// ROT16 rotates 16 elements of the vectors at SI and DI by (c, s) in
// Z30, Z31 into registers: u' = c*u + s*v in Z4, Z5 and v' = c*v - s*u
// in Z6, Z7 (clobbers Z0-Z3). STORE16 stores them and advances SI and
// DI. ROT8 and STORE8 do the same for 8 elements (u' in Z4, v' in Z6),
// without advancing.
#define ROT16 VMOVUPD (SI), Z0; VMOVUPD 64(SI), Z1; VMOVUPD (DI), Z2; VMOVUPD 64(DI), Z3; VMULPD Z2, Z31, Z4; VMULPD Z3, Z31, Z5; VMULPD Z0, Z31, Z6; VMULPD Z1, Z31, Z7; VFMADD231PD Z0, Z30, Z4; VFMADD231PD Z1, Z30, Z5; VFMSUB231PD Z2, Z30, Z6; VFMSUB231PD Z3, Z30, Z7
#define STORE16 VMOVUPD Z4, (SI); VMOVUPD Z5, 64(SI); VMOVUPD Z6, (DI); VMOVUPD Z7, 64(DI); ADDQ $128, SI; ADDQ $128, DI
#define ROT8 VMOVUPD (SI), Z0; VMOVUPD (DI), Z2; VMULPD Z2, Z31, Z4; VMULPD Z0, Z31, Z6; VFMADD231PD Z0, Z30, Z4; VFMSUB231PD Z2, Z30, Z6
#define STORE8 VMOVUPD Z4, (SI); VMOVUPD Z6, (DI)

// DOT32 and DOT16 add the products of 32 (16) elements of the vectors at
// P and Q into Z0-Z3 (Z0, Z1) and advance P and Q; DOT8 adds 8 into Z2
// without advancing (they clobber Z4-Z7). DOTSUM leaves the sum of Z0-Z3
// in X0.
#define DOT32(P, Q) VMOVUPD (P), Z4; VMOVUPD 64(P), Z5; VMOVUPD 128(P), Z6; VMOVUPD 192(P), Z7; VFMADD231PD (Q), Z4, Z0; VFMADD231PD 64(Q), Z5, Z1; VFMADD231PD 128(Q), Z6, Z2; VFMADD231PD 192(Q), Z7, Z3; ADDQ $256, P; ADDQ $256, Q
#define DOT16(P, Q) VMOVUPD (P), Z4; VMOVUPD 64(P), Z5; VFMADD231PD (Q), Z4, Z0; VFMADD231PD 64(Q), Z5, Z1; ADDQ $128, P; ADDQ $128, Q
#define DOT8(P, Q) VMOVUPD (P), Z6; VFMADD231PD (Q), Z6, Z2
#define DOTSUM VADDPD Z1, Z0, Z0; VADDPD Z3, Z2, Z2; VADDPD Z2, Z0, Z0; HSUM
