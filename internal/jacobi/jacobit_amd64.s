//go:build !purego

#include "textflag.h"

// One-sided Jacobi sweeps on rows stored by slots (see jacobit.go): a
// step is the same arithmetic on every lane, one pair per lane. w = 1:
// side A is one vector (slots A_0..A_7) and side B one; w = 2: two
// vectors a side. A sweep starts with one pass over the columns for the
// squared norms and the dot products of the first step; then each step
// computes the rotations of all its pairs in the lanes (PHASE2) and makes
// one pass over the columns that rotates, moves the slots round the ring
// with two-source lane permutes, stores, and sums the dot products of
// the next step from the permuted values (and, when some lane's norm
// update cancelled, the new squared norms).

DATA jtc<>+0(SB)/8, $0x4010000000000000  // 4
DATA jtc<>+8(SB)/8, $0x7fffffffffffffff  // |.| mask
DATA jtc<>+16(SB)/8, $0x8000000000000000 // sign bit
DATA jtc<>+24(SB)/8, $0x58f0000000000000 // SqMax = 2^400
DATA jtc<>+32(SB)/8, $0x26f0000000000000 // SqMin = 2^-400
DATA jtc<>+40(SB)/8, $0x3ff0000000000000 // 1
DATA jtc<>+48(SB)/8, $0x3f847ae147ae147b // 0.01
GLOBL jtc<>(SB), RODATA|NOPTR, $56

// PHASE2(g, a, b, C, S, K) computes the rotations of the lanes from the
// dot products g and squared norms a, b: C, S = (c, s) where the pair is
// rotated, (1, 0) elsewhere; a and b take the updated squared norms, and
// K the rotated lanes whose update cancelled (to recompute). It counts
// the rotated lanes in R12 and the left ones (a norm outside the range,
// neither zero) in R13, and keeps the largest cos² in Z20 and |s| in
// Z21. Z30 = tol², Z31 = 1. Clobbers Z0-Z7, Z22, Z23, Z28, Z29, K2, K5,
// K6, K7, AX, BX.
#define PHASE2(g, a, b, C, S, K) \
	VBROADCASTSD jtc<>+32(SB), Z0 \
	VBROADCASTSD jtc<>+24(SB), Z1 \
	VCMPPD       $0x1d, Z0, a, K6 \
	VCMPPD       $0x12, Z1, a, K6, K6 \
	VCMPPD       $0x1d, Z0, b, K6, K6 \
	VCMPPD       $0x12, Z1, b, K6, K6 \
	VPXORQ       Z2, Z2, Z2 \
	VCMPPD       $0x0c, Z2, a, K5 \
	VCMPPD       $0x0c, Z2, b, K5, K5 \
	KMOVW        K5, AX \
	POPCNTL      AX, AX \
	KMOVW        K6, BX \
	POPCNTL      BX, BX \
	SUBQ         BX, AX \
	ADDQ         AX, R13 \
	VMULPD       g, g, Z3 \
	VMULPD       b, a, Z4 \
	VMULPD       Z30, Z4, Z5 \
	VCMPPD       $0x1e, Z5, Z3, K6, K7 \
	VSUBPD       a, b, Z5 \
	VBROADCASTSD jtc<>+0(SB), Z6 \
	VMULPD       Z6, Z3, Z6 \
	VFMADD231PD  Z5, Z5, Z6 \
	VSQRTPD      Z6, Z6 \
	VBROADCASTSD jtc<>+8(SB), Z7 \
	VPANDQ       Z7, Z5, Z22 \
	VADDPD       Z6, Z22, Z22 \
	VMULPD       Z22, Z6, Z23 \
	VADDPD       Z23, Z23, Z23 \
	VSQRTPD      Z23, Z23 \
	VDIVPD       Z23, Z31, Z23 \
	VADDPD       g, g, Z28 \
	VMULPD       Z23, Z28, Z28 \
	VADDPD       Z3, Z3, Z29 \
	VDIVPD       Z22, Z29, Z29 \
	VMULPD       Z23, Z22, Z22 \
	VCMPPD       $0x1e, Z2, Z5, K2 \
	VBROADCASTSD jtc<>+16(SB), Z6 \
	VPXORQ       Z6, Z28, K2, Z28 \
	VPXORQ       Z6, Z29, K2, Z29 \
	VMOVAPD      Z31, C \
	VMOVAPD      Z22, K7, C \
	VMOVAPD.Z    Z28, K7, S \
	VADDPD       Z29, a, Z1 \
	VSUBPD       Z29, b, Z0 \
	VBROADCASTSD jtc<>+48(SB), Z6 \
	VMULPD       Z6, a, Z23 \
	VCMPPD       $0x11, Z23, Z1, K7, K5 \
	VMULPD       Z6, b, Z23 \
	VCMPPD       $0x11, Z23, Z0, K7, K \
	KORW         K5, K, K \
	VMOVAPD      Z1, K7, a \
	VMOVAPD      Z0, K7, b \
	VDIVPD       Z4, Z3, Z29 \
	VMAXPD       Z29, Z20, K7, Z20 \
	VPANDQ       Z7, Z28, Z29 \
	VMAXPD       Z29, Z21, K7, Z21 \
	KMOVW        K7, AX \
	POPCNTL      AX, AX \
	ADDQ         AX, R12

// JTFINISH stores the counters and the largest cos² and |s|.
#define JTFINISH \
	MOVQ          R12, rotated+88(FP) \
	MOVQ          R13, left+96(FP) \
	VMOVAPD       Z20, Z0 \
	VEXTRACTF64X4 $1, Z0, Y1 \
	VMAXPD        Y1, Y0, Y0 \
	VEXTRACTF128  $1, Y0, X1 \
	VMAXPD        X1, X0, X0 \
	VPERMILPD     $1, X0, X1 \
	VMAXSD        X1, X0, X0 \
	VMOVSD        X0, maxCos2+104(FP) \
	VMOVAPD       Z21, Z0 \
	VEXTRACTF64X4 $1, Z0, Y1 \
	VMAXPD        Y1, Y0, Y0 \
	VEXTRACTF128  $1, Y0, X1 \
	VMAXPD        X1, X0, X0 \
	VPERMILPD     $1, X0, X1 \
	VMAXSD        X1, X0, X0 \
	VMOVSD        X0, maxSin+112(FP) \
	VZEROUPPER

// ROT1 rotates A (Z0) and B (Z1) by C (Z12), S (Z13) into A' (Z2) and
// B' (Z3).
#define ROT1 \
	VMULPD      Z1, Z13, Z2 \
	VMULPD      Z0, Z13, Z3 \
	VFMADD231PD Z0, Z12, Z2 \
	VFMSUB231PD Z1, Z12, Z3

// PERM1 moves A' (Z2), B' (Z3) round the ring into Z4 (A) and Z2 (B).
#define PERM1 \
	VMOVDQA64 Z18, Z4 \
	VPERMI2PD Z3, Z2, Z4 \
	VPERMT2PD Z3, Z19, Z2

// func jacobiSweepT1AVX512(t []float64, m, n, ntot int, sq []float64, tol2 float64, perm *[4][8]uint64) (rotated, left int, maxCos2, maxSin float64)
TEXT ·jacobiSweepT1AVX512(SB), NOSPLIT, $0-120
	MOVQ         t_base+0(FP), SI
	MOVQ         m+24(FP), DX
	SHLQ         $1, DX
	DECQ         DX                     // steps: 2m-1
	MOVQ         n+32(FP), R8
	MOVQ         ntot+40(FP), R9
	MOVQ         sq_base+48(FP), R10
	VBROADCASTSD tol2+72(FP), Z30
	VBROADCASTSD jtc<>+40(SB), Z31
	MOVQ         perm+80(FP), R11
	VMOVDQU64    (R11), Z18             // ring permute of side A
	VMOVDQU64    64(R11), Z19           // and of side B
	VPXORQ       Z20, Z20, Z20
	VPXORQ       Z21, Z21, Z21
	XORQ         R12, R12
	XORQ         R13, R13

	// Pass 0: squared norms (Z16, Z17) and the first dot products (Z24).
	MOVQ   SI, DI
	MOVQ   R8, CX
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26
	VPXORQ Z27, Z27, Z27

p0:
	CMPQ        CX, $2
	JB          p0one
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	VMOVUPD     128(DI), Z2
	VMOVUPD     192(DI), Z3
	VFMADD231PD Z0, Z0, Z16
	VFMADD231PD Z1, Z1, Z17
	VFMADD231PD Z1, Z0, Z24
	VFMADD231PD Z2, Z2, Z26
	VFMADD231PD Z3, Z3, Z27
	VFMADD231PD Z3, Z2, Z25
	ADDQ        $256, DI
	SUBQ        $2, CX
	JMP         p0

p0one:
	TESTQ       CX, CX
	JZ          p0sum
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	VFMADD231PD Z0, Z0, Z16
	VFMADD231PD Z1, Z1, Z17
	VFMADD231PD Z1, Z0, Z24

p0sum:
	VADDPD Z26, Z16, Z16
	VADDPD Z27, Z17, Z17
	VADDPD Z25, Z24, Z24
	PHASE2(Z24, Z16, Z17, Z12, Z13, K3)

step:
	// Rotations of this step in Z12 (C), Z13 (S); K3: norms to recompute.
	VPXORQ Z24, Z24, Z24            // next dot products
	VPXORQ Z26, Z26, Z26            // recomputed norms, side A
	VPXORQ Z27, Z27, Z27            // side B
	MOVQ   SI, DI
	MOVQ   R8, CX
	TESTQ  CX, CX
	JZ     p2done
	KORTESTW K3, K3
	JZ     p2fast

p2norm:
	// Rotate, sum the new squared norms, permute, store, next dots.
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	ROT1
	VFMADD231PD Z2, Z2, Z26
	VFMADD231PD Z3, Z3, Z27
	PERM1
	VFMADD231PD Z2, Z4, Z24
	VMOVUPD     Z4, (DI)
	VMOVUPD     Z2, 64(DI)
	ADDQ        $128, DI
	DECQ        CX
	JNZ         p2norm
	JMP         p2done

p2fast:
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	ROT1
	PERM1
	VFMADD231PD Z2, Z4, Z24
	VMOVUPD     Z4, (DI)
	VMOVUPD     Z2, 64(DI)
	ADDQ        $128, DI
	DECQ        CX
	JNZ         p2fast

p2done:
	// Recomputed norms where the update cancelled, then the ring.
	VMOVAPD   Z26, K3, Z16
	VMOVAPD   Z27, K3, Z17
	VMOVAPD   Z16, Z0
	VMOVDQA64 Z18, Z16
	VPERMI2PD Z17, Z0, Z16
	VMOVDQA64 Z19, Z1
	VPERMI2PD Z17, Z0, Z1
	VMOVAPD   Z1, Z17
	DECQ      DX
	JZ        p2acc
	// The next step's rotations (into Z24, Z26; K3), ahead of the
	// columns beyond n, whose rotation does not need them: the two
	// overlap.
	PHASE2(Z24, Z16, Z17, Z24, Z26, K3)

p2acc:
	// Columns n to ntot-1: rotate, permute, store.
	MOVQ        R9, CX
	SUBQ        R8, CX
	JZ          p2next

p2more:
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	ROT1
	PERM1
	VMOVUPD     Z4, (DI)
	VMOVUPD     Z2, 64(DI)
	ADDQ        $128, DI
	DECQ        CX
	JNZ         p2more

p2next:
	TESTQ     DX, DX
	JZ        sweepdone
	VMOVAPD   Z24, Z12
	VMOVAPD   Z26, Z13
	JMP       step

sweepdone:
	VMOVUPD Z16, (R10)
	VMOVUPD Z17, 64(R10)
	JTFINISH
	RET

// ROT2 rotates Alo, Ahi, Blo, Bhi (Z0-Z3) by Clo, Chi, Slo, Shi
// (Z12-Z15) into A'lo, A'hi, B'lo, B'hi (Z4-Z7).
#define ROT2 \
	VMULPD      Z2, Z14, Z4 \
	VMULPD      Z3, Z15, Z5 \
	VMULPD      Z0, Z14, Z6 \
	VMULPD      Z1, Z15, Z7 \
	VFMADD231PD Z0, Z12, Z4 \
	VFMADD231PD Z1, Z13, Z5 \
	VFMSUB231PD Z2, Z12, Z6 \
	VFMSUB231PD Z3, Z13, Z7

// PERM2 moves A'lo, A'hi, B'lo, B'hi (Z4-Z7) round the ring into Z4
// (Alo), Z1 (Ahi), Z6 (Blo), Z7 (Bhi); each table is overwritten only
// after its last use.
#define PERM2 \
	VMOVDQA64 Z25, Z1 \
	VPERMI2PD Z5, Z4, Z1 \
	VPERMT2PD Z6, Z24, Z4 \
	VPERMT2PD Z7, Z26, Z6 \
	VPERMT2PD Z5, Z27, Z7

// STORE2 stores the permuted column (Z4, Z1, Z6, Z7) at DI.
#define STORE2 \
	VMOVUPD Z4, (DI) \
	VMOVUPD Z1, 64(DI) \
	VMOVUPD Z6, 128(DI) \
	VMOVUPD Z7, 192(DI)

// LOAD2 loads the column at DI into Z0-Z3.
#define LOAD2 \
	VMOVUPD (DI), Z0 \
	VMOVUPD 64(DI), Z1 \
	VMOVUPD 128(DI), Z2 \
	VMOVUPD 192(DI), Z3

// func jacobiSweepT2AVX512(t []float64, m, n, ntot int, sq []float64, tol2 float64, perm *[4][8]uint64) (rotated, left int, maxCos2, maxSin float64)
TEXT ·jacobiSweepT2AVX512(SB), NOSPLIT, $0-120
	MOVQ         t_base+0(FP), SI
	MOVQ         m+24(FP), DX
	SHLQ         $1, DX
	DECQ         DX                     // steps: 2m-1
	MOVQ         n+32(FP), R8
	MOVQ         ntot+40(FP), R9
	MOVQ         sq_base+48(FP), R10
	VBROADCASTSD tol2+72(FP), Z30
	VBROADCASTSD jtc<>+40(SB), Z31
	MOVQ         perm+80(FP), R11
	VMOVDQU64    (R11), Z24             // Alo' from (Alo, Blo)
	VMOVDQU64    64(R11), Z25           // Ahi' from (Alo, Ahi)
	VMOVDQU64    128(R11), Z26          // Blo' from (Blo, Bhi)
	VMOVDQU64    192(R11), Z27          // Bhi' from (Bhi, Ahi)
	VPXORQ       Z20, Z20, Z20
	VPXORQ       Z21, Z21, Z21
	XORQ         R12, R12
	XORQ         R13, R13

	// Pass 0: squared norms (Z16-Z19: Alo, Ahi, Blo, Bhi) and the first
	// dot products (Z8 lo, Z10 hi).
	MOVQ   SI, DI
	MOVQ   R8, CX
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z8, Z8, Z8
	VPXORQ Z10, Z10, Z10

p0:
	TESTQ       CX, CX
	JZ          first
	LOAD2
	VFMADD231PD Z0, Z0, Z16
	VFMADD231PD Z1, Z1, Z17
	VFMADD231PD Z2, Z2, Z18
	VFMADD231PD Z3, Z3, Z19
	VFMADD231PD Z2, Z0, Z8
	VFMADD231PD Z3, Z1, Z10
	ADDQ        $256, DI
	DECQ        CX
	JMP         p0

first:
	PHASE2(Z8, Z16, Z18, Z12, Z14, K3)
	PHASE2(Z10, Z17, Z19, Z13, Z15, K4)

step:
	// Rotations of this step in Z12-Z15 (Clo, Chi, Slo, Shi); K3, K4:
	// norms to recompute.
	VPXORQ Z8, Z8, Z8               // next dot products, lo
	VPXORQ Z10, Z10, Z10            // and hi
	VPXORQ Z9, Z9, Z9               // recomputed norms: Alo
	VPXORQ Z11, Z11, Z11            // Ahi
	VPXORQ Z22, Z22, Z22            // Blo
	VPXORQ Z23, Z23, Z23            // Bhi
	MOVQ   SI, DI
	MOVQ   R8, CX
	TESTQ  CX, CX
	JZ     p2done
	KORTESTW K3, K4
	JZ     p2fast

p2norm:
	LOAD2
	ROT2
	VFMADD231PD Z4, Z4, Z9
	VFMADD231PD Z5, Z5, Z11
	VFMADD231PD Z6, Z6, Z22
	VFMADD231PD Z7, Z7, Z23
	PERM2
	VFMADD231PD Z6, Z4, Z8
	VFMADD231PD Z7, Z1, Z10
	STORE2
	ADDQ        $256, DI
	DECQ        CX
	JNZ         p2norm
	JMP         p2done

p2fast:
	LOAD2
	ROT2
	PERM2
	VFMADD231PD Z6, Z4, Z8
	VFMADD231PD Z7, Z1, Z10
	STORE2
	ADDQ        $256, DI
	DECQ        CX
	JNZ         p2fast

p2done:
	// Recomputed norms where the update cancelled, then the ring.
	VMOVAPD   Z9, K3, Z16
	VMOVAPD   Z22, K3, Z18
	VMOVAPD   Z11, K4, Z17
	VMOVAPD   Z23, K4, Z19
	VMOVAPD   Z16, Z4
	VMOVAPD   Z17, Z5
	VMOVAPD   Z18, Z6
	VMOVAPD   Z19, Z7
	PERM2
	VMOVAPD   Z4, Z16
	VMOVAPD   Z1, Z17
	VMOVAPD   Z6, Z18
	VMOVAPD   Z7, Z19
	DECQ      DX
	JZ        p2acc
	// The next step's rotations (into Z8, Z10, Z9, Z11; K3, K4), ahead
	// of the columns beyond n, whose rotation does not need them.
	PHASE2(Z8, Z16, Z18, Z8, Z9, K3)
	PHASE2(Z10, Z17, Z19, Z10, Z11, K4)

p2acc:
	MOVQ        R9, CX
	SUBQ        R8, CX
	JZ          p2next

p2more:
	LOAD2
	ROT2
	PERM2
	STORE2
	ADDQ        $256, DI
	DECQ        CX
	JNZ         p2more

p2next:
	TESTQ     DX, DX
	JZ        sweepdone
	VMOVAPD   Z8, Z12
	VMOVAPD   Z10, Z13
	VMOVAPD   Z9, Z14
	VMOVAPD   Z11, Z15
	JMP       step

sweepdone:
	VMOVUPD Z16, (R10)
	VMOVUPD Z17, 64(R10)
	VMOVUPD Z18, 128(R10)
	VMOVUPD Z19, 192(R10)
	JTFINISH
	RET
